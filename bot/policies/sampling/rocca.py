"""Rocca determiniser: the cards neither in our hand nor in the tower are dealt at random to the rivals'
hands (sizes from the view) and the draw pile (with ``streams: per_seat``, every seat's own pile, ours included,
to the sizes the view shows).

A rival who drew instead of placing (or took a J/K chain's draws instead of countering) held no card that
would have fitted then, as far as we can tell from public play (the heuristic never passes up a
placement; a person may, and the sample is then only a little off). The view says when that was (the last
three times) and how many cards reached the rival's hand since, so all but that many of its cards are dealt
from the cards that would not have fitted the tower as it stood then.

The cards we passed a rival with a Q that it still holds as far as we can tell (the view's ``known``) are
dealt to it first. The tower, its columns, the joker restriction and the pending decision are public and
copied from the view.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from engines import Json, View
from engines.rng import Rng
from engines.rocca.cards import full_deck, sort_cards
from engines.rocca.geometry import SIDES
from engines.rocca.state import Column, Declined, Pending, RoccaState, TowerCard
from engines.rocca.tower import TowerIndex, matches, put, start_tower
from engines.rocca.view import DrawChainPending, QGivePending, RoccaView
from engines.streams import STREAMS_FIELD, Streams

from ..rocca import RoccaPlayoutView
from ..seat_view import held
from . import trailing_score


def _rocca(view: View) -> RoccaView:
    assert isinstance(view, RoccaView)  # only Rocca's views reach this determiniser
    return view


def column_index(label: str) -> int:
    n = 0
    for ch in label:
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def unseen_cards(view: View) -> list[str]:
    view = _rocca(view)
    seen = set(held(view.hand)) | {tc.card for tc in view.tower}
    return [c for c in full_deck() if c not in seen]


PlacedKey = tuple[tuple[str, str | None, str | None, str | None, str | None], ...]


def _placed(view: RoccaView, length: int) -> PlacedKey:
    """The first ``length`` tower cards as placed: enough to build the tower again."""
    return tuple((t.card, t.on, t.on_side, t.suit, t.bend) for t in view.tower[:length])


@lru_cache(maxsize=256)
def fitted_then(placed: PlacedKey, chain_card: str | None) -> frozenset[str]:
    """Every card that a player could have placed on the tower built from ``placed`` (built again with the
    engine's own ``put``): on any open side of a playable card, or for a J/K chain only on the chain card's face."""
    tower, columns = start_tower(placed[0][0])
    then = RoccaState(players=[], seed=0, rng=Rng(state=0), hands={}, deck=[], tower=tower, columns=columns, turn="",
                      start_player="")
    for card, on, side, suit, bend in placed[1:]:
        base = next(tc for tc in then.tower if tc.card == on)
        put(then, "", card, base, side or "head", suit, bend)
    ix = TowerIndex(then)
    sides = [(i, side) for i in ix.playable for side in SIDES if ix.open_for_building(i, side)]
    if chain_card is not None:
        sides = [(i, side) for i, side in sides if side == "face" and then.tower[i].card == chain_card]
    return frozenset(c for c in full_deck() if any(matches(c, then.tower[i], side) for i, side in sides))


def deal_rivals(view: RoccaView, pool: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Our hand as it is and each rival's from the shuffled ``pool``, then what is left is the pile.

    A rival holds the cards we know it holds (passed with a Q); those that fitted at none of the times count among
    the cards held since them.
    The cards a rival has held since it passed up placing did not fit then, nor at any later time it passed up:
    from its oldest recorded time to its newest, the cards held since each are dealt first from those that fitted
    at none of the times since, then the rest of its hand from anything left."""
    me, sizes = view.viewer, view.hand_sizes
    rivals = [p for p in view.players if p != me]
    dealt: dict[str, list[str]] = {p: list(view.known.get(p, [])) for p in rivals}
    taken: set[str] = {c for cards in dealt.values() for c in cards}
    for p, times in view.declined.items():
        if p not in dealt:
            continue
        ruled_out = [fitted_then(_placed(view, d.tower), d.card) for d in times]
        for k, declined in enumerate(times):
            held_since = sizes[p] - declined.since
            banned = frozenset().union(*ruled_out[k:])
            fitting_none = sum(c not in banned for c in dealt[p])
            for card in pool:
                if fitting_none >= held_since or len(dealt[p]) >= sizes[p]:
                    break
                if card not in taken and card not in banned:
                    dealt[p].append(card)
                    taken.add(card)
                    fitting_none += 1
    rest = [c for c in pool if c not in taken]
    for p in rivals:
        need = max(0, sizes[p] - len(dealt[p]))
        dealt[p] += rest[:need]
        rest = rest[need:]
    hands = {p: list(held(view.hand)) if p == me else sort_cards(dealt[p]) for p in view.players}
    return hands, rest


def _pending(view: RoccaView) -> Pending | None:
    """The state's pending decision from the view's (whose partner field is named for its kind)."""
    pv = view.pending
    if pv is None:
        return None
    if isinstance(pv, DrawChainPending):
        partner, given = pv.by, 0
    elif isinstance(pv, QGivePending):
        partner, given = pv.receiver, pv.given
    else:
        partner, given = pv.giver, 0
    return Pending(kind=pv.kind, player=pv.player, rank=pv.rank, count=pv.count, card=pv.card, partner=partner,
                   given=given)


def sample(view: View, rng: random.Random) -> RoccaState:
    view = _rocca(view)
    me = view.viewer
    assert me is not None  # a seat's view
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands, deck = deal_rivals(view, pool)
    options: Json = {"bon": view.options.bon, "start_player": view.players.index(view.start_player)}
    own: dict[str, list[str]] | None = None
    if view.pile_sizes is not None:
        own = {}
        for p in view.players:
            own[p], deck = deck[:view.pile_sizes[p]], deck[view.pile_sizes[p]:]
        options[STREAMS_FIELD] = Streams.PER_SEAT.value
    tower = [
        TowerCard(card=t.card, centre=tuple(t.centre), orientation=t.orientation, column=column_index(t.column),
                  height=t.height, placer=t.placer, on=t.on, side=t.on_side, suit=t.suit, bend=t.bend)
        for t in view.tower
    ]
    columns = [Column(cards=list(c.cards), parent=c.parent) for c in view.columns]
    restriction = view.restriction
    turn = view.turn if view.turn is not None else view.start_player
    return RoccaState(
        players=list(view.players), seed=0,
        options=options, rng=Rng(state=rng.getrandbits(64)), hands=hands, deck=deck, own=own, tower=tower,
        columns=columns,
        restricted=None if restriction is None else [column_index(c) for c in restriction.columns],
        joker=None if restriction is None else restriction.joker, turn=turn, direction=view.direction,
        start_player=view.start_player, pending=_pending(view), one_declared=list(view.one_declared),
        out=list(view.out), winner=view.winner, over=view.over,
        declined={p: [Declined(tower=d.tower, card=d.card, since=d.since) for d in times]
                  for p, times in view.declined.items()},
        known={me: {p: list(cards) for p, cards in view.known.items()}},
    )


# A Rocca game is ~30 actions; playouts stop after this many and score the hands.
ROLLOUT_STEPS = 40


def evaluate(state: RoccaState, me: str) -> float:
    """An unfinished playout's score in [0, 1]: how our hand compares with the smallest rival hand."""
    return trailing_score(len(state.hands[me]), [len(state.hands[p]) for p in state.players if p != me], 2.0)


def prior(view: View, action: Any) -> float:
    """Which actions to search first: placements by the heuristic's own score."""
    view = _rocca(view)
    from bot.policies.rocca import _place_score

    if getattr(action, "type", "") == "place":
        return _place_score(view, action, held(view.hand))
    return 0.0


def rollout_view(state: RoccaState, player: str) -> RoccaPlayoutView:
    """The part of the view the Rocca heuristic reads, for playouts (the full view's tower geometry costs ~3 ms)."""
    from engines.rocca.view import pending_view

    return RoccaPlayoutView(
        viewer=player, players=list(state.players), out=list(state.out), direction=state.direction,
        hand=list(state.hands[player]), hand_sizes={p: len(h) for p, h in state.hands.items()},
        pending=pending_view(state))


def shuffle_pile(state: RoccaState, rng: random.Random) -> None:
    """The draw pile (or every seat's own, ``streams: per_seat``) in a new order (bench.bots' seer: the hidden
    hands but not the draws to come)."""
    rng.shuffle(state.deck)
    for pile in (state.own or {}).values():
        rng.shuffle(pile)
