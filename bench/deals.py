"""How Twin Pyramid deals end with the project's bots in every seat.

    python -m bench.deals --deals 300 --players 2 3 4
    python -m bench.deals --deals 300 --streams per_seat   # the same deals with every seat's own pile (D19)

For each player count, plays ``--deals`` deals (one-deal matches, seeds 0..deals-1) with the
heuristic policy in every seat and prints the share of deals that end by a completed field
pyramid, by a burst, or otherwise (the reason the engine gave), and the median number of turns
per player. The rules target: at least 97% of deals end by a pyramid or a burst.
"""
from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field
from statistics import median

from bot.policies import heuristic_for
from engines import get_engine
from engines.streams import STREAMS_FIELD, Streams


@dataclass
class DealStats:
    players: int
    reasons: Counter = field(default_factory=Counter)
    turns_per_player: list[float] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return sum(self.reasons.values())

    def share(self, *reasons: str) -> float:
        return sum(self.reasons[r] for r in reasons) / self.deals if self.deals else 0.0


def play_deal(players: int, seed: int, options: dict | None = None) -> tuple[str, float]:
    """One deal with bots in every seat: (how it ended, turns per player)."""
    engine = get_engine("twinpyramid")
    names = [f"s{i}" for i in range(players)]
    state = engine.new_game(names, seed=seed, options={"rounds": 1, **(options or {})})
    policy = heuristic_for("twinpyramid")
    rng = random.Random(seed)
    while state.pending is None or state.pending.kind != "deal_over":
        actors = engine.to_act(state)
        if not actors:
            break
        player = actors[0]
        action = policy(engine.view(state, player), engine.legal_actions(state, player), rng)
        state, _ = engine.apply(state, player, action)
    outcome = state.last_deal
    assert outcome is not None
    return outcome.reason, state.turns / players


def measure(players: int, deals: int, seed: int = 0, options: dict | None = None) -> DealStats:
    stats = DealStats(players=players)
    for i in range(deals):
        reason, turns = play_deal(players, seed + i, options)
        stats.reasons[reason] += 1
        stats.turns_per_player.append(turns)
    return stats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.deals", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--streams", choices=[s.value for s in Streams], default=Streams.SHARED.value,
                        help="the streams option (per_seat: the same-deal variant, D19)")
    args = parser.parse_args(argv)
    options = {} if args.streams == Streams.SHARED.value else {STREAMS_FIELD: args.streams}
    print("players  deals  pyramid  burst  ended-by-pyramid-or-burst  other                 median turns/player")
    for n in args.players:
        s = measure(n, args.deals, args.seed, options)
        other = {r: c for r, c in s.reasons.items() if r not in ("complete", "burst")}
        print(f"{n:>7}  {s.deals:>5}  {s.share('complete'):>7.1%}  {s.share('burst'):>5.1%}  "
              f"{s.share('complete', 'burst'):>25.1%}  {other!s:<20}  {median(s.turns_per_player):>6.1f}")


if __name__ == "__main__":
    main()
