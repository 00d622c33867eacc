"""Cheaper Twin Pyramid playouts for the strong bot: the same moves, a fraction of the cost.

A playout step used to build the seat's typed view and dump it to a dict (for the heuristic), list the legal
actions as validated pydantic models and, in ``_apply``, list them all again to check the chosen one. The engine's
playout fast path (``engines/twinpyramid/playout.py``: ``rollout_legal``, ``rollout_apply``) does the listing and
applying; here ``rollout_choose`` builds the heuristic's ``Table`` (``bot/policies/twinpyramid.py``) from the
state, with the same parts the view gives it, and makes the heuristic's own ``decide`` on it.

``tests/test_twinpyramid_playout.py`` checks all three against the engine along many playouts, and that the strong
bot's decisions are the ones the engine's own path gave.
"""
from __future__ import annotations

import random

from engines import Action
from engines.twinpyramid.playout import rollout_apply, rollout_legal
from engines.twinpyramid.state import TwinPyramidState

from ..twinpyramid import Table, decide

__all__ = ["rollout_apply", "rollout_choose", "rollout_legal", "table_of"]


def table_of(state: TwinPyramidState, player: str) -> Table:
    """The heuristic's ``Table(engine.view(state, player))``, read from the state: the same parts."""
    seat = state.seats[player]
    players = state.players
    step = 1 if state.direction == 1 else -1
    next_player = players[(players.index(player) + step) % len(players)]
    return Table.of([] if seat.revealed else seat.held, seat.shown, set(seat.stones), next_player,
                    len(state.seats[next_player].stones) > 0, state.discard[-1], len(players), state.own is not None)


def rollout_choose(state: TwinPyramidState, player: str, legal: list[Action], rng: random.Random) -> Action:
    """The heuristic's ``choose(engine.view(state, player), legal, rng)``, without building the view."""
    if len(legal) == 1:
        return legal[0]
    return decide(table_of(state, player), legal, rng)
