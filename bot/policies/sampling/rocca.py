"""Rocca determiniser: the cards neither in our hand nor in the tower are dealt at random to the rivals'
hands (sizes from the view) and the draw pile.

The tower, its columns, the joker restriction and the pending decision are public and copied from the
view. Cards passed with a Q are known to the two players involved but never appear in a view, so the
sampler (which reads only the view) treats them as unseen like the rest.
"""
from __future__ import annotations

import random
from typing import Any

from engines.rng import Rng
from engines.rocca.cards import full_deck, sort_cards
from engines.rocca.state import Column, Pending, RoccaState, TowerCard

from ..seat_view import PolicyView, seat_view
from . import deal_hidden, trailing_score


def column_index(label: str) -> int:
    n = 0
    for ch in label:
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def unseen_cards(view: PolicyView) -> list[str]:
    view = seat_view(view)
    seen = set(view.get("hand", [])) | {tc["card"] for tc in view["tower"]}
    return [c for c in full_deck() if c not in seen]


def sample(view: PolicyView, rng: random.Random) -> RoccaState:
    view = seat_view(view)
    me = view["viewer"]
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands, deck = deal_hidden(view["players"], me, view["hand"], view["hand_sizes"], pool, sort_cards)
    tower = [
        TowerCard(card=t["card"], centre=tuple(t["centre"]), orientation=t["orientation"],
                  column=column_index(t["column"]), height=t["height"], placer=t["placer"], on=t["on"],
                  side=t["on_side"], suit=t["suit"], bend=t["bend"])
        for t in view["tower"]
    ]
    columns = [Column(cards=list(c["cards"]), parent=c["parent"]) for c in view["columns"]]
    restriction = view["restriction"]
    pv = view["pending"]
    pending = None
    if pv is not None:
        partner = pv.get("by") if pv["kind"] == "draw_chain" else (
            pv.get("receiver") if pv["kind"] == "q_give" else pv.get("giver"))
        pending = Pending(kind=pv["kind"], player=pv["player"], rank=pv["rank"], count=pv["count"], card=pv["card"],
                          partner=partner, given=pv.get("given", 0))
    turn = view["turn"] if view["turn"] is not None else view["start_player"]
    return RoccaState(
        players=list(view["players"]), seed=0,
        options={"bon": view["options"]["bon"], "start_player": view["players"].index(view["start_player"])},
        rng=Rng(state=rng.getrandbits(64)), hands=hands, deck=deck, tower=tower, columns=columns,
        restricted=None if restriction is None else [column_index(c) for c in restriction["columns"]],
        joker=None if restriction is None else restriction["joker"], turn=turn, direction=view["direction"],
        start_player=view["start_player"], pending=pending, one_declared=list(view["one_declared"]),
        out=list(view["out"]), winner=view["winner"], over=view["over"],
    )


# A Rocca game is ~30 actions; playouts stop after this many and score the hands.
ROLLOUT_STEPS = 40


def evaluate(state: RoccaState, me: str) -> float:
    """An unfinished playout's score in [0, 1]: how our hand compares with the smallest rival hand."""
    return trailing_score(len(state.hands[me]), [len(state.hands[p]) for p in state.players if p != me], 2.0)


def prior(view: PolicyView, action: Any) -> float:
    """Which actions to search first: placements by the heuristic's own score."""
    view = seat_view(view)
    from bot.policies.rocca import _place_score

    if getattr(action, "type", "") == "place":
        return _place_score(view, action, view.get("hand", []))
    return 0.0


def rollout_view(state: RoccaState, player: str) -> dict[str, Any]:
    """The part of the view the Rocca heuristic reads, for playouts (the full view's tower geometry costs ~3 ms)."""
    from engines.rocca.view import pending_view

    pending = pending_view(state)
    return {
        "viewer": player, "players": list(state.players), "out": list(state.out), "direction": state.direction,
        "hand": list(state.hands[player]), "hand_sizes": {p: len(h) for p, h in state.hands.items()},
        "pending": None if pending is None else pending.model_dump(),
        "to_act": [state.pending.player if state.pending else state.turn],
    }
