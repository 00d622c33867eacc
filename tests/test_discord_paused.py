"""A table where every person is away, through Discord: it pauses (the board says so, who may resume it and how;
no "everyone has left", no result, no clock), its controls are only those that can act (My hand, Resume, End
table; hand views redrawn without moves; an old move button answered with a clear message), Resume gives the seat
back with a fresh clock, End table is for the host or Manage Server, and an abandoned table is closed with a
message saying its game is kept. Time is a manual clock: turn timers run out only when the test moves it."""
from __future__ import annotations

import time
from pathlib import Path

import discord

from bot.i18n import t
from bot.table import Table

from .discord_harness import Harness
from .discord_helpers import (
    END_TABLE,
    JOIN,
    RESUME,
    START,
    Key,
    board_message,
    my_hand,
    only_table,
    says,
    start_harness,
)
from .test_discord_akuma import ALICE_ID
from .test_paused_tables import DAY, ManualClock

BOB_ID = 102


def manual_time(h: Harness) -> ManualClock:
    """The bot's turn timers and deadlines on a clock the test moves (set before a table starts)."""
    clock = ManualClock(time.time())
    h.bot.service.clock = clock.now  # type: ignore[attr-defined]
    h.bot.timers.clock, h.bot.timers.sleep = clock.now, clock.sleep  # type: ignore[attr-defined]
    h.ignore_task("TurnTimers._run")  # waiting on the manual clock, like a parked sleep
    h.ignore_task("TurnTimers._close_later")
    h.ignore_task("TurnTimers._close_lobby_later")
    return clock


async def advance(h: Harness, clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    await h.settle()


async def paused_table(h: Harness, clock: ManualClock, join: str = "Join", start: str = "Start") -> Table:
    """Alice (host) and Bob with one bot; their decisions run out until both are away and the table pauses."""
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    r = await h.slash(alice, "play akuma", bots=1, start="host")
    await h.click(bob, r.message, label=join)
    await h.click(alice, r.message, label=start)
    table = only_table(h)
    for _ in range(40):
        if table.paused:
            return table
        await advance(h, clock, table.row.turn_seconds + 1)
    raise AssertionError("the table never paused")


def labels(message) -> list[str]:
    return [c.get("label") for c in message.components if c.get("type") == 2]


def labelled(message, *keys: str) -> bool:
    """Whether the message's buttons are exactly those named by ``keys`` (catalog keys, either language), in order."""
    shown = labels(message)
    return len(shown) == len(keys) and all(Key(key).matches(label) for key, label in zip(keys, shown, strict=True))


PAUSED_CONTROLS = ("board.my_hand", "table.resume", "table.end_button")


def channel_text(h: Harness) -> str:
    return "\n".join(m.text for m in h.channel_messages())


async def test_everyone_away_pauses_the_table_and_a_seated_person_resumes_it(h: Harness) -> None:
    clock = manual_time(h)
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    r = await h.slash(alice, "play akuma", bots=1, start="host")
    await h.click(bob, r.message, label=JOIN)
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    hand = await my_hand(h, alice, table)  # a live hand view, opened before the table pauses
    seat = table.seat_of("u101").seat  # a move button of her hand as drawn now (the first legal action)
    old_move = {"type": 2, "style": 1, "label": "old move", "custom_id": f"gh:do:{table.id}:{table.version}:{seat}.0"}
    for _ in range(40):
        if table.paused:
            break
        await advance(h, clock, table.row.turn_seconds + 1)
    assert table.paused and table.status == "running" and table.result() is None
    text = channel_text(h)
    assert not says(text, "table.abandoned") and says(text, "table.paused")
    board = board_message(h, table)
    assert says(board.text, "table.paused_board", players="**alice**, **bob**")  # and who may resume it
    assert labelled(board, *PAUSED_CONTROLS)  # nothing that cannot act
    assert all(not labels(m) for m in h.channel_messages() if m.id != board.id)  # older boards: no controls
    # Alice's open hand view was redrawn: her hand, the pause, and only the way back.
    hand = h.message(hand.id)
    assert says(hand.text, "hand.paused") and labelled(hand, "table.resume", "hand.refresh")
    # A move button drawn before the pause is answered with what to do, and changes nothing.
    payload = dict(hand.payload)
    payload["id"] = str(max(h.server.messages) + 1000)
    payload["components"] = [{"type": 1, "components": [old_move]}]
    payload["flags"] = 0
    stale = h.adopt(payload)
    version = table.version
    r = await h.click(alice, stale, old_move["custom_id"])
    assert r.ephemeral and says(r.text, "error.table_paused") and table.version == version
    # The clocks stand still: a day later nobody has moved.
    actions = len(await h.bot.storage.actions(table.id))  # type: ignore[attr-defined]
    await advance(h, clock, DAY)
    assert table.version == version and len(await h.bot.storage.actions(table.id)) == actions  # type: ignore[attr-defined]
    r = await h.slash(bob, "game status")  # the same, only to him
    assert r.ephemeral and says(r.text, "table.paused") and labelled(r.message, *PAUSED_CONTROLS)
    # Bob may not end it; he resumes it: his seat and a fresh clock.
    r = await h.click(bob, board, label=END_TABLE)
    assert r.ephemeral and says(r.text, "error.host_or_admin_only") and table.paused
    r = await h.click(bob, board, label=RESUME)
    assert r.ephemeral and says(r.text, "hand.header")
    assert not table.paused and not table.seat_of("u102").is_bot and table.seat_of("u101").is_bot
    assert says(channel_text(h), "table.resumed", player="bob")
    await h.settle()
    assert not says(board_message(h, table).text, "table.paused_board")
    if BOB_ID in table.user_ids_to_act():
        assert table.row.deadline == clock.now() + table.row.turn_seconds


async def test_the_host_ends_a_paused_table_and_it_has_no_result(h: Harness) -> None:
    clock = manual_time(h)
    alice = h.user(ALICE_ID, "alice")
    table = await paused_table(h, clock)
    r = await h.click(alice, board_message(h, table), label=END_TABLE)
    assert r.ephemeral and says(r.text, "table.ended", id=table.id)
    await h.settle()
    assert table.status == "cancelled" and table.result() is None
    text = channel_text(h)
    assert says(text, "table.paused_ended") and not says(text, "table.abandoned")
    assert all(not labels(m) for m in h.channel_messages())  # no control of this table is left
    stored = await h.bot.storage.get_game(table.id)  # type: ignore[attr-defined]
    assert stored.status == "cancelled" and stored.state


async def test_a_paused_table_nobody_resumes_is_closed_with_its_game_kept(h: Harness) -> None:
    clock = manual_time(h)
    h.bot.timers.close_paused_after = 3 * DAY  # type: ignore[attr-defined]
    table = await paused_table(h, clock)
    await advance(h, clock, 2 * DAY)
    assert table.paused
    since = f"<t:{int(table.row.paused_at or 0)}:f>"
    await advance(h, clock, DAY + 1)
    assert table.status == "cancelled" and table.result() is None
    closed = [m.text for m in h.channel_messages() if says(m.text, "table.paused_closed")]
    assert closed and says(closed[0], "table.paused_closed", id=table.id, since=since)
    assert all(not labels(m) for m in h.channel_messages())
    stored = await h.bot.storage.get_game(table.id)  # type: ignore[attr-defined]
    assert stored.status == "cancelled" and stored.state


async def test_japanese_paused_board(h: Harness) -> None:
    mod = h.user(104, "mod", permissions=discord.Permissions(manage_guild=True))
    await h.slash(mod, "config language", language="ja")
    clock = manual_time(h)
    table = await paused_table(h, clock, join="参加", start="開始")
    board = board_message(h, table)
    assert t("table.paused_board", "ja", players="**alice**、**bob**") in board.text  # in Japanese, listed with 、
    assert labels(board) == [t(key, "ja") for key in PAUSED_CONTROLS]
    r = await h.click(mod, board, label=END_TABLE)  # Manage Server may end it
    assert r.ephemeral and table.status == "cancelled"
    await h.settle()
    assert t("table.paused_ended", "ja", id=table.id) in channel_text(h)


async def test_a_paused_table_stays_paused_after_a_restart_and_its_board_still_resumes_it(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    h1 = await start_harness(db)
    try:
        table = await paused_table(h1, manual_time(h1))
        board_payload = board_message(h1, table).payload
        version = table.version
    finally:
        await h1.close()

    h2 = await start_harness(db)
    try:
        table = await h2.bot.service.table(table.id)  # type: ignore[attr-defined]
        await h2.settle()
        assert table.paused and table.version == version and table.row.deadline is None
        assert table.id not in h2.bot.scheduler._tasks  # type: ignore[attr-defined]  # no bot woken
        waiting = h2.bot.timers._tasks[table.id]  # type: ignore[attr-defined]  # only its wait to be closed
        assert waiting.get_coro().__qualname__ == "TurnTimers._close_later"
        board = h2.adopt(board_payload)
        alice = h2.user(ALICE_ID, "alice")
        r = await h2.click(alice, board, label=RESUME)  # the old board's button, handled by the new process
        assert r.ephemeral and says(r.text, "hand.header")
        assert not table.paused and not table.seat_of("u101").is_bot
    finally:
        await h2.close()
