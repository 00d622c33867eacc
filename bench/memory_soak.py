"""``python -m bench.memory_soak``: the bot's memory over thousands of table lifecycles and unknown-id lookups.

The service with its bot scheduler and turn timers (no Discord) opens tables in batches and closes each: a table of
easy bots played to its end, a lobby opened and left (cancelled), a table started with a person and ended by its
host. Between batches it looks up ids that do not exist (``/game status table:N``) and the finished tables of
earlier batches (another channel's tables). After every batch it counts the process's live objects (``gc``, after a
collection) and its RSS: once warm, a batch must leave them where they were (tests/test_memory_soak.py).
"""
from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.errors import HostError
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import Storage
from bot.timers import TurnTimers

from .report import print_table, rss_bytes

GAME = "akuma"  # the shortest game: about 25 moves of three random or easy seats
PERSON = 10_000  # user ids of the soak's people start here (one per table, each in a channel of its own)


@dataclass
class Batch:
    """The process after one batch: live objects, RSS, and what the service and its helpers hold."""

    tables: int  # table lifecycles so far
    lookups: int  # unknown-id lookups so far
    objects: int
    rss: int
    loaded: int  # tables the service holds (``_tables``)
    loading: int  # loading locks left behind
    tasks: int  # scheduler and timer entries


def live_objects() -> int:
    """Live objects after a collection. Bounded ``functools`` caches are emptied first: they fill up to their size
    over a long warm-up (the engines' shared actions keep up to 8,192) and cannot grow past it; an unbounded cache
    is counted like everything else."""
    gc.collect()
    for thing in gc.get_objects():
        if isinstance(thing, functools._lru_cache_wrapper) and thing.cache_info().maxsize is not None:
            thing.cache_clear()
    gc.collect()
    return len(gc.get_objects())


async def lifecycle(service: GameService, number: int) -> int:
    """Open table ``number`` and close it one of three ways; returns its id."""
    channel, person = number + 1, PERSON + number
    if number % 3 == 0:  # bots play it to its end (the scheduler moves them)
        table = await service.create_bot_table(game=GAME, players=3, seed=number, channel_id=channel,
                                               levels=["easy"] * 3)
        return table.id
    table = await service.create_lobby(game=GAME, guild_id=1, channel_id=channel, user_id=person,
                                       name=f"p{number}", seed=number)
    await service.add_bot(table.id, person, "easy")
    if number % 3 == 1:  # a lobby its only person leaves: cancelled
        await service.leave_lobby(table.id, person)
        return table.id
    await service.add_bot(table.id, person, "easy")
    await service.start(table.id, person)
    try:  # a running table its host ends (the bots may end it first)
        await service.end(table.id, person, is_admin=False)
    except HostError as refused:
        if refused.code != "game_not_running":
            raise
    return table.id


async def unknown_lookups(service: GameService, count: int, rng: random.Random) -> None:
    for _ in range(count):
        try:
            await service.table(rng.randrange(10**9, 2**62))
        except HostError as refused:
            assert refused.code == "no_such_game", refused.code
        else:
            raise AssertionError("an id that does not exist was found")


async def soak(storage: Storage, *, batches: int, tables: int, lookups: int, concurrency: int = 8,
               idle_tables_kept: int | None = None) -> list[Batch]:
    """``batches`` rounds of ``tables`` lifecycles (``concurrency`` at a time) and ``lookups`` unknown ids, plus a
    look at every table of the previous round; one :class:`Batch` after each round."""
    service = GameService(storage)
    if idle_tables_kept is not None:
        service.idle_tables_kept = idle_tables_kept
    scheduler = BotScheduler(service, delay=0)
    timers = TurnTimers(service)
    rng = random.Random(1)
    figures: list[Batch] = []
    previous: list[int] = []
    done = 0
    try:
        for _ in range(batches):
            ids: list[int] = []
            for start in range(done, done + tables, concurrency):
                numbers = range(start, min(start + concurrency, done + tables))
                ids += await asyncio.gather(*(lifecycle(service, n) for n in numbers))
                await scheduler.idle()
            done += tables
            for game_id in previous:  # other channels' finished tables, named in /game status
                await service.table(game_id)
            previous = ids
            await unknown_lookups(service, lookups, rng)
            await scheduler.idle()
            figures.append(Batch(done, lookups * len(figures) + lookups, live_objects(), rss_bytes(),
                                 len(service._tables), len(service._loading),
                                 len(scheduler._tasks) + len(timers._tasks)))
    finally:
        await scheduler.close()
        await timers.close()
    return figures


async def measure(url: str | Path, **sizes: int) -> list[Batch]:
    storage = await Storage.open(url)
    try:
        return await soak(storage, **sizes)
    finally:
        await storage.close()


def growth(figures: list[Batch]) -> tuple[int, int]:
    """Live objects and RSS added from the end of the first batch (the warm-up) to the end of the last."""
    return figures[-1].objects - figures[0].objects, figures[-1].rss - figures[0].rss


def print_figures(backend: str, figures: list[Batch]) -> None:
    rows = [[f"{b.tables:,}", f"{b.lookups:,}", f"{b.objects:,}", f"{b.rss / 2**20:.1f} MB", b.loaded, b.loading,
             b.tasks] for b in figures]
    objects, rss = growth(figures)
    rows.append(["last minus first", "", f"{objects:+,}", f"{rss / 2**20:+.1f} MB", "", "", ""])
    print_table(f"Memory soak on {backend}", ["tables closed", "unknown ids", "live objects", "RSS",
                                              "tables loaded", "loading locks", "timer/bot tasks"], rows)


def run(backends: list[str], batches: int, tables: int, lookups: int, database_url: str | None = None) -> None:
    sizes = {"batches": batches, "tables": tables, "lookups": lookups}
    with tempfile.TemporaryDirectory() as folder:
        for backend in backends:
            if backend == "sqlite":
                figures = asyncio.run(measure(f"sqlite:///{Path(folder) / 'soak.db'}", **sizes))
            else:
                figures = postgres_soak(database_url, sizes)
            print_figures(backend, figures)


def postgres_soak(database_url: str | None, sizes: dict[str, int]) -> list[Batch]:
    if database_url is not None:
        return asyncio.run(measure(database_url, **sizes))
    from tests.pg_server import PgServer  # a throwaway server, as the tests start one

    server = PgServer().start()
    try:
        return asyncio.run(measure(server.new_database(), **sizes))
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.memory_soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgres"],
                        help="repeat for both (default both)")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--tables", type=int, default=600, help="table lifecycles per batch")
    parser.add_argument("--lookups", type=int, default=2000, help="unknown-id lookups per batch")
    parser.add_argument("--database-url", help="an existing PostgreSQL (default: a throwaway server)")
    args = parser.parse_args()
    run(args.backend or ["sqlite", "postgres"], args.batches, args.tables, args.lookups, args.database_url)
