"""The Rocca tower as a picture (Pillow): every card an isometric cube seen from above, drawn from the spectator view.

A card is the hexagon of six lattice triangles around its centre; its head (suit), face (letter or number) and
profile (pips) are rhombi of two triangles each, turned by the card's orientation. Cards are painted in placement
order, so every triangle shows the card placed on it last — exactly the rules' visibility. On top: the labels of
active cards (``b3``, the names the hand view's moves use), green outlines on free sides some card could be placed
on, a gold ring on the last card, jokers ringed in purple with an arrow for their bend, and columns frozen by a joker
greyed out. The picture is cropped to the active cards and the last one, and its labels and face ranks are sized to
stay 12 px tall when a phone shows it 400 px wide; a crop too wide for that is cut into bands (its left part on top)
that overlap by a card, as long as the bands stacked do not make a long strip. A crop too wide and too tall for both
is drawn by ``rocca_layout``: a small overview without text above the parts around the active cards at full size.

No words are drawn (the board embed has the text); suits are drawn as shapes (the default font has no ♠♥♦♣).
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engines.rocca.geometry import SIDES
from engines.rocca.view import RoccaView, TowerEntry

from .shapes import PHONE_WIDTH, RGB, draw_star, draw_suit, font, mix, to_png

Point = tuple[float, float]

UNIT_MAX = 58.0  # pixels per lattice step (a card's circumradius) for small towers
UNIT_MIN = 26.0  # never smaller: a larger canvas instead
CANVAS_MAX = 900  # preferred largest side in pixels (Discord shows ~400 px on a phone)
PAD_X, PAD_Y = 1.2, 1.3  # units around the outermost card centres (a hexagon reaches 0.87 and 1 unit)
LABEL_MIN_PX = 12  # the labels' and ranks' text height at that width
LABEL_HEIGHT = 0.64  # text height of a label per pixel of font size (the default font's digits and letters, at least)
LABEL_MAX = 0.9  # a label's font size at most this many units (larger spills over the card it names)
RANK_MIN, RANK_MAX = 0.46, 0.66  # a face's rank: font size in units (the larger still fits the face)
RANK_HEIGHT = 0.64  # a digit's ink height per pixel of font size
# the widest crop (units) whose ranks, at RANK_MAX, stay LABEL_MIN_PX tall at PHONE_WIDTH
RANK_WIDTH = math.floor(10 * RANK_MAX * RANK_HEIGHT * PHONE_WIDTH / LABEL_MIN_PX) / 10
BAND_OVERLAP = 2.0  # units two bands of a wide crop share, so a card cut by one is whole in the other
BANDS_TALL_MAX = 2.4  # a wide crop is cut into bands only while they stack at most this many times as tall as wide
TALL_MAX = 1.6  # a crop at most this many times as tall as wide (wider: more of the tower, not a long strip),
# unless that made it wider than RANK_WIDTH
BACKGROUND: RGB = (246, 243, 236)
OUTLINE: RGB = (45, 45, 50)
SUIT_BASE: dict[str, RGB] = {"S": (84, 104, 140), "H": (196, 64, 64), "D": (222, 136, 38), "C": (62, 146, 88)}
SUIT_INK: dict[str, RGB] = {"S": (25, 25, 35), "H": (175, 20, 30), "D": (190, 40, 20), "C": (25, 25, 35)}
JOKER_BASE: RGB = (128, 84, 176)
FREE_SIDE: RGB = (24, 200, 90)
LAST_RING: RGB = (250, 200, 30)
JOKER_RING: RGB = (150, 60, 210)
BADGE_PLAYABLE: RGB = (20, 60, 140)
BADGE_IDLE: RGB = (95, 95, 105)
ANGLES = [math.radians(30 + 60 * m) for m in range(6)]
STEPS: list[Point] = [(math.cos(a), math.sin(a)) for a in ANGLES]  # D[m] in drawing units (y up)


def side_colours(base: RGB) -> dict[str, RGB]:
    """Light head, middle face, dark profile: the cube's three lit faces."""
    return {"head": mix(base, (255, 255, 255), 0.62), "face": mix(base, (255, 255, 255), 0.3),
            "profile": mix(base, (0, 0, 0), 0.12)}


def card_suit(tc: TowerEntry) -> str | None:
    return tc.suit if tc.card.startswith("X") else tc.card[-1]


def card_rank(tc: TowerEntry) -> str:
    return "" if tc.card.startswith("X") else tc.card[:-1]


class Window:
    """Lattice drawing coordinates (y up) → pixels of an area ``width`` × ``height`` units whose top left corner is
    (``min_x``, ``max_y``), at ``unit`` pixels a unit; ``rank`` and ``label`` are font sizes in units."""

    def __init__(self, min_x: float, max_y: float, width: float, height: float, unit: float,
                 rank: float = RANK_MAX, label: float = LABEL_MAX) -> None:
        self.min_x, self.max_y, self.width, self.height = min_x, max_y, width, height
        self.unit, self.rank, self.label = unit, rank, label

    def px(self, x: float, y: float) -> Point:
        return (x - self.min_x) * self.unit, (self.max_y - y) * self.unit

    def reaches(self, tc: TowerEntry) -> bool:
        """Whether any part of the card (its hexagon, its bend arrow) lies in the area."""
        return (self.min_x - 1.3 < tc.x < self.min_x + self.width + 1.3
                and self.max_y - self.height - 1.3 < tc.y < self.max_y + 1.3)


class Canvas(Window):
    """Lattice drawing coordinates (y up) → pixels: cropped to the cards that matter (the active ones and the last
    one; the others are drawn only as far as they reach into that area), scaled so its labels and ranks stay
    legible at phone width. A crop wider than ``RANK_WIDTH`` is shown in ``bands`` (left part on top), each at most
    that wide, when the bands stacked stay at most ``BANDS_TALL_MAX`` times as tall as wide: ``size`` is then the
    size of the bands stacked, and ``full`` the size the whole crop is drawn at before it is cut. A crop that neither
    fits nor bands well is ``split``: ``rocca_layout`` draws it as an overview and full-size parts instead."""

    def __init__(self, tower: list[TowerEntry], whole: bool = False) -> None:
        focus = tower if whole else [tc for tc in tower if tc.active] + tower[-1:]
        xs = [tc.x for tc in focus or tower] or [0.0]
        ys = [tc.y for tc in focus or tower] or [0.0]
        min_x, max_y = min(xs) - PAD_X, max(ys) + PAD_Y
        width_units = max(xs) - min(xs) + 2 * PAD_X
        height_units = max(ys) - min(ys) + 2 * PAD_Y
        if height_units > TALL_MAX * width_units:  # widen around the middle: a strip would be read far too tall,
            wider = max(width_units, min(height_units / TALL_MAX, RANK_WIDTH))  # but not so wide ranks shrink
            min_x -= (wider - width_units) / 2
            width_units = wider
        self.bands, shown_units = 1, width_units
        if width_units > RANK_WIDTH:
            bands = math.ceil((width_units - BAND_OVERLAP) / (RANK_WIDTH - BAND_OVERLAP))
            band_units = (width_units + (bands - 1) * BAND_OVERLAP) / bands
            if bands * height_units <= BANDS_TALL_MAX * band_units:
                self.bands, shown_units = bands, band_units
        self.band_units = shown_units
        shown_height = self.bands * height_units
        fit = min(CANVAS_MAX / shown_units, CANVAS_MAX / shown_height)
        # at least PHONE_WIDTH pixels wide: a phone shrinks a wider picture to that width, never enlarges a narrower one
        unit = max(UNIT_MIN, PHONE_WIDTH / shown_units, min(UNIT_MAX, fit))
        self.full = (math.ceil(width_units * unit), math.ceil(height_units * unit))
        self.size = (math.ceil(shown_units * unit), self.bands * self.full[1])
        self.split = shown_units > RANK_WIDTH + 1e-9
        super().__init__(min_x, max_y, width_units, height_units, unit,
                         rank=text_sizes(shown_units)[0], label=text_sizes(shown_units)[1])

    def cut(self, img: Image.Image) -> Image.Image:
        """The whole crop as drawn, cut into its bands stacked top to bottom (a thin line between two bands)."""
        if self.bands == 1:
            return img
        out = Image.new(img.mode, self.size, BACKGROUND)
        if img.mode == "P":
            out.putpalette(img.getpalette() or [])
        step = (self.band_units - BAND_OVERLAP) * self.unit
        for band in range(self.bands):
            left = round(band * step)
            out.paste(img.crop((left, 0, left + self.size[0], self.full[1])), (0, band * self.full[1]))
        draw = ImageDraw.Draw(out)
        for band in range(1, self.bands):
            draw.line((0, band * self.full[1], self.size[0], band * self.full[1]), fill=OUTLINE, width=2)
        return out



def text_sizes(shown_units: float) -> tuple[float, float]:
    """Font sizes (units) of ranks and labels whose text is ``LABEL_MIN_PX`` high once a picture ``shown_units``
    wide is shown ``PHONE_WIDTH`` wide."""
    rank = min(RANK_MAX, max(RANK_MIN, LABEL_MIN_PX * shown_units / (PHONE_WIDTH * RANK_HEIGHT)))
    label = min(LABEL_MAX, max(0.34, LABEL_MIN_PX * shown_units / (PHONE_WIDTH * LABEL_HEIGHT)))
    return rank, label


def rhombus(c: Point, start: int) -> list[Point]:
    """The side made of triangles ``start`` and ``start+1``: corners c, c+D[s], c+D[s+1], c+D[s+2] (units)."""
    return [c] + [(c[0] + STEPS[(start + i) % 6][0], c[1] + STEPS[(start + i) % 6][1]) for i in range(3)]


def side_start(orientation: int, side: str) -> int:
    return (orientation + 2 * SIDES.index(side)) % 6


def side_point(c: Point, start: int, s: float, t: float) -> Point:
    """A point inside the rhombus: c + s·D[start] + t·D[start+2] (s, t in 0..1)."""
    a, b = STEPS[start % 6], STEPS[(start + 2) % 6]
    return c[0] + s * a[0] + t * b[0], c[1] + s * a[1] + t * b[1]


def pip_layout(n: int) -> list[tuple[float, float]]:
    """Positions (s, t) in the rhombus for ``n`` pips: a small grid, centred."""
    if n <= 0:
        return []
    cols = math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    spots = []
    for i in range(n):
        r, c = divmod(i, cols)
        in_row = min(cols, n - r * cols)
        s = (c + 1) / (in_row + 1)
        t = (r + 1) / (rows + 1)
        spots.append((0.14 + 0.72 * s, 0.14 + 0.72 * t))
    return spots


# ---- one card ----------------------------------------------------------------------------------------------------
def draw_card(draw: ImageDraw.ImageDraw, cv: Window, tc: TowerEntry, dimmed: bool, text: bool = True) -> None:
    c = (tc.x, tc.y)
    k = tc.orientation
    suit = card_suit(tc)
    joker = tc.card.startswith("X")
    colours = side_colours(JOKER_BASE if joker else SUIT_BASE.get(suit or "S", JOKER_BASE))
    if joker and suit:
        colours["head"] = side_colours(SUIT_BASE[suit])["head"]
    if dimmed:
        colours = {s: mix(col, (200, 200, 200), 0.65) for s, col in colours.items()}
    ink = SUIT_INK.get(suit or "", (30, 30, 30))
    if dimmed:
        ink = mix(ink, (200, 200, 200), 0.55)
    u = cv.unit
    width = max(1, round(u / 28))
    for side in SIDES:
        corners = [cv.px(*p) for p in rhombus(c, side_start(k, side))]
        draw.polygon(corners, fill=colours[side])
        draw.line([*corners, corners[0]], fill=OUTLINE, width=width)
    # head: the suit
    hs = side_start(k, "head")
    hx, hy = cv.px(*side_point(c, hs, 0.5, 0.5))
    if suit:
        draw_suit(draw, suit, hx, hy, 0.26 * u, ink)
    # face: letter or number (a star for a joker)
    fs = side_start(k, "face")
    fx, fy = cv.px(*side_point(c, fs, 0.5, 0.5))
    if joker:
        draw_star(draw, fx, fy, 0.3 * u, ink)  # already dimmed above
    elif text:
        draw.text((fx, fy), card_rank(tc), font=font(math.ceil(cv.rank * u)), fill=ink, anchor="mm")
    # profile: pips for numbers (a ring for 0), the rank's initial for letters
    ps = side_start(k, "profile")
    rank = card_rank(tc)
    pip = (255, 255, 255) if not dimmed else (235, 235, 235)
    if rank.isdigit():
        n = int(rank)
        if n == 0:
            px, py = cv.px(*side_point(c, ps, 0.5, 0.5))
            rr = 0.16 * u
            draw.ellipse((px - rr, py - rr, px + rr, py + rr), outline=pip, width=max(2, round(u / 14)))
        else:
            rr = (0.075 if n <= 4 else 0.06 if n <= 6 else 0.05) * u
            for s, t in pip_layout(n):
                px, py = cv.px(*side_point(c, ps, s, t))
                draw.ellipse((px - rr, py - rr, px + rr, py + rr), fill=pip)
    elif rank:
        px, py = cv.px(*side_point(c, ps, 0.5, 0.5))
        draw_suit(draw, suit or "S", px, py, 0.18 * u, pip)
    else:  # joker
        px, py = cv.px(*side_point(c, ps, 0.5, 0.5))
        draw_star(draw, px, py, 0.2 * u, pip)


# ---- overlays ----------------------------------------------------------------------------------------------------
def hexagon_px(cv: Window, tc: TowerEntry, scale: float = 1.0) -> list[Point]:
    return [cv.px(tc.x + scale * dx, tc.y + scale * dy) for dx, dy in STEPS]


def outline_side(draw: ImageDraw.ImageDraw, cv: Window, tc: TowerEntry, side: str) -> None:
    """A free side: its rhombus outlined in green, slightly inset so neighbours' edges stay visible."""
    c = (tc.x, tc.y)
    corners = rhombus(c, side_start(tc.orientation, side))
    mx = sum(p[0] for p in corners) / 4
    my = sum(p[1] for p in corners) / 4
    inset = [cv.px(mx + (p[0] - mx) * 0.84, my + (p[1] - my) * 0.84) for p in corners]
    draw.line(inset + [inset[0]], fill=FREE_SIDE, width=max(2, round(cv.unit / 11)), joint="curve")


def ring_line(draw: ImageDraw.ImageDraw, points: list[Point], colour: RGB, width: int) -> None:
    """A closed outline (``polygon(outline=, width=)`` builds a full-size mask each time: far slower)."""
    draw.line([*points, points[0]], fill=colour, width=width, joint="curve")


def draw_bend_arrow(draw: ImageDraw.ImageDraw, cv: Window, tc: TowerEntry) -> None:
    """A curved arrow around the joker's centre, turning the way it bent the tower (left = counter-clockwise)."""
    x, y = cv.px(tc.x, tc.y)
    r = 1.12 * cv.unit
    start = -90 - 60 * tc.orientation  # screen angles grow clockwise; the head points up at orientation 0
    left = tc.bend == "left"
    a0, a1 = (start - 70, start - 10) if left else (start + 10, start + 70)
    w = max(3, round(cv.unit / 9))
    draw.arc((x - r, y - r, x + r, y + r), a0, a1, fill=JOKER_RING, width=w)
    tip = math.radians(a0 if left else a1)
    tx, ty = x + r * math.cos(tip), y + r * math.sin(tip)
    direction = -1 if left else 1  # tangent direction of travel (clockwise positive on screen)
    tangent = (-math.sin(tip) * direction, math.cos(tip) * direction)
    normal = (math.cos(tip), math.sin(tip))
    h = 0.28 * cv.unit
    draw.polygon([(tx + tangent[0] * h, ty + tangent[1] * h),
                  (tx + normal[0] * h * 0.6, ty + normal[1] * h * 0.6),
                  (tx - normal[0] * h * 0.6, ty - normal[1] * h * 0.6)], fill=JOKER_RING)


def draw_badge(draw: ImageDraw.ImageDraw, cv: Window, tc: TowerEntry) -> None:
    """The card's label (``b3``) on its centre, legible at phone width: blue when it can be built on now, else grey."""
    x, y = cv.px(tc.x, tc.y)
    open_now = bool(tc.playable and tc.open_sides)
    f = font(math.ceil(cv.label * cv.unit))
    left, top, right, bottom = draw.textbbox((x, y), tc.label, font=f, anchor="mm")
    pad = 0.07 * cv.unit
    colour = BADGE_PLAYABLE if open_now else BADGE_IDLE
    draw.rounded_rectangle((left - 2 * pad, top - pad, right + 2 * pad, bottom + pad), radius=round(2 * pad),
                           fill=colour, outline=(255, 255, 255), width=max(1, round(cv.unit / 30)))
    draw.text((x, y), tc.label, font=f, fill=(255, 255, 255), anchor="mm")


def drawn_free_sides(tc: TowerEntry) -> list[str]:
    """Open sides some card could match (the engine's ``matchable_sides``): never a number's face or a letter's
    profile."""
    matchable = tc.matchable_sides
    return [side for side in tc.open_sides if side in matchable]


def draw_tower(draw: ImageDraw.ImageDraw, cv: Window, view: RoccaView, text: bool = True) -> None:
    """Every card reaching into the window, then the overlays; ``text=False`` (an overview too small to read) draws
    no ranks, labels or free sides."""
    tower = view.tower
    shown = [tc for tc in tower if cv.reaches(tc)]
    frozen = {col.label for col in view.columns if col.frozen}
    for tc in shown:
        draw_card(draw, cv, tc, dimmed=tc.column in frozen, text=text)
    ring = max(2, round(cv.unit / 12))
    for tc in shown:
        if tc.card.startswith("X") and tc.bend:
            ring_line(draw, hexagon_px(cv, tc, 0.96), JOKER_RING, ring)
            draw_bend_arrow(draw, cv, tc)
    if len(tower) > 1 and cv.reaches(tower[-1]):
        ring_line(draw, hexagon_px(cv, tower[-1], 0.96), LAST_RING, ring)
    if not text:
        return
    for tc in shown:
        for side in drawn_free_sides(tc):
            outline_side(draw, cv, tc, side)
    for tc in shown:
        if tc.active:
            draw_badge(draw, cv, tc)


def canvas_for(view: RoccaView, whole: bool = False) -> Canvas:
    """The tower cropped to where a move is decided; once the game is over (or ``whole``: looked back at), the
    whole tower (one too large to read whole is ``split``: its overview shows all of it, the parts the last cards at
    full size)."""
    return Canvas(view.tower, whole=whole or view.over)


def render(view: RoccaView, whole: bool = False) -> Image.Image:
    cv = canvas_for(view, whole)
    if cv.split:
        from .rocca_layout import render_split

        return render_split(view, cv)
    # Palette mode: every colour here is one of a few dozen, and a palette PNG encodes ~10× faster than RGB.
    img = Image.new("P", cv.full, BACKGROUND)
    draw_tower(ImageDraw.Draw(img), cv, view)
    return cv.cut(img)


def render_png(view: RoccaView, whole: bool = False) -> bytes:
    return to_png(render(view, whole))
