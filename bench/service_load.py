"""The service under load: latency of one action (load, validate, apply, SQLite commit, text render) with
many tables acting concurrently, against the floor of a bare aiosqlite insert + commit of a row the same size."""
from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from bot import render
from bot.policies import choose_action
from bot.service import GameService
from bot.storage import Storage
from bot.table import Table
from engines import GAMES, get_engine

from .report import ms, percentile, print_table, rss_bytes

THINK_MEAN = 2.0  # seconds between two moves at one table (bots wait 1.5 s; people longer)


def render_text(table: Table, update) -> None:
    names = render.Names(table.names())
    render.board(table.row.game, update.public_view, names, "en")
    for ev in update.events:
        render.event_line(table.row.game, ev, names, "en")


async def floor(storage: Storage, row_bytes: int, count: int) -> list[float]:
    """A bare insert + commit of a row of ``row_bytes`` on the same database settings, one at a time."""
    async with storage.db.transaction() as tx:
        await tx.execute("CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY, body TEXT)")
    body = "x" * row_bytes
    times = []
    for n in range(count):
        start = time.perf_counter()
        async with storage.db.transaction() as tx:
            await tx.execute("INSERT INTO bench_floor (id, body) VALUES (?, ?)", n + 1, body)
        times.append(time.perf_counter() - start)
    return times


async def new_table(service: GameService, slot: int, seed: int) -> Table:
    game = GAMES[slot % len(GAMES)]
    players = min(4, get_engine(game).max_players)
    return await service.create_bot_table(game=game, players=players, seed=seed, channel_id=slot)


async def drive(service: GameService, table: Table, think: float, until: float, latencies: list[float],
                sizes: list[int], heuristic: bool = True) -> None:
    slot = table.row.channel_id
    rng = random.Random(slot)
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        await asyncio.sleep(rng.expovariate(1 / think))
        if table.status != "running":
            table = await new_table(service, slot, rng.randrange(1 << 30))
            continue
        player = table.to_act()[0]
        if heuristic:  # the bot's thinking is not part of the action, but it shares the event loop
            action = choose_action(table.engine, table.state, player, rng)
        else:
            action = rng.choice(table.engine.legal_actions(table.state, player))
        start = time.perf_counter()
        update = await service.act_as(table.id, player, action, table.version)
        render_text(table, update)
        latencies.append(time.perf_counter() - start)
        if len(sizes) < 200:
            sizes.append(len(table.engine.dump(table.state)) + len(json.dumps(action.model_dump(mode="json"))))


async def load_run(tables: int, seconds: float, folder: Path, heuristic: bool = True) -> dict:
    storage = await Storage.open(folder / f"load-{tables}-{heuristic}.db")
    service = GameService(storage)
    latencies: list[float] = []
    sizes: list[int] = []
    rss_before = rss_bytes()
    running = [await new_table(service, slot, slot) for slot in range(tables)]  # before the clock starts
    await service.drain()
    rss_after = rss_bytes()
    # One table alone is measured unloaded (short pauses, many samples); many tables at a realistic pace.
    think = 0.005 if tables == 1 else THINK_MEAN
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(drive(service, table, think, until, latencies, sizes, heuristic) for table in running))
    await service.drain()
    row = int(sum(sizes) / max(len(sizes), 1))
    floor_times = await floor(storage, row, 100 if seconds < 5 else 300)
    db_bytes = await database_bytes(storage)
    actions = await count_actions(storage)
    await storage.close()
    return {"tables": tables, "actions": len(latencies), "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99), "floor50": percentile(floor_times, 50),
            "floor99": percentile(floor_times, 99), "row": row, "rss_per_table": (rss_after - rss_before) / tables,
            "rss": rss_after, "db_per_action": db_bytes / max(actions, 1), "seconds": seconds,
            "label": f"{tables:,}" + ("" if heuristic else " (random movers)")}


async def database_bytes(storage: Storage) -> int:
    if storage.backend == "postgres":
        return int(await storage.db.fetchval("SELECT pg_database_size(current_database())"))
    await storage.db.fetch("PRAGMA wal_checkpoint(TRUNCATE)")
    return await storage.db.fetchval("PRAGMA page_count") * await storage.db.fetchval("PRAGMA page_size")


async def count_actions(storage: Storage) -> int:
    return int(await storage.db.fetchval("SELECT COUNT(*) FROM actions"))


def run(quick: bool) -> list[dict]:
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for tables in (1, 100, 1000):
            seconds = (4.0 if tables > 1 else 3.0) if quick else (20.0 if tables > 1 else 10.0)
            results.append(asyncio.run(load_run(tables, seconds, Path(folder))))
        # The same load with seats that pick random legal moves: what the host costs without bots' thinking.
        light = asyncio.run(load_run(1000, 4.0 if quick else 20.0, Path(folder), heuristic=False))
    rows = [[r["label"], r["actions"], f"{r['actions'] / r['seconds']:.0f}", ms(r["p50"]), ms(r["p99"]),
             ms(r["floor50"]), ms(r["floor99"]), f"{r['p99'] / r['floor99']:.2f}×", r["row"]]
            for r in [*results, light]]
    print_table(f"Action latency (1 table: back to back; more: each table acts every ~{THINK_MEAN:.0f} s; "
                "action = load, validate, apply, commit, text render)",
                ["tables", "actions", "actions/s", "p50", "p99", "floor p50", "floor p99", "p99 / floor p99",
                 "row bytes"], rows)
    big = results[-1]
    print_table("Memory and storage", ["figure", "value"], [
        ["RSS with 1,000 active tables", f"{big['rss'] / 2**20:.0f} MB"],
        ["RSS growth per active table", f"{big['rss_per_table'] / 1024:.1f} KB"],
        ["database bytes per action", f"{big['db_per_action']:.0f} B"],
    ])
    return results
