"""Any searched game: how long one ``strong`` decision and one playout take, on fixed seeded positions.

    python -m bench.search_speed --game akuma [--players 3 --players 4] [--positions 24] [--iterations 24]

The positions are those ``bench.strong_budget`` uses (decisions with a choice in seeded ``normal`` games). Prints,
per seat count, the mean time of one playout (the normal choice played out on one determinisation) and the strong
decision time (p50, p99) at a fixed number of playouts, each with a digest of every playout score and every choice,
so two versions of the code can be compared for both speed and sameness. (``bench.twinpyramid_speed`` measures
Twin Pyramid the same way on positions that cover every kind of its pending decisions.)
"""
from __future__ import annotations

import argparse
import random
import time

from bot.policies import choose_for_seat
from bot.policies.search import choose_strong, playout, sampler_for, searches
from engines import GAMES, Action, View

from .report import digest, rank_percentile
from .strong_budget import positions, seat_counts

Position = tuple[View, list[Action], str]  # (the seat's view, legal, decision seed)


def playout_scores(game: str, items: list[Position], rounds: int) -> tuple[list[float | None], float]:
    """Scores of ``rounds`` playouts of the normal choice per position, and the mean seconds per playout."""
    sample = sampler_for(game)
    assert sample is not None  # only searched games are measured
    scores: list[float | None] = []
    spent = 0.0
    for view, legal, seed in items:
        normal = choose_for_seat(game, view, legal, seed, "normal")
        for r in range(rounds):
            state = sample(view, random.Random(f"{seed}:{r}"))
            start = time.perf_counter()
            scores.append(playout(game, state, view.viewer, normal, random.Random(r)))
            spent += time.perf_counter() - start
    return scores, spent / max(1, len(scores))


def strong_choices(game: str, items: list[Position], iterations: int) -> tuple[list[int], list[float]]:
    """The strong choice (its index in legal) at each position, and the seconds each took."""
    chosen, times = [], []
    for view, legal, seed in items:
        start = time.perf_counter()
        action = choose_strong(game, view, legal, seed, iterations=iterations)
        times.append(time.perf_counter() - start)
        chosen.append(legal.index(action))
    return chosen, times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.search_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=[g for g in GAMES if searches(g)])
    parser.add_argument("--players", type=int, action="append", help="repeatable; default every count 2-4 allowed")
    parser.add_argument("--positions", type=int, default=24, help="decisions per seat count")
    parser.add_argument("--iterations", type=int, default=24, help="playouts per strong decision")
    parser.add_argument("--playouts", type=int, default=4, help="playouts per position for the playout time")
    args = parser.parse_args(argv)
    for name in ("positions", "iterations", "playouts"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    counts = seat_counts(args.game)
    for n in args.players or counts:
        if n not in counts:
            parser.error(f"{args.game} is measured at {', '.join(map(str, counts))} players, not {n}")
        items = positions(args.game, n, args.positions)
        scores, per_playout = playout_scores(args.game, items, args.playouts)
        print(f"{args.game} {n}p  playout mean {per_playout * 1e3:7.2f} ms ({len(scores)})  scores {digest(scores)}",
              flush=True)
        chosen, times = strong_choices(args.game, items, args.iterations)
        print(f"{args.game} {n}p  decision p50 {rank_percentile(times, 0.5) * 1e3:7.1f} ms  "
              f"p99 {rank_percentile(times, 0.99) * 1e3:7.1f} ms  "
              f"({len(items)} positions, {args.iterations} playouts)  "
              f"choices {digest(chosen)}", flush=True)


if __name__ == "__main__":
    main()
