"""Rocca bot: sheds cards fast, keeps jokers for last, and always passes chains on when it can.

It sees only its own view (hand, public tower, hand sizes, the pending decision) and the legal actions.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from engines import Action
from engines.rocca import Accept, Bon, DeclareOne, Draw, Give, Place
from engines.rocca.view import Pending, RoccaView

from .seat_view import PlayoutView, PolicyView, held

ROCCA_ACTIONS = (Place, Draw, Accept, Give, DeclareOne, Bon)

SPECIAL_BONUS = {"A": 4.0, "K": 4.0, "J": 3.0, "Q": 3.0, "0": 1.0}
JOKER_PENALTY = 8.0


@dataclass(slots=True)
class RoccaPlayoutView(PlayoutView):
    """The fields of ``RoccaView`` this heuristic reads, for playouts (``sampling.rocca.rollout_view``)."""

    viewer: str
    players: list[str]
    out: list[str]
    direction: Literal[1, -1]
    hand: list[str]
    hand_sizes: dict[str, int]
    pending: Pending | None


RoccaSeen = RoccaView | RoccaPlayoutView


def seen(view: PolicyView) -> RoccaSeen:
    assert isinstance(view, (RoccaView, RoccaPlayoutView))  # only Rocca's views reach this policy
    return view


def _rank(card: str) -> str | None:
    return None if card.startswith("X") else card[:-1]


def _suit(card: str) -> str | None:
    return None if card.startswith("X") else card[-1]


def _keep_value(card: str, hand: list[str]) -> float:
    """How much a card is worth keeping: jokers fit anywhere, specials act, suits we hold many of follow well."""
    if card.startswith("X"):
        return 10.0
    rank = _rank(card) or ""
    suits = Counter(_suit(c) for c in hand)
    return SPECIAL_BONUS.get(rank, 0.0) + suits[_suit(card)]


def _next_player(view: RoccaSeen, me: str) -> str:
    players, out = view.players, set(view.out)
    i, n = players.index(me), len(players)
    for step in range(1, n + 1):
        p = players[(i + step * view.direction) % n]
        if p not in out:
            return p
    return me


def _place_score(view: RoccaSeen, action: Any, hand: list[str]) -> float:
    card = action.card
    rest = [c for c in hand if c != card]
    score = 10.0
    if card.startswith("X"):
        if len(hand) > 2:
            score -= JOKER_PENALTY
        named = action.suit
        score += 0.5 * sum(1 for c in rest if _suit(c) == named)
        return score
    rank = _rank(card) or ""
    bonus = SPECIAL_BONUS.get(rank, 0.0)
    if rank in ("J", "K"):
        assert view.viewer is not None  # a seat's view
        threat = view.hand_sizes.get(_next_player(view, view.viewer), 5)
        bonus += 3.0 if threat <= 2 else 0.0
    if rank == "A" and not rest:
        bonus = 0.0
    score += bonus
    # the placed card becomes an active card: make it one we can follow next time
    score += 0.5 * sum(1 for c in rest if _suit(c) == _suit(card))
    score += 0.5 * sum(1 for c in rest if _rank(c) == rank)
    score -= 0.2 * _keep_value(card, hand)
    return score


def choose(view: PolicyView, legal: list[Action], rng: random.Random) -> Action:
    view = seen(view)
    by_type: dict[str, list[Any]] = {}
    for a in legal:
        assert isinstance(a, ROCCA_ACTIONS)  # only Rocca's actions reach this policy
        by_type.setdefault(a.type, []).append(a)
    if "declare_one" in by_type:
        return by_type["declare_one"][0]
    hand = held(view.hand)
    pending = view.pending
    if pending and pending.player == view.viewer and pending.kind in ("draw_chain", "q_answer"):
        # passing a chain on (or giving more back) always beats taking it
        return by_type["place"][0] if "place" in by_type else by_type["accept"][0]
    if "give" in by_type:
        gives = by_type["give"]
        sizes = view.hand_sizes
        return min(gives, key=lambda g: (_keep_value(g.card, hand), sizes.get(g.to, 99), g.card, g.to))
    if "bon" in by_type:
        return max(by_type["bon"], key=lambda b: (len(b.cards), -sum(_keep_value(c, hand) for c in b.cards)))
    if "place" in by_type:
        places = by_type["place"]
        best = max(_place_score(view, p, hand) for p in places)
        return rng.choice([p for p in places if _place_score(view, p, hand) >= best - 1e-9])
    if "draw" in by_type:
        return by_type["draw"][0]
    return rng.choice(legal)
