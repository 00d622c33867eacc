"""Helpers for the Twin Pyramid tests: building states directly for rule scenarios (no tests here)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from engines.twinpyramid import TwinPyramidEngine
from engines.twinpyramid.cards import full_deck, rank_of
from engines.twinpyramid.state import Pending, Seat, TwinPyramidState, Wild

ENG = TwinPyramidEngine()


def make(
    n: int = 3,
    *,
    hands: dict[str, dict[str, list[str]]] | None = None,
    top: str = "5H",
    under: list[str] | None = None,
    draw: list[str] | None = None,
    fill_draw: bool = True,
    current: int = 0,
    direction: int = 1,
    wild: tuple[str, str, bool] | None = None,
    top_suit: str | None = None,
    options: dict[str, Any] | None = None,
) -> TwinPyramidState:
    """A mid-deal state (p0 started the deal). ``hands[p]`` has ``held``, ``shown`` and ``stones`` lists;
    ``draw`` lists the next cards to be drawn, first first; the unused rest of the deck
    lies under them unless ``fill_draw`` is false. ``under`` is the discard below ``top``."""
    players = [f"p{i}" for i in range(n)]
    state = ENG.new_game(players, seed=1, options={"start_player": 0, **(options or {})})
    used: list[str] = []
    for p in players:
        spec = (hands or {}).get(p, {})
        stones = {rank_of(c): c for c in spec.get("stones", [])}
        state.seats[p] = Seat(held=list(spec.get("held", [])), shown=list(spec.get("shown", [])), stones=stones)
        used += spec.get("held", []) + spec.get("shown", []) + spec.get("stones", [])
    state.discard = list(under or []) + [top]
    used += state.discard
    ahead = list(draw or [])
    used += ahead
    assert len(used) == len(set(used)), f"card used twice: {[c for c, k in Counter(used).items() if k > 1]}"
    rest = [c for c in full_deck(state.options["jokers"]) if c not in used] if fill_draw else []
    state.draw = rest + list(reversed(ahead))
    state.current, state.direction = current, direction
    state.top_suit = top_suit
    state.wild = Wild(owner=wild[0], suit=wild[1], fresh=wild[2]) if wild else None
    state.pending = None
    return state


def pending(state: TwinPyramidState, kind: str, player: str, **kw: Any) -> TwinPyramidState:
    state.pending = Pending(kind=kind, player=player, **kw)  # type: ignore[arg-type]
    return state


def act(state: TwinPyramidState, player: str, action: dict[str, Any]) -> tuple[TwinPyramidState, list]:
    return ENG.apply(state, player, action)


def legal(state: TwinPyramidState, player: str) -> list[dict[str, Any]]:
    return [a.model_dump(mode="json") for a in ENG.legal_actions(state, player)]


def plays(state: TwinPyramidState, player: str) -> set[str]:
    return {a["card"] for a in legal(state, player) if a["type"] == "play"}


def types(events: list) -> list[str]:
    return [e.type for e in events]


def event(events: list, kind: str):
    found = [e for e in events if e.type == kind]
    assert found, f"no {kind} event in {types(events)}"
    return found[0]


def all_cards(state: TwinPyramidState) -> list[str]:
    cards = list(state.draw) + list(state.discard) + [c for own in (state.own or {}).values() for c in own.pile]
    for seat in state.seats.values():
        cards += seat.held + seat.shown + list(seat.stones.values())
    return cards


def assert_conserved(state: TwinPyramidState) -> None:
    cards = all_cards(state)
    assert sorted(cards) == sorted(full_deck(state.options["jokers"])), "cards were lost or duplicated"
