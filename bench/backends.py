"""``python -m bench --only backends``: the service under load on SQLite (``synchronous=FULL``) and PostgreSQL
side by side (the tests' throwaway server with fsync off, and a durable one: fsync and synchronous_commit on), in
one or several processes, the bots deciding in their worker as shipped, with the database server's CPU per action
(PostgreSQL: utime + stime of that server's postmaster and its children from /proc, before and after)."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from bot import event_loop
from bot.service import GameService
from bot.storage import Storage
from bot.thinking import Thinkers

from . import service_load
from .report import ms, print_table

TICKS = os.sysconf("SC_CLK_TCK")


def server_cpu_seconds(postmaster: int) -> float:
    """CPU time (user + system) of one PostgreSQL server: its postmaster and the postmaster's children (its
    backends and background workers), living or ended, not any other server on the machine. A backend that ended
    (its connection closed) is counted through the postmaster's cutime/cstime once the postmaster reaped it."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2:].split()  # from field 3 (state) on; field 4 is the parent's pid
        if int(pid) == postmaster:
            total += sum(int(v) for v in rest[11:15])  # utime, stime, cutime, cstime (fields 14–17)
        elif int(rest[1]) == postmaster:
            total += int(rest[11]) + int(rest[12])  # a living child: utime, stime
    return total / TICKS


def postmaster_of(url: str) -> int | None:
    """The pid of the postmaster serving ``url`` when it runs on this machine (the parent of our backend)."""
    import asyncpg

    async def parent_of_backend() -> int | None:
        conn = await asyncpg.connect(url)
        try:  # read while the connection is open: a closed connection's backend may be gone already
            pid = int(await conn.fetchval("SELECT pg_backend_pid()"))
            with open(f"/proc/{pid}/stat") as f:
                return int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            return None  # a server elsewhere: its CPU is not measured here
        finally:
            await conn.close()

    return asyncio.run(parent_of_backend())


async def _load(url: str, tables: int, seconds: float, postmaster: int | None, queue, start, stop) -> None:
    """One bot process: its tables are dealt, then (on ``start``) driven for ``seconds``; its result goes to
    ``queue`` while its connections are still open, so their server processes are still there to be measured."""
    storage = await Storage.open(url)
    service = GameService(storage)
    thinker = Thinkers(quick_in_worker=True)  # the shipped setting: bots decide in their worker
    thinker.start()
    await thinker.ready()
    running = [await service_load.new_table(service, slot, slot) for slot in range(tables)]
    await service.drain()
    queue.put("ready")
    await asyncio.to_thread(start.wait)
    window = service_load.Window.after_warm_up(asyncio.get_running_loop().time(), seconds)
    window.watch(lambda: thinker.quick.pids() + thinker.strong.pids(),
                 lambda: server_cpu_seconds(postmaster) if postmaster else float("nan"))
    await asyncio.gather(*(service_load.drive(service, table, service_load.THINK_MEAN, window, [], "worker",
                                              thinker) for table in running))
    await window.closed()
    await service.drain()
    queue.put({**window.figures(), "fallbacks": thinker.quick.fallbacks + thinker.strong.fallbacks})
    await asyncio.to_thread(stop.wait)
    await thinker.close()
    await storage.close()


def _child(*args) -> None:
    event_loop.run(_load(*args))


def run_backend(url: str, processes: int, tables: int, seconds: float) -> list[dict]:
    """``processes`` processes, each with ``tables`` busy tables on the database at ``url``; the server's CPU is
    counted over each process's measuring window (dealing the tables and the warm-up excluded), per action of
    that process (with several processes, each window sees the others' actions' server work too)."""
    ctx = multiprocessing.get_context("spawn")
    queue, start, stop = ctx.Queue(), ctx.Event(), ctx.Event()
    postmaster = postmaster_of(url) if url.startswith("postgres") else None
    children = [ctx.Process(target=_child, args=(url, tables, seconds, postmaster, queue, start, stop))
                for _ in range(processes)]
    for child in children:
        child.start()
    assert [queue.get() for _ in children] == ["ready"] * processes
    start.set()
    results = [queue.get() for _ in children]
    stop.set()
    for child in children:
        child.join()
    return results


SETUPS = {"sqlite": "SQLite, synchronous=FULL", "postgres": "PostgreSQL, fsync off",
          "postgres-durable": "PostgreSQL, fsync + synchronous_commit on"}


@contextmanager
def database(backend: str, folder: Path, url: str | None = None) -> Iterator[str]:
    """The URL of a fresh database of ``backend`` (a throwaway PostgreSQL server unless ``url`` names one)."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / f'{time.monotonic_ns()}.db'}"
        return
    if url is not None:
        yield url
        return
    from tests.pg_server import PgServer

    server = PgServer(durable=backend == "postgres-durable").start()
    try:
        yield server.new_database()
    finally:
        server.stop()


def run(quick: bool, backends: list[str], processes: int, url: str | None = None) -> None:
    seconds, tables = (5.0, 1000) if quick else (20.0, 1000)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for backend in [b for name in backends for b in ([name, f"{name}-durable"] if name == "postgres" and
                                                            url is None else [name])]:
            with database(backend, Path(folder), url) as target:
                for n, r in enumerate(run_backend(target, processes, tables, seconds)):
                    cpu = r["server_cpu_per_action"]
                    rows.append([SETUPS[backend], f"{n + 1}/{processes}", tables,
                                 f"{r['actions'] / r['seconds']:.0f}", ms(r["p50"]), ms(r["p99"]), ms(r["wait50"]),
                                 ms(r["wait99"]), r["fallbacks"],
                                 f"{cpu * 1e6:.0f} µs" if backend != "sqlite" else "—"])
    print_table(f"Backends: {tables:,} tables per process, each acting every ~{service_load.THINK_MEAN:.0f} s "
                "(offered load, not capacity: python -m bench.capacity), bots in their worker",
                ["backend", "process", "tables", "actions/s", "p50", "p99", "bot wait p50", "bot wait p99",
                 "bot decisions on the loop",
                 "server CPU / action"], rows)
