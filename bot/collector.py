"""Full garbage collections wait while a burst of interactions is being acknowledged.

A full collection walks every object the process holds: with 1,000 tables loaded, 0.2 s of CPU on a quiet core,
and a burst of 1,000 clicks allocates enough to start two of them (0.5-0.6 s of the burst's first second). Held
to a quarter core that is 2 s of Discord's 3, so while the process is behind (``bot.acknowledge.Backlog``) full
collections are postponed (``gc``'s third threshold raised) until the interactions in flight are done; the young
generations are still collected, so the garbage of each click goes as before. A backlog that never ends holds
them at most ``HELD_AT_MOST`` seconds (a handler that never ends too: a timer lets them go), then lets them run
for ``REST`` seconds before they can be held again.
"""
from __future__ import annotations

import asyncio
import gc
import time

HELD_AT_MOST = 30.0  # seconds a continuous backlog may postpone full collections
REST = 5.0  # seconds full collections may run, after they were held that long, before they can be held again
NEVER = 1 << 30  # a third threshold no count of second-generation collections reaches


class FullCollections:
    """Holds and releases full collections for whoever is behind (one bot per process, or several in tests)."""

    def __init__(self) -> None:
        self.holders: set[int] = set()
        self.held_since: float | None = None
        self.saved_threshold: int | None = None
        self.resting_until = 0.0  # held for HELD_AT_MOST: not held again before this (monotonic)
        self.holds = 0  # how many times they were held (tests)
        self._timer: asyncio.TimerHandle | None = None

    @property
    def held(self) -> bool:
        return self.held_since is not None

    def hold(self, holder: object) -> None:
        if time.monotonic() < self.resting_until:
            return
        self.holders.add(id(holder))
        if self.held_since is not None and time.monotonic() - self.held_since > HELD_AT_MOST:
            self._expire()
            return
        if self.held_since is None:
            first, second, third = gc.get_threshold()
            self.saved_threshold = third
            gc.set_threshold(first, second, NEVER)
            self.held_since = time.monotonic()
            self.holds += 1
            try:
                self._timer = asyncio.get_running_loop().call_later(HELD_AT_MOST, self._expire)
            except RuntimeError:  # no event loop (a unit test): the check above still applies at the next hold
                self._timer = None

    def release(self, holder: object) -> None:
        self.holders.discard(id(holder))
        if not self.holders:
            self._restore()

    def _expire(self) -> None:
        """Held too long: let them run, and forget the holders (one whose handler never ends would hold for good)."""
        self._restore()
        self.holders.clear()
        self.resting_until = time.monotonic() + REST

    def reset(self) -> None:
        """As a fresh process (tests: holders left by a bot abandoned in the middle of a burst)."""
        self._restore()
        self.holders.clear()
        self.resting_until = 0.0

    def _restore(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.held_since is not None and self.saved_threshold is not None:
            first, second, _ = gc.get_threshold()
            gc.set_threshold(first, second, self.saved_threshold)
        self.held_since = self.saved_threshold = None


full_collections = FullCollections()
