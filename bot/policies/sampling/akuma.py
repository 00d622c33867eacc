"""Akuma Trick determiniser: every card not in our hand, the row or the discards is in a rival's hand.

The deck is the colours in play × ranks 0–9 and is dealt out completely, so the unseen cards are
exactly the rivals' hands; each rival gets the cards steals took from us that it still holds (the view's
``known``) and a random set of the rest, to the size the view shows.
"""
from __future__ import annotations

import random
from typing import Any

from engines.akuma.cards import deck_for, sort_cards
from engines.akuma.state import AkumaState, RowPlay
from engines.rng import Rng

from ..seat_view import PolicyView, seat_view
from . import deal_hidden


def unseen_cards(view: PolicyView) -> list[str]:
    view = seat_view(view)
    seen = set(view.get("hand", [])) | set(view["discarded"])
    for play in view["row"]:
        seen.update(play["cards"])
    return [c for c in deck_for(view["colours_in_play"]) if c not in seen]


def sample(view: PolicyView, rng: random.Random) -> AkumaState:
    view = seat_view(view)
    me = view["viewer"]
    pool = unseen_cards(view)
    rng.shuffle(pool)
    known = view.get("known", {})
    hands, _ = deal_hidden(view["players"], me, sort_cards(view["hand"]), view["hand_sizes"], pool, sort_cards, known)
    to_act = view["to_act"]
    return AkumaState(
        players=list(view["players"]), seed=0, options={"start_player": view["players"].index(view["start_player"])},
        rng=Rng(state=rng.getrandbits(64)), colours=list(view["colours_in_play"]), hands=hands,
        row=[RowPlay(player=r["player"], cards=list(r["cards"]), kind=r["kind"]) for r in view["row"]],
        direction=view["direction"], lock=list(view["lock"]) if view["lock"] else None,
        current=to_act[0] if to_act else view["trick_starter"], trick_starter=view["trick_starter"],
        start_player=view["start_player"], steals_left=view["steals_left"] or 0,
        discarded=list(view["discarded"]), over=view["over"], known={me: {p: list(c) for p, c in known.items()}},
    )


def prior(view: PolicyView, action: Any) -> float:
    """Which actions to search first: the heuristic's own judgement (lower hand value is better)."""
    view = seat_view(view)
    from bot.policies.akuma import action_value

    return -action_value(view, action)


def rollout_view(state: AkumaState, player: str) -> dict[str, Any]:
    """The part of the view the Akuma heuristic reads, for playouts (building the full view was a tenth of them)."""
    return {"viewer": player, "hand": state.hands[player], "hand_sizes": {p: len(h) for p, h in state.hands.items()}}
