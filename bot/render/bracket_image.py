"""A knockout's bracket as a picture: the rounds as columns (two side by side, later rounds in a band below, so the
names stay legible on a phone), each table a box headed by its number with its entrants, those who went on marked
with a green arrow and shaded, the final table's winner with a gold star; the rounds still planned as empty boxes.

The picture draws no words, only names, numbers and shapes: a name the default font cannot draw (Japanese, a bot's
「ボット1」) stands as a person or bot mark with its number (a person's place in the standings, a bot's own number).
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.tournaments.bracket import BoxState, BracketBox, BracketEntry, BracketRound

from .shapes import INK, RGB, WHITE, draw_fitted, draw_star, drawable, font, legible_size, to_png

COLUMNS = 2            # rounds side by side; more would shrink the names below legibility at phone width
ONE_COLUMN_WIDTH = 300
TWO_COLUMN_WIDTH = 560
PAPER: RGB = (250, 249, 245)
LINE: RGB = (120, 120, 132)
FAINT: RGB = (200, 200, 206)
PLAYING: RGB = (52, 120, 200)
CANCELLED: RGB = (200, 60, 60)
THROUGH: RGB = (46, 150, 70)
THROUGH_FILL: RGB = (222, 242, 226)
GOLD: RGB = (214, 160, 20)
GOLD_FILL: RGB = (252, 238, 186)
HEADER: RGB = (60, 64, 80)

ROW, HEAD, GAP, MARGIN = 1.35, 1.7, 0.5, 0.5  # in font sizes
BOX_TOP, BOX_BOTTOM = 1.0, 0.3                # a box's room above its first row (its number) and below its last


@dataclass(frozen=True)
class Layout:
    size: int    # the font's size: everything else is in these
    width: int
    column: float

    @staticmethod
    def of(columns: int) -> "Layout":
        width = ONE_COLUMN_WIDTH if columns == 1 else TWO_COLUMN_WIDTH
        size = legible_size(width)
        column = (width - 2 * MARGIN * size - (columns - 1) * GAP * size) / columns
        return Layout(size, width, column)

    def box_height(self, box: BracketBox) -> float:
        return (BOX_TOP + box.seats * ROW + BOX_BOTTOM) * self.size

    def column_height(self, bracket_round: BracketRound) -> float:
        return sum(self.box_height(b) + GAP * self.size for b in bracket_round.boxes)


def bands(rounds: list[BracketRound]) -> list[list[BracketRound]]:
    return [rounds[i:i + COLUMNS] for i in range(0, len(rounds), COLUMNS)]


def render(rounds: list[BracketRound]) -> Image.Image:
    layout = Layout.of(min(COLUMNS, max(1, len(rounds))))
    s = layout.size
    heights = [HEAD * s + max(layout.column_height(r) for r in band) for band in bands(rounds)]
    height = round(MARGIN * s * 2 + sum(heights) + GAP * s * (len(heights) - 1)) if rounds else round(2 * s)
    img = Image.new("RGB", (layout.width, height), PAPER)
    draw = ImageDraw.Draw(img)
    top = MARGIN * s
    for band, band_height in zip(bands(rounds), heights, strict=True):
        for index, bracket_round in enumerate(band):
            left = MARGIN * s + index * (layout.column + GAP * s)
            _draw_round(draw, layout, bracket_round, left, top)
        top += band_height + GAP * s
    return img


def render_png(rounds: list[BracketRound]) -> bytes:
    return to_png(render(rounds))


def _draw_round(draw: ImageDraw.ImageDraw, layout: Layout, bracket_round: BracketRound, left: float,
                top: float) -> None:
    s = layout.size
    fill = GOLD if bracket_round.final else HEADER
    draw.rounded_rectangle((left, top, left + layout.column, top + 1.3 * s), radius=0.4 * s, fill=fill)
    label_x = left + layout.column / 2
    if bracket_round.final:
        draw_star(draw, left + 0.75 * s, top + 0.65 * s, 0.5 * s, WHITE)
    draw.text((label_x, top + 0.65 * s), str(bracket_round.number), font=font(s), fill=WHITE, anchor="mm")
    y = top + HEAD * s
    for box in bracket_round.boxes:
        _draw_box(draw, layout, box, left, y, bracket_round.final)
        y += layout.box_height(box) + GAP * s


def _draw_box(draw: ImageDraw.ImageDraw, layout: Layout, box: BracketBox, left: float, top: float,
              final: bool) -> None:
    s = layout.size
    right, bottom = left + layout.column, top + layout.box_height(box)
    outline = {BoxState.PLAYING: PLAYING, BoxState.CANCELLED: CANCELLED, BoxState.DONE: LINE}.get(box.state, FAINT)
    edge = top + 0.5 * s
    draw.rounded_rectangle((left, edge, right, bottom), radius=0.25 * s, outline=outline,
                           width=max(2, round(s / 12)))
    if box.table is not None:  # its number on the top edge, as a fieldset's legend
        label = f"#{box.table}"
        width = draw.textlength(label, font=font(s))
        draw.rectangle((left + 0.3 * s, edge - 0.1 * s, left + 0.7 * s + width, edge + 0.1 * s), fill=PAPER)
        draw.text((left + 0.5 * s, edge), label, font=font(s), fill=outline, anchor="lm")
        if box.state is BoxState.CANCELLED:  # a cross after the number
            x, r = left + 1.1 * s + width, 0.3 * s
            draw.rectangle((x - 1.5 * r, edge - 1.2 * r, x + 1.5 * r, edge + 1.2 * r), fill=PAPER)
            draw.line((x - r, edge - r, x + r, edge + r), fill=CANCELLED, width=max(2, round(s / 8)))
            draw.line((x - r, edge + r, x + r, edge - r), fill=CANCELLED, width=max(2, round(s / 8)))
    y = top + BOX_TOP * s
    for entry in box.entries:
        _draw_entry(draw, layout, entry, (left, right, y), winner=final and entry.advanced)
        y += ROW * s
    for _ in range(box.seats - len(box.entries)):  # a planned seat: an empty line to fill in
        draw.line((left + 0.6 * s, y + ROW * s * 0.7, right - 0.6 * s, y + ROW * s * 0.7), fill=FAINT,
                  width=max(1, round(s / 16)))
        y += ROW * s


def _draw_entry(draw: ImageDraw.ImageDraw, layout: Layout, entry: BracketEntry, where: tuple[float, float, float],
                *, winner: bool) -> None:
    """One entrant's row: a mark when they went on (the final table's winner: a star), their place once the table
    ended, their name (fitted) or the mark and number that stand for it."""
    s = layout.size
    left, right, top = where
    middle = top + ROW * s / 2
    if entry.advanced:
        draw.rectangle((left + 0.15 * s, top + 0.08 * s, right - 0.15 * s, top + ROW * s - 0.08 * s),
                       fill=GOLD_FILL if winner else THROUGH_FILL)
    x = left + 0.3 * s
    if winner:
        draw_star(draw, x + 0.35 * s, middle, 0.38 * s, GOLD)
    elif entry.advanced:  # an arrow pointing on, to the next round
        draw.polygon([(x, middle - 0.35 * s), (x + 0.65 * s, middle), (x, middle + 0.35 * s)], fill=THROUGH)
    x += 0.9 * s
    if entry.place is not None:
        draw.text((x, middle), str(entry.place), font=font(s), fill=LINE, anchor="lm")  # grey: not a name's number
        x += 0.85 * s
    room = right - 0.3 * s - x
    if entry.name.strip() and drawable(entry.name):
        draw_fitted(draw, (x, middle), entry.name, s, room, INK)
        return
    _draw_mark(draw, entry.is_bot, x + 0.4 * s, middle, 0.4 * s)
    if entry.number > 0:  # a person still in has no place yet: the mark alone
        draw.text((x + 1.0 * s, middle), str(entry.number), font=font(s), fill=INK, anchor="lm")


def _draw_mark(draw: ImageDraw.ImageDraw, is_bot: bool, x: float, y: float, r: float) -> None:
    """A bot (a square head with two eyes) or a person (a head over shoulders), for a name the font cannot draw."""
    if is_bot:
        draw.rounded_rectangle((x - r, y - r, x + r, y + r), radius=r / 3, fill=HEADER)
        for dx in (-0.4 * r, 0.4 * r):
            draw.ellipse((x + dx - 0.18 * r, y - 0.3 * r, x + dx + 0.18 * r, y + 0.06 * r), fill=WHITE)
        return
    draw.ellipse((x - 0.45 * r, y - r, x + 0.45 * r, y - 0.1 * r), fill=HEADER)
    draw.chord((x - r, y, x + r, y + 2 * r), 180, 360, fill=HEADER)
