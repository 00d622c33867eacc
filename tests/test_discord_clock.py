"""A visible clock (issue 34 item 4), through Discord: the turn ping, the board and the hand view show the deadline
the service stored for the decision as a Discord timestamp (``<t:…:R>``, which each reader's client counts down in
their own language), the board edited in place shows the new deadline after every move and a replaced board keeps
no deadline; the lobby shows the timer; with no timer, at a paused table, no clock is shown at all."""
from __future__ import annotations

import math
import random
import re
from pathlib import Path

from bot.i18n import t
from bot.table import Table

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import JOIN, START, board_message, my_hand, only_table, says, start_harness
from .test_discord_akuma import ALICE_ID
from .test_discord_paused import BOB_ID, advance, manual_time, paused_table

CLOCK = re.compile(r"<t:(\d+):R>")


def mark(table: Table) -> str:
    assert table.row.deadline is not None
    return f"<t:{math.ceil(table.row.deadline)}:R>"


def lobby_footer(message) -> str:
    return message.payload["embeds"][0]["footer"]["text"]


def pings(h: Harness, user_id: int) -> list[str]:
    """The content of every board posted with an @mention of ``user_id``."""
    return [c.json.get("content") or "" for c in h.calls
            if c.route == "POST /channels/{channel_id}/messages" and isinstance(c.json, dict)
            and str(user_id) in [str(u) for u in (c.json.get("allowed_mentions") or {}).get("users", [])]]


async def start_table(h: Harness, **options) -> Table:
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    r = await h.slash(alice, "play akuma", bots=1, **options)
    lobby = r.message
    await h.click(bob, lobby, label=JOIN)
    footer = lobby_footer(h.message(lobby.id))
    await h.click(alice, lobby, label=START)
    await h.settle()
    table = only_table(h)
    table.lobby_footer = footer  # type: ignore[attr-defined]  # what the lobby said before Start
    return table


async def test_the_ping_the_board_and_the_hand_view_show_the_stored_deadline(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        clock = manual_time(h)
        table = await start_table(h)
        assert says(table.lobby_footer, "lobby.timer", seconds=120)  # type: ignore[attr-defined]
        users = {ALICE_ID: h.user(ALICE_ID, "alice"), BOB_ID: h.user(BOB_ID, "bob")}
        rng, seen = random.Random(3), set()
        for _ in range(4):  # four person decisions, each with its own deadline
            due = table.user_ids_to_act()[0]
            shown = mark(table)
            assert shown not in seen and table.row.deadline == clock.now() + table.row.turn_seconds
            seen.add(shown)
            board = board_message(h, table).text
            assert CLOCK.findall(board) == [shown[3:-3]], board  # the stored deadline, and no other
            assert any(shown in ping for ping in pings(h, due))  # the turn ping carried it
            hand = await my_hand(h, users[due], table)
            assert shown in hand.text
            for other in users:  # the other person's hand view shows no deadline of theirs
                if other not in table.user_ids_to_act():
                    assert "<t:" not in (await my_hand(h, users[other], table)).text
            await advance(h, clock, 7)
            await ui_driver.act(h, users[due], table, rng)
            await h.settle()
            while table.status == "running" and not table.user_ids_to_act():
                await advance(h, clock, 1)
            assert table.status == "running"
        replaced = [m for m in h.channel_messages() if m.id != table.row.board_message_id and not m.ephemeral]
        assert replaced and not any("<t:" in m.text for m in replaced)  # a replaced board keeps no deadline
    finally:
        await h.close()


async def test_no_clock_without_a_timer(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        table = await start_table(h, timer=0)
        assert says(table.lobby_footer, "lobby.no_timer")  # type: ignore[attr-defined]
        assert table.row.deadline is None and table.user_ids_to_act()
        due = table.user_ids_to_act()[0]
        assert "<t:" not in board_message(h, table).text and not any("<t:" in p for p in pings(h, due))
        hand = await my_hand(h, h.user(due, "someone"), table)
        assert "<t:" not in hand.text
    finally:
        await h.close()


async def test_a_paused_table_shows_no_clock(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        clock = manual_time(h)
        table = await paused_table(h, clock)
        assert table.row.deadline is None
        assert "<t:" not in board_message(h, table).text
        assert "<t:" not in (await my_hand(h, h.user(ALICE_ID, "alice"), table)).text
    finally:
        await h.close()


async def test_the_lobby_shows_a_timer_changed_before_start(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        r = await h.slash(h.user(ALICE_ID, "alice"), "play akuma", bots=1)
        assert says(lobby_footer(h.message(r.message.id)), "lobby.timer", seconds=120)
        await h.slash(h.user(ALICE_ID, "alice"), "game timer", seconds=30)
        await h.settle()
        assert says(lobby_footer(h.message(r.message.id)), "lobby.timer", seconds=30)
    finally:
        await h.close()


async def test_the_lobby_shows_the_timer_in_japanese(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        await h.bot.storage.set_guild_language(h.guild_id, "ja")
        r = await h.slash(h.user(ALICE_ID, "alice"), "play akuma", bots=1, timer=45)
        assert t("lobby.timer", "ja", seconds=45) in lobby_footer(h.message(r.message.id))  # in Japanese
    finally:
        await h.close()
