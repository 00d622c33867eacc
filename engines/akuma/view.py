"""What each seat (or a spectator) sees of an Akuma Trick game: everything public, plus the viewer's own hand
and, when they must release, the forced discard. Once the game is over every hand is public."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import AkumaState

if TYPE_CHECKING:
    from .engine import AkumaEngine


def build_view(engine: AkumaEngine, state: AkumaState, viewer: str | None) -> dict[str, Any]:
    to_act = engine.to_act(state)
    v: dict[str, Any] = {
        "game": engine.name,
        "viewer": viewer,
        "players": list(state.players),
        "to_act": to_act,
        "hand_sizes": {p: len(h) for p, h in state.hands.items()},
        "row": [{"player": rp.player, "cards": list(rp.cards), "kind": rp.kind} for rp in state.row],
        "last_rank": engine.last_rank(state),
        "direction": state.direction,
        "lock": list(state.lock) if state.lock else None,
        "release_number": engine.release_number(state) if state.row else None,
        "trick_starter": state.trick_starter,
        "start_player": state.start_player,
        "steals_left": state.steals_left or None,
        "colours_in_play": list(state.colours),
        "discarded": list(state.discarded),
        "over": state.over,
    }
    if viewer in state.players:
        # Once the game is over every hand is public (``final_hands``); nothing stays secret.
        v["hand"] = [] if state.over else list(state.hands[viewer])
        forced = None
        if viewer in to_act and not state.steals_left:
            forced = engine.forced_release(state, viewer)
        v["release_forced"] = forced
    res = engine.result(state)
    if res is not None:
        v["ranking"] = res.ranking
        v["scores"] = res.scores
        v["final_hands"] = {p: list(h) for p, h in state.hands.items()}
    return v
