"""A Rocca tower too wide and too tall for one legible picture: a small overview on top, the parts where a move is
decided below it at full size.

When the active cards (every card a move may be placed on) and the last card spread so far that the whole crop, even
cut into bands, would shrink ranks and labels under 12 px at a phone's 400 px, the picture is drawn in two parts:

- **the parts at full size**: the active cards and the last card, each with the cards around it, grouped into
  ``parts`` (cards close together share one), laid out left to right in rows that wrap, at the size whose ranks and
  labels stay 12 px tall at 400 px. Every card a legal move can be placed on is in one of them, labelled and with its
  free sides outlined, as in the single picture.
- **the overview**: the whole crop shrunk to the picture's width (and at most ``OVERVIEW_TALL`` units tall), without
  ranks or labels (too small to read; the suits, pips, joker rings and the last card's gold ring stay), each part
  framed where it lies in the tower in the colour of its own frame below. It is smaller because it only shows where
  the parts are, not what to decide.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImagePalette

from engines.rocca.view import RoccaView, TowerEntry

from .rocca_image import (
    BACKGROUND,
    CANVAS_MAX,
    OUTLINE,
    PAD_X,
    PAD_Y,
    PHONE_WIDTH,
    RANK_WIDTH,
    UNIT_MAX,
    UNIT_MIN,
    Canvas,
    Window,
    draw_tower,
    text_sizes,
)

GAP = 0.4  # units between two parts, and around the overview
NEAR = 0.6  # two parts whose areas come this close (units) are drawn as one
PART_TALL = 7.0  # a part grows by merging at most this tall (units)
OVERVIEW_TALL = 6.0  # the overview at most this many units tall (at the parts' scale)
# a part and its place in the overview are framed in the same colour (told apart by colour: no text); none of them
# purple or green, which ring jokers and outline free sides
FRAMES: list[tuple[int, int, int]] = [(30, 90, 200), (214, 40, 120), (0, 150, 150), (235, 120, 0), (90, 90, 90)]


@dataclass(frozen=True)
class Area:
    """A rectangle of the lattice drawing (y up), in units."""

    left: float
    right: float
    bottom: float
    top: float

    @staticmethod
    def around(tc: TowerEntry) -> Area:
        return Area(tc.x - PAD_X, tc.x + PAD_X, tc.y - PAD_Y, tc.y + PAD_Y)

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    def union(self, other: Area) -> Area:
        return Area(min(self.left, other.left), max(self.right, other.right),
                    min(self.bottom, other.bottom), max(self.top, other.top))

    def holds(self, other: Area) -> bool:
        return (self.left <= other.left and other.right <= self.right and self.bottom <= other.bottom
                and other.top <= self.top)

    def near(self, other: Area) -> bool:
        return (self.left - NEAR < other.right and other.left - NEAR < self.right
                and self.bottom - NEAR < other.top and other.bottom - NEAR < self.top)


def parts(focus: list[TowerEntry]) -> list[Area]:
    """The areas drawn at full size: one around each focus card, merged while close and the merged area stays at most
    ``RANK_WIDTH`` wide and ``PART_TALL`` tall; top of the tower first, then left to right."""
    areas = list(dict.fromkeys(Area.around(tc) for tc in focus))
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(areas):
            for j in range(i + 1, len(areas)):
                both = a.union(areas[j])
                if a.near(areas[j]) and both.width <= RANK_WIDTH and both.height <= PART_TALL:
                    areas[i] = both
                    del areas[j]
                    merged = True
                    break
            if merged:
                break
    return sorted(areas, key=lambda a: (-round(a.top), a.left))


def part_labels(view: RoccaView) -> list[list[str]] | None:
    """The labels of the active cards each part shows, in the order the parts are drawn; None for a tower drawn
    whole (the alt text says what the picture shows)."""
    tower = view.tower
    if not Canvas(tower).split:
        return None
    active = [tc for tc in tower if tc.active]
    return [[tc.label for tc in active if part.holds(Area.around(tc))] for part in parts(active + tower[-1:])]


@dataclass(frozen=True)
class Placed:
    """A part and where its top left corner goes in the picture (units from the picture's top left)."""

    area: Area
    x: float
    y: float


def wrap(areas: list[Area], width: float, top: float) -> tuple[list[Placed], float]:
    """Rows of parts at most ``width`` units wide, from ``top`` down; returns them and the height they reach."""
    placed: list[Placed] = []
    x, y, row = 0.0, top, 0.0
    for area in areas:
        if x > 0 and x + area.width > width + 1e-9:
            x, y, row = 0.0, y + row + GAP, 0.0
        placed.append(Placed(area, x, y))
        x += area.width + GAP
        row = max(row, area.height)
    return placed, y + row


def render_split(view: RoccaView, whole: Canvas) -> Image.Image:
    """The overview of ``whole`` (the crop too wide to read) on top, the parts at full size below."""
    tower = view.tower
    areas = parts([tc for tc in tower if tc.active] + tower[-1:])
    width = max(max(a.width for a in areas), min(RANK_WIDTH, sum(a.width + GAP for a in areas) - GAP))
    scale = min(width / whole.width, OVERVIEW_TALL / whole.height)  # overview units per crop unit
    overview = (whole.width * scale, whole.height * scale)
    placed, height = wrap(areas, width, overview[1] + GAP)
    # at least PHONE_WIDTH pixels wide: a phone shrinks a wider picture to that width but never enlarges a narrower one
    unit = max(UNIT_MIN, PHONE_WIDTH / width, min(UNIT_MAX, CANVAS_MAX / width, CANVAS_MAX / height))
    rank, label = text_sizes(width)
    palette = ImagePalette.ImagePalette()
    out = picture((math.ceil(width * unit), math.ceil(height * unit)), palette)
    small = Window(whole.min_x, whole.max_y, whole.width, whole.height, unit * scale)
    left = (width - overview[0]) / 2 * unit
    overview_size = (math.ceil(overview[0] * unit), math.ceil(overview[1] * unit))
    out.paste(drawn(picture(overview_size, palette), small, view, text=False), (round(left), 0))
    draw = ImageDraw.Draw(out)
    for n, part in enumerate(placed):
        a, colour = part.area, FRAMES[n % len(FRAMES)]
        frame = [small.px(a.left, a.top), small.px(a.right, a.bottom)]
        draw.rectangle([(left + x, y) for x, y in frame], outline=colour, width=2)
        window = Window(a.left, a.top, a.width, a.height, unit, rank=rank, label=label)
        corner = (round(part.x * unit), round(part.y * unit))
        out.paste(drawn(picture((math.ceil(a.width * unit), math.ceil(a.height * unit)), palette), window, view),
                  corner)
        right = min(corner[0] + a.width * unit, out.size[0] - 1)  # the frame's last pixels inside the picture:
        bottom = min(corner[1] + a.height * unit, out.size[1] - 1)  # a part at its edge is framed whole
        draw.rectangle((corner[0], corner[1], right, bottom), outline=colour, width=3)
    y = overview[1] * unit + GAP * unit / 2
    draw.line((0, y, out.size[0], y), fill=OUTLINE, width=2)
    out.putpalette(bytes(palette.palette), "RGB")  # every colour the pieces took from it (the paste copies indices)
    return out


def picture(size: tuple[int, int], palette: ImagePalette.ImagePalette) -> Image.Image:
    """A palette picture filled with the background whose colours come from ``palette``, shared by every piece of
    the picture so that pasting one into another keeps its colours (a palette PNG encodes ~10× faster than RGB)."""
    img = Image.new("P", size, palette.getcolor(BACKGROUND))
    img.palette = palette
    return img


def drawn(img: Image.Image, window: Window, view: RoccaView, text: bool = True) -> Image.Image:
    """The tower as seen through ``window``, on a picture of its own (so no card spills into its neighbours)."""
    draw_tower(ImageDraw.Draw(img), window, view, text)
    return img
