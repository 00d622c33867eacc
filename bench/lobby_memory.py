"""``python -m bench.lobby_memory [--lobbies N]``: what the bot keeps of lobbies closed before any deal (issue 41).

Through the test harness's strict edge (real discord.py objects, only HTTP faked), lobbies are opened with
``/play akuma`` and closed without a deal, in turn the three ways a lobby ends so: its only person presses Leave,
its host runs ``/game end``, or it stays unchanged until the idle close. At each checkpoint, after a collection:
the table writers in memory (``TableCog.outboxes``, and every live ``TableOutbox`` object), the tables the service
holds (a bounded cache: ``IDLE_TABLES_KEPT``), the asyncio tasks, the live instances of the bot's classes (and of
discord.py's) and every live object (which counts the fake Discord's own growing records too). Once warm a closed
lobby leaves nothing behind; what still grows by one per lobby here is the per-member creation cooldown
(``bot.limits.CreationCooldowns``: one discord.py ``Cooldown`` per member who opened something in the last minute,
swept after that minute), since the bench opens 1,000 lobbies by 1,000 members within a minute.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

from .discord_path import ROOT
from .memory_soak import live_objects
from .report import print_table

CHECKPOINTS = (100, 250, 500, 1000)
PERSON = 20_000  # user ids of the bench's people start here
OURS = ("bot", "cogs", "engines", "discord")  # the modules whose live instances are the bot's (not the harness's)


def counts(h) -> dict[str, int]:
    from cogs.outbox import TableOutbox

    everything = live_objects()  # after a collection
    mine = [o for o in gc.get_objects() if str(type(o).__dict__.get("__module__", "")).split(".")[0] in OURS]
    return {"outboxes": len(h.bot.get_cog("TableCog").outboxes),
            "writers": sum(isinstance(o, TableOutbox) for o in mine),
            "tables held": len(h.bot.service._tables), "tasks": len(asyncio.all_tasks()),
            "objects of bot, cogs, engines, discord": len(mine), "all objects (the fake Discord's records too)":
            everything}


async def close_one(h, number: int) -> None:
    """Lobby ``number`` opened by its own person and closed before any deal, one of three ways in turn."""
    from tests.discord_helpers import LEAVE

    user = h.user(PERSON + number, f"p{number}")
    r = await h.slash(user, "play akuma")
    table = next(t for t in h.bot.service._tables.values() if t.row.lobby_message_id == r.message.id)
    if number % 3 == 0:
        await h.click(user, r.message, label=LEAVE)
    elif number % 3 == 1:
        await h.slash(user, "game end", table=table.id)
    else:
        await h.bot.service.close_idle_lobby(table.id, table.version)
    await h.settle()
    assert table.status == "cancelled", table.status


async def measure(lobbies: int) -> list[tuple[int, dict[str, int]]]:
    sys.path.insert(0, str(ROOT))
    from tests.discord_helpers import lift_limits, start_harness

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        h = await start_harness(Path(tmp) / "bot.db")
        try:
            await lift_limits(h)
            rows.append((0, counts(h)))
            began = time.perf_counter()
            for number in range(lobbies):
                await close_one(h, number)
                if number + 1 in CHECKPOINTS or number + 1 == lobbies:
                    rows.append((number + 1, counts(h)))
                    print(f"  lobby memory: {number + 1} lobbies after {time.perf_counter() - began:.1f} s",
                          file=sys.stderr, flush=True)
        finally:
            await h.close(check=False)
    return rows


def run(lobbies: int) -> list[tuple[int, dict[str, int]]]:
    rows = asyncio.run(measure(lobbies))
    keys = list(rows[0][1])
    print_table(f"Lobbies closed before a deal: what stays in memory ({lobbies:,} lobbies)", ["lobbies closed", *keys],
                [[f"{n:,}", *(f"{c[k]:,}" for k in keys)] for n, c in rows])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.lobby_memory")
    parser.add_argument("--lobbies", type=int, default=1000)
    run(parser.parse_args().lobbies)


if __name__ == "__main__":
    main()
