"""Pile up determiniser: the unseen cards (rivals' unrevealed hand cards and the draw pile, or every seat's own
pile with ``streams: per_seat``, to the sizes the view shows) are dealt at random; the dice to come are a fresh RNG
(every seat's own two with ``per_seat``).

Everything else is public: the columns, every minus card, the cards a failed roll revealed (they
stay known while in hand), the hand sizes and the draw pile's size. The unseen pool is the deck
(the ``deck`` option) minus all of those and our own hand.
"""
from __future__ import annotations

import random
from typing import Any

from engines import Json, View
from engines.pileup.cards import build_deck, parse_deck
from engines.pileup.state import Column, Dump, DumpLink, OwnStreams, PileupState
from engines.pileup.view import DeflectPending, DumpTargetPending, GivePending
from engines.rng import Rng
from engines.streams import STREAMS_FIELD, Streams

from ..pileup import pileup_view
from ..seat_view import held
from . import trailing_score


def unseen_cards(view: View) -> list[str]:
    view = pileup_view(view)
    seen = set(held(view.hand_all))
    for column in view.columns:
        for layer in column.layers:
            seen.update(layer.cards)
    for seat in view.seats:
        seen.update(seat.minus)
        seen.update(seat.revealed)
    return [c for c in build_deck(parse_deck(view.deck)) if c not in seen]


def sample(view: View, rng: random.Random) -> PileupState:
    view = pileup_view(view)
    me = view.viewer
    pool = unseen_cards(view)
    rng.shuffle(pool)
    players = list(view.players)
    hands: dict[str, list[str]] = {}
    revealed: dict[str, list[str]] = {}
    minus: dict[str, list[str]] = {}
    at = 0
    for seat in view.seats:
        p = seat.player
        revealed[p] = list(seat.revealed)
        minus[p] = list(seat.minus)
        if p == me:
            hands[p] = sorted(held(view.hand_all))
            continue
        hidden = seat.hand_size - len(seat.revealed)
        hands[p] = sorted([*seat.revealed, *pool[at:at + hidden]])
        at += hidden
    own: dict[str, OwnStreams] | None = None
    options: Json = {"deck": view.deck}
    if any(seat.pile is not None for seat in view.seats):
        own = {}
        for seat in view.seats:
            size = seat.pile or 0
            own[seat.player] = OwnStreams(pile=pool[at:at + size], dice=Rng(state=rng.getrandbits(64)),
                                          deflect=Rng(state=rng.getrandbits(64)))
            at += size
        options[STREAMS_FIELD] = Streams.PER_SEAT.value
    draw_pile = pool[at:]
    columns = [
        Column(layers=[list(layer.cards) for layer in c.layers], trapped=c.trapped, trapped_by=c.trapped_by)
        for c in view.columns
    ]
    pending = view.pending
    dump = None
    if isinstance(pending, (DumpTargetPending, DeflectPending)):
        dump = Dump(column=pending.column, dumper=pending.dumper, holder=pending.player,
                    chain=[DumpLink(source=link.source, target=link.target, die=link.die) for link in pending.chain])
    give = pending if isinstance(pending, GivePending) else None
    return PileupState(
        players=players, seed=0, options=options, rng=Rng(state=rng.getrandbits(64)),
        draw_pile=draw_pile, hands=hands, revealed=revealed, minus=minus, columns=columns,
        turn=players.index(view.turn_player), turn_count=view.turn, phase=view.phase,
        minus_turn=view.minus_turn, dice=list(view.dice), give_left=0 if give is None else give.remaining,
        give_next=0 if give is None else players.index(give.to), dump=dump, own=own,
    )


# A whole Pile up game is ~140 actions; playouts stop after this many and score the position.
ROLLOUT_STEPS = 40

# The strong bot plays the heuristic here: with three dice deciding every turn, searching measured no better than
# the heuristic at 2, 3 and 4 players, nor did a search that knew every hidden hand (docs/strong-bot.md).
SEARCHED = False


def evaluate(state: PileupState, me: str) -> float:
    """An unfinished playout's score in [0, 1]: how far our minus cards trail the best rival's (fewest wins)."""
    return trailing_score(len(state.minus[me]), [len(state.minus[p]) for p in state.players if p != me], 4.0)


def prior(view: View, action: Any) -> float:
    """Which actions to search first: plays by the heuristic's own score; other choices unordered."""
    from bot.policies.pileup import _play_score
    from engines.pileup import Play

    return _play_score(pileup_view(view), action) if isinstance(action, Play) else 0.0


def shuffle_pile(state: PileupState, rng: random.Random) -> None:
    """The draw piles in a new order (bench.bots' seer: the hidden hands but not the draws to come); with
    ``streams: per_seat`` every seat's own pile, and its own dice a fresh RNG."""
    rng.shuffle(state.draw_pile)
    for own in (state.own or {}).values():
        rng.shuffle(own.pile)
        own.dice, own.deflect = Rng(state=rng.getrandbits(64)), Rng(state=rng.getrandbits(64))
