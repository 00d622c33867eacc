"""A lobby nobody changes is closed once it has waited ``LOBBY_CLOSE_HOURS`` (its host may have left the server,
which the bot cannot see with the Guilds intent only): as a table ended without a result, on a real database and a
clock that moves only when the test says so. Any change of the lobby starts its wait again; a started table is not
closed; a restart times the wait from when the lobby last changed (stored), not from the restart; 0 keeps it open."""
from __future__ import annotations

import time

import pytest

from bot.errors import HostError
from bot.storage import Storage
from bot.table import EndReason, Table, UpdateKind

from .conftest import rows
from .test_paused_tables import Host, ManualClock

ALICE, BOB = 101, 102
HOUR = 3600.0


@pytest.fixture
async def host(db_url: str):
    host = Host(await Storage.open(db_url), ManualClock())
    yield host
    await host.close()


async def lobby(host: Host, turn_seconds: int = 120) -> Table:
    table = await host.service.create_lobby(game="akuma", guild_id=1, channel_id=5, user_id=ALICE, name="Alice",
                                            seed=4, turn_seconds=turn_seconds)
    for _ in range(2):  # Akuma needs three players to start
        await host.service.add_bot(table.id, ALICE)
    await host.settle()
    return table


def closed_for_idleness(host: Host, table: Table) -> bool:
    ended = [u for u in host.kinds(UpdateKind.ENDED) if u.table.id == table.id]
    return table.status == "cancelled" and [u.reason for u in ended] == [EndReason.LOBBY_IDLE]


async def test_an_untouched_lobby_closes_after_a_day_and_each_change_starts_its_wait_again(
        host: Host, db_url: str) -> None:
    table = await lobby(host)
    await host.advance(23 * HOUR)
    assert table.status == "lobby"
    await host.service.join(table.id, BOB, "Bob")  # a change, 23 hours in: it waits a whole day again
    await host.settle()
    await host.advance(2 * HOUR)
    assert table.status == "lobby" and not host.kinds(UpdateKind.ENDED)
    await host.service.leave_lobby(table.id, BOB)
    await host.settle()
    await host.advance(24 * HOUR - 1)
    assert table.status == "lobby"
    await host.advance(2)
    assert closed_for_idleness(host, table) and table.result() is None
    assert rows(db_url, "SELECT status FROM games WHERE id = ?", table.id) == [("cancelled",)]
    with pytest.raises(HostError) as refused:  # its buttons no longer act
        await host.service.join(table.id, BOB, "Bob")
    assert refused.value.code == "not_in_lobby" and table.seat_of_user(BOB) is None
    assert not host.timers._tasks.get(table.id)  # nothing left to time


async def test_a_started_table_is_not_closed_as_an_idle_lobby(host: Host) -> None:
    table = await lobby(host, turn_seconds=0)  # no turn timer either: nothing else moves it
    await host.advance(HOUR)
    await host.service.start(table.id, ALICE)
    await host.settle()
    await host.advance(48 * HOUR)
    assert table.status == "running" and not host.kinds(UpdateKind.ENDED)


async def test_zero_keeps_a_lobby_open(host: Host) -> None:
    host.timers.close_lobby_after = 0
    table = await lobby(host)
    await host.advance(30 * 24 * HOUR)
    assert table.status == "lobby" and not host.kinds(UpdateKind.ENDED)


async def test_after_a_restart_the_wait_counts_from_the_last_change_stored(db_url: str) -> None:
    clock = ManualClock(time.time())  # the stored updated_at is wall-clock time
    first = Host(await Storage.open(db_url), clock)
    try:
        table = await lobby(first)
    finally:
        await first.close()
    clock.advance(20 * HOUR)  # the bot was down for 20 hours
    second = Host(await Storage.open(db_url), clock)
    try:
        assert await second.timers.resume() == 1
        table = await second.service.table(table.id)
        await second.advance(3 * HOUR)
        assert table.status == "lobby"
        await second.advance(HOUR + 60)  # a day after its last change, not a day after the restart
        assert closed_for_idleness(second, table)
    finally:
        await second.close()


async def test_a_lobby_already_past_its_wait_at_a_restart_closes_at_once(db_url: str) -> None:
    clock = ManualClock(time.time())
    first = Host(await Storage.open(db_url), clock)
    try:
        table = await lobby(first)
    finally:
        await first.close()
    clock.advance(3 * 24 * HOUR)
    second = Host(await Storage.open(db_url), clock)
    try:
        await second.timers.resume()
        await second.settle()
        table = await second.service.table(table.id)
        assert closed_for_idleness(second, table)
    finally:
        await second.close()
