"""Akuma Trick determiniser: every card not in our hand, the row or the discards is in a rival's hand.

The deck is the colours in play × ranks 0–9 and is dealt out completely, so the unseen cards are
exactly the rivals' hands; each rival gets the cards steals took from us that it still holds (the view's
``known``) and a random set of the rest, to the size the view shows.
"""
from __future__ import annotations

import random
from typing import Any

from engines import View
from engines.akuma.cards import deck_for, sort_cards
from engines.akuma.state import AkumaState, RowPlay
from engines.akuma.view import AkumaView
from engines.rng import Rng

from ..akuma import AkumaPlayoutView, action_value
from ..seat_view import held
from . import deal_hidden


def _akuma(view: View) -> AkumaView:
    assert isinstance(view, AkumaView)  # only Akuma Trick's views reach this determiniser
    return view


def unseen_cards(view: View) -> list[str]:
    view = _akuma(view)
    seen = set(held(view.hand)) | set(view.discarded)
    for play in view.row:
        seen.update(play.cards)
    return [c for c in deck_for(view.colours_in_play) if c not in seen]


def sample(view: View, rng: random.Random) -> AkumaState:
    view = _akuma(view)
    me = view.viewer
    assert me is not None  # a seat's view
    pool = unseen_cards(view)
    rng.shuffle(pool)
    known = view.known
    hands, _ = deal_hidden(view.players, me, sort_cards(held(view.hand)), view.hand_sizes, pool, sort_cards, known)
    to_act = view.to_act
    return AkumaState(
        players=list(view.players), seed=0, options={"start_player": view.players.index(view.start_player)},
        rng=Rng(state=rng.getrandbits(64)), colours=list(view.colours_in_play), hands=hands,
        row=[RowPlay(player=r.player, cards=list(r.cards), kind=r.kind) for r in view.row],
        direction=view.direction, lock=list(view.lock) if view.lock else None,
        current=to_act[0] if to_act else view.trick_starter, trick_starter=view.trick_starter,
        start_player=view.start_player, steals_left=view.steals_left or 0,
        discarded=list(view.discarded), over=view.over, known={me: {p: list(c) for p, c in known.items()}},
    )


def prior(view: View, action: Any) -> float:
    """Which actions to search first: the heuristic's own judgement (lower hand value is better)."""
    return -action_value(view, action)


def rollout_view(state: AkumaState, player: str) -> AkumaPlayoutView:
    """The part of the view the Akuma heuristic reads, for playouts (building the full view was a tenth of them)."""
    return AkumaPlayoutView(viewer=player, hand=state.hands[player],
                            hand_sizes={p: len(h) for p, h in state.hands.items()})
