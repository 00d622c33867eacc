"""The centre and the four placement conditions (docs/rules/diamondbox.md, "Placing a card").

Pure functions on a *centre*: ``{(x, y): Square}`` — for every grid square covered by some
card, what is visible from above. They are shared by the engine, the bot policy and any
renderer (``centre_from_view`` rebuilds a centre from a view, so a UI can preview a
placement without the state).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from .cards import Cell, cells_of, colour_of, distinct_turns

if TYPE_CHECKING:
    from .view import DiamondBoxView

MIN_OVERLAP = 4
FULL_COVER = 6


class Square(NamedTuple):
    colour: str   # frame colour of the top card on this square
    diamond: str  # "w", "b" or "." (nothing)
    card: str     # id of the top card
    index: int    # type: ignore[assignment]  # shadows tuple.index; placement number (0, 1: starting cards)


Centre = dict[tuple[int, int], Square]


class Placement(NamedTuple):
    card: str
    turn: int
    x: int
    y: int
    covered: int  # how many visible squares the card covers (4 to 6 when legal)


def place(centre: Centre, card: str, turn: int, x: int, y: int, index: int) -> list[tuple[int, int]]:
    """Puts a card on top (mutating ``centre``); returns the squares it now shows."""
    colour = colour_of(card)
    squares = []
    for dx, dy, diamond in cells_of(card, turn):
        pos = (x + dx, y + dy)
        centre[pos] = Square(colour, diamond, card, index)
        squares.append(pos)
    return squares


def build_centre(placements: Iterable[tuple[str, int, int, int]]) -> Centre:
    """The centre after placing ``(card, turn, x, y)`` in order."""
    centre: Centre = {}
    for index, (card, turn, x, y) in enumerate(placements):
        place(centre, card, turn, x, y, index)
    return centre


# Reading of condition 1 (docs/rules/diamondbox.md, Decision [D5]): "strict" — every diamond of the new card that
# lands on the centre must land on a diamond of its colour; "lenient" — where a diamond lands on a diamond, their
# colours must match (a diamond may cover a blank square).
DIAMONDS = "strict"


def _diamond_rule(below: str) -> bool:
    """Whether condition 1 refuses a diamond landing on a square showing ``below`` (not its own diamond)."""
    return DIAMONDS == "strict" or (DIAMONDS == "lenient" and below != ".")


def check(centre: Centre, cells: tuple[Cell, ...], frame: str, x: int, y: int,
          designated: str | None) -> tuple[str | None, int]:
    """Tests the four conditions for cells of a card with this frame colour at (x, y).

    Returns ``(reason, covered)``: ``reason`` is None when the placement is legal, else the
    stable code of the first condition that fails (overlap, diamonds, frame, designated).
    """
    covered = 0
    diamonds_ok = frame_ok = True
    shows_designated = False
    for dx, dy, diamond in cells:
        below = centre.get((x + dx, y + dy))
        if below is None:
            continue  # off the centre: free
        covered += 1
        if diamond != "." and below.diamond != diamond and _diamond_rule(below.diamond):
            diamonds_ok = False
        if below.colour == frame:
            frame_ok = False
        if below.colour == designated:
            shows_designated = True
    if covered < MIN_OVERLAP:
        return "too_little_overlap", covered
    if not diamonds_ok:
        return "diamonds_differ", covered
    if not frame_ok:
        return "frame_colour_covered", covered
    if not shows_designated:
        return "designated_colour_not_covered", covered
    return None, covered


def _fits(centre: Centre, cells: tuple[Cell, ...], frame: str, x: int, y: int, designated: str) -> int:
    """The fast path of ``check`` for enumeration: squares covered, or 0 when illegal."""
    covered = 0
    shows_designated = False
    get = centre.get
    for dx, dy, diamond in cells:
        below = get((x + dx, y + dy))
        if below is None:
            continue
        colour = below[0]
        if colour == frame or (diamond != "." and below[1] != diamond and _diamond_rule(below[1])):
            return 0
        covered += 1
        if colour == designated:
            shows_designated = True
    return covered if covered >= MIN_OVERLAP and shows_designated else 0


def check_card(centre: Centre, card: str, turn: int, x: int, y: int,
               designated: str | None) -> tuple[str | None, int]:
    return check(centre, cells_of(card, turn), colour_of(card), x, y, designated)


def placements_for(centre: Centre, cards: Iterable[str], designated: str | None,
                   turns: tuple[int, ...]) -> list[Placement]:
    """Every legal placement of the given cards, best first (most squares covered).

    A legal placement covers a square of the designated colour, so only offsets that put
    some cell on such a square are tried: O(designated squares × cells) per card and turn.
    """
    if designated is None:
        return []
    targets = [pos for pos, sq in centre.items() if sq.colour == designated]
    found: list[Placement] = []
    for card in dict.fromkeys(cards):
        frame = colour_of(card)
        if frame == designated:
            continue  # it would cover its own frame colour (condition 2 against 3)
        for turn in distinct_turns(card, turns):
            cells = cells_of(card, turn)
            offsets = {(tx - dx, ty - dy) for tx, ty in targets for dx, dy, _ in cells}
            for x, y in offsets:
                covered = _fits(centre, cells, frame, x, y, designated)
                if covered:
                    found.append(Placement(card, turn, x, y, covered))
    found.sort(key=lambda p: (-p.covered, p.card, p.turn, p.y, p.x))
    return found


def visible_colours(centre: Centre) -> set[str]:
    return {sq.colour for sq in centre.values()}


def bounds(centre: Centre) -> dict[str, int]:
    xs = [x for x, _ in centre]
    ys = [y for _, y in centre]
    return {"min_x": min(xs), "max_x": max(xs), "min_y": min(ys), "max_y": max(ys)}


def centre_to_json(centre: Centre) -> list[dict[str, Any]]:
    return [
        {"x": x, "y": y, "colour": sq.colour, "diamond": sq.diamond, "card": sq.card, "placement": sq.index}
        for (x, y), sq in sorted(centre.items(), key=lambda item: (item[0][1], item[0][0]))
    ]


def centre_from_view(view: DiamondBoxView | Mapping[str, Any]) -> Centre:
    """Rebuilds the centre from a view's ``centre`` list (for previews from the typed view, and for bots from the
    dict they read)."""
    if isinstance(view, Mapping):
        return {
            (sq["x"], sq["y"]): Square(sq["colour"], sq["diamond"], sq["card"], sq["placement"])
            for sq in view["centre"]
        }
    return {(sq.x, sq.y): Square(sq.colour, sq.diamond, sq.card, sq.placement) for sq in view.centre}
