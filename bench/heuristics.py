"""Each game's heuristic bot against random seats: how much better than random it plays.

    python -m bench.heuristics                  # every cell
    python -m bench.heuristics --game rocca     # one game's cells

These were the suite's "clearly better than random" tests (issue 54: a test that measures belongs in the bench);
each cell plays the same seeded games as the test did and prints the figure with a 95% Wilson interval and the bar
that test asserted. The exit status is 1 when a cell falls below its bar. The suite keeps what these games also
checked: that the bot's every choice is legal (tests/test_policy_<game>.py, "always legal" tests).
"""
from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.policies import Policy, random_policy
from bot.policies import diamondbox as diamondbox_bot
from bot.policies import pileup as pileup_bot
from bot.policies import rocca as rocca_bot
from bot.policies import twinpyramid as twinpyramid_bot
from bot.policies.arena import run_arena
from engines import get_engine

from .bots import wilson


@dataclass(frozen=True)
class Figure:
    cell: str
    games: int
    wins: float  # the bot's first places (a shared one counts 1/k) or outright wins, as the bar reads them
    bar: str
    met: bool
    note: str = ""

    def line(self) -> str:
        low, high = wilson(self.wins, self.games)
        share = self.wins / self.games if self.games else 0.0
        return (f"| {self.cell} | {self.games} | {share:.1%} ({low:.1%}–{high:.1%}) | {self.bar} | "
                f"{'yes' if self.met else 'NO'} | {self.note} |")


@dataclass(frozen=True)
class Table:
    """How the test this cell comes from seated and moved its players (the seeds play the same games)."""

    options: dict[str, Any] | None = None
    any_actor: bool = False  # a random one of the players to act moves (else the first)
    prefix: str = "p"  # the players' names: p0, p1, ...


def first_place_credit(game: str, seed: int, n: int, hero_seat: int, hero: Policy, table: Table) -> float:
    """One game, ``hero`` in ``hero_seat`` and random seats elsewhere: the hero's share of first place."""
    engine = get_engine(game)
    names = [f"{table.prefix}{i}" for i in range(n)]
    rng = random.Random(seed)
    state = engine.new_game(names, seed=seed, options=table.options)
    while actors := engine.to_act(state):
        player = rng.choice(actors) if table.any_actor else actors[0]
        legal = engine.legal_actions(state, player)
        policy = hero if player == names[hero_seat] else random_policy
        action = policy(engine.view(state, player), legal, rng)
        assert action in legal, (game, seed, action)
        state, _ = engine.apply(state, player, action)
    result = engine.result(state)
    assert result is not None
    first = result.ranking[0]
    return 1 / len(first) if names[hero_seat] in first else 0.0


def share_cell(label: str, game: str, games: int, n: int, bar: float, hero: Policy, first_seed: int = 0,
               table: Table = Table()) -> Figure:
    wins = sum(first_place_credit(game, first_seed + i, n, i % n, hero, table) for i in range(games))
    return Figure(label, games, wins, f"> {bar:.0%}", wins / games > bar, f"a random seat: {1 / n:.0%}")


def diamondbox_vs_random() -> Figure:
    """Two seats, bot against random, seats alternated; most games end in a stalemate (random seats pass)."""
    wins = {"bot": 0, "random": 0}
    games = 200
    for seed in range(games):
        bot_first = seed % 2 == 0
        policies = [diamondbox_bot.choose, random_policy] if bot_first else [random_policy, diamondbox_bot.choose]
        summary = diamondbox_bot.play_one(10_000 + seed, 2, None, policies)
        if summary.winner is not None:
            wins["bot" if summary.winner == ("p0" if bot_first else "p1") else "random"] += 1
    met = wins["bot"] >= 0.05 * games and wins["bot"] >= 4 * wins["random"]
    return Figure("diamondbox 2 vs random (outright wins)", games, wins["bot"], ">= 5% and >= 4x random's", met,
                  f"random won {wins['random']}")


def random_placer(view: Any, legal: list, rng: random.Random) -> Any:
    """Places (a random placement) whenever it can."""
    places = [a for a in legal if a.type == "place"]
    return rng.choice(places) if places else rng.choice(legal)


def diamondbox_vs_placer() -> Figure:
    wins = {"bot": 0, "other": 0}
    games = 24
    for seed in range(games):
        bot_first = seed % 2 == 0
        summary = diamondbox_bot.play_one(30_000 + seed, 2, {"turns": "all"}, [diamondbox_bot.choose, random_placer]
                                          if bot_first else [random_placer, diamondbox_bot.choose])
        if summary.winner is not None:
            wins["bot" if (summary.winner == "p0") == bot_first else "other"] += 1
    met = wins["bot"] >= 2 * wins["other"] and wins["bot"] >= 12
    return Figure("diamondbox 2 vs a random placer, turns all (outright wins)", games, wins["bot"],
                  ">= 12 and >= 2x the placer's", met, f"the placer won {wins['other']}")


def akuma_vs_random() -> Figure:
    heuristic = run_arena("akuma", games=200, players=4, seed=1000)
    baseline = run_arena("akuma", games=200, players=4, seed=1000, hero=random_policy)
    met = (heuristic.win_share > 0.40 and heuristic.win_share > baseline.win_share + 0.15
           and heuristic.average_place < baseline.average_place)
    return Figure("akuma 4 vs random", heuristic.games, heuristic.wins, "> 40%, > a random seat's + 15 points, "
                  "a better average place", met, f"a random seat: {baseline.win_share:.1%}, average place "
                  f"{heuristic.average_place:.2f} vs {baseline.average_place:.2f}")


CELLS: dict[str, list[Callable[[], Figure]]] = {
    "akuma": [akuma_vs_random],
    "diamondbox": [diamondbox_vs_random, diamondbox_vs_placer],
    "pileup": [lambda: share_cell("pileup 3 vs random", "pileup", 150, 3, 0.45, pileup_bot.choose, 5000,
                                  Table(prefix="s"))],
    "rocca": [lambda: share_cell("rocca 2 vs random", "rocca", 150, 2, 0.65, rocca_bot.choose,
                                 table=Table({"bon": False}, any_actor=True)),
              lambda: share_cell("rocca 4 with bon vs random", "rocca", 100, 4, 0.4, rocca_bot.choose,
                                 table=Table({"bon": True}, any_actor=True))],
    "twinpyramid": [lambda: share_cell("twinpyramid 2, one round, vs random", "twinpyramid", 200, 2, 0.6,
                                       twinpyramid_bot.choose, 10_000, Table({"rounds": 1}))],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.heuristics", description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(CELLS), help="repeatable; default every game")
    args = parser.parse_args(argv)
    print("| cell | games | bot's share (95% interval) | bar | met | beside it |")
    print("| --- | --- | --- | --- | --- | --- |")
    met = True
    for game in args.game or sorted(CELLS):
        for cell in CELLS[game]:
            figure = cell()
            met = met and figure.met
            print(figure.line(), flush=True)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
