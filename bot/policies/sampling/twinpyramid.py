"""Twin Pyramid determiniser: the cards we cannot see (rivals' held cards, the draw pile, the discard pile
under its top card) are dealt at random from the deck minus every card the view shows.

Known cards stay where they are: our held cards, every shown card and stone, a revealed hand, the
discard's top, and the cards we saw with our own 3 (on top of the draw pile, in the order we know).
Three details are not in the view and are reconstructed: the consecutive-pass count (taken as 0), a
named suit's "still in its turn" flag (taken as spent) and the queue of a 3's draws (rebuilt from the
turn order). Playouts run to the end of the current deal or ``ROLLOUT_STEPS`` actions and are scored by the
points plus the stones built.
"""
from __future__ import annotations

import math
import random
from typing import Any

from engines.rng import Rng
from engines.twinpyramid.cards import full_deck
from engines.twinpyramid.state import REARRANGE_LIMIT, DealOutcome, Pending, Seat, TwinPyramidState, Wild

from ..seat_view import PolicyView, seat_view
from .twinpyramid_playout import rollout_apply, rollout_choose, rollout_legal

__all__ = ["ROLLOUT_STEPS", "evaluate", "rollout_apply", "rollout_choose", "rollout_done", "rollout_legal", "sample",
           "unseen_cards"]

ROLLOUT_STEPS = 30


def _known(view: dict[str, Any]) -> set[str]:
    seen = set(view.get("hand", [])) | set(view.get("peek", [])) | {view["top"]}
    for seat in view["table"]:
        seen.update(seat["shown"])
        seen.update(c for c in seat["stones"].values() if c)
        seen.update(seat["revealed"] or [])
    return seen


def unseen_cards(view: PolicyView) -> list[str]:
    view = seat_view(view)
    known = _known(view)
    return [c for c in full_deck(view["options"]["jokers"]) if c not in known]


def sample(view: PolicyView, rng: random.Random) -> TwinPyramidState:
    view = seat_view(view)
    me = view["viewer"]
    players = list(view["players"])
    n = len(players)
    pool = unseen_cards(view)
    rng.shuffle(pool)
    at = 0
    seats: dict[str, Seat] = {}
    for sv in view["table"]:
        p = sv["player"]
        if sv["revealed"] is not None:
            held = list(sv["revealed"])
        elif p == me:
            held = list(view["hand"])
        else:
            held = pool[at:at + sv["held_count"]]
            at += sv["held_count"]
        seats[p] = Seat(held=held, shown=list(sv["shown"]), stones={k: v for k, v in sv["stones"].items() if v},
                        points=sv["points"], revealed=sv["revealed"] is not None)
    peek = list(view.get("peek", []))
    hidden_draw = view["draw_count"] - len(peek)
    draw = pool[at:at + hidden_draw] + list(reversed(peek))  # the top is the last element
    at += hidden_draw
    discard = pool[at:at + view["discard_count"] - 1] + [view["top"]]
    pv = view["pending"]
    to_act = view["to_act"]
    used = REARRANGE_LIMIT - view.get("rearranges_left", REARRANGE_LIMIT) if me in to_act else 0
    pending = None if pv is None else Pending(**pv, rearranged=used)
    current = players.index(view["current"])
    direction = 1 if view["direction"] == "clockwise" else -1
    three_queue: list[str] = []
    if view["three_player"] is not None:
        full = [players[(current + direction * i) % n] for i in range(1, n)] + [view["three_player"]]
        if pv is not None and pv["kind"] == "forced_draw" and pv.get("cause") == "3" and pv["player"] in full:
            three_queue = full[full.index(pv["player"]) + 1:]
        elif pv is not None and pv["kind"] == "order_three":
            three_queue = full
    wild = view["wild"]
    return TwinPyramidState(
        game="twinpyramid", players=players, seed=0, options=dict(view["options"]),
        rng=Rng(state=rng.getrandbits(64)), seats=seats, deal=view["deal"] - 1, deals_total=view["deals_total"],
        start=players.index(view["start_player"]), current=current, direction=direction, draw=draw,
        discard=discard, top_suit=view["named_suit"],
        wild=None if wild is None else Wild(owner=wild["owner"], suit=wild["suit"], fresh=False),
        rearranged=0 if pending is not None else used, arranging=bool(view.get("arranging", False)),
        passes=0, turns=view["turn"], pending=pending, three_player=view["three_player"], three_queue=three_queue,
        peek=peek, last_deal=None if view["last_deal"] is None else DealOutcome(**view["last_deal"]),
        over=view["phase"] == "over",
    )


def rollout_done(state: TwinPyramidState) -> bool:
    """A playout stops when the deal it started in is over (the next deal is a fresh shuffle)."""
    return state.pending is not None and state.pending.kind == "deal_over"


def evaluate(state: TwinPyramidState, me: str) -> float:
    """Score in [0, 1]: our points against the best rival's, plus the stones built (a pyramid is worth
    20 per rival when completed)."""
    def worth(p: str) -> float:
        seat = state.seats[p]
        return seat.points + 3.0 * len(seat.stones)
    best_rival = max(worth(p) for p in state.players if p != me)
    return 0.5 + 0.5 * math.tanh((worth(me) - best_rival) / 20.0)


def shuffle_pile(state: TwinPyramidState, rng: random.Random) -> None:
    """The draw pile in a new order below the cards a 3 showed (bench.bots' seer: the hidden hands but not the
    draws to come)."""
    unseen = len(state.draw) - len(state.peek)
    below = state.draw[:unseen]
    rng.shuffle(below)
    state.draw[:unseen] = below
