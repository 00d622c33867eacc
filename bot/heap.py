"""Keep the garbage collector's full walks short: what lives long (the imports, the catalog, discord.py's caches,
the loaded tables) is moved out of its reach with ``gc.freeze()``, so a full collection walks only what was made
since. A burst of 1,000 clicks with 1,000 tables loaded made two full collections that walked every table's
objects: 2.6-5.0 s of the burst at a quarter core, most of Discord's 3 s (``python -m bench.click_burst``,
docs/performance.md).

Frozen objects are still freed when their last reference goes; only a reference cycle that became garbage before
it was frozen would stay. So young garbage is collected before each freeze, and a full collection of everything
(unfrozen first) runs at most every ``FULL_EVERY_S`` when no interaction is being handled."""
from __future__ import annotations

import asyncio
import gc
import time
from typing import Callable

FREEZE_AFTER_S = 1.0  # after a table is loaded: the tables loaded with it (a resume, a tournament round) too
FULL_EVERY_S = 600.0


class HeapKeeper:
    def __init__(self, quiet: Callable[[], bool] = lambda: True) -> None:
        self.quiet = quiet  # no interaction being handled: a full collection's pause delays nobody's answer
        self._pending: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._full_at = time.monotonic()
        self.freezes = 0

    def settle(self) -> None:
        """Freeze what is alive now (after start-up, and a moment after tables were loaded)."""
        self._pending = None
        if time.monotonic() - self._full_at >= FULL_EVERY_S and self.quiet():
            gc.unfreeze()
            gc.collect()
            self._full_at = time.monotonic()
        else:
            gc.collect(1)  # the young generations' garbage, not frozen with the rest
        gc.freeze()
        self.freezes += 1

    def loaded(self) -> None:
        """A table was loaded: freeze it, with whatever else is loaded meanwhile, ``FREEZE_AFTER_S`` from now."""
        loop = asyncio.get_running_loop()
        if self._pending is None or self._loop is not loop:  # (a test's earlier loop closed with one pending)
            self._loop, self._pending = loop, loop.call_later(FREEZE_AFTER_S, self.settle)

    def close(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None


KEEPER = HeapKeeper()
