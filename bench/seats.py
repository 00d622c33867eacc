"""Fairness between seats and how games end: whole games with the project's normal bots in every seat.

    python -m bench.seats [--game G ...] [--seats N ...] [--games 300] [--seed 0] [--option KEY=VALUE ...]

Per game and seat count (over seeds ``seed .. seed + games - 1``, options as given, else the game's defaults):

- per seat index (seat 0 is the host): the games it ranked first in (alone or shared), its mean final score, and for
  Twin Pyramid the deals it ended by completing its field pyramid, the deals it burst in and its net points per deal;
- how games end: the share whose first place is shared, and (Twin Pyramid) the share of deals ended by the turn
  limit with nobody paid, and the share of games ending with every score 0;
- how long games take with a person in every seat, by the lobby's model (``bot/lengths.py``: 8 s a decision,
  decisions counted as ``bench.lengths`` counts them): minutes p10 / median / p90 and the share over two hours.

A seat that is favoured by the rules (say, always starting) shows as a column of wins well beyond ``games / seats``;
at 300 games a seat's share of wins has a standard error of about 2.7 points at three seats.
"""
from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from typing import Any

from bot.games import engine_hooks
from bot.lengths import PERSON_SECONDS
from bot.thinking import decide_here
from engines import GAMES, get_engine

from .report import print_table


@dataclass
class SeatTally:
    firsts: int = 0  # games ranked first, alone or shared
    score: float = 0.0  # summed final score
    completed: int = 0  # Twin Pyramid: deals ended by this seat's field pyramid
    burst: int = 0  # Twin Pyramid: deals ended by this seat's hand pyramid
    deal_points: int = 0  # Twin Pyramid: summed payments over deals


@dataclass
class Tally:
    seats: list[SeatTally]  # by seat index
    positions: list[SeatTally]  # Twin Pyramid: by place in the deal's turn order (0 = its start player)
    games: int = 0
    deals: int = 0
    shared_first: int = 0
    turn_limit: int = 0  # Twin Pyramid: deals ended by the turn limit
    all_zero: int = 0  # games ended with every score 0 (Twin Pyramid: every deal at the turn limit)
    minutes: list[float] = field(default_factory=list)  # per game, the lobby's model with people in every seat
    events: dict[str, int] = field(default_factory=dict)


def play_game(game: str, seats: int, seed: int, options: dict[str, Any], tally: Tally) -> None:
    """One game with normal bots in every seat, counted into ``tally``."""
    engine = get_engine(game)
    players = [f"s{i}" for i in range(seats)]
    state = engine.new_game(players, seed=seed, options=options)
    moves, start, decisions = 0, 0, len(engine.to_act(state))
    start_events = engine_hooks(game).start_events
    events = list(start_events(state)) if start_events else []
    while True:
        for event in events:
            if event.type == "deal_started":
                start = players.index(event.data["start_player"])
            elif event.type == "deal_ended":
                count_deal(event.data, players, start, tally)
        if (result := engine.result(state)) is not None:
            break
        waiting = engine.to_act(state)
        player = waiting[0]
        action = decide_here(engine, state, player, f"{seed}:{moves}:{player}", "normal")
        state, events = engine.apply(state, player, action)
        moves += 1
        # counted as bench.lengths counts a decision
        decisions += sum(named == player or named not in waiting for named in engine.to_act(state))
    tally.games += 1
    tally.minutes.append(decisions * PERSON_SECONDS / 60)
    tally.all_zero += not any((result.scores or {}).values())
    first = result.ranking[0]
    tally.shared_first += len(first) > 1
    for index, player in enumerate(players):
        tally.seats[index].firsts += player in first
        tally.seats[index].score += (result.scores or {}).get(player, 0)


def count_deal(data: dict[str, Any], players: list[str], start: int, tally: Tally) -> None:
    tally.deals += 1
    tally.turn_limit += data["reason"] == "turn_limit"
    for index, player in enumerate(players):
        for seat in (tally.seats[index], tally.positions[(index - start) % len(players)]):
            seat.deal_points += data["payments"].get(player, 0)
            if data.get("player") == player:
                seat.completed += data["reason"] == "complete"
                seat.burst += data["reason"] == "burst"


def measure(game: str, seats: int, games: int, seed: int, options: dict[str, Any]) -> Tally:
    tally = Tally(seats=[SeatTally() for _ in range(seats)], positions=[SeatTally() for _ in range(seats)])
    for n in range(seed, seed + games):
        play_game(game, seats, n, options, tally)
    return tally


def report(game: str, seats: int, tally: Tally, options: dict[str, Any]) -> None:
    rows = []
    for index, seat in enumerate(tally.seats):
        row: list[object] = [index, seat.firsts, f"{seat.score / tally.games:+.1f}"]
        if tally.deals:
            row += [seat.completed, seat.burst, f"{seat.deal_points / tally.deals:+.2f}"]
        rows.append(row)
    header = ["seat", "first (games)", "mean score"]
    if tally.deals:
        header += ["pyramids completed (deals)", "bursts (deals)", "net points per deal"]
    print_table(f"{game} at {seats} seats, {tally.games} games, options {json.dumps(options)}", header, rows)
    if tally.deals:
        rows = [[index, seat.completed, seat.burst, f"{seat.deal_points / tally.deals:+.2f}"]
                for index, seat in enumerate(tally.positions)]
        print_table(f"{game} at {seats} seats by place in the turn order (0 = the deal's start player)",
                    ["place", "pyramids completed (deals)", "bursts (deals)", "net points per deal"], rows)
    shared = 100 * tally.shared_first / tally.games
    line = f"first place shared: {shared:.0f}% of games"
    if tally.deals:
        line += f"; deals ended by the turn limit: {100 * tally.turn_limit / tally.deals:.0f}% of {tally.deals}"
    print(line)
    minutes = sorted(tally.minutes)
    print(f"every score 0: {100 * tally.all_zero / tally.games:.0f}% of games; minutes with people in every seat "
          f"(8 s a decision) p10 / median / p90: {percentile(minutes, 10):.0f} / {percentile(minutes, 50):.0f} / "
          f"{percentile(minutes, 90):.0f}; over two hours: {100 * sum(m > 120 for m in minutes) / len(minutes):.0f}%")


def percentile(values: list[float], share: float) -> float:
    """Linear interpolation between the closest ranks of sorted ``values``."""
    position = (len(values) - 1) * share / 100
    low = int(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def parse_option(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    return key, json.loads(value)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.seats", description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default twinpyramid")
    parser.add_argument("--seats", type=int, action="append", help="repeatable; default 3")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], help="KEY=JSON, e.g. deals=1 (repeatable)")
    args = parser.parse_args(argv)
    options = dict(parse_option(text) for text in args.option)
    for game in args.game or ["twinpyramid"]:
        for seats in args.seats or [3]:
            report(game, seats, measure(game, seats, args.games, args.seed, options), options)


if __name__ == "__main__":
    main()
