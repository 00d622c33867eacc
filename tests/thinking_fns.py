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


def slow(game: str, view: dict[str, Any], legal: list, seed: str, level: str) -> Any:
    """The real decision after 40 ms: quick alone, but a queue of them outlasts a short timeout."""
    time.sleep(0.04)
    return choose_for_seat(game, view, legal, seed, level)


def where_pid(game: str, view: dict[str, Any], legal: list, seed: str, level: str) -> Any:
    """The real decision and the id of the process that made it."""
    import os

    return choose_for_seat(game, view, legal, seed, level), os.getpid()
