"""Determinisers for the strong bot: ``<game>.sample(view, rng)`` returns a full engine state that the
seat's ``view`` could have come from, dealing every card the seat cannot see at random among the places
it could be. They read only the view (never the true state), and give the sampled state a fresh RNG."""
from __future__ import annotations

import math
from typing import Callable


def deal_hidden(players: list[str], me: str, my_hand: list[str], sizes: dict[str, int], pool: list[str],
                arrange: Callable[[list[str]], list[str]] = list,
                known: dict[str, list[str]] | None = None) -> tuple[dict[str, list[str]], list[str]]:
    """Our hand as it is, each rival the cards we know it holds (``known``, all in ``pool``) and the rest of its
    ``sizes[p]`` off the shuffled ``pool``; returns the hands and the cards left over (a draw pile)."""
    known = known or {}
    if known:
        fixed = {c for cards in known.values() for c in cards}
        pool = [c for c in pool if c not in fixed]
    hands: dict[str, list[str]] = {}
    at = 0
    for p in players:
        if p == me:
            hands[p] = list(my_hand)
            continue
        have = list(known.get(p, []))
        take = max(0, sizes[p] - len(have))
        hands[p] = arrange(have + pool[at:at + take])
        at += take
    return hands, pool[at:]


def trailing_score(mine: int, rivals: list[int], scale: float) -> float:
    """An unfinished playout's score in [0, 1] when fewer is better (cards in hand, minus cards): how our count
    compares with the best rival's, squashed by ``scale``."""
    return 0.5 + 0.5 * math.tanh((min(rivals) - mine) / scale)
