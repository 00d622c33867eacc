"""Diamond Box's pure helpers over a state: the allowed turns, the visible centre (memoised), the colours a
designated-colour choice may name, and the cards a player has left. The placement conditions themselves are in
``geometry.py``."""
from __future__ import annotations

from functools import lru_cache

from . import cards, geometry
from .cards import COLOURS, TURNS_ALL, TURNS_HALF
from .state import DiamondBoxState


def allowed_turns(state: DiamondBoxState) -> tuple[int, ...]:
    return TURNS_ALL if state.options.get("turns") == "all" else TURNS_HALF


def centre_of(state: DiamondBoxState) -> geometry.Centre:
    """The visible centre (a fresh dict the caller may change)."""
    return dict(_centre_cached(cards.generation(), tuple((p.card, p.turn, p.x, p.y) for p in state.placed)))


@lru_cache(maxsize=512)
def _centre_cached(generation: int, placements: tuple[tuple[str, int, int, int], ...]) -> geometry.Centre:
    # Memoised (pure: keyed on the table generation and the placements), because legal_actions,
    # apply and view all need the centre. What ``geometry.build_centre`` gives, built on the centre
    # before the last placement (most often still cached: games and playouts add one card at a time).
    if not placements:
        return {}
    centre = dict(_centre_cached(generation, placements[:-1]))
    card, turn, x, y = placements[-1]
    geometry.place(centre, card, turn, x, y, len(placements) - 1)
    return centre


def colour_choices(state: DiamondBoxState, centre: geometry.Centre | None = None) -> list[str]:
    """Visible colours other than the designated one, in the rules' colour order."""
    visible = geometry.visible_colours(centre if centre is not None else centre_of(state))
    return [c for c in COLOURS if c in visible and c != state.designated]


def cards_left(state: DiamondBoxState, player: str) -> int:
    return len(state.hands[player]) + len(state.piles[player])
