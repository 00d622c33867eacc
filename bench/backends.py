"""``python -m bench --only backends``: the service under load on SQLite and PostgreSQL side by side, in one
or several processes, with the database server's CPU per action (PostgreSQL: utime + stime of every
``postgres`` process from /proc, before and after)."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
from pathlib import Path

from bot.service import GameService
from bot.storage import Storage

from . import service_load
from .report import ms, percentile, print_table

TICKS = os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU time (user + system) of every process named ``postgres`` on this machine."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        if name == "postgres":
            total += int(rest[11]) + int(rest[12])  # utime, stime (fields 14 and 15)
    return total / TICKS


async def _load(url: str, tables: int, seconds: float, queue, start, stop) -> None:
    """One bot process: its tables are dealt, then (on ``start``) driven for ``seconds``; its result goes to
    ``queue`` while its connections are still open, so their server processes are still there to be measured."""
    storage = await Storage.open(url)
    service = GameService(storage)
    latencies: list[float] = []
    running = [await service_load.new_table(service, slot, slot) for slot in range(tables)]
    await service.drain()
    queue.put("ready")
    await asyncio.to_thread(start.wait)
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(service_load.drive(service, table, service_load.THINK_MEAN, until, latencies, [])
                           for table in running))
    await service.drain()
    queue.put({"actions": len(latencies), "p50": percentile(latencies, 50), "p99": percentile(latencies, 99)})
    await asyncio.to_thread(stop.wait)
    await storage.close()


def _child(*args) -> None:
    asyncio.run(_load(*args))


def run_backend(url: str, processes: int, tables: int, seconds: float) -> list[dict]:
    """``processes`` processes, each with ``tables`` busy tables on the database at ``url``; the server's CPU is
    counted from the start of the driving to its end (dealing the tables excluded)."""
    ctx = multiprocessing.get_context("spawn")
    queue, start, stop = ctx.Queue(), ctx.Event(), ctx.Event()
    children = [ctx.Process(target=_child, args=(url, tables, seconds, queue, start, stop)) for _ in range(processes)]
    for child in children:
        child.start()
    assert [queue.get() for _ in children] == ["ready"] * processes
    cpu = postgres_cpu_seconds()
    start.set()
    results = [queue.get() for _ in children]
    server = postgres_cpu_seconds() - cpu
    stop.set()
    for child in children:
        child.join()
    actions = sum(r["actions"] for r in results)
    for r in results:
        r["server_cpu_per_action"] = server / max(actions, 1)
    return results


def run(quick: bool, backends: list[str], processes: int, url: str | None = None) -> None:
    seconds, tables = (5.0, 1000) if quick else (20.0, 1000)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for backend in backends:
            server = None
            if backend == "postgres" and url is None:
                from tests.pg_server import PgServer  # the tests' throwaway server (fsync off: CPU, not disk)

                server = PgServer().start()
            target = (url or server.new_database()) if backend == "postgres" else \
                f"sqlite:///{Path(folder) / f'{processes}.db'}"
            try:
                for n, r in enumerate(run_backend(target, processes, tables, seconds)):
                    cpu = r["server_cpu_per_action"]
                    rows.append([backend, f"{n + 1}/{processes}", tables, f"{r['actions'] / seconds:.0f}",
                                 ms(r["p50"]), ms(r["p99"]), f"{cpu * 1e6:.0f} µs" if backend == "postgres" else "—"])
            finally:
                if server is not None:
                    server.stop()
    print_table(f"Backends: {tables:,} tables per process, each acting every ~{service_load.THINK_MEAN:.0f} s",
                ["backend", "process", "tables", "actions/s", "p50", "p99", "server CPU / action"], rows)
