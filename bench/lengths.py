"""How long a game takes: whole games with the project's normal bots in every seat, for every game and every seat
count it allows, written as data the lobby reads (``bot/data/lengths.json``).

    python -m bench.lengths [--games 100] [--seed 0] [--game G ...] [--check]
    python -m bench.lengths --minutes     # expected minutes at each game's defaults, from the stored file
    python -m bench.lengths --report [--games 40]   # the lobby's minutes beside whole games' median and p90

A decision is a turn where a seat must choose, counted as ``bench.table_feel`` counts person-turns: each time a
seat is named by the engine's ``to_act`` at a new state (a seat that acts and is named again decides again; a
seat still waiting while another acts does not). Per game and seat count the file keeps the mean decisions per
seat and the bots' mean thinking time per decision (the ``normal`` level's heuristic, timed here), over games with
seeds ``seed .. seed + games - 1``. Twin Pyramid is measured per deal (one-deal matches, its ``deals`` option), so
its length follows the number of deals a table chooses; the other games per whole game at their defaults.

The model of the expected length (``bot/lengths.py`` computes it for a lobby):

    seconds = Σ over people  (decisions per seat × 8 s)
            + Σ over bots    (decisions per seat × (the scheduler's pacing delay, 1.5 s, + thinking per decision))

times the units the table plays (Twin Pyramid: its deals; one for the others). ``--check`` measures again and
says whether the stored file matches (the figures are deterministic but the thinking times; those may differ).
"""
from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.lengths import DATA_FILE, PERSON_SECONDS, expected_seconds
from bot.settings import Settings
from bot.thinking import decide_here
from engines import GAMES, get_engine

from .report import print_table

# Options measured instead of the game's defaults: Twin Pyramid one deal at a time (its unit: a deal).
MEASURED_OPTIONS: dict[str, dict[str, Any]] = {"twinpyramid": {"deals": 1}}


@dataclass
class Tally:
    """Decisions per seat and the bots' thinking time over the games of one game and seat count."""

    decisions: list[float] = field(default_factory=list)  # per game: mean decisions per seat
    think_s: float = 0.0
    moves: int = 0


def play_game(game: str, seats: int, seed: int,
              options: dict[str, Any] | None = None) -> tuple[dict[str, int], float, int]:
    """One game with normal bots in every seat: decisions per seat, seconds spent thinking, moves made
    (``options``: default the measured unit's, ``MEASURED_OPTIONS``)."""
    engine = get_engine(game)
    players = [f"s{i}" for i in range(seats)]
    chosen = MEASURED_OPTIONS.get(game, {}) if options is None else options
    state = engine.new_game(players, seed=seed, options=chosen)
    decisions = dict.fromkeys(players, 0)
    for player in engine.to_act(state):
        decisions[player] += 1
    think, moves = 0.0, 0
    while engine.result(state) is None:
        waiting = engine.to_act(state)
        player = waiting[0]
        began = time.perf_counter()
        action = decide_here(engine, state, player, f"{seed}:{moves}:{player}", "normal")
        think += time.perf_counter() - began
        state, _ = engine.apply(state, player, action)
        moves += 1
        for named in engine.to_act(state):
            if named == player or named not in waiting:
                decisions[named] += 1
    return decisions, think, moves


def measure(game: str, seats: int, games: int, seed: int) -> Tally:
    tally = Tally()
    for n in range(seed, seed + games):
        decisions, think, moves = play_game(game, seats, n)
        tally.decisions.append(sum(decisions.values()) / seats)
        tally.think_s += think
        tally.moves += moves
    return tally


def entry(game: str, seats: int, games: int, seed: int) -> dict[str, float]:
    tally = measure(game, seats, games, seed)
    return {"decisions_per_seat": round(sum(tally.decisions) / len(tally.decisions), 2),
            "bot_think_s_per_decision": round(tally.think_s / max(1, tally.moves), 4)}


def measure_all(games: int, seed: int, only: list[str] | None = None) -> dict[str, Any]:
    """The whole file's content (every game of ``only``, default every game)."""
    command = f"python -m bench.lengths --games {games} --seed {seed}"
    data: dict[str, Any] = {
        "command": command, "seeds": [seed, seed + games - 1],
        "person_seconds_per_decision": PERSON_SECONDS, "bot_delay_s": Settings.model_fields["bot_move_delay"].default,
        "games": {}}
    for game in only or GAMES:
        engine = get_engine(game)
        options = MEASURED_OPTIONS.get(game, {})
        data["games"][game] = {
            "options": options,
            "seats": {str(n): entry(game, n, games, seed) for n in range(engine.min_players, engine.max_players + 1)}}
    return data


def same_figures(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal but for the thinking times (machine-dependent)."""
    def strip(data: dict[str, Any]) -> Any:
        return {game: {k: ({n: e["decisions_per_seat"] for n, e in v.items()} if k == "seats" else v)
                       for k, v in g.items()} for game, g in data["games"].items()}
    return strip(a) == strip(b)


# Rows of ``--minutes``: every game at its defaults, and Twin Pyramid also at the original's two rounds (its
# default before the length was counted in deals).
MINUTES_ROWS: list[tuple[str, dict[str, Any]]] = [*((game, {}) for game in GAMES), ("twinpyramid", {"rounds": 2})]


def print_minutes() -> None:
    rows = []
    for game, options in MINUTES_ROWS:
        cells = []
        for seats in (3, 4):
            people = expected_seconds(game, options, seats, ())
            mixed = expected_seconds(game, options, 2, ["normal"] * (seats - 2))
            cells += ["-" if people is None else f"{people / 60:.1f}", "-" if mixed is None else f"{mixed / 60:.1f}"]
        rows.append([game, json.dumps(options), *cells])
    print_table("Expected minutes (bot/data/lengths.json; 8 s a person decision, 1.5 s + thinking a bot decision)",
                ["game", "options", "3 people", "2 people + 1 bot", "4 people", "2 people + 2 bots"], rows)


# Rows of ``--report``: every game at its defaults (Twin Pyramid's default follows the seats: one round up to four,
# one deal at five and six), and Twin Pyramid's quick game (one deal) where the lobby offers it beside Start.
REPORT_ROWS: list[tuple[str, dict[str, Any]]] = [*((game, {}) for game in GAMES), ("twinpyramid", {"deals": 1})]
PEOPLE_WITH_BOTS = 2  # the mixed table: two people, bots in the other seats


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def game_seconds(decisions: dict[str, int], people: int, bot_s: float) -> float:
    """A played game's length by the lobby's model: the first ``people`` seats decide in ``PERSON_SECONDS``, the
    others (bots) in ``bot_s`` (the pacing delay and their thinking)."""
    seats = list(decisions)
    return sum(decisions[p] * (PERSON_SECONDS if i < people else bot_s) for i, p in enumerate(seats))


def report_row(game: str, options: dict[str, Any], seats: int, games: int, seed: int) -> list[str]:
    """The lobby's minutes beside the median and p90 of ``games`` whole games, people in every seat and two people
    with bots (normal), and each lobby figure as a share of its median."""
    delay = Settings.model_fields["bot_move_delay"].default
    everyone, mixed = [], []
    for n in range(seed, seed + games):
        decisions, think, moves = play_game(game, seats, n, options)
        everyone.append(game_seconds(decisions, seats, 0.0) / 60)
        mixed.append(game_seconds(decisions, PEOPLE_WITH_BOTS, delay + think / max(1, moves)) / 60)
    cells = [game, json.dumps(options), str(seats)]
    bots = seats - PEOPLE_WITH_BOTS
    for figures, lobby in ((everyone, expected_seconds(game, options, seats, ())),
                           (mixed, expected_seconds(game, options, PEOPLE_WITH_BOTS, ["normal"] * bots)
                            if bots > 0 else None)):
        if lobby is None:
            cells += ["-", "-", "-", "-"]
            continue
        median = percentile(figures, 0.5)
        cells += [f"{lobby / 60:.0f}", f"{median:.0f}", f"{percentile(figures, 0.9):.0f}",
                  f"{lobby / 60 / median:.2f}"]
    return cells


def print_report(games: int, seed: int, only: list[str] | None) -> None:
    rows = [report_row(game, options, seats, games, seed) for game, options in REPORT_ROWS
            if only is None or game in only
            for seats in range(get_engine(game).min_players, get_engine(game).max_players + 1)]
    print_table(f"Minutes: the lobby's figure beside whole games of normal bots ({games} a row, seeds {seed}-"
                f"{seed + games - 1}; 8 s a person decision, 1.5 s + thinking a bot decision)",
                ["game", "options", "seats", "lobby, people", "median", "p90", "lobby/median",
                 "lobby, 2 people + bots", "median", "p90", "lobby/median"], rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.lengths", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per game and seat count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default every game")
    parser.add_argument("--check", action="store_true", help="compare with the stored file instead of writing it")
    parser.add_argument("--out", type=Path, default=DATA_FILE)
    parser.add_argument("--minutes", action="store_true", help="print expected minutes from the stored file")
    parser.add_argument("--report", action="store_true",
                        help="the lobby's minutes beside whole games' median and p90 (--games of them a row)")
    args = parser.parse_args(argv)
    if args.minutes:
        print_minutes()
        return
    if args.report:
        print_report(args.games, args.seed, args.game)
        return
    data = measure_all(args.games, args.seed, args.game)
    if args.check:
        stored = json.loads(args.out.read_text(encoding="utf-8"))
        stored["games"] = {g: v for g, v in stored["games"].items() if g in data["games"]}
        print("matches" if same_figures(stored, data) else "differs")
        raise SystemExit(0 if same_figures(stored, data) else 1)
    if args.game:  # some games only: printed, never written over the whole file
        print(json.dumps(data, indent=1))
        return
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
