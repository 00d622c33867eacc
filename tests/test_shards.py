"""Several processes on one database, each owning a shard range: two service stacks with disjoint ranges, one
"killed" and restarted; an overlapping range is refused. On SQLite and PostgreSQL."""
from __future__ import annotations

import pytest

from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.settings import Settings
from bot.storage import ShardFilter, ShardsTaken, Storage
from bot.timers import TurnTimers

from .conftest import rows

COUNT = 2


def guild_of(shard: int, n: int = 1) -> int:
    return (n * COUNT + shard) << 22  # (guild_id >> 22) % COUNT == shard


class Process:
    """Storage, service, bot scheduler and timers of one bot process owning ``shards``."""

    def __init__(self, storage: Storage, shards: ShardFilter, claim, delay: float) -> None:
        self.storage, self.claim = storage, claim
        self.service = GameService(storage)
        self.service.shards = shards
        self.scheduler = BotScheduler(self.service, delay=delay)
        self.timers = TurnTimers(self.service)

    @classmethod
    async def start(cls, db_url: str, *ids: int, delay: float = 0) -> "Process":
        storage = await Storage.open(db_url)
        shards = ShardFilter(COUNT, ids)
        try:
            claim = await storage.claim_shards(shards)
        except ShardsTaken:
            await storage.close()
            raise
        return cls(storage, shards, claim, delay)

    async def kill(self) -> None:
        """Stop without finishing anything (tasks cancelled, locks and connections dropped)."""
        await self.timers.close()
        await self.scheduler.close()
        await self.claim.release()
        await self.storage.close()


async def bot_tables(process: Process, shard: int, count: int) -> list[int]:
    ids = []
    for n in range(count):
        table = await process.service.create_bot_table(game="akuma", players=3, seed=n, channel_id=shard * 100 + n,
                                                       guild_id=guild_of(shard, n + 1))
        ids.append(table.id)
    return ids


async def test_shard_filter_and_settings() -> None:
    shards = Settings(_env_file=None, shard_count=16, shard_ids="0-3,8").shards()
    assert shards == ShardFilter(16, (0, 1, 2, 3, 8))
    assert shards.owns(3 << 22) and not shards.owns(4 << 22) and shards.owns(None)
    with pytest.raises(ValueError):
        Settings(_env_file=None, shard_count=4, shard_ids="2-5").shards()
    assert Settings(_env_file=None).shards() is None


async def test_two_processes_own_disjoint_shards_and_a_restart_resumes_only_its_own(db_url: str) -> None:
    first = await Process.start(db_url, 0, delay=60)  # bots still thinking when it dies
    second = await Process.start(db_url, 1, delay=60)
    with pytest.raises(ShardsTaken) as refused:
        await Process.start(db_url, 1, 0)
    assert "another running process" in str(refused.value)

    mine = await bot_tables(first, 0, 3)
    theirs = await bot_tables(second, 1, 3)
    await first.service.drain()
    await first.kill()
    versions_before = dict(rows(db_url, "SELECT id, version FROM games"))

    restarted = await Process.start(db_url, 0)  # the range is free again once its owner is gone
    assert await restarted.scheduler.resume() == 3
    assert await restarted.timers.resume() == 0
    await restarted.scheduler.idle()
    assert set(restarted.service._tables) == set(mine)  # never touched the other shard's tables
    finished = dict(rows(db_url, "SELECT id, status FROM games"))
    assert all(finished[i] == "finished" for i in mine)
    assert all(finished[i] == "running" for i in theirs)  # undisturbed: their owner has not moved them yet
    assert {i: v for i, v in rows(db_url, "SELECT id, version FROM games") if i in theirs} == \
        {i: versions_before[i] for i in theirs}

    await second.scheduler.close()  # its bots stop thinking slowly; restart work picks them up at once
    second.scheduler.delay = 0
    assert await second.scheduler.resume() == 3
    await second.scheduler.idle()
    assert all(s == "finished" for i, s in rows(db_url, "SELECT id, status FROM games"))
    await restarted.kill()
    await second.kill()


async def test_restart_work_of_ratings_and_tournaments_is_filtered_by_shard(db_url: str) -> None:
    storage = await Storage.open(db_url)
    service = GameService(storage)
    for shard in (0, 1):
        table = await service.create_lobby(game="akuma", guild_id=guild_of(shard), channel_id=shard, user_id=7,
                                           name="A", turn_seconds=60)
        await service.join(table.id, 8, "B")
        await service.join(table.id, 9, "C")
        await service.start(table.id, 7)
    await service.drain()
    assert len(await storage.with_deadlines(ShardFilter(COUNT, (0,)))) == 1
    assert len(await storage.with_deadlines(ShardFilter(COUNT, (0, 1)))) == 2
    assert len(await storage.with_deadlines()) == 2
    assert await storage.ratings.unrecorded_games(ShardFilter(COUNT, (1,))) == []
    assert await storage.tournaments.ids(statuses=("running",), shards=ShardFilter(COUNT, (1,))) == []
    await storage.close()


async def test_identify_slots_are_shared_between_processes(db_url: str) -> None:
    """Two processes' shards of one IDENTIFY bucket take turns; another bucket does not wait."""
    import asyncio

    one, two = await Storage.open(db_url), await Storage.open(db_url)
    slot = await one.identify_slot(0)
    waiting = asyncio.create_task(two.identify_slot(0))
    other = await asyncio.wait_for(two.identify_slot(1), 5)
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await slot.release()
    second = await asyncio.wait_for(waiting, 5)
    for held in (second, other):
        await held.release()
    await one.close()
    await two.close()
