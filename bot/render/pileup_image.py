"""The six Pile up columns as a picture (Pillow), drawn from the spectator view only.

Each column stands on its die face (pips = the column's number; gold when the dice just rolled show it) and grows
upwards, bottom layer first. A layer is a card in its colour with its number and its colour's shape (the text's
``●■▲★○◆``), so colours are told apart without seeing colour; cards stacked exactly are drawn fanned behind it
with their count beside it (x3). A column two layers high (the next new layer takes it) is framed in amber, a trapped
one in black with a black ◆ on its die, one being dumped in blue with a white ○. No words are drawn (the alt text
says it in words).
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from engines.pileup.view import Column, GivePending, PenaltyPending, PileupView, PlayPending

from .pileup import COLOUR_SYMBOLS
from .shapes import INK, RGB, WHITE, draw_symbol, font, to_png

CARD_W, CARD_H = 104, 58
GAP = 10
FAN = 5  # pixels between cards stacked exactly
DIE = 54
PAD = 12
COUNT_W, COUNT_FONT = 46, 34  # beside a layer, how many cards are stacked on it: ≥ 12 px tall at 280 px wide
COLUMN_W = CARD_W + COUNT_W  # a column's panel
MIN_SLOTS = 3  # room for three layers even when the columns are low (the picture keeps its size)
PER_ROW = 3  # columns side by side
BACKGROUND: RGB = (240, 238, 232)
PANEL: RGB = (226, 223, 215)
FILL: dict[str, RGB] = {"R": (206, 58, 52), "B": (52, 104, 196), "G": (52, 150, 84), "Y": (236, 190, 40),
                        "W": (252, 252, 250), "K": (30, 30, 34)}
TAKES: RGB = (240, 150, 20)
TRAPPED: RGB = (20, 20, 24)
DUMPED: RGB = (60, 130, 230)
ROLLED: RGB = (255, 205, 60)
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def ink_on(colour: str) -> RGB:
    return WHITE if colour in ("R", "B", "G", "K") else INK


def draw_die(draw: ImageDraw.ImageDraw, cx: float, cy: float, value: int, face: RGB) -> None:
    half = DIE / 2
    draw.rounded_rectangle((cx - half, cy - half, cx + half, cy + half), radius=9, fill=face, outline=INK, width=2)
    step, r = DIE * 0.27, DIE * 0.085
    for dx, dy in PIPS.get(value, []):
        x, y = cx + dx * step, cy + dy * step
        draw.ellipse((x - r, y - r, x + r, y + r), fill=INK)


def draw_layer(draw: ImageDraw.ImageDraw, left: float, top: float, cards: list[str]) -> None:
    """One layer: its card (and the ones stacked exactly on it, fanned behind), number and colour shape."""
    colour, number = cards[0][0], cards[0][1:2]
    fill = FILL.get(colour, (150, 150, 150))
    edge = INK if colour != "K" else (150, 150, 160)
    for k in range(len(cards) - 1, -1, -1):
        x, y = left + k * FAN, top - k * FAN
        draw.rounded_rectangle((x, y, x + CARD_W - (len(cards) - 1) * FAN, y + CARD_H), radius=8, fill=fill,
                               outline=edge, width=2)
    ink = ink_on(colour)
    draw.text((left + 22, top + CARD_H / 2), number, font=font(38), fill=ink, anchor="mm")
    stacked = len(cards) > 1
    draw_symbol(draw, COLOUR_SYMBOLS.get(colour, "●"), left + (58 if stacked else 62), top + CARD_H / 2, 13,
                ink if colour != "W" else INK, outline=None)
    if stacked:  # how many cards the layer holds, beside it (not over the cards), legible on a phone
        draw.text((left + CARD_W + COUNT_W / 2, top + CARD_H / 2), f"x{len(cards)}", font=font(COUNT_FONT),
                  fill=INK, anchor="mm")


def column_frame(col: Column) -> RGB | None:
    if col.being_dumped:
        return DUMPED
    if col.trapped:
        return TRAPPED
    if col.layer_count >= 2:
        return TAKES
    return None


def draw_column(draw: ImageDraw.ImageDraw, col: Column, left: float, top: float, bottom: float,
                rolled: set[int]) -> None:
    """A column in the band from ``top`` to ``bottom`` (pixels): its panel of layers above its die."""
    die_y = bottom - PAD - DIE / 2
    frame = column_frame(col)
    base = die_y - DIE / 2 - GAP
    panel = (left - 4, top + PAD - 4, left + COLUMN_W + 4, base + 4)
    draw.rounded_rectangle(panel, radius=10, fill=PANEL, outline=frame, width=5 if frame else 1)
    for i, lay in enumerate(col.layers):
        top = base - (i + 1) * (CARD_H + GAP) + GAP
        draw_layer(draw, left + 2, top, lay.cards)
    number = col.number
    cx = left + COLUMN_W / 2
    draw_die(draw, cx, die_y, number, ROLLED if number in rolled else WHITE)
    mark_x, mark_y = left + COLUMN_W - 4, die_y - DIE / 2 + 4
    if col.being_dumped:
        draw_symbol(draw, "●", mark_x, mark_y, 14, DUMPED)
        draw_symbol(draw, "○", mark_x, mark_y, 9, WHITE)
    elif col.trapped:
        draw_symbol(draw, "◆", mark_x, mark_y, 15, TRAPPED, outline=WHITE)


def rolled_values(view: PileupView) -> set[int]:
    """The dice on the table: the pending decision's (play, penalty, give) or, between decisions, the last roll's
    (a pending roll counts its dice instead of listing them)."""
    listed = view.pending.dice if isinstance(view.pending, (PlayPending, PenaltyPending, GivePending)) else None
    return set(view.dice if listed is None else listed)


def render(view: PileupView) -> Image.Image:
    """The columns in rows of ``PER_ROW`` (1 2 3 over 4 5 6): six in one row would be shown so small on a phone that
    the numbers fall under 12 px."""
    columns = view.columns
    rows = [columns[i:i + PER_ROW] for i in range(0, len(columns), PER_ROW)] or [[]]
    band = [PAD * 2 + max([MIN_SLOTS] + [c.layer_count for c in row]) * (CARD_H + GAP) + GAP + DIE + 8
            for row in rows]
    across = max(len(row) for row in rows)
    width = PAD * 2 + across * COLUMN_W + (across - 1) * (GAP + 8) + 8
    img = Image.new("P", (width, sum(band)), BACKGROUND)
    draw = ImageDraw.Draw(img)
    rolled = rolled_values(view)
    top = 0
    for row, height in zip(rows, band, strict=True):
        for i, col in enumerate(row):
            draw_column(draw, col, PAD + 4 + i * (COLUMN_W + GAP + 8), top, top + height, rolled)
        top += height
    return img


def render_png(view: PileupView) -> bytes:
    return to_png(render(view))

