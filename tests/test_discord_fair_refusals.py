"""One server's trouble stays in that server (issue 41): the refusal budget in per-server shares (a server whose
channel refuses everything never holds another server's writers), a clock that waits while the board cannot be
shown (backing off, held by the budget) and restarts with the full time once it is, a retry that always waits (an
accepted unarchive followed by 50083 again), and recovery within a minute with no gateway event, while events the
cache already explains cost no request."""
from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import discord

from bot.policies import choose_action
from cogs.outbox import TableOutbox

from .discord_harness import Harness
from .discord_helpers import START, board_message, lift_limits, start_harness
from .test_discord_akuma import ALICE_ID, PLAYER, open_table
from .test_discord_faults import EDIT, POST, outbox, until
from .test_discord_output import shows_move
from .test_discord_output import until as until_shown
from .test_discord_output_reach import move_host, open_in_thread

GUILD_B = 900_000_000_000_000_555
BOB_ID = 777
SCALE = 12.0  # the writer's waits are shortened this many times: 15 s -> 1.25 s, a minute -> 5 s (not more: a
MINUTE = 60.0 / SCALE  # request every 5 s stays inside discord.py's own per-channel limit of 5 in 5 s)


def scaled_waits(monkeypatch) -> None:
    """The unreachable writer's waits and probes shortened ``SCALE`` times."""
    monkeypatch.setattr(TableOutbox, "unreachable_first", TableOutbox.unreachable_first / SCALE)
    monkeypatch.setattr(TableOutbox, "unreachable_max", TableOutbox.unreachable_max / SCALE)
    monkeypatch.setattr(TableOutbox, "probe_every", 60.0 / SCALE, raising=False)
    monkeypatch.setattr(TableOutbox, "server_probe_every", 15.0 / SCALE, raising=False)


def refuse(h: Harness, channel_id: int, *, status: int, code: int | None = None) -> list:
    """Discord answers every message the bot posts or edits in the channel with this error, until removed."""
    return [h.server.faults.fail("POST", POST.replace(r"\d+", str(channel_id), 1), status=status, code=code,
                                 times=None),
            h.server.faults.fail("PATCH", EDIT.replace(r"\d+", str(channel_id), 1), status=status, code=code,
                                 times=None)]


def lift(h: Harness, faults: list) -> None:
    for fault in faults:
        h.server.faults.faults.remove(fault)


def refused_in(h: Harness, channel_id: int, start: float, end: float = float("inf")) -> int:
    return sum(1 for c in h.calls if c.status >= 400 and c.path.startswith(f"/channels/{channel_id}/messages")
               and start <= c.at < end)


def edit_channel(h: Harness, channel_id: int) -> None:
    """An admin edits the channel (its topic): Discord sends CHANNEL_UPDATE."""
    channel = h.server.channels[channel_id]
    channel["topic"] = f"edited {time.monotonic()}"
    h.dispatch("CHANNEL_UPDATE", channel)


async def person_moves(h: Harness, table, player: str) -> None:
    """The person moves once their turn comes (unless the game ends first)."""
    await until(h, lambda: player in table.to_act() or table.status != "running")
    if table.status == "running":
        action = choose_action(table.engine, table.state, player, random.Random(table.version))
        await h.bot.service.act_as(table.id, player, action, table.version)


async def test_a_server_refusing_everything_never_holds_another_servers_writers(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")  # server A: tables in the channel
    try:
        refusals = h.bot.get_cog("TableCog").refusals
        refusals.limit, refusals.window, refusals.server_limit = 12, 600.0, 4  # a window longer than the test
        elsewhere = h.add_guild(GUILD_B)["elsewhere"]
        await h.bot.storage.set_guild_tables(GUILD_B, "channel")
        bob = h.user(BOB_ID, "bob")
        r = await h.slash(bob, "play akuma", channel=elsewhere, bots=3, start="host")
        await h.click(bob, r.message, label=START)
        b_table = next(t for t in h.bot.service._tables.values() if t.row.guild_id == GUILD_B)
        await lift_limits(h)
        hosts = [h.user(ALICE_ID + i, f"host{i}") for i in range(6)]
        a_tables = []
        for host in hosts:
            await h.slash(host, "play akuma", bots=3, start="host")
            await h.click(host, h.channel_messages()[-1], label=START)
            a_tables.append(next(t for t in h.bot.service._tables.values() if t.row.host_id == host.id))
        refuse(h, h.channel_id, status=403, code=50013)  # A's channel lost Send Messages (no event told the bot)
        for i, table in enumerate(a_tables):
            await move_host(h, table, i)
        await h.settle()
        b_box = outbox(h, b_table)
        for _ in range(10):  # an admin edits A's channel ten times: every edit wakes A's writers
            edit_channel(h, h.channel_id)
            await h.settle()
            await person_moves(h, b_table, f"u{BOB_ID}")  # B plays on meanwhile: its board keeps up at once
            await until(h, lambda: shows_move(board_message(h, b_table)) == b_table.moves)
            assert refused_in(h, h.channel_id, 0.0) > 0
            assert refusals.wait(GUILD_B) == 0.0 and not b_box.clock_held
        a_refused = refused_in(h, h.channel_id, 0.0)
        print(f"A refused {a_refused} times; process budget {refusals.in_window()} of {refusals.limit}")
        assert refusals.totals[h.guild_id] == a_refused <= refusals.server_limit + len(a_tables)
        assert refusals.totals[GUILD_B] == 0 and refused_in(h, elsewhere, 0.0) == 0
        for table in a_tables:  # A's tables wait, clocks paused
            assert table.clock_paused and table.row.deadline is None
    finally:
        await h.close()


async def test_a_clock_waits_while_the_board_cannot_be_shown_and_restarts_with_the_full_time(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    await h.bot.service.set_turn_seconds(table.id, ALICE_ID, 5, is_admin=True)
    box = outbox(h, table)
    faults = refuse(h, h.channel_id, status=503)  # Discord fails every write (a long outage)
    await person_moves(h, table, PLAYER)
    await until(h, lambda: PLAYER in table.to_act())  # her next turn: its board (with her ping) cannot be posted
    version = table.version
    await asyncio.sleep(7.0)  # longer than her 5 s (the clock is held once a retry waits 2 s: after 1.5 s)
    assert table.version == version and PLAYER in table.to_act(), "timed out on a board she was never shown"
    assert table.clock_paused and table.row.deadline is None and box.clock_held
    lift(h, faults)
    await until(h, lambda: shows_move(board_message(h, table)) == table.moves and not table.clock_paused)
    shown = time.time()
    assert f"<@{ALICE_ID}>" in board_message(h, table).text  # the board with her ping
    assert table.row.deadline is not None and table.row.deadline - shown > 4.0  # her full 5 s, from now


async def test_a_writer_held_by_the_budget_holds_the_clock_until_the_board_is_shown(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    box = outbox(h, table)
    refusals = h.bot.get_cog("TableCog").refusals
    refusals.window, refusals.server_limit = 600.0, 3  # held until the test lets the refusals leave the window
    await person_moves(h, table, PLAYER)
    for _ in range(3):  # meanwhile other tables of her server spent its share
        refusals.refused(h.guild_id, table_id=None)
    await until(h, lambda: PLAYER in table.to_act() and box.budget_held)  # her next turn: its board waits
    assert box.budget_held and table.clock_paused and table.row.deadline is None
    assert shows_move(board_message(h, table)) < table.moves
    refusals.window = 0.0  # the refusals leave the window; the writer looks again at its next wake
    box.wake()
    await until(h, lambda: shows_move(board_message(h, table)) == table.moves and not table.clock_paused)
    assert f"<@{ALICE_ID}>" in board_message(h, table).text
    assert table.row.deadline is not None and table.row.deadline - time.time() > table.row.turn_seconds - 1.0


async def test_an_accepted_unarchive_followed_by_50083_again_backs_off(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        alice = h.user(ALICE_ID, "alice")
        table = await open_in_thread(h, alice)
        thread_id = table.row.channel_id
        faults = refuse(h, thread_id, status=400, code=50083)  # Discord accepts every unarchive, then says 50083
        start = time.monotonic()
        await move_host(h, table, 1)
        await asyncio.sleep(4.0)
        refused = refused_in(h, thread_id, start)
        unarchives = sum(1 for c in h.calls if c.method == "PATCH" and c.path == f"/channels/{thread_id}"
                         and c.at >= start)
        print(f"50083 answers in 4 s: {refused}; unarchives: {unarchives}")
        assert 2 <= refused <= 5 and unarchives == refused  # 0.5 s, 1 s, 2 s ... apart, not at once
        assert table.clock_paused  # the board could not be shown for more than a moment
        lift(h, faults)
        await until(h, lambda: shows_move(board_message(h, table)) == table.moves)
        await until(h, lambda: not outbox(h, table).pending() and not table.clock_paused)
    finally:
        await h.close()


async def test_access_back_without_any_event_is_used_within_a_minute(h: Harness, monkeypatch) -> None:
    scaled_waits(monkeypatch)
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    box = outbox(h, table)
    faults = refuse(h, h.channel_id, status=403, code=50013)  # no event: the cache thinks the bot may write
    start = time.monotonic()
    await move_host(h, table, 1)
    await until_shown(lambda: box.reach.cause is not None)  # (its short waits never settle)
    await asyncio.sleep(4 * MINUTE)  # the old backoff had grown to 4 minutes by now
    per_minute = [refused_in(h, h.channel_id, start + k * MINUTE, start + (k + 1) * MINUTE) for k in range(4)]
    print(f"refused requests in scaled minutes 1-4: {per_minute}")
    assert max(per_minute) <= 3 and max(per_minute[2:]) <= 2, per_minute
    lift(h, faults)  # access is back; Discord tells the bot nothing
    back = time.monotonic()
    await until_shown(lambda: box.reach.cause is None and not box.pending(), timeout=4 * MINUTE)
    recovered = time.monotonic() - back
    print(f"board written {recovered * SCALE:.0f} scaled s after access came back without an event")
    assert recovered <= MINUTE + 0.3
    assert shows_move(board_message(h, table)) == table.moves and not table.clock_paused


async def test_access_given_back_without_an_event_the_cache_missed_is_used_within_a_minute(h: Harness,
                                                                                          monkeypatch) -> None:
    """Send Messages denied in the channel (CHANNEL_UPDATE: the cache knows), then given back with no event (missed in
    a reconnect): the cache still says no, yet the table asks Discord once a minute and writes within a minute; the
    refused requests stay at about one a minute."""
    scaled_waits(monkeypatch)
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    box = outbox(h, table)
    deny_bot_in_channel(h, h.channel_id, discord.Permissions(send_messages=True))
    faults = refuse(h, h.channel_id, status=403, code=50013)
    start = time.monotonic()
    await move_host(h, table, 1)
    await until_shown(lambda: box.reach.cause is not None)
    await asyncio.sleep(3 * MINUTE)
    per_minute = [refused_in(h, h.channel_id, start + k * MINUTE, start + (k + 1) * MINUTE) for k in range(3)]
    assert max(per_minute) <= 2, per_minute
    lift(h, faults)
    h.server.channels[h.channel_id]["permission_overwrites"] = []  # given back; Discord tells the bot nothing
    back = time.monotonic()
    await until_shown(lambda: box.reach.cause is None and not box.pending(), timeout=4 * MINUTE)
    assert time.monotonic() - back <= MINUTE + 0.3
    assert shows_move(board_message(h, table)) == table.moves and not table.clock_paused


def deny_bot_in_channel(h: Harness, channel_id: int, denied: discord.Permissions) -> None:
    """An admin denies the bot these permissions in the channel (a member overwrite): CHANNEL_UPDATE."""
    channel = h.server.channels[channel_id]
    channel["permission_overwrites"] = [{"id": h.bot_user["id"], "type": 1, "allow": "0",
                                         "deny": str(denied.value)}] if denied.value else []
    h.dispatch("CHANNEL_UPDATE", channel)


async def test_events_the_cache_says_change_nothing_send_no_request(h: Harness) -> None:
    """Send Messages denied to the bot in the channel (CHANNEL_UPDATE): the writer is refused once; ten more edits
    of the channel wake it ten times, and the cache says it still may not write, so nothing is sent."""
    alice = h.user(ALICE_ID, "alice")
    table = await open_table(h, alice)
    box = outbox(h, table)
    deny_bot_in_channel(h, h.channel_id, discord.Permissions(send_messages=True))
    faults = refuse(h, h.channel_id, status=403, code=50013)
    start = time.monotonic()
    await move_host(h, table, 1)
    await until(h, lambda: box.reach.cause is not None)
    for _ in range(10):
        edit_channel(h, h.channel_id)
        await h.settle()
    assert refused_in(h, h.channel_id, start) == 1
    lift(h, faults)
    deny_bot_in_channel(h, h.channel_id, discord.Permissions.none())  # allowed again: written at once
    await until(h, lambda: box.reach.cause is None and not box.pending())
    assert shows_move(board_message(h, table)) == table.moves
