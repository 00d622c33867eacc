"""Akuma Trick bot heuristic: shed points, but never be the one who empties their hand.

What wins is the lowest score in hand when the game ends (a 0 scores 15) — yet the player
who empties their hand ranks last, and a short hand is easily forced out (a trick's first
player must play; a hand whose cards fall short of the release number must release them
all). So the bot picks the action that leaves the best hand by

    points left in hand
    + a penalty for a very short hand (1 or 2 cards)
    + a penalty growing with how far the hand would drop below the shortest rival hand
      (the game lasts about as long as the shortest rival hand; keep a cushion of cards).

Steals are judged the same way: a stolen card adds about 6 points to our own hand (and
takes points off a rival), so the bot steals only when the extra card is worth more as a
cushion than it costs. It uses only its own view.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from engines import Action
from engines.akuma.view import AkumaView

from .seat_view import PlayoutView, PolicyView, held

EMPTY_PENALTY = 1000.0
SHORT_HAND_PENALTY = {1: 50.0, 2: 15.0}
CUSHION_WEIGHT = 8.0
CUSHION_MARGIN = 1
STOLEN_CARD_POINTS = 6  # about the average score of an unknown card (0 counts 15)


def card_points(card: str) -> int:
    rank = int(card[1:])
    return 15 if rank == 0 else rank


def hand_value(points: int, size: int, shortest_rival: int) -> float:
    """Lower is better: points held plus the danger of being forced to empty the hand."""
    if size == 0:
        return EMPTY_PENALTY
    shortfall = max(0, shortest_rival + CUSHION_MARGIN - size)
    return points + SHORT_HAND_PENALTY.get(size, 0.0) + CUSHION_WEIGHT * shortfall ** 2


@dataclass(slots=True)
class AkumaPlayoutView(PlayoutView):
    """The fields of ``AkumaView`` this heuristic reads, for playouts (``sampling.akuma.rollout_view``)."""

    viewer: str
    hand: list[str]
    hand_sizes: dict[str, int]


AkumaSeen = AkumaView | AkumaPlayoutView


def seen(view: PolicyView) -> AkumaSeen:
    assert isinstance(view, (AkumaView, AkumaPlayoutView))  # only Akuma Trick's views reach this policy
    return view


def action_value(view: PolicyView, action: Action) -> float:
    return _value(*_hand_facts(seen(view)), action)


def _hand_facts(view: AkumaSeen) -> tuple[int, int, int]:
    """(points in our hand, its size, the shortest rival hand): all an action's value needs besides the action."""
    hand = held(view.hand)
    rivals = [n for p, n in view.hand_sizes.items() if p != view.viewer]
    return sum(card_points(c) for c in hand), len(hand), min(rivals) if rivals else 0


def _value(points: int, size: int, shortest_rival: int, action: Action) -> float:
    kind = getattr(action, "type", "")
    if kind in ("play", "release"):
        # distinct cards of our hand (a legal action); `Action` itself has no `cards`, Play and Release do
        shed: list[str] = getattr(action, "cards")  # noqa: B009
        return hand_value(points - sum(card_points(c) for c in shed), size - len(shed), shortest_rival)
    if kind == "steal":
        return hand_value(points + STOLEN_CARD_POINTS, size + 1, shortest_rival)
    return hand_value(points, size, shortest_rival)  # stop_stealing


def choose(view: PolicyView, legal: list[Action], rng: random.Random) -> Action:
    facts = _hand_facts(seen(view))
    values = [_value(*facts, a) for a in legal]
    best = min(values)
    options = [a for a, v in zip(legal, values, strict=True) if v == best]
    return options[0] if len(options) == 1 else rng.choice(options)
