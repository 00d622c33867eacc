"""Turn timers on a real SQLite file with a fake clock: warnings, a bot moving for a late player,
the seat going to a bot after three timeouts in a row, coming back, and deadlines surviving a restart."""
from __future__ import annotations

import asyncio

import pytest

from bot.errors import HostError
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import Storage
from bot.table import EndReason, Update, UpdateKind
from bot.timers import TurnTimers

ALICE = 101


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now_value = now
        self.running = asyncio.Event()  # cleared: timers wait before their next sleep (a test reads between)
        self.running.set()

    def now(self) -> float:
        return self.now_value

    async def sleep(self, seconds: float) -> None:
        await self.running.wait()
        self.now_value += max(seconds, 0)
        await asyncio.sleep(0)


class Host:
    def __init__(self, storage: Storage, clock: FakeClock) -> None:
        self.service = GameService(storage, clock=clock.now)
        self.scheduler = BotScheduler(self.service, delay=0)
        self.timers = TurnTimers(self.service, clock=clock.now, sleep=clock.sleep)
        self.updates: list[Update] = []

        async def record(update: Update) -> None:
            self.updates.append(update)

        self.service.subscribe(record)

    async def idle(self) -> None:
        for _ in range(10_000):
            await self.scheduler.idle()
            pending = [t for t in self.timers._tasks.values() if not t.done()]
            if not pending:
                await self.service.drain()
                if not [t for t in self.timers._tasks.values() if not t.done()]:
                    return
            else:
                await asyncio.wait(pending)
        raise AssertionError("timers never went idle")

    def kinds(self, kind: UpdateKind) -> list[Update]:
        return [u for u in self.updates if u.kind is kind]


async def alice_and_bots(service: GameService, turn_seconds: int = 120):
    table = await service.create_lobby(game="akuma", guild_id=1, channel_id=5, user_id=ALICE, name="Alice",
                                       options={"start_player": 0}, seed=4, turn_seconds=turn_seconds)
    await service.add_bot(table.id, ALICE)
    await service.add_bot(table.id, ALICE)
    await service.start(table.id, ALICE)
    return table


async def test_deadline_is_stored_warned_and_a_bot_moves_for_the_late_player(db_url: str) -> None:
    clock = FakeClock()
    storage = await Storage.open(db_url)
    host = Host(storage, clock)
    clock.running.clear()  # the fake clock jumps at once: hold it while the stored deadline is read
    table = await alice_and_bots(host.service)
    assert table.row.deadline == pytest.approx(clock.now() + 120)
    assert (await storage.get_game(table.id)).deadline == table.row.deadline
    clock.running.set()
    version = table.version
    task = host.timers._tasks[table.id]
    # Let only the warning happen: run until the timer sleeps towards the deadline.
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    await host.idle()
    assert host.kinds(UpdateKind.WARNING), "no warning before the deadline"
    timeouts = host.kinds(UpdateKind.TIMEOUT)
    assert timeouts and timeouts[0].actor == "u101" and timeouts[0].version == version + 1
    assert task.done()
    # Three in a row: the seat goes to a bot; Alice was the only person, so the table pauses instead of moving for
    # her (tests/test_paused_tables.py); this clock jumps to every timer's time, so its wait runs out too.
    assert len(timeouts) == 2 and len(host.kinds(UpdateKind.PAUSED)) == 1
    seat = table.seat_of("u101")
    assert seat.is_bot and seat.away and seat.timeouts == 3
    assert table.status == "cancelled" and table.row.deadline is None
    assert host.kinds(UpdateKind.ENDED)[-1].reason is EndReason.IDLE
    stored = await storage.get_game(table.id)
    assert stored.seats[0].away and stored.seats[0].timeouts == 3 and stored.deadline is None
    await storage.close()


async def test_own_move_resets_the_count_and_coming_back_restores_the_seat(db_url: str) -> None:
    clock = FakeClock()
    storage = await Storage.open(db_url)
    service = GameService(storage, clock=clock.now)
    table = await alice_and_bots(service)
    scheduler = BotScheduler(service, delay=0)  # no TurnTimers here: expiries are driven by hand
    assert (await service.expire(table.id, table.version - 1)) == []  # a stale expiry does nothing
    await service.expire(table.id, table.version)
    await scheduler.idle()
    assert table.seat_of("u101").timeouts == 1
    player = table.to_act()[0]
    assert player == "u101"
    await service.act(table.id, ALICE, table.engine.legal_actions(table.state, player)[0], table.version)
    assert table.seat_of("u101").timeouts == 0
    assert (await storage.get_game(table.id)).seats[0].timeouts == 0
    await scheduler.idle()
    for _ in range(3):
        if table.status != "running":
            break
        assert await service.expire(table.id, table.version)
        await scheduler.idle()
    with pytest.raises(HostError):
        await service.come_back(table.id, 999)
    if table.status == "running":
        assert table.seat_of("u101").away
        await service.come_back(table.id, ALICE)
        seat = table.seat_of("u101")
        assert not seat.is_bot and not seat.away and seat.timeouts == 0
        with pytest.raises(HostError) as err:
            await service.come_back(table.id, ALICE)
        assert err.value.code == "already_playing"
    await scheduler.close()
    await service.drain()
    await storage.close()


async def test_deadlines_survive_a_restart(db_url: str) -> None:
    clock = FakeClock()
    storage = await Storage.open(db_url)
    service = GameService(storage, clock=clock.now)
    table = await alice_and_bots(service)
    deadline, version = table.row.deadline, table.version
    await service.drain()
    await storage.close()

    clock.now_value = deadline + 5  # the bot was down while the time ran out
    storage2 = await Storage.open(db_url)
    host = Host(storage2, clock)
    assert await host.timers.resume() == 1
    await host.idle()
    first = host.kinds(UpdateKind.TIMEOUT)[0]
    assert first.actor == "u101" and first.version == version + 1
    await storage2.close()


async def test_no_timer_without_people_or_when_switched_off(service: GameService) -> None:
    bots = await service.create_bot_table(game="akuma", players=3, seed=1, channel_id=9)
    assert bots.row.deadline is None
    off = await alice_and_bots(service, turn_seconds=0)
    assert off.row.deadline is None
    await service.drain()


async def test_closed_timers_and_bots_start_nothing_for_late_updates(db_url: str) -> None:
    """Closing the bot closes the timers and the bots first; an update delivered after that (the service drains
    its queue before the storage closes) must start neither a timer nor a bot move, which would then run against
    a closed database."""
    clock = FakeClock()
    storage = await Storage.open(db_url)
    host = Host(storage, clock)
    table = await alice_and_bots(host.service)
    await host.timers.close()
    await host.scheduler.close()
    host.timers.schedule(table.id)  # Alice's decision, with its deadline: armed before the close
    host.scheduler.kick(table.id)
    assert not host.timers._tasks and not host.scheduler._tasks
    await host.service.drain()
    await storage.close()
