"""Determinisers for the strong bot: ``<game>.sample(view, rng)`` returns a full engine state that the
seat's ``view`` could have come from, dealing every card the seat cannot see at random among the places
it could be. They read only the view (never the true state), and give the sampled state a fresh RNG."""
from __future__ import annotations

import math
from typing import Callable


def deal_hidden(players: list[str], me: str, my_hand: list[str], sizes: dict[str, int], pool: list[str],
                arrange: Callable[[list[str]], list[str]] = list) -> tuple[dict[str, list[str]], list[str]]:
    """Our hand as it is, each rival ``sizes[p]`` cards off the shuffled ``pool``; returns the hands and the
    cards left over (a draw pile)."""
    hands: dict[str, list[str]] = {}
    at = 0
    for p in players:
        if p == me:
            hands[p] = list(my_hand)
            continue
        hands[p] = arrange(pool[at:at + sizes[p]])
        at += sizes[p]
    return hands, pool[at:]


def trailing_score(mine: int, rivals: list[int], scale: float) -> float:
    """An unfinished playout's score in [0, 1] when fewer is better (cards in hand, minus cards): how our count
    compares with the best rival's, squashed by ``scale``."""
    return 0.5 + 0.5 * math.tanh((min(rivals) - mine) / scale)
