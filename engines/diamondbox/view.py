"""What each seat (or a spectator) sees of a Diamond Box game.

Everything a renderer needs comes from here: the visible centre square by square, every
placement in order with its outline, the designated colour, counts, the pending decision and
who takes it. Secret: hands (only the viewer's own) and every pile's contents.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import geometry
from .cards import card_face, colour_of, size_at
from .rules import allowed_turns, centre_of, colour_choices
from .state import DiamondBoxState

if TYPE_CHECKING:
    from .engine import DiamondBoxEngine


def _phase(engine: DiamondBoxEngine, state: DiamondBoxState) -> str:
    if engine.is_over(state):
        return "over"
    return "choose_colour" if state.choice is not None else "play"


def build_view(engine: DiamondBoxEngine, state: DiamondBoxState, viewer: str | None) -> dict[str, Any]:
    centre = centre_of(state)
    placements = []
    for index, p in enumerate(state.placed):
        width, height = size_at(p.turn)
        placements.append({
            "index": index, "card": p.card, "colour": colour_of(p.card), "turn": p.turn,
            "x": p.x, "y": p.y, "width": width, "height": height,
            "player": p.player, "covered": p.covered,
        })
    last = len(state.placed) - 1 if state.placed[-1].player is not None else None
    choice = None
    if state.choice is not None:
        choice = {
            "chooser": state.choice.chooser, "reason": state.choice.reason, "then": state.choice.then,
            "bonus": state.choice.bonus, "choices": colour_choices(state, centre),
        }
    result = engine.result(state)
    view: dict[str, Any] = {
        "game": engine.name,
        "players": list(state.players),
        "order": list(state.order),
        "to_act": engine.to_act(state),
        "phase": _phase(engine, state),
        "turn": state.current,
        "bonus_turn": state.bonus,
        "designated": state.designated,
        "colour_choice": choice,
        "centre": geometry.centre_to_json(centre),
        "bounds": geometry.bounds(centre),
        "visible_colours": sorted(geometry.visible_colours(centre)),
        "placements": placements,
        "last_placement": last,
        "hand_sizes": {p: len(state.hands[p]) for p in state.order},
        "pile_sizes": {p: len(state.piles[p]) for p in state.order},
        "passes_in_row": state.passes_in_row,
        "first_passer": state.first_passer,
        "pass_rounds": state.pass_rounds,
        "allowed_turns": list(allowed_turns(state)),
        "winner": state.winner,
        "draw_reason": state.draw_reason,
        "ranking": result.ranking if result else None,
        "cards_left": result.scores if result else None,
    }
    if viewer is not None and viewer in state.hands:
        hand = list(state.hands[viewer])
        view["me"] = viewer
        view["hand"] = hand
        view["hand_faces"] = [card_face(c) for c in hand]
    return view
