"""Helpers for the Rocca tests: build states directly (hands, pile, tower) and act on them."""
from __future__ import annotations

from typing import Any

from engines.base import Event
from engines.rocca import RoccaEngine, RoccaState
from engines.rocca.state import Column, TowerCard
from engines.rocca.tower import put, start_tower

ENG = RoccaEngine()
FILLER = ["2C", "3C", "4C", "6C", "8C", "9C", "10C", "3D", "4D", "6D"]


def make(hands: dict[str, list[str]], deck: list[str] | None = None, start: str = "5S",
         turn: str | None = None, bon: bool = False) -> RoccaState:
    """A fresh game whose hands, pile and start card are exactly as given (top of the pile = end of list)."""
    players = list(hands)
    state = ENG.new_game(players, seed=1, options={"bon": bon})
    state.hands = {p: list(h) for p, h in hands.items()}
    state.deck = list(FILLER if deck is None else deck)
    state.tower, state.columns = start_tower(start)
    state.turn = turn or players[0]
    return state


def build(state: RoccaState, *placements: tuple[Any, ...], player: str = "px") -> RoccaState:
    """Put cards on the tower without hands or turns: (card, on, side[, suit, bend])."""
    for card, on, side, *rest in placements:
        base = next(tc for tc in state.tower if tc.card == on)
        put(state, player, card, base, side, *rest)
    return state


def raw_tower(state: RoccaState, cards: list[tuple[str, tuple[int, int], int]]) -> RoccaState:
    """Replace the tower by cards at given centres/orientations, each in its own column, in this order."""
    state.tower = [TowerCard(card=c, centre=centre, orientation=k, column=i, height=1)
                   for i, (c, centre, k) in enumerate(cards)]
    state.columns = [Column(cards=[c]) for c, _, _ in cards]
    state.restricted = None
    return state


def act(state: RoccaState, player: str, **data: Any) -> tuple[RoccaState, list[Event]]:
    return ENG.apply(state, player, data)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def tc(state: RoccaState, card: str) -> TowerCard:
    return next(t for t in state.tower if t.card == card)


def legal_dicts(state: RoccaState, player: str) -> list[dict[str, Any]]:
    return [a.model_dump(mode="json", exclude_none=True) for a in ENG.legal_actions(state, player)]
