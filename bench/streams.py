"""How much per-seat streams (``streams: per_seat``, engines/streams.py) cost: whole random games of every game
with the option, dealt from the same seeds both ways, timed alternately (shared, per_seat, shared, ...) in one
process on one core, timed in the process's own CPU time (``time.process_time``: what other processes take
does not count), so that the ratio holds however loaded the machine is. Diamond Box plays the very same game
both ways (its rules already give every seat its own pile): its ratio shows the measurement's own noise.

    python -m bench.streams                  # 3 s per game and table size
    python -m bench.streams --seconds 0.5 --game rocca
    python -m bench.streams --bots 300       # and 300 games a cell played by the normal bots

Prints per game and table size the applies per second (legal_actions, choice and apply, as ``bench.engine_speed``)
and the games per second of each, and per_seat's time as a ratio of shared's (per apply and per game). With
``--bots N``, also N games per cell with the ``normal`` bot in every seat, seeds 0..N-1 both ways: the mean actions
per game of each, and how often the same seat wins both games of a seed (a first place shared counts if the seat
shares it in both)."""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from bot.policies import choose_action
from engines import GAMES, get_engine
from engines.streams import STREAMS_FIELD, Streams

from .report import print_table

VARIANTS = (Streams.SHARED, Streams.PER_SEAT)


def options(streams: Streams) -> dict[str, str]:
    return {} if streams is Streams.SHARED else {STREAMS_FIELD: streams.value}


def timed_game(game: str, players: int, seed: int, streams: Streams) -> tuple[int, float]:
    """(applies, seconds) of one game of random legal moves."""
    engine = get_engine(game)
    rnd = random.Random(seed)
    start = time.process_time()
    state = engine.new_game([f"p{i}" for i in range(players)], seed=seed, options=options(streams))
    steps = 0
    while actors := engine.to_act(state):
        player = rnd.choice(actors)
        state, _ = engine.apply(state, player, rnd.choice(engine.legal_actions(state, player)))
        steps += 1
    return steps, time.process_time() - start


def measure(game: str, players: int, seconds: float) -> dict[Streams, tuple[int, int, float]]:
    """Per variant (games, applies, seconds), the same seeds each way, the variants alternating game by game."""
    totals = {v: (0, 0, 0.0) for v in VARIANTS}
    for streams in VARIANTS:  # warm-up, not counted (first imports and caches)
        timed_game(game, players, -1, streams)
    seed = 0
    while sum(t[2] for t in totals.values()) < seconds * len(VARIANTS):
        for streams in (VARIANTS if seed % 2 == 0 else VARIANTS[::-1]):
            steps, took = timed_game(game, players, seed, streams)
            games, applies, spent = totals[streams]
            totals[streams] = (games + 1, applies + steps, spent + took)
        seed += 1
    return totals


def bot_game(game: str, players: int, seed: int, streams: Streams) -> tuple[int, list[str]]:
    """(actions, the seats sharing first place) of one game with the normal bot in every seat."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new_game([f"p{i}" for i in range(players)], seed=seed, options=options(streams))
    steps = 0
    while actors := engine.to_act(state):
        state, _ = engine.apply(state, actors[0], choose_action(engine, state, actors[0], rng))
        steps += 1
    result = engine.result(state)
    assert result is not None
    return steps, result.ranking[0]


def bot_row(game: str, players: int, games: int) -> list[str]:
    lengths: dict[Streams, list[int]] = {v: [] for v in VARIANTS}
    same_winner = 0
    for seed in range(games):
        winners = []
        for streams in VARIANTS:
            steps, first = bot_game(game, players, seed, streams)
            lengths[streams].append(steps)
            winners.append(set(first))
        same_winner += bool(winners[0] & winners[1])
    means = [statistics.fmean(lengths[v]) for v in VARIANTS]
    sems = [statistics.stdev(lengths[v]) / math.sqrt(games) if games > 1 else 0.0 for v in VARIANTS]
    return [game, str(players), str(games), f"{means[0]:.1f} ± {sems[0]:.1f}", f"{means[1]:.1f} ± {sems[1]:.1f}",
            f"{same_winner / games:.2f}"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.streams", description=__doc__.splitlines()[0])
    with_option = [g for g in GAMES if STREAMS_FIELD in get_engine(g).options_model.model_fields]
    parser.add_argument("--game", action="append", choices=with_option, help="repeatable; default every one")
    parser.add_argument("--seconds", type=float, default=3.0, help="per variant, game and table size")
    parser.add_argument("--bots", type=int, default=0, help="games per cell with normal bots (0: none)")
    args = parser.parse_args(argv)
    rows = []
    for game in args.game or with_option:
        engine = get_engine(game)
        for players in sorted({engine.min_players, min(4, engine.max_players), engine.max_players}):
            totals = measure(game, players, args.seconds)
            (g0, a0, s0), (g1, a1, s1) = totals[Streams.SHARED], totals[Streams.PER_SEAT]
            rows.append([game, str(players), str(g0), f"{a0 / s0:,.0f}", f"{a1 / s1:,.0f}",
                         f"{(s1 / a1) / (s0 / a0):.3f}", f"{g0 / s0:,.1f}", f"{g1 / s1:,.1f}",
                         f"{(s1 / g1) / (s0 / g0):.3f}"])
    print_table("Per-seat streams against shared (random legal moves, the same seeds, alternating; CPU time)",
                ["game", "players", "games each", "applies/s shared", "applies/s per_seat", "time per apply ×",
                 "games/s shared", "games/s per_seat", "time per game ×"], rows)
    if args.bots:
        rows = [bot_row(game, players, args.bots) for game in args.game or with_option
                for players in sorted({get_engine(game).min_players, min(4, get_engine(game).max_players),
                                       get_engine(game).max_players})]
        print_table("Normal bots in every seat, the same seeds both ways",
                    ["game", "players", "games", "actions per game shared (± s.e.)", "per_seat", "same seat wins"],
                    rows)


if __name__ == "__main__":
    main()
