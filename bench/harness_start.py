"""``python -m bench.harness_start [--starts N]``: what a Discord-layer test pays before its first interaction.

Each start is what one harness test does (``tests/discord_helpers.start_harness`` on a new SQLite file, on a new
event loop as pytest-asyncio gives each test): build the bot, log in through the fake edge (``setup_hook``: storage
and its migrations, the cogs and their command tree, the thinking workers), READY and GUILD_CREATE, then close.
Printed per start, as the median and the slowest tenth of the starts after the first (the first also pays the
process's imports and one-off work): the wall time until the harness is started, until the bot's thinking workers
are warm too (what the first bot move of a test waits for), the CPU of this process, and the CPU of the worker
processes it spawned (read from /proc before they are closed).
"""
from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

from .discord_path import ROOT
from .report import median, percentile, print_table
from .service_load import cpu_seconds


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def one_start(folder: Path) -> dict[str, float]:
    from tests.discord_helpers import start_harness

    began, cpu = time.perf_counter(), own_cpu()
    h = await start_harness(folder / "bot.db")
    started = time.perf_counter()
    await h.bot.thinker.ready()
    warm = time.perf_counter()
    pids = h.bot.thinker.quick.pids() + h.bot.thinker.strong.pids()
    workers = sum(cpu_seconds(pid) for pid in pids)
    await h.close()
    return {"started": started - began, "warm": warm - began, "cpu": own_cpu() - cpu, "workers cpu": workers}


def run(starts: int) -> list[dict[str, float]]:
    sys.path.insert(0, str(ROOT))
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(starts + 1):
            folder = Path(tmp) / str(n)
            folder.mkdir()
            figures.append(asyncio.run(one_start(folder)))
    first, rest = figures[0], figures[1:]
    keys = list(first)
    rows = [["first start", *(f"{first[k] * 1000:.0f} ms" for k in keys)],
            [f"median of {len(rest)}", *(f"{median([f[k] for f in rest]) * 1000:.0f} ms" for k in keys)],
            ["90th percentile", *(f"{percentile([f[k] for f in rest], 90) * 1000:.0f} ms" for k in keys)]]
    print_table(f"A harness test's start ({starts} starts after the first, each on its own event loop)",
                ["", "until started", "until its workers are warm", "CPU here", "CPU of its workers"], rows)
    return figures


def main() -> None:
    # A worker process imports its parent's main module, unless that is a package's ``__main__`` as under pytest
    # (``python -m pytest``) or the bot (``python -m bot``): without this, this module's own imports would be
    # counted in every worker's start.
    sys.modules["__main__"].__spec__ = sys.modules["__main__"].__file__ = None  # type: ignore[assignment]
    parser = argparse.ArgumentParser(prog="python -m bench.harness_start")
    parser.add_argument("--starts", type=int, default=20)
    run(parser.parse_args().starts)


if __name__ == "__main__":
    main()
