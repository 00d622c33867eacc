"""A small pool of worker processes driven straight from the event loop: one pipe per worker, read with the loop's
``add_reader``, at most one job per worker, the rest queued here.

Why not ``concurrent.futures.ProcessPoolExecutor``: its feeder and result threads take the GIL from the loop at
every job. At 1,000 busy tables on two cores that made every action slower than deciding on the loop itself
(``python -m bench.service_load``). Here the loop writes one message to an idle worker's pipe and is woken when
the answer arrives; no other thread of this process touches a job.

Because jobs wait in this process until a worker is free, a job nobody waits for any more (its future cancelled) is
simply skipped, and a job that runs longer than its ``run_limit`` is ended by killing its own worker, which is then
replaced; the other workers carry on. Only the running time counts: a job queued behind a backlog is not "late"
(the caller waits for it: back-pressure, not a second decision on the loop). The queue has a bound (``max_queued``)
past which ``submit`` refuses a job (``QueueFull``) unless told the caller will wait behind it anyway (``over_bound``):
``full`` tells a caller to send its job to another pool first.

Workers are forked from multiprocessing's fork server where the platform has one (Linux, macOS; spawned elsewhere):
a process started once per bot process, with the modules the workers need imported already (``preload``), so a
worker, first or replacement, is warm as soon as it is forked instead of importing the engines and policies into a
fresh interpreter (~0.2 s of CPU each, more where no bytecode is cached: ``python -m bench.harness_start``). The
server is single-threaded, so forking it is safe where forking the bot (its loop, the database's threads) is not,
and no worker holds a copy of the bot's loop or sockets.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from multiprocessing.context import ForkServerContext, SpawnContext  # the first only where it exists

log = logging.getLogger(__name__)


def worker_context(preload: Sequence[str] = ()) -> ForkServerContext | SpawnContext:
    """The fork server's context (importing ``preload`` when it starts: the first pool of the process to start
    names them), or spawn where there is no fork server."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))  # read when the server starts; a running one keeps its modules
    return context


class WorkerLost(Exception):
    """The worker running (or warming up for) a job died or was killed; the job has no answer."""


def serve(conn: Connection, warm_up: Callable[[], Any]) -> None:
    """A worker's life: warm up, say so, then answer one ``(function, args)`` message at a time."""
    warm_up()
    conn.send_bytes(pickle.dumps(("ready", os.getpid())))
    while True:
        try:
            fn, args = pickle.loads(conn.recv_bytes())
        except EOFError:  # the bot closed its end: nothing more to do
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as error:  # sent back and raised in the bot, as an executor would
            answer = (False, error)
        conn.send_bytes(pickle.dumps(answer))


@dataclass(eq=False)
class Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    run_limit: float | None = None  # seconds it may run in a worker before the worker counts as stuck
    overrun: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class Worker:
    process: Any  # a multiprocessing Process (forked by the fork server, or spawned)
    conn: Connection
    ready: asyncio.Future[int]
    job: Job | None = None
    lost: bool = field(default=False)


class QueueFull(Exception):
    """The pool's queue holds ``max_queued`` jobs already."""


class WorkerPool:
    def __init__(self, size: int, warm_up: Callable[[], Any], max_queued: int | None = None, *,
                 preload: Sequence[str] = ()) -> None:
        self.size = size
        self.warm_up = warm_up  # a top-level function: the worker imports it by name
        self.preload = tuple(preload)  # modules the fork server imports once, for every worker forked from it
        self.max_queued = max_queued  # jobs waiting for a worker (None: no bound)
        self.workers: list[Worker] = []
        self.queue: deque[Job] = deque()
        self.replaced = 0  # workers replaced after they died or were killed
        self.closed = False

    def start(self) -> None:
        """Start the workers; each warms up in the background."""
        for _ in range(self.size):
            self._spawn()

    def _spawn(self) -> None:
        context = worker_context(self.preload)
        here, there = context.Pipe()
        process = context.Process(target=serve, args=(there, self.warm_up), daemon=True, name="bot-thinking")
        process.start()
        there.close()  # only the worker holds that end now: its death reads as end-of-file here
        loop = asyncio.get_running_loop()
        worker = Worker(process, here, loop.create_future())
        worker.ready.add_done_callback(lambda f: f.cancelled() or f.exception())
        self.workers.append(worker)
        loop.add_reader(here.fileno(), self._readable, worker)

    def is_ready(self) -> bool:
        return all(w.ready.done() and not w.ready.exception() for w in self.workers)

    async def ready(self) -> None:
        """Until every current worker has warmed up (raises ``WorkerLost`` if one died meanwhile)."""
        if not self.is_ready():
            await asyncio.gather(*(asyncio.shield(w.ready) for w in self.workers))

    def pids(self) -> list[int]:
        return [w.process.pid for w in self.workers if not w.lost]

    # ---- jobs ----------------------------------------------------------------------------------------------------
    def full(self) -> bool:
        """The queue holds ``max_queued`` jobs (withdrawn ones included until a worker would have taken them)."""
        return self.max_queued is not None and len(self.queue) >= self.max_queued

    def submit(self, fn: Callable[..., Any], *args: Any, run_limit: float | None = None,
               over_bound: bool = False) -> asyncio.Future[Any]:
        """Run ``fn(*args)`` in a worker as soon as one is free; the future holds its answer (``WorkerLost`` when
        the worker died, or ran it longer than ``run_limit`` seconds and was killed). Cancelling the future
        withdraws a job still queued and drops the answer of one running. Raises ``QueueFull`` when ``full`` (unless
        ``over_bound``)."""
        if self.closed:
            raise WorkerLost("the pool is closed")
        if self.full() and not over_bound:
            raise QueueFull(f"{len(self.queue)} jobs wait for a worker")
        job = Job(fn, args, asyncio.get_running_loop().create_future(), run_limit)
        self.queue.append(job)
        self._dispatch()
        return job.future

    def _next_job(self) -> Job | None:
        while self.queue:
            job = self.queue.popleft()
            if not job.future.done():  # a cancelled job is nobody's any more
                return job
        return None

    def _dispatch(self) -> None:
        for worker in list(self.workers):
            if worker.job is not None or worker.lost or not worker.ready.done():
                continue
            job = self._next_job()
            if job is None:
                break
            worker.job = job
            try:
                worker.conn.send_bytes(pickle.dumps((job.fn, job.args)))
            except OSError:  # the worker died between two messages
                self._lose(worker, "its pipe closed")
                continue
            if job.run_limit is not None:
                job.overrun = asyncio.get_running_loop().call_later(job.run_limit, self._overran, worker, job)

    def _overran(self, worker: Worker, job: Job) -> None:
        if worker.job is job:
            self._lose(worker, "killed: its job ran too long")

    def _readable(self, worker: Worker) -> None:
        try:
            kind, value = pickle.loads(worker.conn.recv_bytes())
        except (EOFError, OSError):
            self._lose(worker, "it died")
            return
        if not worker.ready.done():
            worker.ready.set_result(value)
        else:
            job, worker.job = worker.job, None
            if job is not None and job.overrun is not None:
                job.overrun.cancel()
            if job is not None and not job.future.done():
                if kind is True:
                    job.future.set_result(value)
                else:
                    job.future.set_exception(value)
        self._dispatch()

    def _lose(self, worker: Worker, reason: str) -> None:
        """Forget a dead (or doomed) worker, fail what it held, and start a replacement."""
        if worker.lost:
            return
        worker.lost = True
        asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        worker.conn.close()
        worker.process.kill()
        reap(worker.process)
        self.workers.remove(worker)
        if worker.job is not None and worker.job.overrun is not None:
            worker.job.overrun.cancel()
        for future in (worker.ready, worker.job.future if worker.job else None):
            if future is not None and not future.done():
                future.set_exception(WorkerLost(reason))
        if self.closed:
            return
        log.warning("bot thinking: replacing a worker (%s)", reason)
        self.replaced += 1
        self._spawn()
        self._dispatch()

    async def close(self) -> None:
        """Stop every worker; every job not answered yet fails with ``WorkerLost`` (its caller decides elsewhere)."""
        self.closed = True
        for job in self.queue:
            if not job.future.done():
                job.future.set_exception(WorkerLost("the pool closed"))
        self.queue.clear()
        for worker in list(self.workers):
            self._lose(worker, "the pool closed")
        await asyncio.sleep(0)


def reap(process: Any) -> None:
    """Collect a killed worker's exit off the loop (``join`` waits for the kernel to report it)."""
    asyncio.get_running_loop().run_in_executor(None, process.join, 5.0)
