"""Pile up bot: avoids taking columns, keeps white and black for when they pay, dumps on the leader.

It sees only its own view (its hand, the public columns, minus cards and hand sizes, the pending
decision) and the legal actions; every play is judged with the engine's own preview of the outcome.
"""
from __future__ import annotations

import random
from typing import Any

from engines import Action
from engines.pileup import DumpOn, Give, Penalty, Play
from engines.pileup.rules import preview
from engines.pileup.view import PileupView

from .seat_view import PolicyView

# What holding a white / black card is worth (an escape from a take later), so one is spent
# only where it saves more than that.
KEEP_WHITE = 2.0
KEEP_BLACK = 1.5
DUMP_GAIN = 0.7  # a dumped card lands on an opponent (discounted for the deflect chain)
TRAP_GAIN = 0.25  # a trapped column will likely hit an opponent first
HAZARD_GAIN = 0.1  # leaving a column on 2 layers: the next players meet it first


def pileup_view(view: PolicyView) -> PileupView:
    assert isinstance(view, PileupView)  # only Pile up's views reach this policy
    return view


def choose(view: PolicyView, legal: list[Action], rng: random.Random) -> Action:
    view = pileup_view(view)
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, Play):
        return _best(legal, lambda a: _play_score(view, a), rng)
    if isinstance(first, Penalty):
        return _best(legal, lambda a: -_keep_value(view, a.card), rng)
    if isinstance(first, Give):
        return _best(legal, lambda a: -_keep_value(view, a.card), rng)
    dumps = [a for a in legal if isinstance(a, DumpOn)]
    if dumps:
        return _best(dumps, lambda a: -_minus_count(view, a.target), rng)
    return rng.choice(legal)


def _best(actions: list[Any], score: Any, rng: random.Random) -> Action:
    scored = [(score(a), a) for a in actions]
    top = max(s for s, _ in scored)
    return rng.choice([a for s, a in scored if s >= top - 1e-9])


def _minus_count(view: PileupView, player: str) -> int:
    for seat in view.seats:
        if seat.player == player:
            return seat.minus_count
    return 0


def _column_danger(view: PileupView, number: int) -> float:
    """How likely a card of this number is to cost a take when played later."""
    column = view.columns[number - 1]
    if column.trapped:
        return 2.0 + column.card_count * 0.2
    return {0: 0.0, 1: 0.5}.get(column.layer_count, 1.5)


def _keep_value(view: PileupView, card: str) -> float:
    """How much a card is worth keeping in hand (or, as a minus card, for the empty-hand phase)."""
    if card[0] == "W":
        return 5.0
    if card[0] == "K":
        return 4.0
    return -_column_danger(view, int(card[1]))


def _play_score(view: PileupView, action: Play) -> float:
    outcome = preview(view, action)
    kind = outcome["kind"]
    whites = sum(c[0] == "W" for c in action.cards)
    blacks = sum(c[0] == "K" for c in action.cards)
    score = -KEEP_WHITE * whites - KEEP_BLACK * blacks
    if outcome["takes"]:
        score -= outcome["cards"]
    elif kind == "dump":
        score += DUMP_GAIN * outcome["cards"]
    elif kind == "trap":
        score += TRAP_GAIN * outcome["cards"]
    elif outcome["layers"] == 2:
        score += HAZARD_GAIN
    # Cards out of the hand bring the empty-hand phase nearer, where minus cards are shed;
    # that matters once the draw pile (or the seat's own pile, ``streams: per_seat``) no longer refills the hand.
    empty = (view.draw_pile if view.viewer is None else view.pile_left(view.viewer)) == 0
    score += (0.3 if empty else 0.05) * len(action.cards)
    return score


def easy_score(view: PolicyView, action: Action) -> float:
    """The plug-in's hook for the easy level: a play scored as the heuristic scores it (higher is better)."""
    return _play_score(pileup_view(view), action) if isinstance(action, Play) else 0.0
