"""The ``easy`` level: today's heuristic, but often a random move instead — from the better half of the legal
moves where the game's plug-in can score them (its ``easy_score``, so an easy bot makes mistakes, not blunders),
and only among the moves the plug-in's ``easy_moves`` keeps (e.g. never one that only shuffles its own cards)."""
from __future__ import annotations

import random
from typing import Callable

from engines import Action

from ..games import policy_hooks
from .seat_view import PolicyView

SLIP = 0.5  # share of decisions (with a real choice) where the easy bot does not play the heuristic's move

# Akuma Trick has no scorer: the better half by its heuristic's hand value was measured no weaker than the heuristic
# (one normal seat among easy ones won 0.35 at three seats), random slips make a beatable bot (normal: 0.55).


def sensible(game: str, view: PolicyView, legal: list[Action]) -> list[Action]:
    """The moves an easy bot may pick at random: those the game keeps, and the better half when scorable."""
    hooks = policy_hooks(game)
    keep = hooks.easy_moves if hooks is not None else None
    moves = keep(legal) if keep is not None else list(legal)
    scorer = hooks.easy_score if hooks is not None else None
    if scorer is None or len(moves) < 3:
        return moves
    ranked = sorted(moves, key=lambda a: scorer(view, a), reverse=True)
    return ranked[:(len(ranked) + 1) // 2]


def choose_easy(game: str, view: PolicyView, legal: list[Action], rng: random.Random,
                heuristic: Callable[..., Action]) -> Action:
    if len(legal) == 1 or rng.random() >= SLIP:
        return heuristic(view, legal, rng)
    return rng.choice(sensible(game, view, legal))
