"""What each viewer of a Pile up table may see (docs/rules/pileup.md, "Hidden information").

Public: every column with its layers and trap, the draw pile's size, every hand's size, every
minus card, the dice, the pending decision and who makes it, and the hand cards revealed by a
failed roll (step 4; they stay known until they leave the hand). Secret: the rest of each hand.

``hand`` is the viewer's secret cards only (the contract's meaning); ``hand_all`` is every card
the viewer holds (secret and revealed), which is what their hand view shows.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import colour_of, number_of

if TYPE_CHECKING:
    from .engine import PileupEngine
    from .state import PileupState


def _pending(state: "PileupState") -> dict[str, Any] | None:
    turn_player = state.players[state.turn]
    phase = state.phase
    if phase == "over":
        return None
    if phase == "roll":
        return {"kind": "roll", "player": turn_player, "dice": 3, "minus_turn": state.minus_turn}
    if phase == "play":
        return {"kind": "play", "player": turn_player, "dice": list(state.dice), "minus_turn": state.minus_turn}
    if phase == "penalty":
        return {"kind": "penalty", "player": turn_player, "dice": list(state.dice)}
    if phase == "give":
        return {"kind": "give", "player": turn_player, "remaining": state.give_left,
                "to": state.players[state.give_next], "dice": list(state.dice)}
    dump = state.dump
    assert dump is not None
    common = {
        "player": dump.holder, "column": dump.column, "dumper": dump.dumper,
        "cards": len(state.columns[dump.column - 1].cards()),
        "chain": [link.model_dump() for link in dump.chain],
    }
    if phase == "dump":
        return {"kind": "dump_target", **common, "may_keep": bool(dump.chain),
                "targets": [p for p in state.players if p != dump.holder]}
    return {"kind": "deflect_roll", **common, "dice": 1, "needs": dump.column}


def build_view(engine: PileupEngine, state: PileupState, viewer: str | None) -> dict[str, Any]:
    columns = []
    for number, column in enumerate(state.columns, start=1):
        columns.append({
            "number": number,
            "layers": [{"colour": colour_of(layer[0]), "cards": list(layer)} for layer in column.layers],
            "layer_count": len(column.layers),
            "card_count": len(column.cards()),
            "trapped": column.trapped,
            "trapped_by": column.trapped_by,
            "being_dumped": state.dump is not None and state.dump.column == number,
        })
    seats = []
    for seat, p in enumerate(state.players):
        hand = state.hands[p]
        seats.append({
            "player": p,
            "seat": seat,
            "hand_size": len(hand),
            "revealed": sorted(state.revealed[p]),
            "minus": sorted(state.minus[p]),
            "minus_count": len(state.minus[p]),
            "empty_hand": not hand,
            "out": not hand and not state.minus[p],
        })
    result = engine.result(state)
    view: dict[str, Any] = {
        "game": "pileup",
        "players": list(state.players),
        "to_act": engine.to_act(state),
        "phase": state.phase,
        "turn_player": state.players[state.turn],
        "turn": state.turn_count,
        "minus_turn": state.minus_turn,
        "dice": list(state.dice),
        "columns": columns,
        "draw_pile": len(state.draw_pile),
        "deck": state.options.get("deck"),
        "seats": seats,
        "pending": _pending(state),
        "result": result.model_dump() if result else None,
    }
    if viewer is not None and viewer in state.players:
        revealed = set(state.revealed[viewer])
        hand_all = sorted(state.hands[viewer])
        view["viewer"] = viewer
        view["hand"] = [c for c in hand_all if c not in revealed]
        view["hand_all"] = hand_all
        if state.phase == "play" and viewer == state.players[state.turn]:
            source = state.minus[viewer] if state.minus_turn else state.hands[viewer]
            numbers = {number_of(c) for c in source}
            view["playable_values"] = [v for v in sorted(set(state.dice)) if v in numbers]
    return view
