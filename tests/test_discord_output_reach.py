"""Tables whose place in Discord changes under them (issue 31): locked threads are tried rarely and recovered within
seconds of being unlocked, a deleted thread moves its table back to the lobby's channel, a deleted channel ends
its table, and an ended table's thread is archived after its grace period."""
from __future__ import annotations

import asyncio
import math
import random
import time
from pathlib import Path

import discord

from bot.policies import choose_action
from bot.refusals import RefusalBudget
from cogs.outbox import TableOutbox

from .discord_harness import Harness
from .discord_helpers import START, board_message, lift_limits, says, start_harness
from .test_discord_akuma import ALICE_ID
from .test_discord_output import shows_move, until

SCALE = 75.0  # the writer's waits are shortened this many times: 15 s -> 0.2 s, 600 s -> 8 s
MINUTE = 60.0 / SCALE


async def open_in_thread(h: Harness, alice):
    r = await h.slash(alice, "play akuma", bots=3, start="host")
    await h.click(alice, r.message, label=START)
    await h.settle()
    table = next(t for t in h.bot.service._tables.values()
                 if t.status == "running" and t.row.channel_id == r.message.id)
    assert table.row.lobby_channel_id == h.channel_id  # it plays in the thread started from its lobby
    return table


def set_thread(h: Harness, thread_id: int, **metadata: bool) -> None:
    """A moderator changes the thread; Discord sends THREAD_UPDATE."""
    channel = h.server.channels[thread_id]
    channel["thread_metadata"].update(metadata)
    h.dispatch("THREAD_UPDATE", channel)


async def move_host(h: Harness, table, seed: int) -> None:
    player = f"u{table.row.host_id}"
    action = choose_action(table.engine, table.state, player, random.Random(seed))
    await h.bot.service.act_as(table.id, player, action, table.version)


def refusals_at(h: Harness, channel_id: int, start: float, end: float) -> int:
    return sum(1 for c in h.calls if c.status >= 400 and f"/channels/{channel_id}" in c.path and start <= c.at < end)


async def locked_tables(h: Harness, count: int) -> tuple[list, list, float]:
    """``count`` tables (one host each) in their threads, the threads locked by a moderator, and a move at each so
    that every writer has something to write: the hosts, the tables and when the moves were made."""
    await lift_limits(h)
    hosts = [h.user(ALICE_ID + i, f"host{i}") for i in range(count)]  # one table each (one per person here)
    tables = [await open_in_thread(h, host) for host in hosts]
    h.app_permissions = discord.Permissions(h.app_permissions.value & ~discord.Permissions(
        manage_threads=True).value)  # the bot is no moderator: a locked thread refuses it
    for table in tables:
        set_thread(h, table.row.channel_id, locked=True)
    await h.settle()
    start = time.monotonic()
    for i, table in enumerate(tables):
        await move_host(h, table, i)
    return hosts, tables, start


async def test_locked_threads_are_tried_rarely_and_written_within_seconds_of_unlocking(tmp_path: Path,
                                                                                       monkeypatch) -> None:
    monkeypatch.setattr(TableOutbox, "unreachable_first", TableOutbox.unreachable_first / SCALE)
    monkeypatch.setattr(TableOutbox, "unreachable_max", TableOutbox.unreachable_max / SCALE)
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        hosts, tables, start = await locked_tables(h, 6)
        await asyncio.sleep(3 * MINUTE)
        for table in tables:  # refused: clock paused (nobody is timed out), host told the real cause
            assert h.bot.get_cog("TableCog").outbox(table.id).reach.cause is not None
            assert table.clock_paused and table.row.deadline is None
        per_minute = [[refusals_at(h, t.row.channel_id, start + k * MINUTE, start + (k + 1) * MINUTE)
                       for t in tables] for k in range(3)]
        total = h.bot.get_cog("TableCog").refusals.total
        print(f"refused requests per table, scaled minutes 1-3: {per_minute}; process total {total}")
        assert min(per_minute[0]) >= 1, per_minute  # every table did try, and was refused
        assert max(per_minute[0]) <= 4 and max(per_minute[1]) <= 2 and max(per_minute[2]) <= 2, per_minute
        for host in hosts:  # each host once, with the real cause
            assert [m.content for m in h.dm_messages(host) if says(m.content, "outbox.unreachable.locked")] != []
            assert not any(says(m.content, "outbox.unreachable") for m in h.dm_messages(host))  # not "missing"

        unlocked = time.monotonic()
        for table in tables:
            set_thread(h, table.row.channel_id, locked=False)
        boxes = [h.bot.get_cog("TableCog").outbox(t.id) for t in tables]
        await until(lambda: all(b.reach.cause is None and not b.pending() for b in boxes), timeout=5.0)
        recovered = time.monotonic() - unlocked
        print(f"every board written {recovered:.2f} s after the threads were unlocked")
        assert recovered <= 5.0
        await h.settle()
        for table in tables:
            assert shows_move(board_message(h, table)) == table.moves
            if f"u{table.row.host_id}" in table.to_act():
                assert not table.clock_paused and table.row.deadline is not None
                # the resumed clock's deadline is on the board (issue 34 item 4)
                assert f"<t:{math.ceil(table.row.deadline)}:R>" in board_message(h, table).text
    finally:
        await h.close()


async def test_a_deleted_thread_moves_its_table_back_to_the_lobbys_channel(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        alice = h.user(ALICE_ID, "alice")
        table = await open_in_thread(h, alice)
        thread_id = table.row.channel_id
        thread = h.server.channels.pop(thread_id)
        h.dispatch("THREAD_DELETE", {"id": str(thread_id), "guild_id": str(h.guild_id),
                                     "parent_id": thread["parent_id"], "type": thread["type"]})
        await h.settle()
        assert table.row.channel_id == h.channel_id and table.row.lobby_channel_id is None
        board = board_message(h, table)
        assert board.channel_id == h.channel_id and says(board.text, "table.thread_deleted", id=table.id)
        assert f"<@{ALICE_ID}>" in board.text  # her turn: told again where she can see it
        await move_host(h, table, 1)
        await h.settle()
        assert shows_move(board_message(h, table)) == table.moves
    finally:
        await h.close()


async def test_a_deleted_channel_ends_its_table_and_tells_the_host(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")  # tables in the channel
    try:
        alice = h.user(ALICE_ID, "alice")
        r = await h.slash(alice, "play akuma", bots=3, start="host")
        await h.click(alice, r.message, label=START)
        table = next(iter(h.bot.service._tables.values()))
        channel = h.server.channels.pop(h.channel_id)
        h.dispatch("CHANNEL_DELETE", channel)
        await h.settle()
        assert table.status == "cancelled"
        row = await h.bot.storage.get_game(table.id)
        assert row.status == "cancelled" and row.end_tidied and row.result_shown
        assert sum(says(m.content, "outbox.gone", id=table.id) for m in h.dm_messages(alice)) == 1  # told once
    finally:
        await h.close()


async def test_an_ended_tables_thread_is_archived_after_its_grace(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(TableOutbox, "archive_grace", 0.3)
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        alice = h.user(ALICE_ID, "alice")
        table = await open_in_thread(h, alice)
        await h.slash(alice, "game end", table=table.id)
        await h.settle()
        thread = h.server.channels[table.row.channel_id]
        assert thread["thread_metadata"]["archived"] is False  # people can still read it for a while
        await until(lambda: thread["thread_metadata"]["archived"] is True, timeout=5.0)
        await h.settle()
        assert (await h.bot.storage.get_game(table.id)).end_tidied
        assert table.id not in h.bot.get_cog("TableCog").outboxes  # its writer left memory
    finally:
        await h.close()


async def test_the_process_wide_budget_holds_every_writer_back(tmp_path: Path, monkeypatch) -> None:
    """All the writers together stop at the budget of refusals (here 8 in a window longer than the test), however
    many tables are refused: Discord's invalid-request limit is never approached."""
    monkeypatch.setattr(TableOutbox, "unreachable_first", TableOutbox.unreachable_first / SCALE)
    monkeypatch.setattr(TableOutbox, "unreachable_max", TableOutbox.unreachable_max / SCALE)
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        budget = h.bot.get_cog("TableCog").refusals
        budget.limit, budget.window = 8, 60.0
        _, tables, start = await locked_tables(h, 6)
        await asyncio.sleep(3 * MINUTE)
        refused = sum(refusals_at(h, t.row.channel_id, start, time.monotonic()) for t in tables)
        assert budget.total == refused and refused <= budget.limit + len(tables), refused
    finally:
        await h.close()


def test_the_budget_counts_a_sliding_window() -> None:
    now = [0.0]
    budget = RefusalBudget(limit=3, window=10.0, clock=lambda: now[0])
    for at in (0.0, 1.0, 2.0):
        now[0] = at
        assert budget.wait() == 0.0
        budget.refused()
    assert budget.wait() == 8.0  # the oldest refusal leaves the window at 10 s
    now[0] = 10.5
    assert budget.wait() == 0.0


async def test_a_thread_deleted_without_an_event_is_found_by_the_next_write(tmp_path: Path) -> None:
    """No THREAD_DELETE reached the bot (a gateway gap): the next write gets 10003 and the table moves back."""
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        host = h.user(ALICE_ID, "alice")
        table = await open_in_thread(h, host)
        h.server.channels.pop(table.row.channel_id)
        await move_host(h, table, 1)
        await h.settle()
        assert table.row.channel_id == h.channel_id and table.row.lobby_channel_id is None
        assert shows_move(board_message(h, table)) == table.moves
        assert says(board_message(h, table).text, "table.thread_deleted", id=table.id) or any(
            says(m.text, "table.thread_deleted", id=table.id) for m in h.channel_messages())
    finally:
        await h.close()


async def test_the_servers_thread_limit_keeps_a_table_in_its_channel_until_archives_make_room(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(TableOutbox, "archive_grace", 0.2)
    h = await start_harness(tmp_path / "bot.db", tables=None)
    try:
        await lift_limits(h)
        h.server.max_active_threads = 1  # Discord allows 1,000 active threads a server; here one
        hosts = [h.user(ALICE_ID + i, f"host{i}") for i in range(3)]
        first = await open_in_thread(h, hosts[0])
        r = await h.slash(hosts[1], "play akuma", bots=3, start="host")
        await h.click(hosts[1], r.message, label=START)
        await h.settle()
        second = next(t for t in h.bot.service._tables.values() if t.row.host_id == hosts[1].id)
        assert second.status == "running" and second.row.channel_id == h.channel_id  # in the channel, and says why
        assert says(board_message(h, second).text, "table.no_thread.limit")
        await h.slash(hosts[0], "game end", table=first.id)
        thread = h.server.channels[first.row.channel_id]
        await until(lambda: thread["thread_metadata"]["archived"] is True, timeout=5.0)
        third = await open_in_thread(h, hosts[2])  # the archive made room
        assert third.row.channel_id != h.channel_id
    finally:
        await h.close()
