"""The ``easy`` level: today's heuristic, but often a random move instead — from the better half of the legal
moves where the game's heuristic can score them (so an easy bot makes mistakes, not blunders), and never a move
that only shuffles its own cards (Twin Pyramid's ``rearrange``, which the heuristic also avoids)."""
from __future__ import annotations

import random
from typing import Callable

from engines import Action, View

SLIP = 0.5  # share of decisions (with a real choice) where the easy bot does not play the heuristic's move
Scorer = Callable[[View, Action], float]  # higher is better


def _pileup_score(view: View, action: Action) -> float:
    from engines.pileup import Play

    from .pileup import _play_score, pileup_view
    return _play_score(pileup_view(view), action) if isinstance(action, Play) else 0.0


# Akuma Trick has none: the better half by its heuristic's hand value was measured no weaker than the heuristic
# (one normal seat among easy ones won 0.35 at three seats), random slips make a beatable bot (normal: 0.55).
SCORERS: dict[str, Scorer] = {"pileup": _pileup_score}


def sensible(game: str, view: View, legal: list[Action]) -> list[Action]:
    """The moves an easy bot may pick at random: not pointless shuffles, and the better half when scorable."""
    moves = [a for a in legal if getattr(a, "type", None) != "rearrange"] or list(legal)
    scorer = SCORERS.get(game)
    if scorer is None or len(moves) < 3:
        return moves
    ranked = sorted(moves, key=lambda a: scorer(view, a), reverse=True)
    return ranked[:(len(ranked) + 1) // 2]


def choose_easy(game: str, view: View, legal: list[Action], rng: random.Random,
                heuristic: Callable[..., Action]) -> Action:
    if len(legal) == 1 or rng.random() >= SLIP:
        return heuristic(view, legal, rng)
    return rng.choice(sensible(game, view, legal))
