"""Decision functions for the worker-pool tests (top-level, so spawned workers import them by name)."""
from __future__ import annotations

import time
from typing import Any

from bot.policies import choose_for_seat


def hang(game: str, view: dict[str, Any], legal: list, seed: str, level: str) -> Any:
    """A strong decision that never ends."""
    time.sleep(3600)
    return legal[0]


def where(game: str, view: dict[str, Any], legal: list, seed: str, level: str) -> Any:
    """The real decision, run by a worker (so a test can tell a worker's answer from the loop's fallback)."""
    return choose_for_seat(game, view, legal, seed, level)
