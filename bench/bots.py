"""Head-to-head: one ``strong`` seat (rotating through the seats) against ``normal`` seats, or any two levels.

``--hero oracle`` is the strong search handed the true state instead of samples (every hidden card and the
future dice and draws): no bot can play it, but its win share bounds what searching with these playouts can
reach in a game, which tells a game's luck from a weak search. ``--hero seer`` knows every hidden card but not
the dice and draws to come (the state's random generator gets a fresh seed per sample, and the draw piles a new
order through the game's ``shuffle_pile`` sampler hook).

    python -m bench.bots --games 400 --iterations 40
    python -m bench.bots --game akuma --players 3 --games 100 --iterations 24
    python -m bench.bots --hero normal --field easy --games 400

For each game and seat count prints the games played, the hero seat's win share (a first place
shared by k players counts 1/k) with a 95% Wilson interval, the target (60% at 2 players, 1.5× the
fair share at 3–4: 50% / 37.5%), and the hero's time per decision (p50/p99). Game i uses seed
``seed + i`` and puts the hero in seat i mod players. One process, one core.

``--log FILE`` appends each finished game to FILE (one JSON line) and skips the games FILE already holds for
the same cell and settings, so a long cell can be stopped and resumed, or split over machines and merged
(``cat`` the files): ``python -m bench.bots --game twinpyramid --players 2 --iterations 36 --log tp.jsonl``.

``--streams per_seat`` deals every game with per-seat streams (the same-deal tournament variant,
engines/streams.py) for the games that take the option; the same seeds as a ``shared`` run, so the two cells are
paired game by game.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import sampler_hooks
from bot.policies import LEVELS, STRONG_BUDGET_S, choose_for_seat
from bot.policies.search import choose_strong
from engines import GAMES, Action, View, get_engine
from engines.rng import Rng
from engines.streams import STREAMS_FIELD, Streams

from .report import rank_percentile

ORACLES = ("oracle", "seer")  # measuring aids that see what no bot may (see the module's docstring)


@dataclass(frozen=True)
class Matchup:
    """Who plays: the ``hero`` level in one seat, the ``field`` level in all the others."""

    hero: str = "strong"
    field: str = "normal"
    iterations: int | None = 40  # the strong search's playouts per decision; None: ``budget_s`` seconds
    budget_s: float = STRONG_BUDGET_S
    streams: Streams = Streams.SHARED  # the games' ``streams`` option (engines/streams.py)

    def options(self) -> dict[str, Any]:
        return {} if self.streams is Streams.SHARED else {STREAMS_FIELD: self.streams.value}

    def choose(self, level: str, game: str, view: View, legal: list[Action], seed: str,
               state: Any = None) -> Action:
        if level in ORACLES:
            engine, hooks = get_engine(game), sampler_hooks(game)
            truth = engine.dump(state)

            def sample(_view: Any, rng: random.Random) -> Any:
                known = engine.load(truth)
                if level == "seer":  # the hidden cards, but not the dice and draws to come
                    known.rng = Rng(state=rng.getrandbits(64))
                    if hooks is not None and hooks.shuffle_pile is not None:
                        hooks.shuffle_pile(known, rng)
                return known

            return choose_strong(game, view, legal, seed, budget_s=self.budget_s, iterations=self.iterations,
                                 sample=sample)
        if level == "strong":
            return choose_strong(game, view, legal, seed, budget_s=self.budget_s, iterations=self.iterations)
        return choose_for_seat(game, view, legal, seed, level)


@dataclass
class Cell:
    game: str
    players: int
    games: int = 0
    wins: float = 0.0
    times: list[float] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def target(self) -> float:
        return 0.6 if self.players == 2 else 1.5 / self.players


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(game: str, players: int, seed: int, hero_seat: int, matchup: Matchup, times: list[float]) -> float:
    engine = get_engine(game)
    names = [f"s{i}" for i in range(players)]
    hero = names[hero_seat]
    state = engine.new_game(names, seed=seed, options=matchup.options())
    step = 0
    while actors := engine.to_act(state):
        player = actors[0]
        legal = engine.legal_actions(state, player)
        view = engine.view(state, player)
        if player == hero:
            t = time.perf_counter()
            action = matchup.choose(matchup.hero, game, view, legal, f"{seed}:{step}", state)
            times.append(time.perf_counter() - t)
        else:
            action = matchup.choose(matchup.field, game, view, legal, f"{seed}:{step}:{player}")
        state, _ = engine.apply(state, player, action)
        step += 1
    result = engine.result(state)
    assert result is not None
    return 1.0 / len(result.ranking[0]) if hero in result.ranking[0] else 0.0


def cell_key(game: str, players: int, seed: int, matchup: Matchup) -> dict[str, Any]:
    """What makes two logged games part of the same cell."""
    budget = None if matchup.iterations is not None else matchup.budget_s
    key = {"game": game, "players": players, "seed": seed, "hero": matchup.hero, "field": matchup.field,
           "iterations": matchup.iterations, "budget": budget}
    return key if matchup.streams is Streams.SHARED else {**key, STREAMS_FIELD: matchup.streams.value}


def logged_games(log: Path | None, key: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The games of this cell already in ``log``, by index (a line cut short by a stop is ignored)."""
    if log is None or not log.exists():
        return {}
    done = {}
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if {k: entry.get(k) for k in key} == key:
            done[entry["index"]] = entry
    return done


def run_cell(game: str, players: int, games: int, seed: int, matchup: Matchup,
             max_seconds: float | None = None, log: Path | None = None) -> Cell:
    cell = Cell(game, players)
    key = cell_key(game, players, seed, matchup)
    done = logged_games(log, key)
    if log is not None and log.exists() and not log.read_text().endswith("\n"):
        with log.open("a") as out:
            out.write("\n")  # a line cut short by a stop stays on its own line
    start = time.perf_counter()
    for i in range(games):
        if i in done:
            win, times = done[i]["win"], done[i]["times"]
        elif max_seconds is not None and time.perf_counter() - start > max_seconds:
            continue  # out of time: later games may still be in the log
        else:
            times = []
            win = play_one(game, players, seed + i, i % players, matchup, times)
            if log is not None:
                with log.open("a") as out:
                    out.write(json.dumps({**key, "index": i, "win": win, "times": times}) + "\n")
        cell.wins += win
        cell.times += times
        cell.games += 1
    return cell


def format_cell(cell: Cell) -> str:
    lo, hi = wilson(cell.wins, cell.games)
    ok = "meets" if lo >= cell.target else ("below" if hi < cell.target else "undecided")
    return (f"{cell.game:<12} {cell.players}p  games {cell.games:>4}  hero win share {cell.share:.3f} "
            f"[{lo:.3f}, {hi:.3f}]  target {cell.target:.3f} ({ok})  fair {1 / cell.players:.3f}  "
            f"decision p50 {rank_percentile(cell.times, 0.5) * 1000:.2f} ms "
            f"p99 {rank_percentile(cell.times, 0.99) * 1000:.2f} ms ({len(cell.times)} decisions)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default every game")
    parser.add_argument("--players", type=int, action="append", help="repeatable; default 2, 3, 4 (Akuma 3, 4)")
    parser.add_argument("--games", type=int, default=400, help="games per cell")
    parser.add_argument("--iterations", type=int, default=40,
                        help="playouts per decision (reproducible); 0 = use --budget seconds instead")
    parser.add_argument("--budget", type=float, default=STRONG_BUDGET_S,
                        help="seconds per decision when --iterations 0 (default: the bot's own budget)")
    parser.add_argument("--hero", choices=[*LEVELS, *ORACLES], default="strong",
                        help="the level of the one rotating seat (oracle: strong search that sees the true state; "
                             "seer: the hidden cards but not the dice and draws to come)")
    parser.add_argument("--field", choices=LEVELS, default="normal", help="the level of every other seat")
    parser.add_argument("--streams", choices=[s.value for s in Streams], default=Streams.SHARED.value,
                        help="the games' streams option (per_seat: the same-deal variant; games without it skipped)")
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--max-seconds", type=float, default=None, help="stop a cell early after this long")
    parser.add_argument("--log", type=Path, default=None,
                        help="append each game to this file and skip the games it already holds (resume)")
    args = parser.parse_args(argv)
    matchup = Matchup(args.hero, args.field, args.iterations or None, args.budget, Streams(args.streams))
    print(f"# {matchup.hero} vs {matchup.field} — strong iterations/decision: {matchup.iterations or 'time'}  "
          f"budget: {matchup.budget_s}s  streams: {matchup.streams.value}")
    for game in args.game or GAMES:
        engine = get_engine(game)
        if matchup.options() and STREAMS_FIELD not in engine.options_model.model_fields:
            print(f"{game:<12} skipped: no {STREAMS_FIELD} option")
            continue
        for players in args.players or [2, 3, 4]:
            if not engine.min_players <= players <= engine.max_players:
                continue
            cell = run_cell(game, players, args.games, args.seed, matchup, args.max_seconds, args.log)
            print(format_cell(cell), flush=True)


if __name__ == "__main__":
    main()
