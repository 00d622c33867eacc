"""Board image render time for the games that draw one (p50 / p95 over their largest boards)."""
from __future__ import annotations

import random
import time

from bot import render
from bot.games import render_hooks
from engines import GAMES, get_engine

from .report import ms, percentile, print_table


def largest_boards(name: str, games: int) -> list[dict]:
    """Spectator views from seeded random games, the biggest (longest game) last."""
    engine = get_engine(name)
    views = []
    for seed in range(games):
        rnd = random.Random(seed)
        state = engine.new_game([f"p{i}" for i in range(engine.max_players)], seed=seed)
        while actors := engine.to_act(state):
            player = rnd.choice(actors)
            state, _ = engine.apply(state, player, rnd.choice(engine.legal_actions(state, player)))
        views.append(engine.view(state, None))
    return views


def run(quick: bool) -> None:
    rows = []
    for name in GAMES:
        draw = render_hooks(name).image
        if draw is None:
            continue
        views = largest_boards(name, 5 if quick else 20)
        names = render.Names({})
        times = []
        for _ in range(3 if quick else 10):
            for view in views:
                start = time.perf_counter()
                draw(view, names, "en")
                times.append(time.perf_counter() - start)
        rows.append([name, len(times), ms(percentile(times, 50)), ms(percentile(times, 95))])
    if rows:
        print_table("Board images (final boards of seeded random games, max seats)", ["game", "renders", "p50",
                                                                                     "p95"], rows)
    else:
        print("\n## Board images\nno registered game draws a board image yet")
