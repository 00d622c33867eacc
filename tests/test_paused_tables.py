"""Paused tables on a real SQLite file with a clock that moves only when the test says so: when every person at a
table is away it pauses (no result, no "everyone has left", no clock, no bot move) instead of closing; a seated
person resumes it with a fresh clock; its host ends it without a result; it stays paused across a restart; and it
is closed, its game kept, once it has waited too long."""
from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.errors import HostError
from bot.scheduler import BotScheduler
from bot.service import TIMEOUTS_BEFORE_AWAY, GameService
from bot.storage import Storage
from bot.table import EndReason, Table, Update, UpdateKind
from bot.timers import TurnTimers

from .conftest import rows

ALICE, BOB = 101, 102
DAY = 86400.0


class ManualClock:
    """Time that moves only when the test advances it; sleepers wake once it reaches their time."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now_value = now
        self._sleepers: list[asyncio.Future[None]] = []

    def now(self) -> float:
        return self.now_value

    async def sleep(self, seconds: float) -> None:
        until = self.now_value + max(seconds, 0)
        while self.now_value < until:
            wake = asyncio.get_running_loop().create_future()
            self._sleepers.append(wake)
            await wake

    def advance(self, seconds: float) -> None:
        self.now_value += seconds
        sleepers, self._sleepers = self._sleepers, []
        for wake in sleepers:
            if not wake.done():
                wake.set_result(None)


class Host:
    """A service, its bots and its turn timers on one storage and one manual clock, recording every update."""

    def __init__(self, storage: Storage, clock: ManualClock, close_after: float = 7 * DAY) -> None:
        self.storage, self.clock = storage, clock
        self.service = GameService(storage, clock=clock.now)
        self.scheduler = BotScheduler(self.service, delay=0)
        self.timers = TurnTimers(self.service, close_paused_after=close_after, clock=clock.now, sleep=clock.sleep)
        self.updates: list[Update] = []

        async def record(update: Update) -> None:
            self.updates.append(update)

        self.service.subscribe(record)

    async def settle(self) -> None:
        for _ in range(20):
            for _ in range(10):
                await asyncio.sleep(0)
            busy = list(self.timers._expiring) + [t for t in self.scheduler._tasks.values() if not t.done()]
            if not busy and not self.service._publishing:
                return
            await asyncio.gather(*self.timers._expiring, return_exceptions=True)
            await self.scheduler.idle()

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.settle()

    def kinds(self, kind: UpdateKind) -> list[Update]:
        return [u for u in self.updates if u.kind is kind]

    async def close(self) -> None:
        await self.timers.close()
        await self.scheduler.close()
        await self.service.drain()
        await self.storage.close()


async def seated(service: GameService, people: tuple[int, ...] = (ALICE,), bots: int = 2) -> Table:
    table = await service.create_lobby(game="akuma", guild_id=1, channel_id=5, user_id=people[0], name="Alice",
                                       options={"start_player": 0}, seed=4)
    for uid in people[1:]:
        await service.join(table.id, uid, f"p{uid}")
    for _ in range(bots):
        await service.add_bot(table.id, people[0])
    await service.start(table.id, people[0])
    return table


async def until_paused(host: Host, table: Table) -> None:
    """Let every decision of a person run out until the table pauses."""
    for _ in range(40):
        if table.paused or table.status != "running":
            return
        await host.advance(table.row.turn_seconds + 1)
    raise AssertionError("the table never paused")


def actions(db_url: str, table: Table) -> int:
    return rows(db_url, "SELECT COUNT(*) FROM actions WHERE game_id = ?", table.id)[0][0]


@pytest.fixture
async def host(db_url: str):
    clock = ManualClock()
    host = Host(await Storage.open(db_url), clock)
    yield host
    await host.close()


async def test_the_last_person_away_pauses_the_table_and_nothing_moves(host: Host, db_url: str) -> None:
    table = await seated(host.service)
    await host.settle()
    await until_paused(host, table)
    assert table.status == "running" and table.paused and table.result() is None
    assert not host.kinds(UpdateKind.ENDED), "the table closed instead of pausing"
    assert len(host.kinds(UpdateKind.TIMEOUT)) == TIMEOUTS_BEFORE_AWAY - 1  # the last run-out makes no move: it pauses
    assert len(host.kinds(UpdateKind.PAUSED)) == 1
    seat = table.seat_of("u101")
    assert seat.away and seat.is_bot and seat.timeouts == TIMEOUTS_BEFORE_AWAY
    assert "u101" in table.to_act()  # her decision waits for her
    assert table.row.deadline is None and table.row.paused_at == host.clock.now()
    assert rows(db_url, "SELECT status, deadline, bot_to_act, paused_at FROM games WHERE id = ?", table.id) == [
        ("running", None, 0, host.clock.now())]
    # The clocks stand still: a day later nobody has moved, and nothing timed out.
    version, logged = table.version, actions(db_url, table)
    await host.advance(DAY)
    assert table.version == version and actions(db_url, table) == logged and table.paused
    with pytest.raises(HostError) as err:
        await host.service.act(table.id, ALICE, table.engine.legal_actions(table.state, "u101")[0], version)
    assert err.value.code == "table_paused"
    bot = table.seats[1].player
    with pytest.raises(HostError) as err:
        await host.service.act_as(table.id, bot, {"type": "play", "cards": []}, version)
    assert err.value.code == "table_paused"
    host.scheduler.kick(table.id)  # even woken, the bots wait
    await host.settle()
    assert table.version == version and actions(db_url, table) == logged


async def test_a_table_pauses_only_when_every_person_is_away(host: Host, db_url: str) -> None:
    table = await seated(host.service, (ALICE, BOB), bots=1)
    await until_paused(host, table)
    counts = sorted(Counter(u.actor for u in host.kinds(UpdateKind.TIMEOUT)).values())
    # The first person away got a bot moving for them while the other still played; the other's last run-out
    # made no move: the table paused.
    assert counts == [TIMEOUTS_BEFORE_AWAY - 1, TIMEOUTS_BEFORE_AWAY]
    assert table.paused and not host.kinds(UpdateKind.ENDED)
    assert all(s.away and s.is_bot for s in table.seats if s.user_id is not None)
    # Bob resumes: his seat is his again, the clock starts afresh; Alice stays away, her bot moving for her.
    with pytest.raises(HostError) as err:
        await host.service.come_back(table.id, 999)
    assert err.value.code == "not_seated"
    update = await host.service.come_back(table.id, BOB)
    assert update.kind is UpdateKind.RESUMED and not table.paused
    bob = next(s for s in table.seats if s.user_id == BOB)
    assert not bob.is_bot and not bob.away and bob.timeouts == 0
    assert next(s for s in table.seats if s.user_id == ALICE).away
    assert rows(db_url, "SELECT paused_at FROM games WHERE id = ?", table.id) == [(None,)]
    await host.settle()
    assert table.user_ids_to_act() == [BOB] or table.status != "running"
    if table.status == "running":
        assert table.row.deadline == host.clock.now() + table.row.turn_seconds  # a fresh turn timer
        version = table.version
        await host.advance(table.row.turn_seconds + 1)
        assert table.version > version  # the clock runs again: his decision ran out


async def test_the_host_ends_a_paused_table_without_a_result(host: Host, db_url: str) -> None:
    table = await seated(host.service, (ALICE, BOB), bots=1)
    await until_paused(host, table)
    with pytest.raises(HostError) as err:
        await host.service.end(table.id, BOB, is_admin=False)
    assert err.value.code == "host_or_admin_only" and table.paused
    update = await host.service.end(table.id, ALICE, is_admin=False)
    assert update.kind is UpdateKind.ENDED and update.reason is EndReason.PAUSED_ENDED
    assert table.status == "cancelled" and table.result() is None and not table.paused
    status, state = rows(db_url, "SELECT status, state FROM games WHERE id = ?", table.id)[0]
    assert status == "cancelled" and state  # the game as it stood is kept
    await host.settle()
    assert not host.timers._tasks.get(table.id) or host.timers._tasks[table.id].done()
    with pytest.raises(HostError) as err:
        await host.service.come_back(table.id, ALICE)
    assert err.value.code == "game_not_running"


async def test_leaving_while_the_other_person_is_away_pauses_and_a_kick_of_the_last_closes(host: Host) -> None:
    table = await seated(host.service, (ALICE, BOB), bots=1)
    for _ in range(40):  # Bob runs out of time until he is away; Alice still plays
        bob = next(s for s in table.seats if s.user_id == BOB)
        if bob.away:
            break
        if table.user_ids_to_act() == [ALICE]:
            player = "u101"
            await host.service.act(table.id, ALICE, table.engine.legal_actions(table.state, player)[0], table.version)
            await host.settle()
        else:
            await host.advance(table.row.turn_seconds + 1)
    assert not table.paused
    update = await host.service.hand_to_bot(table.id, ALICE)  # the last person playing leaves: Bob may come back
    assert update.kind is UpdateKind.PAUSED and table.paused and not host.kinds(UpdateKind.ENDED)
    kicked = await host.service.kick(table.id, 555, ALICE, is_admin=True)
    assert kicked.kind is UpdateKind.SEATS and table.paused  # Bob may still come back
    ended = await host.service.kick(table.id, 555, BOB, is_admin=True)  # nobody left to come back
    assert ended.kind is UpdateKind.ENDED and ended.reason is EndReason.ABANDONED and table.status == "cancelled"


async def test_a_paused_table_stays_paused_across_a_restart_and_closes_once_idle(db_url: str) -> None:
    clock = ManualClock()
    host = Host(await Storage.open(db_url), clock)
    table = await seated(host.service)
    await until_paused(host, table)
    game_id, paused_at, version = table.id, table.row.paused_at, table.version
    logged = actions(db_url, table)
    await host.close()

    clock.advance(DAY)  # the bot was down for a day
    again = Host(await Storage.open(db_url), clock)
    try:
        assert await again.scheduler.resume() == 0  # no bot is woken at a paused table
        assert await again.timers.resume() == 1  # only its wait to be closed
        table = await again.service.table(game_id)
        assert table.paused and table.row.paused_at == paused_at and table.row.deadline is None
        await again.advance(5 * DAY)
        assert table.paused and table.version == version and actions(db_url, table) == logged
        await again.advance(DAY + 1)  # seven days after it paused, nobody back: closed, its game kept
        closed = again.kinds(UpdateKind.ENDED)
        assert len(closed) == 1 and closed[0].reason is EndReason.IDLE
        assert table.status == "cancelled" and table.result() is None
        status, state, count = rows(db_url, "SELECT status, state, (SELECT COUNT(*) FROM actions WHERE game_id = "
                                            "games.id) FROM games WHERE id = ?", game_id)[0]
        assert status == "cancelled" and state and count == logged
    finally:
        await again.close()


async def test_a_resumed_table_is_not_closed_by_its_old_wait(host: Host) -> None:
    table = await seated(host.service)
    await until_paused(host, table)
    await host.advance(3 * DAY)
    await host.service.come_back(table.id, ALICE)
    await host.settle()
    assert table.status == "running" and not table.paused
    assert await host.service.close_idle(table.id, host.clock.now() - 3 * DAY) is None
    assert table.status == "running" and not host.kinds(UpdateKind.ENDED)


async def test_a_restart_closes_only_its_own_shards_paused_tables(db_url: str) -> None:
    from bot.storage import ShardFilter

    from .test_shards import COUNT, guild_of

    storage = await Storage.open(db_url)
    service = GameService(storage)
    for shard in (0, 1):
        table = await service.create_lobby(game="akuma", guild_id=guild_of(shard), channel_id=shard, user_id=7,
                                           name="A")
        await service.add_bot(table.id, 7)
        await service.add_bot(table.id, 7)
        await service.start(table.id, 7)
        await storage.update_game(table.id, expected_version=table.version, deadline=None, paused_at=1.0)
    await service.drain()
    assert len(await storage.paused(ShardFilter(COUNT, (1,)))) == 1
    assert len(await storage.paused()) == 2
    service.shards = ShardFilter(COUNT, (0,))
    assert len(await service.tables_paused()) == 1
    await storage.close()
