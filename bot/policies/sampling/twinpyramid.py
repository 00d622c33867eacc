"""Twin Pyramid determiniser: the cards we cannot see (rivals' held cards, the draw pile, the discard pile
under its top card) are dealt at random from the deck minus every card the view shows.

Known cards stay where they are: our held cards, every shown card and stone, a revealed hand, the
discard's top, and the cards we saw with our own 3 (on top of the draw pile, in the order we know). With
``streams: per_seat`` every seat's own pile is dealt to the size the view shows (our 3's cards on top of ours).
Three details are not in the view and are reconstructed: the consecutive-pass count (taken as 0), a
named suit's "still in its turn" flag (taken as spent) and the queue of a 3's draws (rebuilt from the
turn order). Playouts run to the end of the current deal or ``ROLLOUT_STEPS`` actions and are scored by the
points plus the stones built.
"""
from __future__ import annotations

import math
import random

from engines import View
from engines.rng import Rng
from engines.twinpyramid.cards import full_deck
from engines.twinpyramid.state import (
    REARRANGE_LIMIT,
    DealOutcome,
    OwnPile,
    Pending,
    Seat,
    TwinPyramidOptions,
    TwinPyramidState,
    Wild,
)
from engines.twinpyramid.view import TwinPyramidView

from ..seat_view import held
from .twinpyramid_playout import rollout_apply, rollout_choose, rollout_legal

__all__ = ["ROLLOUT_STEPS", "evaluate", "rollout_apply", "rollout_choose", "rollout_done", "rollout_legal", "sample",
           "unseen_cards"]

ROLLOUT_STEPS = 30


def _twinpyramid(view: View) -> TwinPyramidView:
    assert isinstance(view, TwinPyramidView)  # only Twin Pyramid's views reach this determiniser
    return view


def _known(view: TwinPyramidView) -> set[str]:
    seen = set(held(view.hand)) | set(view.peek or ()) | {view.top}  # ``peek``: None when we saw no 3's draws
    for seat in view.table:
        seen.update(seat.shown)
        seen.update(c for c in seat.stones.values() if c)
        seen.update(seat.revealed or [])
    return seen


def unseen_cards(view: View) -> list[str]:
    view = _twinpyramid(view)
    known = _known(view)
    return [c for c in full_deck(TwinPyramidOptions.model_validate(view.options).jokers) if c not in known]


def _three_queue(view: TwinPyramidView, players: list[str], current: int, direction: int) -> list[str]:
    """Who still draws for a 3 (not in the view: rebuilt from the turn order)."""
    pv, n = view.pending, len(players)
    if view.three_player is None:
        return []
    full = [players[(current + direction * i) % n] for i in range(1, n)] + [view.three_player]
    if pv is not None and pv.kind == "forced_draw" and pv.cause == "3" and pv.player in full:
        return full[full.index(pv.player) + 1:]
    if pv is not None and pv.kind == "order_three":
        return full
    return []


def _last_deal(view: TwinPyramidView) -> DealOutcome | None:
    last = view.last_deal
    if last is None:
        return None
    return DealOutcome(number=last.number, reason=last.reason, player=last.player,
                       revealed=[] if last.revealed is None else list(last.revealed), payments=dict(last.payments),
                       turn_limit=last.turn_limit)


def _draw_piles(view: TwinPyramidView, pool: list[str], at: int, peek: list[str],
                rng: random.Random) -> tuple[list[str], dict[str, OwnPile] | None, int]:
    """The draw pile, or (``streams: per_seat``, D19) every seat's own pile to the size the view shows, dealt from
    ``pool[at:]`` with the cards of our 3 on top of ours; and where the pool's unused part now starts."""
    if all(sv.pile is None for sv in view.table):
        hidden = view.draw_count - len(peek)
        return pool[at:at + hidden] + list(reversed(peek)), None, at + hidden  # the top is the last element
    own: dict[str, OwnPile] = {}
    for sv in view.table:
        seen = peek if sv.player == view.viewer else []
        hidden = (sv.pile or 0) - len(seen)
        own[sv.player] = OwnPile(pile=pool[at:at + hidden] + list(reversed(seen)), rng=Rng(state=rng.getrandbits(64)))
        at += hidden
    return [], own, at


def sample(view: View, rng: random.Random) -> TwinPyramidState:
    view = _twinpyramid(view)
    me = view.viewer
    players = list(view.players)
    pool = unseen_cards(view)
    rng.shuffle(pool)
    at = 0
    seats: dict[str, Seat] = {}
    for sv in view.table:
        p = sv.player
        if sv.revealed is not None:
            cards = list(sv.revealed)
        elif p == me:
            cards = list(held(view.hand))
        else:
            cards = pool[at:at + sv.held_count]
            at += sv.held_count
        seats[p] = Seat(held=cards, shown=list(sv.shown), stones={k: v for k, v in sv.stones.items() if v},
                        points=sv.points, revealed=sv.revealed is not None)
    peek = list(view.peek or ())
    draw, own, at = _draw_piles(view, pool, at, peek, rng)
    discard = pool[at:at + view.discard_count - 1] + [view.top]
    pv = view.pending
    # ``rearranges_left`` is shown to the seat to act only
    left = view.rearranges_left if view.rearranges_left is not None else REARRANGE_LIMIT
    used = REARRANGE_LIMIT - left if me in view.to_act else 0
    pending = None if pv is None else Pending(kind=pv.kind, player=pv.player, count=pv.count, cause=pv.cause,
                                              rearranged=used)
    current = players.index(view.current)
    direction = 1 if view.direction == "clockwise" else -1
    wild = view.wild
    return TwinPyramidState(
        game="twinpyramid", players=players, seed=0, options=dict(view.options),
        rng=Rng(state=rng.getrandbits(64)), seats=seats, deal=view.deal - 1, deals_total=view.deals_total,
        start=players.index(view.start_player), current=current, direction=direction, draw=draw,
        discard=discard, top_suit=view.named_suit,
        wild=None if wild is None else Wild(owner=wild.owner, suit=wild.suit, fresh=False),
        rearranged=0 if pending is not None else used, arranging=bool(view.arranging),
        passes=0, turns=view.turn, pending=pending, three_player=view.three_player,
        three_queue=_three_queue(view, players, current, direction), peek=peek, last_deal=_last_deal(view),
        over=view.phase == "over", own=own,
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
    """The draw pile (``streams: per_seat``: every own pile) in a new order below the cards a 3 showed (bench.bots'
    seer: the hidden hands but not the draws to come)."""
    piles = [(state.draw, state.peek)] if state.own is None else [
        (own.pile, state.peek if p == state.three_player else []) for p, own in state.own.items()]
    for pile, seen in piles:
        unseen = len(pile) - len(seen)
        below = pile[:unseen]
        rng.shuffle(below)
        pile[:unseen] = below
