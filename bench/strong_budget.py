"""How many playouts the ``strong`` bot runs in its time budget, per game and seat count.

    python -m bench.strong_budget [--budget S] [--positions 12] [--game G ...]

``bench.bots`` measures strength with a fixed number of playouts per decision (``--iterations``), so that a cell
reproduces; the bot itself searches for ``STRONG_BUDGET_S`` seconds. This prints how many playouts that budget
buys on this machine, over decisions (more than one legal action) of seeded ``normal`` games, so a cell's
``--iterations`` can be read as "the bot on a machine this fast" (run it on an otherwise idle machine).
"""
from __future__ import annotations

import argparse
import statistics
import time

from bot.policies import STRONG_BUDGET_S, choose_for_seat
from bot.policies.search import choose_strong, searches
from engines import GAMES, Action, View, get_engine


def seat_counts(game: str) -> list[int]:
    """2, 3 and 4 players where the game allows them (the counts ``bench.bots`` measures)."""
    engine = get_engine(game)
    return [n for n in (2, 3, 4) if engine.min_players <= n <= engine.max_players]


def positions(game: str, players: int, wanted: int, every: int = 5) -> list[tuple[View, list[Action], str]]:
    """Every ``every``-th decision with a choice of seeded normal-bot games, ``wanted`` of them spread over games."""
    engine = get_engine(game)
    found: list[tuple[View, list[Action], str]] = []
    per_game = max(1, wanted // 6)
    for seed in range(900, 930):
        state = engine.new_game([f"p{i}" for i in range(players)], seed=seed)
        taken = step = 0
        while (actors := engine.to_act(state)) and taken < per_game:
            player = actors[0]
            legal = engine.legal_actions(state, player)
            view = engine.view(state, player)
            if len(legal) > 1 and step % every == 0:
                found.append((view, legal, f"{seed}:{step}"))
                taken += 1
            action = choose_for_seat(game, view, legal, f"{seed}:{step}:{player}", "normal")
            state, _ = engine.apply(state, player, action)
            step += 1
        if len(found) >= wanted:
            break
    return found[:wanted]


def measure(game: str, players: int, budget_s: float, wanted: int) -> tuple[list[int], list[float]]:
    """Playouts run and seconds taken by each strong decision at the positions."""
    playouts, seconds = [], []
    for view, legal, seed in positions(game, players, wanted):
        report: dict[str, int] = {}
        start = time.perf_counter()
        choose_strong(game, view, legal, seed, budget_s=budget_s, report=report)
        seconds.append(time.perf_counter() - start)
        playouts.append(report["playouts"])
    return playouts, seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.strong_budget", description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=STRONG_BUDGET_S, help="seconds per decision")
    parser.add_argument("--positions", type=int, default=12, help="decisions per game and seat count")
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default every searched game")
    args = parser.parse_args(argv)
    print(f"# playouts per strong decision in {args.budget} s (median / min over {args.positions} positions)")
    for game in args.game or [g for g in GAMES if searches(g)]:
        for players in seat_counts(game):
            playouts, seconds = measure(game, players, args.budget, args.positions)
            if not playouts:
                continue
            print(f"{game:12} {players}p  playouts median {statistics.median(playouts):6.0f}  min {min(playouts):4d}"
                  f"  decision median {statistics.median(seconds) * 1000:6.1f} ms", flush=True)


if __name__ == "__main__":
    main()
