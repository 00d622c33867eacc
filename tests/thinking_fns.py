"""Decision functions for the worker-pool tests (top-level, so spawned workers import them by name); each is
called like ``bot.thinking.decide_from_state``."""
from __future__ import annotations

import time
from typing import Any

from bot.thinking import decide_from_state


def hang(game: str, state_text: str, player: str, seed: str, level: str, deadline: float | None = None) -> Any:
    """A decision that never ends."""
    time.sleep(3600)


def where(game: str, state_text: str, player: str, seed: str, level: str, deadline: float | None = None) -> Any:
    """The real decision, run by a worker (so a test can tell a worker's answer from the loop's fallback)."""
    return decide_from_state(game, state_text, player, seed, level, deadline)


SEARCH_PLAYOUTS = 24


def searched(game: str, state_text: str, player: str, seed: str, level: str, deadline: float | None = None) -> Any:
    """The strong search from the seat's own view, with a fixed number of playouts (the same move on any machine)."""
    from bot.policies.search import choose_strong
    from engines import get_engine

    engine = get_engine(game)
    state = engine.load(state_text)
    return choose_strong(game, engine.view(state, player), engine.legal_actions(state, player), seed,
                         iterations=SEARCH_PLAYOUTS)


def slow(game: str, state_text: str, player: str, seed: str, level: str, deadline: float | None = None) -> Any:
    """The real decision after 40 ms: quick alone, but a queue of them outlasts a short timeout."""
    time.sleep(0.04)
    return decide_from_state(game, state_text, player, seed, level, deadline)


def where_pid(game: str, state_text: str, player: str, seed: str, level: str, deadline: float | None = None) -> Any:
    """The real decision and the id of the process that made it."""
    import os

    return decide_from_state(game, state_text, player, seed, level, deadline), os.getpid()


def fails(game: str, state_text: str, player: str, seed: str, level: str, deadline: float | None = None) -> Any:
    """A decision that raises in the worker."""
    raise ValueError("no move")


def where_slowly(game: str, state_text: str, player: str, seed: str, level: str, deadline: float | None = None) -> Any:
    """``where_pid`` after 40 ms: a queue of them outlasts a short stuck limit while each runs well within it."""
    time.sleep(0.04)
    return where_pid(game, state_text, player, seed, level, deadline)
