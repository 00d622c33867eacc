"""Diamond Box: how fast legal placements are enumerated and the normal bot decides, on fixed positions.

    python -m bench.diamondbox_speed [--games 6] [--repeat 3]

The positions are every placement decision of seeded normal-bot games at 2, 3 and 4 players (``--turns``
half or all). Prints the mean time of ``geometry.placements_for`` for the seat to act and of the normal
heuristic's decision (``choose_for_seat(..., "normal")``) over those positions, best of ``--repeat`` passes,
and a digest of every result, so two versions of the code can be compared for both speed and sameness.
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bot.policies import choose_for_seat
from engines.diamondbox import DiamondBoxEngine, geometry
from engines.diamondbox.rules import allowed_turns, centre_of

from .report import digest

Position = tuple[geometry.Centre, list[str], str | None, tuple[int, ...], Any, list[Any], str]


def positions(games: int, counts: tuple[int, ...] = (2, 3, 4), turns: str = "half") -> list[Position]:
    """(centre, hand, designated, turns, view, legal, seed) at every placement decision of seeded bot games."""
    engine = DiamondBoxEngine()
    found: list[Position] = []
    for n in counts:
        for game in range(games):
            seed = n * 1000 + game
            state = engine.new_game([f"p{i}" for i in range(n)], seed=seed, options={"turns": turns})
            step = 0
            while actors := engine.to_act(state):
                player = actors[0]
                legal = engine.legal_actions(state, player)
                view = engine.view(state, player)
                decision_seed = f"{seed}:{step}"
                if state.choice is None:
                    found.append((centre_of(state), list(state.hands[player]), state.designated,
                                  allowed_turns(state), view, legal, decision_seed))
                action = choose_for_seat("diamondbox", view, legal, decision_seed, "normal")
                state, _ = engine.apply(state, player, action)
                step += 1
    return found


def _timed(work: Any, items: list[Position], repeat: int) -> tuple[float, list[Any]]:
    """Best-of-``repeat`` mean seconds per item, and the results of the last pass."""
    best = float("inf")
    results: list[Any] = []
    for _ in range(repeat):
        start = time.perf_counter()
        results = [work(item) for item in items]
        best = min(best, (time.perf_counter() - start) / len(items))
    return best, results


def _enumerate(p: Position) -> list[geometry.Placement]:
    return geometry.placements_for(p[0], p[1], p[2], p[3])


def _decide(p: Position) -> Any:
    return choose_for_seat("diamondbox", p[4], p[5], p[6], "normal")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.diamondbox_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games per player count")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--turns", choices=["half", "all"], default="half")
    parser.add_argument("--only", choices=["enumerate", "decide"])
    args = parser.parse_args(argv)
    random.seed(0)
    items = positions(args.games, turns=args.turns)
    print(f"{len(items)} placement positions ({args.games} games each at 2, 3, 4 players, turns {args.turns})")
    for name, work in (("enumerate", _enumerate), ("decide", _decide)):
        if args.only not in (None, name):
            continue
        seconds, results = _timed(work, items, args.repeat)
        print(f"{name:<9} {seconds * 1e3:8.3f} ms per position  results {digest(results)}", flush=True)


if __name__ == "__main__":
    main()
