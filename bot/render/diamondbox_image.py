"""The Diamond Box centre as a picture (Pillow), drawn from the spectator view only.

Each visible square is filled with the frame colour of the card on top and shows that square's diamond (white ◇ with
a dark rim, black ◆). Thin dark lines outline what is visible of each card (where the next square belongs to another
card); the last placement gets a thick gold frame with a dark rim. Grid coordinates are printed on all four edges
(x to the right, y downwards — the columns and rows the log names a card by). The designated colour is the frame
around the whole picture and a swatch in the top-left corner, and its squares carry a small white dot so they can be
found without telling colours apart.

``preview_png`` draws the same picture with a chosen placement already made (that card framed in gold and black),
``spots_png`` the centre with the candidate spots of the card a player chose, each labelled (``A``, ``B``, …, the names
the hand view's buttons use) on its footprint, and ``hand_png`` the viewer's cards side by side with their ids. No
words are drawn (the text around the picture has them).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

from engines.diamondbox.view import CardFace, DiamondBoxView

from .shapes import INK, RGB, WHITE, font, legible_size, to_png

Pos = tuple[int, int]

CELL = 40
MARGIN = 30  # room for the coordinates
FRAME = 6  # the designated-colour frame around the picture
BACKGROUND: RGB = (238, 236, 230)
GRID: RGB = (215, 212, 205)
LAST: RGB = (255, 196, 0)
FILL: dict[str, RGB] = {"R": (214, 69, 65), "Y": (236, 196, 40), "G": (64, 160, 90), "B": (60, 110, 200),
                        "P": (142, 80, 180)}
NO_COLOUR: RGB = (150, 150, 150)
BADGE: RGB = (20, 60, 140)
BADGE_CHOSEN: RGB = WHITE  # the chosen spot: dark on white, readable on every card colour
MAX_CELLS = 60  # a centre larger than this many squares in a direction is drawn with smaller squares


def diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, kind: str) -> None:
    points = [(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)]
    if kind == "w":
        draw.polygon(points, fill=WHITE, outline=INK, width=max(1, round(r / 6)))
    elif kind == "b":
        draw.polygon(points, fill=(18, 18, 22), outline=WHITE, width=max(1, round(r / 8)))


@dataclass(frozen=True)
class Spot:
    """A candidate placement as the picture labels it: its label and the squares it would cover."""

    label: str
    cells: tuple[Pos, ...]
    chosen: bool = False


def label_spots(draw: ImageDraw.ImageDraw, spots: Sequence[Spot], px: Callable[[int, int], tuple[int, int]],
                cell: int, size: int) -> None:
    """Each spot's label in a badge on its footprint: at the footprint's middle when that is free, else on the
    first of its squares no earlier badge covers (candidates overlap: neighbouring offsets share most squares)."""
    f = font(size)
    taken: list[tuple[float, float, float, float]] = []
    for spot in sorted(spots, key=lambda s: not s.chosen):
        xs = [x for x, _ in spot.cells]
        ys = [y for _, y in spot.cells]
        left, top = px(min(xs), min(ys))
        middle = (left + (max(xs) - min(xs) + 1) * cell / 2, top + (max(ys) - min(ys) + 1) * cell / 2)
        places = [middle] + [(px(x, y)[0] + cell / 2, px(x, y)[1] + cell / 2) for x, y in spot.cells]
        boxes = [badge_box(draw, spot.label, f, at) for at in places]
        free = next((i for i, box in enumerate(boxes) if not any(overlaps(box, other) for other in taken)), 0)
        box = boxes[free]
        taken.append(box)
        draw.rounded_rectangle(box, radius=max(2, size // 4), fill=BADGE_CHOSEN if spot.chosen else BADGE,
                               outline=WHITE if not spot.chosen else INK, width=2)
        draw.text(places[free], spot.label, font=f, fill=INK if spot.chosen else WHITE, anchor="mm")


def badge_box(draw: ImageDraw.ImageDraw, label: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont,
              at: tuple[float, float]) -> tuple[float, float, float, float]:
    left, top, right, bottom = draw.textbbox(at, label, font=f, anchor="mm")
    pad = max(3.0, (bottom - top) / 4)
    return left - pad, top - pad, right + pad, bottom + pad


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def squares_of(view: DiamondBoxView) -> dict[Pos, tuple[str, str, int]]:
    return {(sq.x, sq.y): (sq.colour, sq.diamond, sq.placement) for sq in view.centre}


def render(view: DiamondBoxView, squares: dict[Pos, tuple[str, str, int]] | None = None,
           highlight: tuple[int, int, int, int] | None = None, spots: Sequence[Spot] = ()) -> Image.Image:
    """The centre (``squares`` overrides the view's, for a preview); ``highlight`` is the footprint framed in gold
    (``x``, ``y``, ``width``, ``height``), by default the last placement; ``spots`` are labelled on their footprints
    (the picture grows to hold them)."""
    squares = squares_of(view) if squares is None else squares
    if highlight is None and view.last_placement is not None:
        last = view.placements[view.last_placement]
        highlight = (last.x, last.y, last.width, last.height)
    reach = [pos for spot in spots for pos in spot.cells]
    xs = [x for x, _ in squares] + [x for x, _ in reach] or [0]
    ys = [y for _, y in squares] + [y for _, y in reach] or [0]
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    cell = CELL if max(cols, rows) <= MAX_CELLS // 2 else max(16, CELL * (MAX_CELLS // 2) // max(cols, rows))
    margin = max(MARGIN * cell // CELL, 20)
    coordinate_size = max(10, cell * 2 // 5)
    for _ in range(2):  # the coordinates stay legible on a phone; their margin grows with them, and the picture
        coordinate_size = max(coordinate_size, legible_size(cols * cell + 2 * margin + 2 * FRAME))
        margin = max(margin, math.ceil(coordinate_size * 1.5))
    width = cols * cell + 2 * margin + 2 * FRAME
    height = rows * cell + 2 * margin + 2 * FRAME
    designated = view.designated
    frame_colour = FILL.get(designated or "", NO_COLOUR)
    img = Image.new("P", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, width - 1, height - 1), outline=frame_colour, width=FRAME)
    ox, oy = FRAME + margin, FRAME + margin

    def px(x: int, y: int) -> tuple[int, int]:
        return ox + (x - min_x) * cell, oy + (y - min_y) * cell

    # the grid, faintly, so that empty squares can be counted
    for x in range(cols + 1):
        draw.line((ox + x * cell, oy, ox + x * cell, oy + rows * cell), fill=GRID)
    for y in range(rows + 1):
        draw.line((ox, oy + y * cell, ox + cols * cell, oy + y * cell), fill=GRID)
    # the squares
    r = cell * 0.3
    for (x, y), (colour, kind, _) in squares.items():
        left, top = px(x, y)
        draw.rectangle((left, top, left + cell, top + cell), fill=FILL.get(colour, NO_COLOUR))
        diamond(draw, left + cell / 2, top + cell / 2, r, kind)
        if colour == designated:
            d = max(2, cell // 10)
            draw.ellipse((left + 3, top + 3, left + 3 + d * 2, top + 3 + d * 2), fill=WHITE, outline=INK)
    # what is visible of each card: an edge wherever the next square shows another card (or nothing)
    line = max(2, cell // 14)
    for (x, y), (_, _, index) in squares.items():
        left, top = px(x, y)
        for (nx, ny), edge in (((x - 1, y), (left, top, left, top + cell)),
                               ((x + 1, y), (left + cell, top, left + cell, top + cell)),
                               ((x, y - 1), (left, top, left + cell, top)),
                               ((x, y + 1), (left, top + cell, left + cell, top + cell))):
            other = squares.get((nx, ny))
            if other is None or other[2] != index:
                draw.line(edge, fill=INK, width=line)
    if highlight is not None:
        hx, hy, h_width, h_height = highlight
        left, top = px(hx, hy)
        w = max(3, cell // 8)
        box = (left - w, top - w, left + h_width * cell + w, top + h_height * cell + w)
        draw.rectangle(box, outline=INK, width=w + 2)  # dark, then gold inside: visible on every frame colour
        draw.rectangle((box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), outline=LAST, width=w)
    label_spots(draw, spots, px, cell, coordinate_size)
    # coordinates on all four edges
    f = font(coordinate_size)
    for x in range(min_x, max_x + 1):
        cx = ox + (x - min_x) * cell + cell / 2
        draw.text((cx, FRAME + margin / 2), str(x), font=f, fill=INK, anchor="mm")
        draw.text((cx, height - FRAME - margin / 2), str(x), font=f, fill=INK, anchor="mm")
    for y in range(min_y, max_y + 1):
        cy = oy + (y - min_y) * cell + cell / 2
        draw.text((FRAME + margin / 2, cy), str(y), font=f, fill=INK, anchor="mm")
        draw.text((width - FRAME - margin / 2, cy), str(y), font=f, fill=INK, anchor="mm")
    # the designated colour's swatch in the top-left corner
    s = margin - 6
    draw.rectangle((FRAME + 3, FRAME + 3, FRAME + 3 + s, FRAME + 3 + s), fill=frame_colour, outline=INK)
    return img


def render_png(view: DiamondBoxView) -> bytes:
    return to_png(render(view))


def preview_png(view: DiamondBoxView, cells: Iterable[tuple[int, int, str]], card: str, x: int, y: int,
                width: int, height: int) -> bytes:
    """The centre with ``card`` placed at (x, y) (``cells`` its turned squares), framed in gold."""
    squares = squares_of(view)
    index = len(view.placements)
    for dx, dy, kind in cells:
        squares[(x + dx, y + dy)] = (card[0], kind, index)
    return to_png(render(view, squares, (x, y, width, height)))


def spots_png(view: DiamondBoxView, spots: Sequence[Spot],
              chosen: tuple[Iterable[tuple[int, int, str]], str, int, int, int, int] | None = None) -> bytes:
    """The centre with the chosen card's candidate ``spots`` labelled; with ``chosen`` (cells, card, x, y, width,
    height, as ``preview_png`` takes them) that placement is already made and framed in gold."""
    if chosen is None:
        return to_png(render(view, spots=spots))
    cells, card, x, y, width, height = chosen
    squares = squares_of(view)
    index = len(view.placements)
    for dx, dy, kind in cells:
        squares[(x + dx, y + dy)] = (card[0], kind, index)
    return to_png(render(view, squares, (x, y, width, height), spots))


def hand_png(faces: list[CardFace]) -> bytes:
    """The viewer's cards side by side, as they lie at 0°, in hand order."""
    cell, gap = 26, 14
    n = max(1, len(faces))
    width = n * (2 * cell) + (n + 1) * gap
    height = 3 * cell + 2 * gap + cell
    img = Image.new("P", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    for i, f in enumerate(faces):
        left, top = gap + i * (2 * cell + gap), gap
        colour = FILL.get(f.colour, NO_COLOUR)
        for ry, row in enumerate(f.rows):
            for rx, kind in enumerate(row):
                x0, y0 = left + rx * cell, top + ry * cell
                draw.rectangle((x0, y0, x0 + cell, y0 + cell), fill=colour, outline=GRID)
                diamond(draw, x0 + cell / 2, y0 + cell / 2, cell * 0.32, kind)
        draw.rectangle((left, top, left + 2 * cell, top + 3 * cell), outline=INK, width=2)
        draw.text((left + cell, top + 3 * cell + cell * 0.7), f.card, font=font(legible_size(width)), fill=INK,
                  anchor="mm")
    return to_png(img)
