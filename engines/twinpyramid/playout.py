"""Twin Pyramid's playout fast path, for the strong bot's search: the same legal actions and the same state
changes as the engine, at a fraction of the cost. Only playouts on a private sampled state use it; every move a
person or bot makes goes through ``TwinPyramidEngine`` (listing and checking as always).

* ``rollout_legal`` lists the same actions in the same order as ``legal_actions`` for the common decisions (a
  turn, a build, a forced draw, naming a suit), with one shared instance per action (actions are frozen), and asks
  the engine for the rare ones (rearrangement steps, a 2's choice, a 3's order);
* ``rollout_apply`` applies an action ``rollout_legal`` listed for this very state without listing the legal
  actions again: a draw or a play that only ends the turn directly (the same changes, without the events nobody
  reads), anything else by the engine's own handler.

It restates ``rules.turn_actions`` / ``rules.placeable`` and ``flow.end_turn`` in a cheaper form;
``tests/test_twinpyramid_playout.py`` checks both against the engine at every step of many games and playouts.
"""
from __future__ import annotations

from functools import cache, lru_cache

from ..base import Action
from .actions import Change, Draw, EndBuild, ForcedDraw, NameSuit, Pass, Place, Play, Rearrange
from .cards import BURST_SIZE, HELD_LIMIT, JOKERS, RANKS, STONE_RANKS, SUITS, SUPPORTS
from .engine import SPECIAL_RANKS, TwinPyramidEngine
from .state import REARRANGE_LIMIT, TwinPyramidState

# Rank and suit of every card id (None for a joker): a dict look-up instead of a call.
RANK: dict[str, str | None] = {**{r + s: r for s in SUITS for r in RANKS}, **{j: None for j in JOKERS}}
SUIT: dict[str, str | None] = {**{r + s: s for s in SUITS for r in RANKS}, **{j: None for j in JOKERS}}

PLAIN_RANKS = frozenset(("A", "4", "5", "6"))  # a play of these only ends the turn (no effect, no build, no suit)
DRAW, PASS, REARRANGE, END_BUILD, FORCED_DRAW = Draw(), Pass(), Rearrange(), EndBuild(), ForcedDraw()
NAME_SUITS = tuple(NameSuit(suit=s) for s in SUITS)


@cache  # at most one per card id (54), like _place
def _play(card: str) -> Action:
    return Play(card=card)


@cache
def _place(card: str) -> Action:
    return Place(card=card)


@lru_cache(maxsize=4096)  # bounded: ``owner`` is a player, and a bot process meets ever new players
def _change(card: str, target: str, owner: str | None) -> Action:
    return Change(card=card, target=target, owner=owner)



_ENGINE = TwinPyramidEngine()  # its handlers and rare listings (stateless)


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
    """``rules.change_actions``: an A takes its suit or another A, a joker anything (rules 2: but a joker); the
    discard's top first, then the others' shown cards in seat order."""
    wild = state.wild
    if wild is not None and wild.owner != player:
        return []
    changers = [c for c in hand if RANK[c] is None or RANK[c] == "A"]
    if not changers:
        return []
    top = state.discard[-1]
    targets = [(None, top), *((o, t) for o in state.players if o != player for t in state.seats[o].shown)]
    joker_takes_joker = state.joker_takes_joker
    actions: list[Action] = []
    for card in changers:
        rank, suit = RANK[card], SUIT[card]
        for owner, target in targets:
            if RANK[target] is None:
                if rank is None and joker_takes_joker:
                    actions.append(_change(card, target, owner))
                continue
            if rank is None or SUIT[target] == suit or RANK[target] == "A":
                actions.append(_change(card, target, owner))
    return actions


def _turn(state: TwinPyramidState, player: str) -> list[Action]:
    seat = state.seats[player]
    hand = seat.held + seat.shown
    actions = _playable(state, player, hand) + _changes(state, player, hand)
    available = len(state.pile_of(player)) + max(0, len(state.discard) - 1)
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
        return _ENGINE.legal_actions(state, player)
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
    return _ENGINE.legal_actions(state, player)


def rollout_apply(state: TwinPyramidState, player: str, action: Action) -> None:
    """``engine._apply`` without its legality check, for an action ``rollout_legal`` listed for this state: a draw
    or a play that only ends the turn is done here (the events no playout reads are not made); anything else, and
    any draw or play that reshuffles, bursts a hand or reaches the turn limit, by the engine's own handler."""
    kind = action.type  # type: ignore[attr-defined]  # every Twin Pyramid action has its type literal
    if kind == "draw" and _quick_draw(state, player):
        return
    if kind == "play" and _quick_play(state, player, action.card):  # type: ignore[attr-defined]  # a play's card
        return
    TwinPyramidEngine._HANDLERS[type(action)](_ENGINE, state, player, action, [])


def _ends_quietly(state: TwinPyramidState) -> bool:
    """Ending the turn now does not reach the turn limit (which ends the deal)."""
    return state.turns + 1 < state.turn_limit


def _end_turn(state: TwinPyramidState) -> None:
    """``flow.end_turn`` (no skip) where it does not end the deal, without its events."""
    n = len(state.players)
    wild = state.wild
    if wild is not None and wild.owner == state.players[state.current % n]:
        if wild.fresh:
            wild.fresh = False
        else:
            state.wild = None
    state.current = (state.current + state.direction) % n
    state.rearranged = 0
    state.turns += 1


def _quick_draw(state: TwinPyramidState, player: str) -> bool:
    """The engine's draw when the pile has a card, the hand does not burst and the turn ends quietly."""
    seat = state.seats[player]
    pile = state.pile_of(player)
    if not pile or len(seat.held) + len(seat.shown) + 1 >= BURST_SIZE or not _ends_quietly(state):
        return False
    card = pile.pop()
    if state.peek and state.peek[0] == card:
        state.peek.pop(0)
    (seat.held if len(seat.held) < HELD_LIMIT else seat.shown).append(card)
    state.passes = 0
    _end_turn(state)
    return True


def _quick_play(state: TwinPyramidState, player: str, card: str) -> bool:
    """The engine's play of a card that only ends the turn: an A, 4, 5 or 6, or a special card another player's
    wild suppresses."""
    rank = RANK[card]
    wild = state.wild
    quiet = rank in PLAIN_RANKS or (rank in SPECIAL_RANKS and wild is not None and wild.owner != player)
    if not quiet or not _ends_quietly(state):
        return False
    seat = state.seats[player]
    (seat.held if card in seat.held else seat.shown).remove(card)
    state.discard.append(card)
    state.top_suit = None
    state.passes = 0
    _end_turn(state)
    return True
