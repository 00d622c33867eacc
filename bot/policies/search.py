"""The ``strong`` level's search bot. Placeholder: plays the ``normal`` heuristic until the search-based
policy (issue 18, part 2) replaces this file; the signature is the interface the scheduler relies on."""
from __future__ import annotations

import random

from engines import Action


def choose_strong(game: str, view: dict, legal: list, seed: str, budget_s: float = 0.3) -> Action:
    from . import heuristic_for

    return heuristic_for(game)(view, legal, random.Random(seed))
