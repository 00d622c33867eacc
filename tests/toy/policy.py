"""The toy game's heuristic: play the lowest card first."""
from __future__ import annotations

import random
from typing import Any

from engines import Action


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    return min(legal, key=lambda a: int(a.card[1:]))  # type: ignore[attr-defined]
