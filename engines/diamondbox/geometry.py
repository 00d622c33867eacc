"""The centre and the four placement conditions (docs/rules/diamondbox.md, "Placing a card").

Pure functions on a *centre*: ``{(x, y): Square}`` — for every grid square covered by some
card, what is visible from above. They are shared by the engine, the bot policy and any
renderer (``centre_from_view`` rebuilds a centre from a view, so a UI can preview a
placement without the state).
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Iterable, Iterator, NamedTuple

from .cards import CARD_HEIGHT, CARD_WIDTH, Cell, cells_of, colour_of, distinct_turns, generation

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


def check_card(centre: Centre, card: str, turn: int, x: int, y: int,
               designated: str | None) -> tuple[str | None, int]:
    return check(centre, cells_of(card, turn), colour_of(card), x, y, designated)


def placements_for(centre: Centre, cards: Iterable[str], designated: str | None,
                   turns: tuple[int, ...]) -> list[Placement]:
    """Every legal placement of the given cards, best first (most squares covered).

    Exactly the offsets where ``check`` finds no reason, computed a whole card-turn at a time on
    bit masks of the centre (``_Masks``) instead of one offset and one square at a time.
    """
    if designated is None:
        return []
    masks = _Masks(centre)
    found: list[Placement] = []
    for card, turn in _candidates(cards, designated, turns):
        for x, y, covered in masks.fits(card, turn, designated):
            found.append(Placement(card, turn, x, y, covered))
    found.sort(key=lambda p: (-p.covered, p.card, p.turn, p.y, p.x))
    return found


def placement_counts(centre: Centre, cards: Iterable[str], colours: Iterable[str],
                     turns: tuple[int, ...]) -> dict[str, int]:
    """``len(placements_for(centre, cards, colour, turns))`` for each colour, reading the centre once."""
    masks, cards = _Masks(centre), tuple(cards)
    counts = {}
    for colour in colours:
        counts[colour] = sum(masks.legal(card, turn, colour)[0].bit_count()
                             for card, turn in _candidates(cards, colour, turns))
    return counts


def _candidates(cards: Iterable[str], designated: str,
                turns: tuple[int, ...]) -> Iterator[tuple[str, int]]:
    """Each card once with each of its distinct turns, except cards of the designated colour (they would
    cover their own frame colour: condition 2 against 3)."""
    for card in dict.fromkeys(cards):
        if colour_of(card) != designated:
            for turn in distinct_turns(card, turns):
                yield card, turn


_PAD = max(CARD_WIDTH, CARD_HEIGHT) - 1  # empty columns and rows around the centre: no cell reaches past them


Outline = tuple[tuple[int, int], ...]  # a card's cells without their diamonds: (dx, dy)


@cache
def _shape(card: str, turn: int, generation: int) -> tuple[Outline, tuple[Cell, ...]]:
    """A card at a turn as its outline and its cells showing a diamond (``generation``: see ``install_patterns``)."""
    cells = cells_of(card, turn)
    return tuple((dx, dy) for dx, dy, _ in cells), tuple(cell for cell in cells if cell[2] != ".")


class _Masks:
    """The centre as bit masks, one bit per square of a grid ``_PAD`` wider than the centre on every side.

    Bit ``i`` of a mask stands both for a square and for the placement offset at that square. A cell at
    ``(dx, dy)`` of a card placed at the offset of bit ``i`` lands on the square of bit ``i + dy * width + dx``,
    so ``mask >> (dy * width + dx)`` marks every offset that puts this cell on a square of ``mask``. A cell
    that runs past the right edge lands on the next row's left padding, which is empty, as off the centre.
    What depends only on a card's outline, frame colour and the designated colour (conditions 2 to 4) is
    worked out once per centre; only condition 1 (the card's diamonds) is left for each card and turn.
    """

    def __init__(self, centre: Centre) -> None:
        xs = [x for x, _ in centre] or [0]
        ys = [y for _, y in centre] or [0]
        self.left, self.top = min(xs) - _PAD, min(ys) - _PAD
        self.width = max(xs) - self.left + 1 + _PAD
        self.occupied = 0
        self.colours: dict[str, int] = {}
        self.diamonds: dict[str, int] = {}
        for (x, y), square in centre.items():
            bit = 1 << ((y - self.top) * self.width + x - self.left)
            self.occupied |= bit
            self.colours[square.colour] = self.colours.get(square.colour, 0) | bit
            self.diamonds[square.diamond] = self.diamonds.get(square.diamond, 0) | bit
        self._touching: dict[tuple[str, Outline], int] = {}
        self._overlap: dict[Outline, tuple[int, list[int]]] = {}
        self._base: dict[tuple[Outline, str, str], int] = {}
        self._refused: dict[str, int] = {}

    def touching(self, colour: str, outline: Outline) -> int:
        """The offsets that put some cell on a square of this colour."""
        key = (colour, outline)
        if key not in self._touching:
            mask, touching = self.colours.get(colour, 0), 0
            for dx, dy in outline:
                touching |= mask >> (dy * self.width + dx)
            self._touching[key] = touching
        return self._touching[key]

    def overlap(self, outline: Outline) -> tuple[int, list[int]]:
        """The offsets covering at least ``MIN_OVERLAP`` squares, and the bit-sliced count of squares covered."""
        if outline not in self._overlap:
            counts: list[int] = []  # counts[i]: bit i of how many cells each offset puts on the centre
            for dx, dy in outline:
                _add(counts, self.occupied >> (dy * self.width + dx))
            self._overlap[outline] = (_at_least(counts, MIN_OVERLAP), counts)
        return self._overlap[outline]

    def base(self, outline: Outline, frame: str, designated: str) -> int:
        """The offsets meeting conditions 2 to 4 (overlap, frame colour not covered, designated colour covered)."""
        key = (outline, frame, designated)
        if key not in self._base:
            self._base[key] = (self.overlap(outline)[0] & self.touching(designated, outline)
                               & ~self.touching(frame, outline))
        return self._base[key]

    def refused(self, diamond: str) -> int:
        """The squares where condition 1 refuses a cell showing ``diamond`` (not ".")."""
        if diamond not in self._refused:
            refused = 0
            for below, mask in self.diamonds.items():
                if below != diamond and _diamond_rule(below):
                    refused |= mask
            self._refused[diamond] = refused
        return self._refused[diamond]

    def legal(self, card: str, turn: int, designated: str) -> tuple[int, Outline]:
        """The mask of every legal offset for this card at this turn, and its outline."""
        outline, diamonds = _shape(card, turn, generation())
        legal = self.base(outline, colour_of(card), designated)
        for dx, dy, diamond in diamonds:
            if not legal:
                break
            legal &= ~(self.refused(diamond) >> (dy * self.width + dx))
        return legal, outline

    def fits(self, card: str, turn: int, designated: str) -> list[tuple[int, int, int]]:
        """``(x, y, covered)`` of every legal offset for this card at this turn (in no particular order)."""
        legal, outline = self.legal(card, turn, designated)
        counts = self.overlap(outline)[1]
        found = []
        while legal:
            low = legal & -legal
            legal ^= low
            at = low.bit_length() - 1
            row, column = divmod(at, self.width)
            covered = sum((plane >> at & 1) << i for i, plane in enumerate(counts))
            found.append((self.left + column, self.top + row, covered))
        return found


def _add(counts: list[int], mask: int) -> None:
    """Adds 1 to the bit-sliced counters ``counts`` at every bit of ``mask`` (ripple carry)."""
    for i, plane in enumerate(counts):
        counts[i] = plane ^ mask
        mask &= plane
        if not mask:
            return
    counts.append(mask)


def _at_least(counts: list[int], threshold: int) -> int:
    """The bits whose bit-sliced count is at least ``threshold`` (most significant counter bit first)."""
    if threshold >= 1 << len(counts):
        return 0
    greater, equal = 0, -1  # -1: every bit
    for i in reversed(range(len(counts))):
        if threshold >> i & 1:
            equal &= counts[i]
        else:
            greater |= equal & counts[i]
    return greater | equal


def visible_colours(centre: Centre) -> set[str]:
    return {sq.colour for sq in centre.values()}


def bounds(centre: Centre) -> dict[str, int]:
    xs = [x for x, _ in centre]
    ys = [y for _, y in centre]
    return {"min_x": min(xs), "max_x": max(xs), "min_y": min(ys), "max_y": max(ys)}


def centre_from_view(view: DiamondBoxView) -> Centre:
    """Rebuilds the centre from a view's ``centre`` list (for previews and bots)."""
    return {(sq.x, sq.y): Square(sq.colour, sq.diamond, sq.card, sq.placement) for sq in view.centre}
