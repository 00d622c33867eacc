"""Many strong bots at once: how the strong pool answers bursts of decisions that queue for its workers.

    python -m bench.strong_queue [--workers 1] [--burst 1 --burst 2 ...] [--rounds 3]

Each burst asks ``k`` strong decisions at the same moment (3-player Rocca positions, the real decision function in
real worker processes) and waits for all of them; a round of bursts per size. Prints, per burst size, how many
decisions fell back to ``normal`` on the event loop (late: budget plus margin exceeded) and the slowest and mean
time a table waited for its answer. One worker is what a 2-core machine gets (``BOT_THINK_WORKERS`` defaults to
the cores less one).
"""
from __future__ import annotations

import argparse
import asyncio
import time

from bot.thinking import Thinker
from engines import get_engine

GAME = "rocca"


async def measure(workers: int, bursts: list[int], rounds: int) -> list[tuple[int, int, int, float, float]]:
    """(burst size, decisions, fallbacks, slowest answer s, mean answer s) per burst size."""
    engine = get_engine(GAME)
    tables = []
    for seed in range(8):
        state = engine.new_game(["a", "b", "c"], seed=seed)
        tables.append((state, engine.to_act(state)[0]))
    thinker = Thinker(workers)
    thinker.start()
    rows = []
    try:
        await thinker.ready()
        for size in bursts:
            before, waits = thinker.fallbacks, []

            async def one(i: int, size: int = size, waits: list[float] = waits) -> None:
                state, player = tables[i % len(tables)]
                asked = time.monotonic()
                await thinker.decide(engine, state, player, f"burst{size}:{i}", "strong")
                waits.append(time.monotonic() - asked)

            for r in range(rounds):
                await asyncio.gather(*(one(r * size + i) for i in range(size)))
            rows.append((size, len(waits), thinker.fallbacks - before, max(waits), sum(waits) / len(waits)))
    finally:
        await thinker.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.strong_queue", description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1, help="strong workers")
    parser.add_argument("--burst", type=int, action="append", help="decisions asked at once (repeatable); "
                                                                   "default 1, 2, 4, 8")
    parser.add_argument("--rounds", type=int, default=3, help="bursts per size")
    args = parser.parse_args(argv)
    bursts = args.burst or [1, 2, 4, 8]
    if args.workers < 1 or args.rounds < 1 or min(bursts) < 1:
        parser.error("--workers, --rounds and every --burst must be at least 1")
    print(f"# {args.workers} strong worker(s), {args.rounds} bursts per size, {GAME} 3-player positions")
    print("burst  decisions  fell back on the loop  slowest answer  mean answer")
    for size, asked, fallbacks, slowest, mean in asyncio.run(measure(args.workers, bursts, args.rounds)):
        print(f"{size:5d}  {asked:9d}  {fallbacks:21d}  {slowest:12.2f} s  {mean:9.2f} s", flush=True)


if __name__ == "__main__":
    main()
