"""Engine speed on one core: applies per second and complete random games per second, per game."""
from __future__ import annotations

import random
import time

from engines import GAMES, get_engine

from .report import print_table


def random_game(name: str, seed: int, players: int) -> int:
    engine = get_engine(name)
    rnd = random.Random(seed)
    state = engine.new_game([f"p{i}" for i in range(players)], seed=seed)
    steps = 0
    while actors := engine.to_act(state):
        player = rnd.choice(actors)
        state, _ = engine.apply(state, player, rnd.choice(engine.legal_actions(state, player)))
        steps += 1
    return steps


def measure(name: str, seconds: float) -> tuple[float, float]:
    """(applies/s, games/s): legal_actions + choice + apply, timed over whole random games."""
    engine = get_engine(name)
    players = min(4, engine.max_players)
    games = applies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        applies += random_game(name, games, players)
        games += 1
    elapsed = time.perf_counter() - start
    return applies / elapsed, games / elapsed


def run(quick: bool) -> None:
    rows = []
    for name in GAMES:
        per_s, games_s = measure(name, 0.5 if quick else 3.0)
        rows.append([name, f"{per_s:,.0f}", f"{games_s:,.1f}"])
    print_table("Engines (one core, random legal moves, 4 seats or the most the game allows)",
                ["game", "applies/s (incl. legal_actions)", "random games/s"], rows)
