"""Rocca's legality: what a player may place (ordinary turns, J/K/Q counters, the optional Bon) and who
starts a rematch.

The enumerations build ``legal_actions``; the ``check_*`` functions validate one action directly (so
``apply`` never has to enumerate a whole turn). Both use the same predicates, so they cannot disagree.
"""
from __future__ import annotations

from itertools import combinations

from engines.errors import IllegalAction

from . import cards as C
from . import geometry as G
from .actions import Bon, Place
from .state import Pending, RoccaState
from .tower import TowerIndex, matches

BENDS: tuple[str, ...] = ("left", "right")


def turn_placements(state: RoccaState, ix: TowerIndex, player: str, first_only: bool = False) -> list[Place]:
    """Every card of ``player``'s hand on every open, matching side of every playable active card."""
    hand = state.hands[player]
    out: list[Place] = []
    for i in ix.playable:
        base = ix.tower[i]
        for side in G.SIDES:
            if not ix.open_for_building(i, side):
                continue
            for card in hand:
                if not matches(card, base, side):
                    continue
                if C.is_joker(card):
                    out.extend(Place(card=card, on=base.card, side=side, suit=s, bend=b)
                               for s in C.SUITS for b in BENDS)
                else:
                    out.append(Place(card=card, on=base.card, side=side))
                if first_only and out:
                    return out
    return out


def counter_possible(state: RoccaState, ix: TowerIndex, pending: Pending) -> bool:
    """The face of the chain's top card is free and its target centre empty."""
    i = ix.position.get(pending.card)
    return i is not None and i in ix.playable and ix.open_for_building(i, "face")


def counter_placements(state: RoccaState, ix: TowerIndex, pending: Pending) -> list[Place]:
    """J on J / K on K / Q on Q, on the face of the chain's top card; a Q counter needs the cards to give back."""
    hand = state.hands[pending.player]
    if not counter_possible(state, ix, pending):
        return []
    if pending.kind == "q_answer" and len(hand) - 1 < pending.count:
        return []
    return [Place(card=c, on=pending.card, side="face") for c in hand if C.rank(c) == pending.rank]


def check_turn_place(state: RoccaState, ix: TowerIndex, player: str, action: Place) -> None:
    if action.card not in state.hands[player]:
        raise IllegalAction("rocca.card_not_in_hand", card=action.card)
    i = ix.position.get(action.on)
    if i is None:
        raise IllegalAction("rocca.no_such_tower_card", card=action.on)
    if i not in ix.active:
        raise IllegalAction("rocca.not_active", card=action.on)
    if i not in ix.playable:
        raise IllegalAction("rocca.frozen_by_joker", card=action.on, joker=state.joker)
    state_of_side = ix.side_state(i, action.side)
    if state_of_side != "free":
        raise IllegalAction("rocca.side_not_free", card=action.on, side=action.side, state=state_of_side)
    if not ix.open_for_building(i, action.side):
        raise IllegalAction("rocca.centre_taken", card=action.on, side=action.side)
    if not matches(action.card, ix.tower[i], action.side):
        raise IllegalAction("rocca.no_match", card=action.card, on=action.on, side=action.side)
    if C.is_joker(action.card):
        if action.suit is None or action.bend is None:
            raise IllegalAction("rocca.joker_needs_suit_and_bend", card=action.card)
    elif action.suit is not None or action.bend is not None:
        raise IllegalAction("rocca.only_jokers_name_suits", card=action.card)


def check_counter_place(state: RoccaState, ix: TowerIndex, pending: Pending, action: Place) -> None:
    if action not in counter_placements(state, ix, pending):
        raise IllegalAction("rocca.bad_counter", card=action.card, rank=pending.rank, on=pending.card)


def bon_side(rank: str) -> str:
    return "face" if rank in C.LETTERS else "profile"


def bon_chain_fits(ix: TowerIndex, base_index: int, size: int) -> bool:
    """The first card needs an open face/profile; each further one needs only an empty centre (its base is new)."""
    base = ix.tower[base_index]
    side = bon_side(C.rank(base.card) or "")
    if not ix.open_for_building(base_index, side):
        return False
    centre = base.centre
    taken = set(ix.centres)
    for _ in range(size):
        centre = G.target_centre(centre, base.orientation, side)
        if centre in taken:
            return False
        taken.add(centre)
    return True


def bon_options(state: RoccaState, ix: TowerIndex, player: str) -> list[Bon]:
    """Sets of 2–3 same-rank cards (suit order) matching a playable active card, not the caller's last card."""
    if not state.options.get("bon") or state.over or state.pending is not None or player in state.out:
        return []
    by_rank: dict[str, list[str]] = {}
    for card in C.sort_cards(state.hands[player]):
        r = C.rank(card)
        if r is not None:
            by_rank.setdefault(r, []).append(card)
    last = state.tower[-1]
    out: list[Bon] = []
    for i in ix.playable:
        base = ix.tower[i]
        same = by_rank.get(C.rank(base.card) or "", [])
        if len(same) < 2 or (base is last and last.placer == player):
            continue
        for size in (2, 3):
            if len(same) >= size and bon_chain_fits(ix, i, size):
                out.extend(Bon(on=base.card, cards=combo) for combo in combinations(same, size))
    return out


def bon_placements(action: Bon) -> list[tuple[str, str]]:
    """(card, on) pairs of a Bon chain in placement order: each card on the previous one."""
    chain, on = [], action.on
    for card in action.cards:
        chain.append((card, on))
        on = card
    return chain


# ---- rematch: 「2回目からは、いちばん負けた人から」 — from the second game on, the player who lost worst starts
# (docs/rules/rocca.md, Decision [D8]). Pure, so a later Rematch feature can use it.
def rematch_start_player(players: list[str], previous_ranking: list[list[str]]) -> str:
    """The start player of the next game at the same table, given the previous game's ranking (places in order,
    players sharing a place together, as ``Result.ranking``).

    The worst player is the one in the last place. **Decision:** when several share the last place, the first of
    them in seat order starts. Players who were not in the previous game are ignored; if none of ``players`` was
    ranked, the first seat starts.
    """
    for place in reversed(previous_ranking):
        tied = [p for p in players if p in place]
        if tied:
            return tied[0]
    return players[0]
