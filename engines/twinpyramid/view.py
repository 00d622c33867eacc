"""What one viewer may see of a Twin Pyramid table (everything a renderer needs).

Secret: held cards of other players (only counted), the draw pile, the cards seen with a 3
(only their player, while they are still on the draw pile). A revealed hand is public, so
its held cards leave the owner's secret ``hand`` and appear at the table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import BUILD_LIMIT, BURST_SIZE, HELD_LIMIT, PYRAMID_ROWS, SLOTS, SUPPORTS
from .state import REARRANGE_LIMIT, TURNS_PER_PLAYER, TwinPyramidState

if TYPE_CHECKING:
    from .engine import TwinPyramidEngine

GEOMETRY: dict[str, Any] = {
    "rows": [list(row) for row in PYRAMID_ROWS],  # bottom row first, left to right
    "supports": {rank: list(pair) for rank, pair in SUPPORTS.items()},
    "burst_size": BURST_SIZE,
    "held_limit": HELD_LIMIT,
    "build_limit": dict(BUILD_LIMIT),
    "rearrange_limit": REARRANGE_LIMIT,
}


def _seat_view(state: TwinPyramidState, player: str) -> dict[str, Any]:
    seat = state.seats[player]
    return {
        "player": player,
        "held_count": len(seat.held),
        "shown": list(seat.shown),
        "hand_count": len(seat.hand),
        "stones": {slot: seat.stones.get(slot) for slot in SLOTS},
        "stone_count": len(seat.stones),
        "points": seat.points,
        "revealed": list(seat.held) if seat.revealed else None,
    }


def _last_deal(state: TwinPyramidState, phase: str) -> dict[str, Any] | None:
    """The previous deal's outcome; its revealed hand only until the next deal is dealt
    (those cards are shuffled into the new deal and may be secret again)."""
    if state.last_deal is None:
        return None
    exclude = None if phase in ("deal_over", "over") else {"revealed"}
    return state.last_deal.model_dump(exclude=exclude)


def build_view(engine: TwinPyramidEngine, state: TwinPyramidState, viewer: str | None) -> dict[str, Any]:
    to_act = engine.to_act(state)
    pending = state.pending
    phase = "over" if state.over else (pending.kind if pending else "turn")
    view: dict[str, Any] = {
        "game": state.game,
        "players": list(state.players),
        "to_act": list(to_act),
        "options": dict(state.options),
        "phase": phase,
        "deal": state.deal + 1,
        "deals_total": state.deals_total,
        "start_player": state.player_at(state.start),
        "current": state.player_at(state.current),
        "direction": "clockwise" if state.direction == 1 else "counterclockwise",
        "top": state.top(),
        "named_suit": state.top_suit,
        "wild": {"owner": state.wild.owner, "suit": state.wild.suit} if state.wild else None,
        "turn": state.turns,  # turns completed in this deal
        "turn_limit": TURNS_PER_PLAYER * len(state.players),  # the deal ends unpaid when ``turn`` reaches it
        "draw_count": len(state.draw),
        "discard_count": len(state.discard),
        "pending": pending.model_dump(exclude={"rearranged"}) if pending else None,
        "three_player": state.three_player,
        "table": [_seat_view(state, p) for p in state.players],
        "geometry": GEOMETRY,
        "last_deal": _last_deal(state, phase),
    }
    if viewer is not None and viewer in state.seats:
        seat = state.seats[viewer]
        view["hand"] = [] if seat.revealed else list(seat.held)
        view["me"] = viewer
        if viewer in to_act:
            used = pending.rearranged if pending else state.rearranged
            view["rearranges_left"] = max(0, REARRANGE_LIMIT - used)
            view["arranging"] = state.arranging
        if viewer == state.three_player and state.peek:
            view["peek"] = list(state.peek)  # top of the draw pile first
    if state.over:
        ranking = sorted({state.seats[p].points for p in state.players}, reverse=True)
        view["result"] = {
            "ranking": [[p for p in state.players if state.seats[p].points == v] for v in ranking],
            "scores": {p: state.seats[p].points for p in state.players},
        }
    return view
