"""Bot thinking off the event loop: ``strong``'s search runs in a pool of worker processes, so a table's bot
thinking never delays another table's answer. ``Thinkers`` can also keep one worker for the quick levels (``easy``,
``normal``), so they never queue behind a search; by default they decide on the loop, because on a two-core machine
the worker cost the loop more than the heuristics themselves (``python -m bench.service_load worker loop …``, 1,000
tables, three runs each: p50 17–33 ms in a worker against 5–10 ms on the loop, p99 95–147 against 46–116 ms;
``BOT_THINK_QUICK_IN_WORKER=1`` puts them in the worker).

A decision that takes longer than its budget plus a margin is answered on the loop (``strong`` by the ``normal``
heuristic, the others by their own), and the table moves on; the late result is dropped, and a late decision
still waiting in the pool's queue is withdrawn. A crashed worker (the pool breaks, or is replaced under a
decision) is replaced by a new pool and the decision falls back the same way. When, one timeout after being
late, as many decisions are still running as the pool has workers, it is stuck: it is killed and replaced (a
backlog of quick decisions is not mistaken for a stuck worker)."""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from engines import Action

from .policies import STRONG_BUDGET_S, choose_for_seat

log = logging.getLogger(__name__)
OFFLOADED = ("strong",)
QUICK = ("easy", "normal")
QUICK_TIMEOUT_S = 0.8  # a heuristic takes milliseconds: a late one means a backlog or a stuck worker
MARGIN_S = 0.5  # beyond the budget: process hand-over and a busy machine
WARM_UP_S = 30.0  # a fresh worker imports the engines and policies before its first decision


def warm_up() -> int:
    """Run once per worker at start: the imports a decision needs, so the first decision is not late."""
    import bot.policies.search  # noqa: F401
    import engines  # noqa: F401
    return os.getpid()


def default_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


class Thinker:
    def __init__(self, workers: int | None = None, *, timeout: float = STRONG_BUDGET_S + MARGIN_S,
                 decide_fn: Callable[..., Action] = choose_for_seat,
                 offloaded: tuple[str, ...] = OFFLOADED) -> None:
        self.workers = workers or default_workers()
        self.offloaded = offloaded  # the levels decided in the workers (the others on the loop)
        self.timeout = timeout
        self.decide_fn = decide_fn  # a top-level function (workers import it by name)
        self.pool: ProcessPoolExecutor | None = None
        self.fallbacks = 0  # decisions answered on the loop instead (late or crashed)
        self.replaced = 0  # pools replaced after a crash or a stuck worker
        self._late: set[Future[Any]] = set()
        self._ready: asyncio.Future[Any] | None = None

    # ---- the pool ------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the workers (spawned: no copy of the bot's loop or sockets) and warm them up in the background."""
        context = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(self.workers, mp_context=context)
        self._late = set()
        loop = asyncio.get_running_loop()
        self._ready = asyncio.ensure_future(asyncio.gather(
            *(loop.run_in_executor(self.pool, warm_up) for _ in range(self.workers)), return_exceptions=True))
        self._ready.add_done_callback(lambda f: f.cancelled() or f.exception())

    async def ready(self) -> None:
        """Wait until the current pool's workers are warm (tests; a decision waits for this too)."""
        if self._ready is not None:
            await asyncio.wait_for(asyncio.shield(self._ready), WARM_UP_S)

    def pids(self) -> list[int]:
        processes = getattr(self.pool, "_processes", None) or {}
        return list(processes)

    def _kill_workers(self, pool: ProcessPoolExecutor) -> None:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()

    def _replace(self, broken: ProcessPoolExecutor | None, reason: str) -> None:
        """Replace the pool ``broken`` (unless another decision already did): its workers are killed."""
        if broken is not self.pool or broken is None:
            return
        log.warning("bot thinking: replacing the worker pool (%s)", reason)
        self.replaced += 1
        self._kill_workers(broken)
        broken.shutdown(wait=False, cancel_futures=True)
        self.start()

    async def close(self) -> None:
        pool, self.pool = self.pool, None
        self._ready = None
        if pool is None:
            return
        self._kill_workers(pool)  # shutting down: a decision under way is not needed any more
        await asyncio.get_running_loop().run_in_executor(None, lambda: pool.shutdown(cancel_futures=True))

    # ---- decisions -----------------------------------------------------------------------------------------------
    async def decide(self, game: str, view: dict[str, Any], legal: list[Action], seed: str, level: str) -> Action:
        """The bot's move at ``level``: in a worker for the offloaded levels, else here on the loop."""
        if level not in self.offloaded or self.pool is None:
            return choose_for_seat(game, view, legal, seed, level)
        try:
            await self.ready()
            return await self._in_worker(game, view, legal, seed, level)
        except (asyncio.TimeoutError, BrokenProcessPool) as error:
            self.fallbacks += 1
            here = "normal" if level == "strong" else level
            log.warning("bot thinking at %s fell back to %s on the loop: %s", level, here, type(error).__name__)
            return choose_for_seat(game, view, legal, seed, here)

    async def _in_worker(self, game: str, view: dict[str, Any], legal: list[Action], seed: str,
                         level: str) -> Action:
        pool = self.pool
        assert pool is not None
        try:
            future = pool.submit(self.decide_fn, game, view, legal, seed, level)
        except BrokenProcessPool:
            self._replace(pool, "a worker died")
            raise
        waiting = asyncio.wrap_future(future)
        waiting.add_done_callback(lambda f: f.cancelled() or f.exception())  # a late failure is not news
        try:
            return await asyncio.wait_for(asyncio.shield(waiting), self.timeout)
        except BrokenProcessPool:
            self._replace(pool, "a worker died")
            raise
        except asyncio.TimeoutError:
            self._note_late(pool, future)
            raise
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if waiting.cancelled() and task is not None and not task.cancelling():
                raise BrokenProcessPool("the pool was replaced under this decision") from None
            raise

    def _note_late(self, pool: ProcessPoolExecutor, future: Future[Any]) -> None:
        """A late decision still queued is withdrawn; one already running keeps its worker busy until it ends. If,
        one more timeout later, every worker is still busy that way, the pool is stuck and is replaced."""
        if future.cancel():
            return
        self._late.add(future)
        future.add_done_callback(self._late.discard)
        asyncio.get_running_loop().call_later(self.timeout, self._check_stuck, pool)

    def _check_stuck(self, pool: ProcessPoolExecutor) -> None:
        if sum(1 for f in list(self._late) if not f.done()) >= self.workers:
            self._replace(pool, "every worker is stuck on a late decision")


class Thinkers:
    """The bot's thinking: ``strong`` in ``strong_workers``; ``easy`` and ``normal`` on the loop, or with
    ``quick_in_worker`` in one worker of their own (a hanging or slow search never holds up a quick decision)."""

    def __init__(self, strong_workers: int | None = None, *, quick_in_worker: bool = False) -> None:
        self.quick = Thinker(1, timeout=QUICK_TIMEOUT_S, offloaded=QUICK if quick_in_worker else ())
        self.strong = Thinker(strong_workers, offloaded=OFFLOADED)

    def start(self) -> None:
        if self.quick.offloaded:  # no process for a lane that decides on the loop
            self.quick.start()
        self.strong.start()

    async def ready(self) -> None:
        await asyncio.gather(self.quick.ready(), self.strong.ready())

    async def close(self) -> None:
        await asyncio.gather(self.quick.close(), self.strong.close())

    async def decide(self, game: str, view: dict[str, Any], legal: list[Action], seed: str, level: str) -> Action:
        return await (self.quick if level in QUICK else self.strong).decide(game, view, legal, seed, level)
