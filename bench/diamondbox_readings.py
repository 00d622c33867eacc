"""Diamond Box: how the reading of condition 1, the card table and the ``turns`` option play, with bots.

    python -m bench.diamondbox_readings --games 100 --players 3

For each variant prints: stalemates, placements per game, share of placements that are 6-square covers,
share of passes among actions, placements refused by the diamond rule (share of the positions that meet every
other condition at each placement decision), and diamonds visible in the centre at the end.
"""
from __future__ import annotations

import argparse
import random
from statistics import mean

from bot.policies import diamondbox as bot
from engines.diamondbox import DiamondBoxEngine, cards, geometry
from engines.diamondbox.cards import first_guess_patterns, install_patterns

TUNED = dict(cards.table().patterns)

VARIANTS = [  # (turns, reading, table)
    ("half", "strict", "default"), ("half", "lenient", "first_guess"),
    ("all", "strict", "default"), ("all", "strict", "first_guess"),
    ("all", "lenient", "default"), ("all", "lenient", "first_guess"),
]


def _candidates(engine: DiamondBoxEngine, state, player: str) -> int:
    return sum(1 for a in engine.legal_actions(state, player) if a.type == "place")


def play(seed: int, players: int, turns: str, reading: str) -> dict:
    engine = DiamondBoxEngine()
    names = [f"p{i}" for i in range(players)]
    state = engine.new_game(names, seed=seed, options={"turns": turns})
    rng = random.Random(seed)
    out = {"six": 0, "placed": 0, "passes": 0, "actions": 0, "legal": 0, "without_rule": 0}
    while actors := engine.to_act(state):
        p = actors[0]
        legal = engine.legal_actions(state, p)
        if any(a.type == "place" for a in legal) or any(a.type == "pass" for a in legal):
            out["legal"] += sum(1 for a in legal if a.type == "place")
            geometry.DIAMONDS = "off"
            out["without_rule"] += _candidates(engine, state, p)
            geometry.DIAMONDS = reading
        action = bot.choose(engine.view(state, p), legal, rng)
        state, events = engine.apply(state, p, action)
        out["actions"] += 1
        out["passes"] += action.type == "pass"
        for e in events:
            if e.type == "card_placed":
                out["placed"] += 1
                out["six"] += e.data["covered"] == 6
    out["stalemate"] = state.winner is None
    centre = geometry.build_centre((p.card, p.turn, p.x, p.y) for p in state.placed)
    out["diamonds"] = sum(1 for square in centre.values() if square.diamond != ".")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.diamondbox_readings", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args(argv)
    print("turns reading table        stalemates placements 6-square passes diamond-refused visible-diamonds")
    for turns, reading, table in VARIANTS:
        install_patterns(first_guess_patterns() if table == "first_guess" else TUNED)
        geometry.DIAMONDS = reading
        rows = [play(seed, args.players, turns, reading) for seed in range(args.games)]
        placed = sum(r["placed"] for r in rows)
        refused = 1 - sum(r["legal"] for r in rows) / max(1, sum(r["without_rule"] for r in rows))
        print(f"{turns:<5} {reading:<7} {table:<12} {mean(r['stalemate'] for r in rows):>9.1%} "
              f"{placed / len(rows):>10.1f} {sum(r['six'] for r in rows) / max(1, placed):>8.1%} "
              f"{sum(r['passes'] for r in rows) / sum(r['actions'] for r in rows):>6.1%} {refused:>15.1%} "
              f"{mean(r['diamonds'] for r in rows):>16.1f}", flush=True)
    install_patterns(TUNED)
    geometry.DIAMONDS = "strict"


if __name__ == "__main__":
    main()
