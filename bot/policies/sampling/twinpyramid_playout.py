"""Cheaper Twin Pyramid playouts for the strong bot: the same moves, a fraction of the cost.

A playout step used to build the seat's typed view and dump it to a dict (for the heuristic), list the legal
actions (each a validated pydantic model, the rearrangement menu listed in full only to learn whether it is
empty) and, in ``_apply``, list them all again to check the chosen one. Here:

* ``rollout_choose`` builds the heuristic's ``Table`` (``bot/policies/twinpyramid.py``) from the state, with the
  same parts the view gives it, and makes the heuristic's own ``decide`` on it;
* ``rollout_legal`` lists the same actions in the same order as ``engine.legal_actions`` for the common
  decisions (a turn, a build, a forced draw, naming a suit), with one shared instance per action (actions are
  frozen), and asks the engine for the rare ones (the rearrangement steps, a 2's choice, a 3's order);
* ``rollout_apply`` runs the engine's handler for an action without listing the legal actions again: every
  action a playout applies after the first was taken from ``rollout_legal`` for that very state.

``tests/test_twinpyramid_playout.py`` checks all three against the engine along many playouts, and that the strong
bot's decisions are the ones the engine's own path gave.
"""
from __future__ import annotations

import random
from functools import cache

from engines import Action, get_engine
from engines.twinpyramid.actions import (
    Change,
    Draw,
    EndBuild,
    ForcedDraw,
    NameSuit,
    Pass,
    Place,
    Play,
    Rearrange,
)
from engines.twinpyramid.cards import BURST_SIZE, JOKERS, RANKS, STONE_RANKS, SUITS, SUPPORTS
from engines.twinpyramid.engine import TwinPyramidEngine
from engines.twinpyramid.state import REARRANGE_LIMIT, TwinPyramidState

from ..twinpyramid import Table, decide

# Rank and suit of every card id (None for a joker): a dict look-up instead of a call.
RANK: dict[str, str | None] = {**{r + s: r for s in SUITS for r in RANKS}, **{j: None for j in JOKERS}}
SUIT: dict[str, str | None] = {**{r + s: s for s in SUITS for r in RANKS}, **{j: None for j in JOKERS}}

DRAW, PASS, REARRANGE, END_BUILD, FORCED_DRAW = Draw(), Pass(), Rearrange(), EndBuild(), ForcedDraw()
NAME_SUITS = tuple(NameSuit(suit=s) for s in SUITS)


@cache
def _play(card: str) -> Action:
    return Play(card=card)


@cache
def _place(card: str) -> Action:
    return Place(card=card)


@cache
def _change(card: str, target: str, owner: str | None) -> Action:
    return Change(card=card, target=target, owner=owner)


def table_of(state: TwinPyramidState, player: str) -> Table:
    """The heuristic's ``Table(seat_view(engine.view(state, player)))``, read from the state: the same parts."""
    seat = state.seats[player]
    players = state.players
    step = 1 if state.direction == 1 else -1
    next_player = players[(players.index(player) + step) % len(players)]
    return Table.of([] if seat.revealed else seat.held, seat.shown, set(seat.stones), next_player,
                    len(state.seats[next_player].stones) > 0, state.discard[-1], len(players))


def rollout_choose(state: TwinPyramidState, player: str, legal: list[Action], rng: random.Random) -> Action:
    """The heuristic's ``choose(engine.view(state, player), legal, rng)``, without building the view."""
    if len(legal) == 1:
        return legal[0]
    return decide(table_of(state, player), legal, rng)


def _playable(state: TwinPyramidState, player: str, hand: list[str]) -> list[Action]:
    """``rules.play_actions``: a joker unless suppressed; under another's wild its suit; else the top's suit or
    the named suit, or the top's rank (never a 2 by rank, nothing by rank on a joker)."""
    wild = state.wild
    if wild is not None and wild.owner != player:
        return [_play(c) for c in hand if SUIT[c] == wild.suit and RANK[c] is not None]
    top = state.discard[-1]
    suits = {SUIT[top], state.top_suit} - {None}
    top_rank = RANK[top]
    return [_play(c) for c in hand if RANK[c] is None or SUIT[c] in suits
            or (top_rank is not None and RANK[c] == top_rank and top_rank != "2")]


def _changes(state: TwinPyramidState, player: str, hand: list[str]) -> list[Action]:
    """``rules.change_actions``: an A takes its suit or another A, a joker anything but a joker; the discard's
    top first, then the others' shown cards in seat order."""
    wild = state.wild
    if wild is not None and wild.owner != player:
        return []
    actions: list[Action] = []
    top = state.discard[-1]
    for card in hand:
        rank = RANK[card]
        if rank is not None and rank != "A":
            continue
        suit = SUIT[card]
        for owner, target in ((None, top), *((o, t) for o in state.players if o != player
                                              for t in state.seats[o].shown)):
            if RANK[target] is None:
                continue
            if rank is None or SUIT[target] == suit or RANK[target] == "A":
                actions.append(_change(card, target, owner))
    return actions


def _turn(state: TwinPyramidState, player: str) -> list[Action]:
    seat = state.seats[player]
    hand = seat.held + seat.shown
    actions = _playable(state, player, hand) + _changes(state, player, hand)
    available = len(state.draw) + max(0, len(state.discard) - 1)
    if available > 0 and not (len(hand) + 1 >= BURST_SIZE and actions):
        actions.append(DRAW)
    if not actions:
        actions.append(PASS)
    if state.rearranged < REARRANGE_LIMIT and hand:  # the menu is empty exactly when the hand is
        actions.append(REARRANGE)
    return actions


def _placeable(state: TwinPyramidState, player: str) -> list[Action]:
    """``rules.placeable``: a stone whose slot is empty with both supports filled; the A only when the rest of
    the hand is J, Q and K."""
    seat = state.seats[player]
    stones = seat.stones
    hand = seat.held + seat.shown
    actions: list[Action] = []
    for card in hand:
        rank = RANK[card]
        if rank not in STONE_RANKS or rank in stones or not all(s in stones for s in SUPPORTS.get(rank, ())):
            continue
        if rank == "A" and any(RANK[c] is None or RANK[c] in STONE_RANKS for c in hand if c != card):
            continue
        actions.append(_place(card))
    return actions


def rollout_legal(state: TwinPyramidState, player: str) -> list[Action]:
    """``engine.legal_actions(state, player)`` for the player to act: equal actions in the same order."""
    pending = state.pending
    if state.arranging:
        return get_engine("twinpyramid").legal_actions(state, player)
    if pending is None:
        return _turn(state, player)
    kind = pending.kind
    if kind == "build":
        return [*_placeable(state, player), END_BUILD]
    if kind == "forced_draw":
        seat = state.seats[player]
        entry = pending.rearranged < REARRANGE_LIMIT and bool(seat.held or seat.shown)
        return [FORCED_DRAW, REARRANGE] if entry else [FORCED_DRAW]
    if kind == "name_suit":
        return list(NAME_SUITS)
    return get_engine("twinpyramid").legal_actions(state, player)


def rollout_apply(state: TwinPyramidState, player: str, action: Action) -> None:
    """``engine._apply`` without its legality check, for an action ``rollout_legal`` listed for this state."""
    engine = get_engine("twinpyramid")
    TwinPyramidEngine._HANDLERS[type(action)](engine, state, player, action, [])
