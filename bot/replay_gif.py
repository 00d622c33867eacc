"""A finished game's animated summary (issue 42, item 2): a GIF of the public board pictures, evenly thinned to at
most ``GIF_MAX_FRAMES`` moments (the first and last included), every frame the whole board of its moment and
nothing else.

The board pictures of one game differ in size (Rocca's tower and Diamond Box's centre grow), and a GIF has one
canvas: each picture is scaled by one factor for the whole game (so the board grows as it did) and placed on a
canvas of the largest size with a fixed background, below a caption band that carries the step, each seat's name
(its seat number when the picture font cannot draw it) with its score at that moment, and who is to act. Every frame
is written whole (no frame is a difference from the one before, no transparency), so no older board shows through
and nothing is cut."""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from PIL import Image, ImageDraw

from .games import render_hooks
from .render import review_picture
from .render.shapes import draw_fitted, drawable, font
from .replay import Rebuilt

GIF_MAX_FRAMES = 60  # a long game is summed up by this many evenly spaced moments (its first and last included)
GIF_WIDTH = 480  # pixels: small enough to post, large enough to read the board
GIF_MAX_HEIGHT = 720
GIF_FRAME_MS = 700
GIF_LAST_FRAME_MS = 4000
GIF_COLOURS = 256  # fast octree: every colour of a small mark (a card's suit) keeps its own entry
BACKGROUND = (250, 249, 245)
CAPTION_INK = (40, 40, 48)
ACTING = (255, 214, 102)  # the band behind the seats that are to act
CAPTION_ROW = 24  # pixels per caption row
CAPTION_SIZE = 15
SEATS_PER_ROW = 3
STEP_CELL = 84  # the step number's cell, left of the first row of seats


@dataclass(frozen=True)
class CaptionSeat:
    name: str  # as the picture shows it
    score: int | None  # None: the game counts no score the caption shows
    acting: bool


def summary_frames(count: int, most: int = GIF_MAX_FRAMES) -> list[int]:
    """Which of ``count`` frames the summary shows: all of them, or ``most`` evenly spaced from first to last."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(i * step) for i in range(most)})


def caption_height(seats: int) -> int:
    return CAPTION_ROW * max(1, math.ceil(seats / SEATS_PER_ROW))


def draw_caption(canvas: Image.Image, index: int, last: int, seats: list[CaptionSeat]) -> None:
    """The band at the top of a frame: ``index/last``, then each seat's name and score (those to act on a band)."""
    draw = ImageDraw.Draw(canvas)
    f = font(CAPTION_SIZE)
    draw.text((6, CAPTION_ROW / 2), f"{index}/{last}", font=f, fill=CAPTION_INK, anchor="lm")
    cell = (canvas.width - STEP_CELL) / SEATS_PER_ROW
    for number, seat in enumerate(seats):
        row, column = divmod(number, SEATS_PER_ROW)
        left, top = STEP_CELL + column * cell, row * CAPTION_ROW
        if seat.acting:
            draw.rounded_rectangle((left + 1, top + 2, left + cell - 2, top + CAPTION_ROW - 2), radius=5,
                                   fill=ACTING)
        score = "" if seat.score is None else str(seat.score)
        room = cell - 14 - draw.textlength(score, font=f)
        draw_fitted(draw, (left + 5, top + CAPTION_ROW / 2), seat.name, CAPTION_SIZE, room, CAPTION_INK)
        draw.text((left + cell - 6, top + CAPTION_ROW / 2), score, font=f, fill=CAPTION_INK, anchor="rm")


def caption_seats(replay: Rebuilt, index: int, names: Callable[[str], str]) -> list[CaptionSeat]:
    view = replay.view(index, None)
    counted = render_hooks(replay.record.game).scores
    scores = counted(view) if counted is not None else {}
    acting = set(view.to_act)
    seats = sorted(replay.record.players, key=lambda s: s.seat)
    return [CaptionSeat(name if (name := names(s.player)).strip() and drawable(name) else str(s.seat + 1),
                        scores.get(s.player), s.player in acting) for s in seats]


def board_pictures(replay: Rebuilt, indexes: list[int], names: Callable[[str], str],
                   lang: str) -> list[bytes] | None:
    """The public board picture of each of these frames as drawn (PNG: kept compressed until its frame is
    composed), or None for a game that draws none."""
    draw = review_picture(replay.record.game)
    if draw is None:
        return None
    return [draw(replay.view(index, None), names, lang) for index in indexes]


def common_scale(sizes: list[tuple[int, int]]) -> float:
    """One factor for every picture: the widest fits ``GIF_WIDTH``, the tallest ``GIF_MAX_HEIGHT``."""
    return min(GIF_WIDTH / max(w for w, _ in sizes), GIF_MAX_HEIGHT / max(h for _, h in sizes))


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as picture:  # reads the header only
        return picture.size


def summary_canvases(replay: Rebuilt, names: Callable[[str], str], lang: str,
                     most: int = GIF_MAX_FRAMES) -> Iterator[Image.Image] | None:
    """Every frame of the summary as RGB pictures of one size, one at a time: caption band, then the board of
    that moment (``names``: the seats' names as written)."""
    indexes = summary_frames(len(replay), most)
    pictures = board_pictures(replay, indexes, names, lang)
    if pictures is None:
        return None
    sizes = [_size(png) for png in pictures]
    scale = common_scale(sizes)
    scaled = [(max(1, round(w * scale)), max(1, round(h * scale))) for w, h in sizes]
    band = caption_height(len(replay.record.players))
    canvas_size = (GIF_WIDTH, band + max(h for _, h in scaled))

    def composed() -> Iterator[Image.Image]:
        for index, png, size in zip(indexes, pictures, scaled, strict=True):
            with Image.open(io.BytesIO(png)) as drawn:
                picture = drawn.convert("RGB").resize(size, Image.Resampling.LANCZOS)
            canvas = Image.new("RGB", canvas_size, BACKGROUND)
            canvas.paste(picture, ((GIF_WIDTH - picture.width) // 2, band))
            draw_caption(canvas, index, len(replay) - 1, caption_seats(replay, index, names))
            yield canvas

    return composed()


def encode_gif(canvases: Iterable[Image.Image]) -> bytes:
    """The frames as a looping GIF, each written whole with its own palette (no differences, no transparency);
    each RGB canvas is let go once quantised."""
    frames = [c.quantize(colors=GIF_COLOURS, method=Image.Quantize.FASTOCTREE) for c in canvases]
    durations = [GIF_FRAME_MS] * (len(frames) - 1) + [GIF_LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   disposal=2, optimize=False)
    return out.getvalue()


def animated_summary(replay: Rebuilt, names: Callable[[str], str], lang: str,
                     most: int = GIF_MAX_FRAMES) -> bytes | None:
    """The game as an animated GIF of its public board pictures, or None for a game that draws no board picture."""
    canvases = summary_canvases(replay, names, lang, most)
    return None if canvases is None else encode_gif(canvases)
