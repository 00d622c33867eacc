"""The tower: which triangles show which card, active cards, what may be placed where, and placing.

``TowerIndex`` is computed once from the placement list (cheap: six triangles per card) and answers
every question a turn needs in constant time per side.
"""
from __future__ import annotations

from functools import lru_cache

from . import cards as C
from . import geometry as G
from .state import Column, RoccaState, TowerCard


class TowerIndex:
    """Lookups over ``state.tower``: top card per triangle, taken centres, card positions, active cards."""

    def __init__(self, state: RoccaState) -> None:
        self.state = state
        self.tower = state.tower
        self.position: dict[str, int] = {}
        self.top: dict[G.Triangle, int] = {}
        self.centres: set[G.Point] = set()
        self._at: dict[G.Point, int] = {}  # centre -> index of the card placed there
        self._visible: dict[int, list[int]] = {}
        for i, tc in enumerate(state.tower):
            self.position[tc.card] = i
            self.centres.add(tc.centre)
            self._at[tc.centre] = i
            for tri in G.hexagon(tc.centre):
                self.top[tri] = i
        allowed = None if state.restricted is None else set(state.restricted)
        # Only the top card of each column is active (図5), and not when a card placed from another column sits
        # exactly on its head: cards underneath cannot be built on.
        self.active: list[int] = [
            i for i in (self.position[col.cards[-1]] for col in state.columns) if not self._head_covered(i)
        ]
        self.playable: list[int] = [
            i for i in self.active if allowed is None or self.tower[i].column in allowed
        ]

    def _head_covered(self, i: int) -> bool:
        """True when a card placed later sits exactly on card ``i``'s head (one placed earlier lies underneath)."""
        tc = self.tower[i]
        return self._at.get(G.target_centre(tc.centre, tc.orientation, "head"), -1) > i

    def card(self, card_id: str) -> TowerCard | None:
        i = self.position.get(card_id)
        return None if i is None else self.tower[i]

    def visible(self, i: int) -> list[int]:
        """Indices m of card ``i``'s triangles that still show it."""
        shown = self._visible.get(i)
        if shown is None:
            top = self.top
            shown = [m for m, tri in enumerate(G.hexagon(self.tower[i].centre)) if top[tri] == i]
            self._visible[i] = shown
        return shown

    def side_state(self, i: int, side: str) -> str:
        shown = self.visible(i)
        m1, m2 = G.side_triangle_indices(self.tower[i].orientation, side)
        return G.side_state((m1 in shown) + (m2 in shown))

    def open_for_building(self, i: int, side: str) -> bool:
        """Free side whose target centre is not taken (the rules' two conditions besides matching)."""
        tc = self.tower[i]
        if self.side_state(i, side) != "free":
            return False
        return G.target_centre(tc.centre, tc.orientation, side) not in self.centres

    def is_playable(self, card_id: str) -> bool:
        i = self.position.get(card_id)
        return i is not None and i in self.playable


def effective_suit(tc: TowerCard) -> str | None:
    return tc.suit if C.is_joker(tc.card) else C.suit(tc.card)


def matches(card: str, base: TowerCard, side: str) -> bool:
    """Head: same suit (a joker counts as its named suit); face: same letter; profile: same number.

    A joker from hand matches any head (its own suit is named as it is placed) and nothing else.
    """
    return _matches(card, base.card, effective_suit(base), side)


def _matches(card: str, base_card: str, base_suit: str | None, side: str) -> bool:
    if C.is_joker(card):
        return side == "head"
    if side == "head":
        return C.suit(card) == base_suit
    if C.is_joker(base_card):
        return False
    if side == "face":
        return C.is_letter(card) and C.rank(card) == C.rank(base_card)
    return C.is_number(card) and C.rank(card) == C.rank(base_card)


def could_match(base: TowerCard, side: str) -> bool:
    """Whether any card of the deck ``matches`` this side (a number's face or a letter's profile never does)."""
    return _could_match(base.card, effective_suit(base), side)


@lru_cache(maxsize=None)
def _could_match(card: str, suit: str | None, side: str) -> bool:
    """``could_match`` depends only on the base card, its effective suit and the side: computed once each (a view
    asks it for every side of every tower card)."""
    return any(_matches(other, card, suit, side) for other in C.full_deck())


def column_label(index: int) -> str:
    """a, b, …, z, aa, ab, … (spreadsheet style, lower case)."""
    label = ""
    n = index + 1
    while n:
        n, r = divmod(n - 1, 26)
        label = chr(ord("a") + r) + label
    return label


def card_label(tc: TowerCard) -> str:
    """Short name of a tower card for the board and the hand view, e.g. ``b3`` (column b, 3rd card)."""
    return f"{column_label(tc.column)}{tc.height}"


def start_tower(start_card: str) -> tuple[list[TowerCard], list[Column]]:
    return [TowerCard(card=start_card, centre=(0, 0), orientation=0, column=0, height=1)], [Column(cards=[start_card])]


def put(state: RoccaState, player: str, card: str, base: TowerCard, side: str,
        suit: str | None = None, bend: str | None = None) -> TowerCard:
    """Add ``card`` on ``side`` of ``base`` (already checked legal); update columns and the joker restriction."""
    orientation = base.orientation
    if bend is not None:
        orientation = (orientation + (1 if bend == "left" else -1)) % 6
    centre = G.target_centre(base.centre, base.orientation, side)
    if side == "head":
        column = base.column
        state.columns[column].cards.append(card)
    else:
        column = len(state.columns)
        state.columns.append(Column(cards=[card], parent=base.card))
        if state.restricted is not None:
            state.restricted.append(column)
    tc = TowerCard(card=card, centre=centre, orientation=orientation, column=column,
                   height=len(state.columns[column].cards), placer=player, on=base.card, side=side,
                   suit=suit, bend=bend)
    state.tower.append(tc)
    if C.is_joker(card):
        state.restricted = [column]
        state.joker = card
    return tc
