"""Board images: render time (p50 / p95 over their largest boards) and legibility on a phone (the smallest text
glyph once the picture is shown 400 px wide, as Discord shows it on a phone).

    python -m bench.images
"""
from __future__ import annotations

import io
import random
import time
from contextlib import contextmanager
from typing import Any, Iterator

from PIL import Image, ImageDraw

from bot import render
from bot.games import render_hooks
from engines import GAMES, get_engine

from .report import ms, percentile, print_table

PHONE_WIDTH = 400  # the width a phone shows a picture at (a narrower picture is not enlarged)
VARIED_GAMES = 24  # random games over every seat count and option (20 of them found Rocca's 10.7 px towers)


def largest_boards(name: str, games: int) -> list[Any]:
    """Spectator views from seeded random games at most seats, the biggest (longest game) last: for each game the
    last position someone decides in and the final board."""
    engine = get_engine(name)
    views = []
    for seed in range(games):
        rnd = random.Random(seed)
        state = engine.new_game([f"p{i}" for i in range(engine.max_players)], seed=seed)
        deciding = state
        while actors := engine.to_act(state):
            deciding = state
            player = rnd.choice(actors)
            state, _ = engine.apply(state, player, rnd.choice(engine.legal_actions(state, player)))
        views += [engine.view(deciding, None), engine.view(state, None)]
    return views


def late_boards(name: str, games: int, last: int = 3) -> list[Any]:
    """Spectator views of ``late_states``."""
    engine = get_engine(name)
    return [engine.view(state, None) for state in late_states(name, games, last)]


def late_states(name: str, games: int, last: int = 3) -> list[Any]:
    """States of seeded random games at every seat count and with every on/off option both ways (seat count and
    options cycle with the seed): the last ``last`` positions someone decides in, and the final one, per game."""
    engine = get_engine(name)
    switches = [field for field, info in engine.options_model.model_fields.items() if info.annotation is bool]
    seat_counts = engine.max_players - engine.min_players + 1
    states = []
    for seed in range(games):
        rnd = random.Random(seed)
        count, combination = engine.min_players + seed % seat_counts, seed // seat_counts
        options = {field: bool(combination >> bit & 1) for bit, field in enumerate(switches)}
        state = engine.new_game([f"p{i}" for i in range(count)], seed=seed, options=options)
        deciding = [state]
        while actors := engine.to_act(state):
            deciding = [*deciding[-last + 1:], state] if last > 1 else [state]
            player = rnd.choice(actors)
            state, _ = engine.apply(state, player, rnd.choice(engine.legal_actions(state, player)))
        states += [*deciding, state]
    return states


@contextmanager
def drawn_texts() -> Iterator[list[tuple[str, float]]]:
    """Records every text the pictures draw while the block runs, with its ink height in pixels."""
    texts: list[tuple[str, float]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, content: Any, *args: Any, **kwargs: Any) -> None:
        if str(content).strip():
            box = self.textbbox(xy, content, font=kwargs.get("font"), anchor=kwargs.get("anchor"))
            texts.append((str(content), box[3] - box[1]))
        original(self, xy, content, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]  # measuring what the renderers draw, unchanged
    try:
        yield texts
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def smallest_glyph_at_phone(name: str, view: Any, names: render.Names, locale: str = "en") -> float:
    """The smallest text glyph of the game's picture of ``view``, in pixels once shown ``PHONE_WIDTH`` wide."""
    draw = render_hooks(name).image
    assert draw is not None
    with drawn_texts() as texts:
        png = draw(view, names, locale)
    width = Image.open(io.BytesIO(png)).size[0]
    return min((height for _, height in texts), default=float("inf")) * min(1.0, PHONE_WIDTH / width)


def smallest_glyph(name: str, games: int = 3, varied: bool = False) -> float | None:
    """The smallest glyph at phone width over the game's largest seeded boards (``varied``: over the late boards of
    games at every seat count and option, ``late_boards``); None for a game without a picture."""
    if render_hooks(name).image is None:
        return None
    names = render.Names({f"p{i}": f"Player {i}" for i in range(8)})
    views = late_boards(name, games) if varied else largest_boards(name, games)
    return min(smallest_glyph_at_phone(name, view, names) for view in views)


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
        glyph = smallest_glyph(name, 3 if quick else 10)
        varied = smallest_glyph(name, VARIED_GAMES, varied=True)
        rows.append([name, len(times), ms(percentile(times, 50)), ms(percentile(times, 95)), f"{glyph:.1f} px",
                     f"{varied:.1f} px"])
    if rows:
        print_table("Board images (final boards of seeded random games, max seats)",
                    ["game", "renders", "p50", "p95", "smallest glyph at 400 px",
                     f"same, late boards of {VARIED_GAMES} games at all seats and options"], rows)
    else:
        print("\n## Board images\nno registered game draws a board image yet")


if __name__ == "__main__":
    run(quick=True)
