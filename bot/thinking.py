"""Bot thinking off the event loop: every level decides in worker processes (``bot/workers.py``), so a table's bot
thinking never delays another table's answer. ``strong``'s search has a pool of its own (``BOT_THINK_WORKERS``);
``easy`` and ``normal`` share workers of their own (``quick_workers_for_cores``), so a quick decision never waits
behind a search. Each lane's queue is bounded (``MAX_QUEUED_PER_WORKER``): a decision whose lane is full goes to the
other lane's workers if they have room (``strong`` then plays the ``normal`` heuristic, which takes milliseconds),
else it queues in its own lane all the same; never onto the loop. The loop hands a worker the table's stored state
(the JSON text its last commit stored, kept beside it: ``Table.state_text``) and the seat; the worker builds the
seat's view and legal actions itself, and the policy sees only that view (``decide_from_state``).
``BOT_THINK_QUICK_IN_WORKER=0`` keeps the quick levels on the loop, which measured slower: ``python -m
bench.service_load worker loop …``, 1,000 tables on two cores, three runs each: p50 6.7–8.3 ms with the quick
worker against 10.5–15.0 ms on the loop, p99 40–56 against 147–155 ms.

A strong decision's budget runs from when its table asks, so one that waited for a busy worker searches only what
is left of it (``decide_from_state``, in the worker) and still answers in time. A decision waits for its worker
however long the queue is (back-pressure): deciding on the loop because the loop is busy would only add work to
it exactly when it is behind (``python -m bench.service_load``: 21% of decisions fell back that way at 1,000
tables when a 0.8 s wait counted as late). The loop decides only for a broken worker: one that died, raised, or
ran one decision longer than ``timeout`` (stuck: it is killed and replaced). Then ``strong`` plays the ``normal``
heuristic and the others their own, and the table moves on."""
from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any, Callable

from engines import Action, Engine, get_engine

from .levels import BotLevel
from .policies import STRONG_BUDGET_S, check_level, choose_for_seat
from .workers import WorkerPool

log = logging.getLogger(__name__)
OFFLOADED = (BotLevel.STRONG,)
QUICK = (BotLevel.EASY, BotLevel.NORMAL)
QUICK_TIMEOUT_S = 5.0  # a heuristic takes milliseconds of CPU: one running for seconds in its worker is stuck
MARGIN_S = 0.5  # beyond the budget: process hand-over and a busy machine
MIN_SEARCH_S = 0.1  # a strong decision left with less of its budget after waiting for a worker plays normal
WARM_UP_S = 30.0  # a fresh worker imports the engines and policies before its first decision
# Decisions waiting in one lane per worker: ~50 quick decisions are ~50-100 ms of a worker's time, well inside a
# bot's 1.5 s pacing (it thinks while it waits, bot/scheduler.py); beyond that the other lane takes the overflow.
MAX_QUEUED_PER_WORKER = 50
# Workers run at a lower priority than the bot's event loop: handing a decision to a worker of equal priority
# woke it in the loop's place (a pipe write's p90 went from 45 to 500 us) and the 1,000-table action p99 went
# from 20-31 ms to 42-45 ms (python -m bench.service_load worker, two runs each way).
WORKER_NICENESS = 10


WORKER_MODULES = ("bot.thinking", "bot.policies.search")  # what a decision imports (the engines with them)


def warm_up() -> int:
    """Run once per worker at start: a lower priority, and the imports a decision needs (there already in a worker
    forked from the fork server, which imported ``WORKER_MODULES``), so the first decision is not late."""
    if hasattr(os, "nice"):  # not on Windows
        os.nice(WORKER_NICENESS)
    import bot.policies.search  # noqa: F401
    import engines  # noqa: F401
    return os.getpid()


def default_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


def quick_workers_for_cores() -> int:
    """One per core beside the loop's, at most two: a quick decision takes ~0.6 ms of CPU, so 1,000 busy tables
    keep one worker about a third busy, and every bot process of a cluster starts its own."""
    return min(2, default_workers())


def decide_from_state(game: str, state_text: str, player: str, seed: str, level: BotLevel,
                      deadline: float | None = None) -> Action:
    """A worker's decision: the seat's view and legal actions, built here from the table's state, then the policy
    at ``level``, which is handed only the view (the state never reaches it).

    ``deadline`` (``time.monotonic()``, the same clock in every process) is when the table wants its answer: a
    strong search that waited for a worker searches only what is left of its budget, and plays ``normal`` when
    less than ``MIN_SEARCH_S`` is left (a few playouts would only add noise to the heuristic's choice)."""
    engine = get_engine(game)
    state = engine.load(state_text)
    view = engine.view(state, player)
    legal = engine.legal_actions(state, player)
    budget = STRONG_BUDGET_S if deadline is None else deadline - time.monotonic()
    level = check_level(level)  # a worker's argument
    if level is BotLevel.STRONG and budget < MIN_SEARCH_S:
        level = BotLevel.NORMAL
    return choose_for_seat(game, view, legal, seed, level, budget_s=budget)


def decide_here(engine: Engine, state: Any, player: str, seed: str, level: BotLevel) -> Action:
    view = engine.view(state, player)
    return choose_for_seat(engine.name, view, engine.legal_actions(state, player), seed, level)


class Thinker:
    def __init__(self, workers: int | None = None, *, timeout: float = STRONG_BUDGET_S + MARGIN_S,
                 decide_fn: Callable[..., Action] = decide_from_state,
                 offloaded: tuple[BotLevel, ...] = OFFLOADED, budget_s: float = STRONG_BUDGET_S) -> None:
        self.workers = workers or default_workers()
        self.offloaded = offloaded  # the levels decided in the workers (the others on the loop)
        self.timeout = timeout  # the longest one decision may run in a worker before the worker counts as stuck
        self.budget_s = budget_s  # a search's time, counted from when the table asks (waiting for a worker included)
        self.decide_fn = decide_fn  # a top-level function (workers import it by name), called like decide_from_state
        self.pool: WorkerPool | None = None
        self.fallbacks = 0  # decisions answered on the loop instead (a worker died, raised or was stuck)

    @property
    def replaced(self) -> int:
        """Workers replaced after they died or were stuck."""
        return 0 if self.pool is None else self.pool.replaced

    def start(self) -> None:
        try:
            pool = WorkerPool(self.workers, warm_up, max_queued=MAX_QUEUED_PER_WORKER * self.workers,
                              preload=WORKER_MODULES)
            pool.start()
        except NotImplementedError:  # an event loop without add_reader (Windows' proactor): think on the loop
            log.warning("bot thinking: this event loop cannot watch worker pipes; bots decide on the loop")
            return
        self.pool = pool

    async def ready(self) -> None:
        """Wait until the workers are warm (tests; a decision waits for this too)."""
        if self.pool is not None and not self.pool.is_ready():  # the usual case makes no task per decision
            await asyncio.wait_for(self.pool.ready(), WARM_UP_S)

    def pids(self) -> list[int]:
        return [] if self.pool is None else self.pool.pids()

    async def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            await pool.close()

    def full(self) -> bool:
        """Its workers' queue is at its bound (a lane deciding on the loop never is)."""
        return self.pool is not None and self.pool.full()

    def has_room(self) -> bool:
        """Its workers are there and warm, and their queue has room."""
        return self.pool is not None and self.pool.is_ready() and not self.pool.full()

    async def decide(self, engine: Engine, state: Any, player: str, seed: str, level: BotLevel,
                     *, anywhere: bool = False, state_text: str | None = None) -> Action:
        """The move of ``player``'s bot at ``level``: in a worker for the offloaded levels (``anywhere``: whatever
        the level), else here on the loop. Past its queue's bound it still queues (back-pressure). ``state_text``:
        the state's dump where the caller has it already (a table's stored text), else it is dumped here."""
        level = check_level(level)
        if (level not in self.offloaded and not anywhere) or self.pool is None:
            return decide_here(engine, state, player, seed, level)
        text = engine.dump(state) if state_text is None else state_text
        deadline = time.monotonic() + self.budget_s
        try:
            await self.ready()
            return await self._in_worker(self.pool, engine.name, text, player, seed, level, deadline)
        except Exception as error:  # a lost or stuck worker, or an error in the worker: the table still moves
            self.fallbacks += 1
            here = BotLevel.NORMAL if level is BotLevel.STRONG else level
            log.warning("bot thinking at %s fell back to %s on the loop: %s", level, here, type(error).__name__)
            return decide_here(engine, engine.load(text), player, seed, here)

    async def _in_worker(self, pool: WorkerPool, *args: str | float) -> Action:
        # queued even past the bound (back-pressure; Thinkers sends the overflow to the other lane while it has
        # room), and awaited directly (no task, no timer of its own): a caller cancelled cancels the job with it
        answer: Action = await pool.submit(self.decide_fn, *args, run_limit=self.timeout, over_bound=True)
        return answer


class Thinkers:
    """The bot's thinking: ``strong`` in ``strong_workers``; ``easy`` and ``normal`` in one worker of their own (a
    hanging or slow search never holds up a quick decision), or on the loop without ``quick_in_worker``."""

    def __init__(self, strong_workers: int | None = None, *, quick_in_worker: bool = True,
                 quick_workers: int | None = None) -> None:
        self.quick = Thinker(quick_workers or quick_workers_for_cores(), timeout=QUICK_TIMEOUT_S,
                             offloaded=QUICK if quick_in_worker else ())
        self.strong = Thinker(strong_workers, offloaded=OFFLOADED)
        self.overflowed = 0  # decisions sent to the other lane because their own lane's queue was full

    def start(self) -> None:
        if self.quick.offloaded:  # no process for a lane that decides on the loop
            self.quick.start()
        self.strong.start()

    async def ready(self) -> None:
        await asyncio.gather(self.quick.ready(), self.strong.ready())

    async def close(self) -> None:
        await asyncio.gather(self.quick.close(), self.strong.close())

    async def decide(self, engine: Engine, state: Any, player: str, seed: str, level: BotLevel,
                     *, state_text: str | None = None) -> Action:
        level = check_level(level)
        lane, spare = (self.quick, self.strong) if level in QUICK else (self.strong, self.quick)
        if lane.full() and spare.has_room():
            self.overflowed += 1
            # a search would hold a quick worker for its budget
            here = BotLevel.NORMAL if level is BotLevel.STRONG else level
            return await spare.decide(engine, state, player, seed, here, anywhere=True, state_text=state_text)
        return await lane.decide(engine, state, player, seed, level, state_text=state_text)
