"""Twin Pyramid: how long one ``strong`` decision and one playout take, on fixed seeded positions.

    python -m bench.twinpyramid_speed [--games 2] [--every 9] [--iterations 36]

The positions are decisions (more than one legal action) of seeded normal-bot games at 2, 3 and 4 players,
every ``--every``-th such decision, with at most ``--per-phase`` of each phase (turn, build, name_suit, ...) per
player count, so pending decisions are there too. Prints the strong decision time (p50, p99, mean) and the mean
time of one playout (the normal choice played out on one determinisation), with a digest of every decision and
every playout score, so two versions of the code can be compared for both speed and sameness.
"""
from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from bot.policies import choose_for_seat
from engines import Action, View
from engines.twinpyramid import TwinPyramidEngine

from .report import digest, rank_percentile
from .search_speed import playout_scores, strong_choices

ENGINE = TwinPyramidEngine()
Position = tuple[str, View, list[Action], str]  # (state dump, the seat's view, legal, decision seed)


def _phase(state: Any) -> str:
    return "arranging" if state.arranging else (state.pending.kind if state.pending else "turn")


def positions(games: int = 2, counts: tuple[int, ...] = (2, 3, 4), every: int = 9,
              per_phase: int = 12) -> list[Position]:
    """Every ``every``-th decision with a choice of seeded normal-bot games (at most ``per_phase`` of each
    phase per player count, but every decision of a rare phase: arranging, order_three, two_choice)."""
    found: list[Position] = []
    for n in counts:
        taken: Counter[str] = Counter()
        for game in range(games):
            seed = 7000 + n * 100 + game
            # the original's two rounds (the default when the recorded digests were taken) under the rules of
            # then (ENGINE.stored_options of a version-2 game: the host starts, rules 2): whole matches
            state = ENGINE.new_game([f"p{i}" for i in range(n)], seed=seed,
                                    options=ENGINE.stored_options({"rounds": 2}, 2))
            step = 0
            while actors := ENGINE.to_act(state):
                player = actors[0]
                legal = ENGINE.legal_actions(state, player)
                view = ENGINE.view(state, player)
                phase = _phase(state)
                rare = phase in ("arranging", "order_three", "two_choice")
                if len(legal) > 1 and (rare or step % every == 0) and taken[phase] < per_phase:
                    taken[phase] += 1
                    found.append((ENGINE.dump(state), view, legal, f"{seed}:{step}"))
                action = choose_for_seat("twinpyramid", view, legal, f"{seed}:{step}:{player}", "normal")
                state, _ = ENGINE.apply(state, player, action)
                step += 1
    return found


def decisions(items: list[Position], iterations: int) -> tuple[list[int], list[float]]:
    """The strong choice (its index in legal) at each position, and the seconds each took."""
    return strong_choices("twinpyramid", [(view, legal, seed) for _dump, view, legal, seed in items], iterations)


def playouts(items: list[Position], rounds: int) -> tuple[list[float | None], float]:
    """Scores of ``rounds`` playouts of the normal choice per position, and the mean seconds per playout."""
    return playout_scores("twinpyramid", [(view, legal, seed) for _dump, view, legal, seed in items], rounds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.twinpyramid_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="seeded games per player count")
    parser.add_argument("--every", type=int, default=9, help="take every n-th decision with a choice")
    parser.add_argument("--per-phase", type=int, default=12, help="at most this many of a phase per player count")
    parser.add_argument("--iterations", type=int, default=36, help="playouts per strong decision")
    parser.add_argument("--playouts", type=int, default=4, help="playouts per position for the playout time")
    args = parser.parse_args(argv)
    items = positions(args.games, every=args.every, per_phase=args.per_phase)
    phases = Counter(_phase(ENGINE.load(dump)) for dump, _view, _legal, _seed in items)
    print(f"{len(items)} positions ({args.games} games each at 2, 3, 4 players): "
          + ", ".join(f"{k} {v}" for k, v in sorted(phases.items(), key=str)))
    scores, per_playout = playouts(items, args.playouts)
    print(f"playout   mean {per_playout * 1e3:8.2f} ms  ({len(scores)} playouts)  scores {digest(scores)}", flush=True)
    chosen, times = decisions(items, args.iterations)
    print(f"decision  p50 {rank_percentile(times, 0.5) * 1e3:8.1f} ms  "
          f"p99 {rank_percentile(times, 0.99) * 1e3:8.1f} ms  "
          f"mean {sum(times) / len(times) * 1e3:8.1f} ms  (iterations {args.iterations})  choices {digest(chosen)}",
          flush=True)


if __name__ == "__main__":
    main()
