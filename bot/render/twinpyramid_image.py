"""Twin Pyramid's two pyramids of the deciding seat as a picture (Pillow), drawn from the spectator view only; and
under them every seat at a glance (``render_review``), which the viewer and the animated summary show.

The picture shows one seat large enough to read on a phone (every seat at once shrank its ranks to 6–8 px at 400 px
wide; the board text lists every seat's numbers and the alt text every seat's pyramids): the seat to act (or, with
no one to act, the current one). Above its panel its name as written (gold while the seat is to act), or its
number (the board text's ``1️⃣``) when the default font cannot draw the name. The panel holds its two pyramids of
ten slots, one above the other (side by side they made the picture so wide that a phone showed its ranks under
12 px), bottom row of four first: on top the field pyramid (a placed stone shows its card, an empty slot its
rank in grey), below it the hand pyramid (the held cards face down — only their number is public — then the
shown cards face up, then the empty slots; a full hand pyramid is a burst). No other words are drawn: ranks, numbers
and suit shapes only.
"""
from __future__ import annotations

from typing import Callable

from PIL import Image, ImageDraw

from engines.twinpyramid.view import SeatView, TwinPyramidView

from .shapes import INK, RGB, WHITE, draw_fitted, draw_star, draw_suit, drawable, font, suit_ink, to_png

ROWS = (("7", "8", "9", "10"), ("4", "5", "6"), ("2", "3"), ("A",))  # bottom row first (the view's geometry)
TW, TH, TGAP = 58, 46, 4  # a slot (tile) and the gap between slots
PAD, MID = 10, 22  # around a panel's pyramids, between its two pyramids
NAME_H = 52  # the strip above the panel with the seat's name
NAME_SIZE = 34  # lower-case letters stay 12 px tall once shown 280 px wide
ROW_W = 4 * TW + 3 * TGAP
PYR_H = 4 * TH + 3 * TGAP
PANEL_W = 2 * PAD + ROW_W
PANEL_H = 2 * PAD + 2 * PYR_H + MID
BACKGROUND: RGB = (236, 233, 226)
FIELD_BG: RGB = (226, 214, 190)
HAND_BG: RGB = (204, 218, 234)
EMPTY: RGB = (246, 244, 238)
EMPTY_INK: RGB = (168, 160, 150)
BACK: RGB = (52, 84, 150)
BACK_EDGE: RGB = (150, 176, 220)
ACTING: RGB = (240, 176, 20)
BURST: RGB = (200, 60, 60)


def slot_boxes(left: float, top: float) -> list[tuple[float, float, float, float]]:
    """The ten slots of a pyramid in ``ROWS`` order (bottom row first), centred rows."""
    boxes = []
    for r, row in enumerate(ROWS):
        y = top + PYR_H - (r + 1) * TH - r * TGAP
        x0 = left + (ROW_W - (len(row) * TW + (len(row) - 1) * TGAP)) / 2
        boxes += [(x0 + i * (TW + TGAP), y, x0 + i * (TW + TGAP) + TW, y + TH) for i in range(len(row))]
    return boxes


def draw_tile(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], card_id: str) -> None:
    """A face-up card as a tile: its rank large and its suit's shape beside it (a joker: a star and 1 or 2)."""
    left, top, right, bottom = box
    draw.rectangle(box, fill=WHITE, outline=INK, width=2)  # square corners: ~4× faster than rounded, 200 a picture
    cy = (top + bottom) / 2
    if card_id.startswith("X"):
        draw_star(draw, left + 21, cy, 15, (120, 50, 180))
        draw.text((right - 12, cy), card_id[1:], font=font(26), fill=(120, 50, 180), anchor="mm")
        return
    rank, suit = card_id[:-1], card_id[-1]
    ink = suit_ink(suit)
    two = len(rank) > 1
    draw.text((left + (21 if two else 19), cy + 1), rank, font=font(30 if two else 36), fill=ink, anchor="mm")
    draw_suit(draw, suit, right - (10 if two else 14), cy, 8 if two else 10, ink)


def draw_empty(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], rank: str | None,
               edge: RGB = EMPTY_INK) -> None:
    draw.rectangle(box, fill=EMPTY, outline=edge, width=2)
    if rank:
        draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), rank, font=font(28), fill=EMPTY_INK,
                  anchor="mm")


def draw_back(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """A held card: face down."""
    draw.rectangle(box, fill=BACK, outline=INK, width=2)
    draw.rectangle((box[0] + 6, box[1] + 6, box[2] - 6, box[3] - 6), outline=BACK_EDGE, width=2)


def draw_field(draw: ImageDraw.ImageDraw, left: float, top: float, stones: dict[str, str | None]) -> None:
    ranks = [rank for row in ROWS for rank in row]
    for rank, box in zip(ranks, slot_boxes(left, top), strict=True):
        stone = stones.get(rank)
        if stone:
            draw_tile(draw, box, stone)
        else:
            draw_empty(draw, box, rank)


def hand_cards(seat: SeatView) -> list[str | None]:
    """The hand pyramid's cards in slot order: held first (None: face down; a hand shown to everyone — an A placed
    or a burst — face up), then the shown cards."""
    held: list[str | None] = list(seat.revealed) if seat.revealed is not None else [None] * seat.held_count
    return [*held, *seat.shown]


def draw_hand(draw: ImageDraw.ImageDraw, left: float, top: float, cards: list[str | None], burst: int) -> None:
    boxes = slot_boxes(left, top)
    for i, box in enumerate(boxes):
        if i < len(cards):
            card_id = cards[i]
            if card_id is None:
                draw_back(draw, box)
            else:
                draw_tile(draw, box, card_id)
        else:
            draw_empty(draw, box, None, BURST if i == burst - 1 else EMPTY_INK)
    for extra, card_id in enumerate(cards[len(boxes):]):  # never more than ten (a tenth card bursts); still shown
        x = left + ROW_W - TW - extra * (TW // 3)
        draw_tile(draw, (x, top, x + TW, top + TH), card_id) if card_id else draw_back(draw, (x, top, x + TW,
                                                                                               top + TH))


def draw_seat(draw: ImageDraw.ImageDraw, seat: SeatView, left: float, top: float, acting: bool, burst: int) -> None:
    panel = (left, top, left + PANEL_W, top + PANEL_H)
    draw.rounded_rectangle(panel, radius=12, fill=BACKGROUND, outline=ACTING if acting else EMPTY_INK,
                           width=6 if acting else 2)
    px, field_top, hand_top = left + PAD, top + PAD, top + PAD + PYR_H + MID
    draw.rounded_rectangle((px - 4, field_top - 4, px + ROW_W + 4, field_top + PYR_H + 4), radius=10,
                           fill=FIELD_BG)
    draw.rounded_rectangle((px - 4, hand_top - 4, px + ROW_W + 4, hand_top + PYR_H + 4), radius=10, fill=HAND_BG)
    draw_field(draw, px, field_top, seat.stones)
    draw_hand(draw, px, hand_top, hand_cards(seat), burst)


def draw_name(draw: ImageDraw.ImageDraw, name: str, number: int, width: float, acting: bool,
              left: float = 0, top: float = 0) -> None:
    """The seat's name as written in a strip above its panel (its number when the font lacks a character)."""
    shown = name if name.strip() and drawable(name) else str(number)
    if acting:
        draw.rounded_rectangle((left + PAD, top + 6, left + width - PAD, top + NAME_H - 2), radius=10, fill=ACTING)
    draw_fitted(draw, (left + 2 * PAD, top + NAME_H / 2 + 2), shown, NAME_SIZE, width - 4 * PAD, INK)


def focus_seat(view: TwinPyramidView, ended_first: bool = False, moved: str | None = None) -> int:
    """The index of the seat the picture shows: the first to act, else the current player's; ``ended_first`` (a
    moment looked back at): at a deal's end the seat that ended it (its completed pyramid, its burst hand), else
    the seat that ``moved`` to this moment (the one its words tell of)."""
    players = [seat.player for seat in view.table]
    over = ended_first and view.last_deal is not None and view.phase in ("deal_over", "over")
    ended = view.last_deal.player if over and view.last_deal is not None else None
    first = [ended] if ended else [moved] if moved else []
    for player in first + (view.to_act if view.phase != "over" else []) + [view.current]:
        if player in players:
            return players.index(player)
    return 0


def render(view: TwinPyramidView, names: Callable[[str], str] = str, below: int = 0,
           ended_first: bool = False, moved: str | None = None) -> Image.Image:
    """The deciding seat's panel under its name (``below``: pixels left free under it, and ``ended_first``, for
    ``render_review``)."""
    width = PANEL_W + 2 * PAD
    height = NAME_H + PANEL_H + PAD + below
    img = Image.new("P", (width, height), (250, 249, 245))
    draw = ImageDraw.Draw(img)
    if not view.table:
        return img
    index = focus_seat(view, ended_first, moved)
    seat = view.table[index]
    acting = view.phase != "over" and seat.player in view.to_act
    draw_name(draw, names(seat.player), index + 1, width, acting)
    draw_seat(draw, seat, PAD, NAME_H, acting, view.geometry.burst_size)
    return img


def render_png(view: TwinPyramidView, names: Callable[[str], str] = str) -> bytes:
    return to_png(render(view, names))


MINI_SLOT, MINI_GAP = 9, 2  # a slot of a seat's small pyramids under the big panel
MINI_ROW = 4 * MINI_SLOT + 3 * MINI_GAP
MINI_PYR = 4 * MINI_SLOT + 3 * MINI_GAP
NUMBER_SIZE = 18  # a seat's number over its small pyramids: 12 px of ink once shown 280 px wide
MINI_H = NUMBER_SIZE + 10 + 2 * MINI_PYR + 8 + PAD


def mini_boxes(left: float, top: float) -> list[tuple[float, float, float, float]]:
    """The ten slots of a small pyramid in ``ROWS`` order, bottom row first, centred rows."""
    boxes = []
    for r, row in enumerate(ROWS):
        y = top + MINI_PYR - (r + 1) * MINI_SLOT - r * MINI_GAP
        x0 = left + (MINI_ROW - (len(row) * MINI_SLOT + (len(row) - 1) * MINI_GAP)) / 2
        boxes += [(x0 + i * (MINI_SLOT + MINI_GAP), y, x0 + i * (MINI_SLOT + MINI_GAP) + MINI_SLOT, y + MINI_SLOT)
                  for i in range(len(row))]
    return boxes


def draw_mini(draw: ImageDraw.ImageDraw, seat: SeatView, number: int, left: float, top: float, width: float,
              acting: bool, burst: int) -> None:
    """One seat at a glance: its number, its field pyramid (a placed stone in its suit's ink) and its hand pyramid
    (held cards dark, shown cards white, the burst slot red-edged)."""
    if acting:
        draw.rounded_rectangle((left + 1, top, left + width - 1, top + MINI_H - PAD), radius=6, fill=ACTING)
    draw.text((left + width / 2, top + 3 + NUMBER_SIZE / 2), str(number), font=font(NUMBER_SIZE), fill=INK,
              anchor="mm")
    x = left + (width - MINI_ROW) / 2
    field_top = top + NUMBER_SIZE + 10
    ranks = [rank for row in ROWS for rank in row]
    for rank, box in zip(ranks, mini_boxes(x, field_top), strict=True):
        stone = seat.stones.get(rank)
        fill = (WHITE if stone.startswith("X") else suit_ink(stone[-1])) if stone else FIELD_BG
        draw.rectangle(box, fill=fill, outline=INK if stone else EMPTY_INK)
    cards = hand_cards(seat)
    for i, box in enumerate(mini_boxes(x, field_top + MINI_PYR + 8)):
        if i < len(cards):
            draw.rectangle(box, fill=BACK if cards[i] is None else WHITE, outline=INK)
        else:
            draw.rectangle(box, fill=HAND_BG, outline=BURST if i == burst - 1 else EMPTY_INK)


def render_review(view: TwinPyramidView, names: Callable[[str], str] = str, moved: str | None = None) -> Image.Image:
    """The two pyramids of the seat that ``moved`` to this moment under its name (``render``; at a deal's end the
    seat that ended it; without ``moved`` the deciding seat), and
    under them every seat at a glance, in
    seat order, numbered as the board text numbers them (the one to act on gold): what the viewer and the
    animated summary show, so that a frame follows from the one before whoever moved."""
    img = render(view, names, below=MINI_H, ended_first=True, moved=moved)
    if not view.table:
        return img
    draw = ImageDraw.Draw(img)
    cell = (img.width - 2 * PAD) / len(view.table)
    top = img.height - MINI_H
    for number, seat in enumerate(view.table):
        acting = view.phase != "over" and seat.player in view.to_act
        draw_mini(draw, seat, number + 1, PAD + number * cell, top, cell, acting, view.geometry.burst_size)
    return img


def render_review_png(view: TwinPyramidView, names: Callable[[str], str] = str, moved: str | None = None) -> bytes:
    return to_png(render_review(view, names, moved))
