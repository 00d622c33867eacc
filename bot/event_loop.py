"""The event loop a bot process runs on: uvloop where it is installed (Linux and macOS, CPython), asyncio's own loop
otherwise or when ``GAMEHOST_UVLOOP=0``. The bot's work per action is mostly loop overhead (callbacks, futures,
pipes to the thinking workers, aiosqlite's thread hand-offs), which uvloop's libuv loop does with less CPU
(``python -m bench.service_load worker worker-asyncio …`` measures both in one run)."""
from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory, or None for asyncio's default loop."""
    if os.environ.get("GAMEHOST_UVLOOP", "1") == "0":
        return None
    try:
        import uvloop
    except ImportError:  # not installed here (Windows, PyPy): the default loop does the same work
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the loop ``loop_factory`` chooses."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)


def loop_name() -> str:
    """Which loop ``run`` uses (for the start-up log line and the benches)."""
    factory = loop_factory()
    return "asyncio" if factory is None else "uvloop"
