"""What a player (or a spectator) sees: everything a renderer needs to draw the tower and the table.

Public: the tower with its geometry (lattice centres, drawing coordinates, orientations, which triangles
each card still shows, the state of every side), columns and active cards, the joker restriction, hand
sizes, the pile's size, the direction, "One" declarations and the pending decision with who takes it.
Secret: only the viewer's own hand. Cards passed with a Q appear in private events, never in a view.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import geometry as G
from .state import RoccaState
from .tower import TowerIndex, card_label, column_label, could_match

if TYPE_CHECKING:
    from .engine import RoccaEngine


def tower_view(state: RoccaState, ix: TowerIndex) -> list[dict[str, Any]]:
    active, playable = set(ix.active), set(ix.playable)
    out = []
    for i, tc in enumerate(state.tower):
        x, y = G.to_xy(tc.centre)
        sides = {side: ix.side_state(i, side) for side in G.SIDES}
        out.append({
            "card": tc.card, "label": card_label(tc), "order": i,
            "centre": list(tc.centre), "x": x, "y": y, "orientation": tc.orientation,
            "column": column_label(tc.column), "height": tc.height, "placer": tc.placer,
            "on": tc.on, "on_side": tc.side, "suit": tc.suit, "bend": tc.bend,
            "visible": ix.visible(i), "sides": sides,
            "active": i in active, "playable": i in playable,
            "open_sides": [s for s in G.SIDES if i in playable and ix.open_for_building(i, s)],
            "matchable_sides": [s for s in G.SIDES if could_match(tc, s)],
        })
    return out


def columns_view(state: RoccaState) -> list[dict[str, Any]]:
    allowed = None if state.restricted is None else set(state.restricted)
    return [{
        "label": column_label(i), "cards": list(col.cards), "active": col.cards[-1], "parent": col.parent,
        "frozen": allowed is not None and i not in allowed,
    } for i, col in enumerate(state.columns)]


def pending_view(state: RoccaState) -> dict[str, Any] | None:
    p = state.pending
    if p is None:
        return None
    data: dict[str, Any] = {"kind": p.kind, "player": p.player, "rank": p.rank, "count": p.count, "card": p.card}
    if p.kind == "draw_chain":
        data["by"] = p.partner
    elif p.kind == "q_give":
        data.update(receiver=p.partner, given=p.given)
    else:
        data.update(giver=p.partner)
    return data


def build_view(engine: RoccaEngine, state: RoccaState, viewer: str | None) -> dict[str, Any]:
    to_act, result = engine.to_act(state), engine.result(state)
    ix = TowerIndex(state)
    view: dict[str, Any] = {
        "game": state.game,
        "players": list(state.players),
        "to_act": list(to_act),
        "turn": None if state.over else state.turn,
        "pending": pending_view(state),
        "direction": state.direction,
        "deck_size": len(state.deck),
        "hand_sizes": {p: len(h) for p, h in state.hands.items()},
        "one_declared": list(state.one_declared),
        "out": list(state.out),
        "options": {"bon": bool(state.options.get("bon"))},
        "start_player": state.start_player,
        "tower": tower_view(state, ix),
        "columns": columns_view(state),
        "restriction": None if state.restricted is None else {
            "joker": state.joker, "columns": [column_label(c) for c in state.restricted]},
        "last_placed": state.tower[-1].card,
        "over": state.over,
        "winner": state.winner,
        "result": None if result is None else result.model_dump(mode="json"),
    }
    if viewer is not None and viewer in state.hands:
        view["hand"] = list(state.hands[viewer])
        view["me"] = viewer
    return view
