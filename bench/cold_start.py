"""Cold start: a fresh process opens a database holding many stored games and answers its first action."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .report import print_table

CHILD = r"""
import asyncio, sys, time
t0 = time.perf_counter()
import discord  # the bot process imports discord.py and the cogs too
import cogs.lobby, cogs.table
from bot.storage import Storage
from bot.service import GameService
from bot.scheduler import BotScheduler

async def main():
    storage = await Storage.open(sys.argv[1])
    service = GameService(storage)
    scheduler = BotScheduler(service, delay=1.5)
    await scheduler.resume()
    table = await service.table(int(sys.argv[2]))
    player = table.to_act()[0]
    action = table.engine.legal_actions(table.state, player)[0]
    await service.act_as(table.id, player, action, table.version)
    print(time.perf_counter() - t0, flush=True)
    await scheduler.close()
    await storage.close()

asyncio.run(main())
"""


async def make_database(path: Path, games: int) -> int:
    """``games`` running tables of people (no bot to act), written straight through the storage layer."""
    from bot.storage import SeatRow, Storage
    from engines import get_engine

    engine = get_engine("akuma")
    storage = await Storage.open(path)
    seats = [SeatRow(i, f"u{i + 1}", f"P{i + 1}", i + 1, False) for i in range(4)]
    last = 0
    async with storage.db.transaction() as db:
        for n in range(games):
            state = engine.new_game([s.player for s in seats], seed=n)
            last = await db.fetchval(
                "INSERT INTO games (guild_id, channel_id, game, options, seed, status, host_id, locale, version, "
                "state, created_at, updated_at) VALUES (1, ?, 'akuma', '{}', ?, 'running', 1, 'en', 1, ?, ?, ?) "
                "RETURNING id", n, n, engine.dump(state), time.time(), time.time())
            await db.executemany(
                "INSERT INTO seats (game_id, seat, player, user_id, is_bot, name) VALUES (?, ?, ?, ?, 0, ?)",
                [(last, s.seat, s.player, s.user_id, s.name) for s in seats])
    await storage.close()
    return last


def run(quick: bool) -> float:
    games = 10_000
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cold.db"
        last = asyncio.run(make_database(path, games))
        times = []
        for _ in range(1 if quick else 3):
            out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(last)], capture_output=True,
                                 text=True, check=True, timeout=300)
            times.append(float(out.stdout.strip().splitlines()[-1]))
        size = path.stat().st_size
    best = min(times)
    print_table("Cold start", ["figure", "value"], [
        ["stored running games", f"{games:,}"],
        ["database size", f"{size / 2**20:.1f} MB"],
        ["process start → first action answered (imports included)", f"{best:.2f} s"],
    ])
    return best
