"""Host-level table controls through Discord: kick and timer (host or Manage Server only), other bots
ignored, simultaneous clicks applied once, one slow table not delaying another's answer."""
from __future__ import annotations

import time

import discord
import pytest

from .discord_harness import Harness
from .discord_helpers import JOIN, MY_HAND, START, action_button, board_message, says
from .test_discord_akuma import ALICE_ID, PLAYER, open_table


def tables(h: Harness):
    return list(h.bot.service._tables.values())  # type: ignore[attr-defined]


async def test_kick_and_timer_need_the_host_or_manage_server(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE_ID, "alice"), h.user(102, "bob"), h.user(103, "carol")
    mod = h.user(104, "mod", permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(alice, "play akuma", bots=1, start="host")
    lobby = r.message
    await h.click(bob, lobby, label=JOIN)
    await h.click(carol, lobby, label=JOIN)
    table = tables(h)[0]
    r = await h.slash(bob, "game kick", player=carol)
    assert r.ephemeral and "host" in r.text.lower() and table.seat_of_user(103) is not None
    r = await h.slash(alice, "game kick", player=carol)
    assert r.ephemeral and "removed" in r.text and table.seat_of_user(103) is None
    assert "carol" not in lobby.text
    r = await h.slash(bob, "game timer", seconds=30)
    assert r.ephemeral and "host" in r.text.lower() and table.row.turn_seconds == 120
    r = await h.slash(mod, "game timer", seconds=45, table=table.id)
    assert r.ephemeral and table.row.turn_seconds == 45
    await h.click(alice, lobby, label=START)
    assert table.status == "running" and table.row.deadline is not None
    # At a running table a kicked player's seat goes to a bot for good: no coming back.
    r = await h.slash(mod, "game kick", player=bob, table=table.id)
    assert r.ephemeral and table.seat_of("u102").is_bot and table.seat_of("u102").user_id is None
    r = await h.slash(bob, "game status")
    assert r.ephemeral  # Bob can still look at the table
    assert (await h.bot.storage.get_game(table.id)).turn_seconds == 45


async def test_other_bots_are_ignored(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    robot = h.user(555, "robot", bot=True)
    table = await open_table(h, alice)
    version = table.version
    r = await h.slash(robot, "game status", expect_response=False)
    assert not r.responded
    r = await h.click(robot, board_message(h, table), label=MY_HAND, expect_response=False)
    assert not r.responded and table.version == version


async def test_simultaneous_clicks_on_one_button_apply_once(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    hand = (await h.click(alice, board_message(h, table), label=MY_HAND)).message
    card = (table.view(PLAYER).hand or [])[0]
    await h.select(alice, hand, rf"gh:pick:{table.id}:\d+:0:.*", [card])
    play = action_button(hand, table, PLAYER, {"type": "play", "cards": [card]})
    version = table.version
    actions_before = len(await h.bot.storage.actions(table.id))
    replies = await h.burst(alice, hand, play, 4)
    assert all(r.responded for r in replies)
    moved_on = [r for r in replies if says(r.text, "error.stale")]
    assert len(moved_on) == 3 and all(r.ephemeral for r in moved_on)
    assert len(await h.bot.storage.actions(table.id)) >= actions_before + 1
    first_move = (await h.bot.storage.actions(table.id))[actions_before]
    assert first_move == (PLAYER, {"type": "play", "cards": [card]})
    assert table.version > version


async def test_a_slow_board_picture_does_not_delay_another_tables_answer(h: Harness, monkeypatch) -> None:
    """Table A's board is drawn slowly (in its worker thread); table B's clicks are answered meanwhile."""
    from dataclasses import replace

    from bot import games

    def slow_image(view, names, locale) -> bytes:
        time.sleep(2.5)
        return b"\x89PNG\r\n\x1a\n"

    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, "bob")
    r = await h.slash(alice, "play akuma", bots=2, start="host", channel="general")
    await h.click(alice, r.message, label=START)
    table_a = tables(h)[0]
    r = await h.slash(bob, "play akuma", bots=2, start="host", channel="games")
    monkeypatch.setitem(games.LOADED, ("render", "akuma"), replace(games.render_hooks("akuma"), image=slow_image))
    start_b = r.message.button(label=START)["custom_id"]
    started = time.monotonic()
    await h.burst(bob, r.message, start_b, 1, wait=False)  # table B starts; its board takes 2.5 s to draw
    reply = await h.click(alice, board_message(h, table_a), label=MY_HAND)  # meanwhile, at table A
    answered_at = min(c.at for c in reply.calls if "/callback" in c.path)
    table_b = next(t for t in tables(h) if t is not table_a)
    assert reply.ephemeral and answered_at - started < 1.0, answered_at - started
    assert table_b.status == "running" and time.monotonic() - started >= 2.5  # B's picture really was slow


async def test_config_language_sets_the_public_language_of_new_tables(h: Harness) -> None:
    mod = h.user(104, "mod", permissions=discord.Permissions(manage_guild=True))
    alice = h.user(ALICE_ID, "alice")  # an English client
    r = await h.slash(mod, "config language", language="ja")
    assert r.ephemeral and "日本語" in r.text
    r = await h.slash(alice, "play akuma", bots=2)
    assert not r.ephemeral and "アクマトリック" in r.text and "参加" in r.text  # public: the server's language
    r = await h.slash(alice, "game status")
    assert r.ephemeral and "Akuma Trick" in r.text  # her own view: her language
    await h.slash(alice, "game end")
    r = await h.slash(mod, "config language", language="auto")
    r = await h.slash(alice, "play akuma")
    assert "Akuma Trick" in r.text and "Join" in r.text  # the server's own locale (en-US) again


async def test_config_needs_manage_server(h: Harness) -> None:
    from .discord_harness import HarnessError

    alice = h.user(ALICE_ID, "alice")
    with pytest.raises(HarnessError):  # Discord itself hides the command from people without Manage Server
        await h.slash(alice, "config language", language="ja")
