"""Board images: render time (p50 / p95 over their largest boards) and legibility on a phone (the smallest text
glyph once the picture is shown ``PHONE_WIDTH`` = 280 px wide: a phone whose screen is 400 px wide shows an embed's
picture about 280 px wide, the avatar column and the embed's padding taking the rest), of the board pictures and of
the hand views' pictures (Diamond Box's cards and lettered spots; Rocca's hand view carries the board picture).

    python -m bench.images
"""
from __future__ import annotations

import io
import random
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from PIL import Image, ImageDraw

from bot import render
from bot.games import render_hooks
from bot.render.shapes import PHONE_WIDTH
from engines import GAMES, get_engine

from .report import ms, percentile, print_table

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


def smallest_glyph_at_phone(name: str, view: Any, names: render.Names, locale: str = "en",
                            looked_back: bool = False) -> float:
    """The smallest text glyph of the game's picture of ``view``, in pixels once shown ``PHONE_WIDTH`` wide
    (``looked_back``: the picture the viewer and the animated summary show, ``render.review_picture``)."""
    draw = render.review_picture(name) if looked_back else render_hooks(name).image
    assert draw is not None
    with drawn_texts() as texts:
        png = draw(view, names, locale)
    width = Image.open(io.BytesIO(png)).size[0]
    return min((height for _, height in texts), default=float("inf")) * min(1.0, PHONE_WIDTH / width)


def caption_glyphs(replay: Any, lang: str) -> list[tuple[str, float]]:
    """Every text the animated summary of ``replay`` draws in its captions, with its ink height in pixels once a
    phone shows the GIF ``PHONE_WIDTH`` wide (the board pictures' own texts are measured by ``smallest_glyph``)."""
    from bot import replay_gif
    from bot.replay_show import record_names

    texts: list[tuple[str, float]] = []
    original = replay_gif.draw_caption

    def measured(canvas: Image.Image, *args: Any, **kwargs: Any) -> None:
        with drawn_texts() as drawn:
            original(canvas, *args, **kwargs)
        texts.extend((text, height * PHONE_WIDTH / canvas.width) for text, height in drawn)

    replay_gif.draw_caption = measured  # type: ignore[assignment]  # measuring the captions the GIF draws
    try:
        replay_gif.animated_summary(replay, record_names(replay.record, lang), lang)
    finally:
        replay_gif.draw_caption = original  # type: ignore[assignment]
    return texts


def smallest_glyph(name: str, games: int = 3, varied: bool = False) -> float | None:
    """The smallest glyph at phone width over the game's largest seeded boards (``varied``: over the late boards of
    games at every seat count and option, ``late_boards``); None for a game without a picture."""
    if render_hooks(name).image is None:
        return None
    names = render.Names({f"p{i}": f"Player {i}" for i in range(8)})
    views = late_boards(name, games) if varied else largest_boards(name, games)
    return min(smallest_glyph_at_phone(name, view, names) for view in views)


def hand_pictures(games: int) -> list[tuple[bytes, list[tuple[str, float]]]]:
    """Diamond Box's hand-view pictures at the last decision of seeded games at most seats, with the texts each
    draws: every hand of every seat, and the first card's lettered spots of the seat to act."""
    from bot.render import diamondbox_image as image
    from cogs.games.diamondbox import Choice, made, spots

    engine = get_engine("diamondbox")
    pictures = []
    for state in late_states("diamondbox", games, last=1)[::2]:
        for player in state.order:
            faces = engine.view(state, player).hand_faces
            if faces:
                with drawn_texts() as texts:
                    pictures.append((image.hand_png(faces), texts))
        actors = engine.to_act(state)
        if actors and state.hands[actors[0]]:
            found = engine.placements(state, actors[0])
            chosen = Choice(state.hands[actors[0]], found, [state.hands[actors[0]][0]])
            with drawn_texts() as texts:
                pictures.append((image.spots_png(engine.view(state, None), spots(chosen), made(chosen)), texts))
    return pictures


def smallest_hand_glyph(games: int) -> float:
    """The smallest glyph at phone width over ``hand_pictures``."""
    smallest = float("inf")
    for png, texts in hand_pictures(games):
        width = Image.open(io.BytesIO(png)).size[0]
        smallest = min([smallest] + [height * min(1.0, PHONE_WIDTH / width) for _, height in texts])
    return smallest


def bracket_rows(quick: bool) -> list[list[str]]:
    """The knockout bracket picture of tests/test_render_bracket.py's played-out knockouts (4, 10, 32 entrants, in
    Japanese: every person's and bot's name a mark and number): render time, size, smallest digit at phone width."""
    import sys

    from bot.render import bracket_image
    from bot.tournaments import compute_standings
    from bot.tournaments.bracket import bracket

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.test_render_bracket import knockout

    rows = []
    for count in (4, 10, 32):
        rounds = bracket(knockout(count, "ja"), compute_standings(knockout(count, "ja")))
        times = []
        for _ in range(3 if quick else 20):
            start = time.perf_counter()
            with drawn_texts() as texts:
                png = bracket_image.render_png(rounds)
            times.append(time.perf_counter() - start)
        width, height = Image.open(io.BytesIO(png)).size
        shrink = min(1.0, PHONE_WIDTH / width)
        digit = min(h for text, h in texts if any(c.isdigit() for c in text)) * shrink
        rows.append([str(count), len(times), ms(percentile(times, 50)), ms(percentile(times, 95)),
                     f"{width}×{height}", f"{height * shrink:.0f} px", f"{digit:.1f} px", f"{len(png) // 1024} KiB"])
    return rows


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
        hand = smallest_hand_glyph(4 if quick else 12) if name == "diamondbox" else varied if name == "rocca" else None
        rows.append([name, len(times), ms(percentile(times, 50)), ms(percentile(times, 95)), f"{glyph:.1f} px",
                     f"{varied:.1f} px", "-" if hand is None else f"{hand:.1f} px"])
    if rows:
        print_table("Board images (final boards of seeded random games, max seats)",
                    ["game", "renders", "p50", "p95", f"smallest glyph at {PHONE_WIDTH} px",
                     f"same, late boards of {VARIED_GAMES} games at all seats and options",
                     "same, hand view pictures"], rows)
    else:
        print("\n## Board images\nno registered game draws a board image yet")
    print_table("Knockout bracket picture (played-out knockouts, names as marks)",
                ["entrants", "renders", "p50", "p95", "size", f"height at {PHONE_WIDTH} px wide",
                 f"smallest digit at {PHONE_WIDTH} px", "PNG"], bracket_rows(quick))


if __name__ == "__main__":
    run(quick=True)
