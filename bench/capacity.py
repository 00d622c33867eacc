"""``python -m bench.capacity``: the highest actions/s one bot process sustains with p99 <= 100 ms (SQLite FULL and
PostgreSQL), and 1, 2, 4 processes on one PostgreSQL: a short search over offered rates (doubling until a rate
fails, then halving the gap), each process dealing its tables once and driving them at each rate in turn (bots in
their worker, as shipped). Each table's moves arrive on a schedule drawn before the run (a Poisson process at the
table's share of the rate), so what was offered is counted, not assumed: a rate is sustained when p99 <= 100 ms and
at least 90% of the moves scheduled in the run were made before it ended.

What two cores can show: where one process saturates its core and what the database costs per action. What they
cannot: how several processes scale, since two processes (plus their bots' workers and the database server) already
share the two cores with the other work on this machine; so beside each measured figure stands the extrapolation
per process from the measured CPU per action (1 core / process CPU per action)."""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import tempfile
import time
from pathlib import Path

from bot import event_loop
from bot.service import GameService
from bot.storage import Storage
from bot.thinking import Thinkers

from . import service_load
from .backends import database, postmaster_of, server_cpu_seconds
from .report import ms, percentile, print_table

P99_LIMIT = 0.100
SUSTAINED = 0.9  # of the offered actions made


async def _phases(url: str, tables: int, commands, results) -> None:
    """One bot process: deals ``tables`` tables, then drives them at each (rate, seconds) it is sent."""
    storage = await Storage.open(url)
    service = GameService(storage)
    thinker = Thinkers(quick_in_worker=True)
    thinker.start()
    await thinker.ready()
    running = [await service_load.new_table(service, slot, slot) for slot in range(tables)]
    await service.drain()
    results.put("ready")
    while (command := await asyncio.to_thread(commands.get)) is not None:
        rate, seconds = command
        latencies: list[float] = []
        start = asyncio.get_running_loop().time()
        schedules = [arrivals(random.Random(table.row.channel_id * 7919 + int(start)), tables / rate, seconds)
                     for table in running]
        cpu, workers = time.process_time(), _workers_cpu(thinker)
        running = await asyncio.gather(*(drive(service, table, [start + t for t in times], start + seconds,
                                               latencies, thinker)
                                         for table, times in zip(running, schedules, strict=True)))
        await service.drain()
        cpu, workers = time.process_time() - cpu, _workers_cpu(thinker) - workers
        results.put({"actions": len(latencies), "scheduled": sum(map(len, schedules)),
                     "p99": percentile(latencies, 99), "cpu_per_action": cpu / max(len(latencies), 1),
                     "cpu": cpu, "workers_cpu": workers})
    await thinker.close()
    await storage.close()


def _workers_cpu(thinker: Thinkers) -> float:
    return sum(map(service_load.cpu_seconds, thinker.quick.pids() + thinker.strong.pids()))


def arrivals(rng: random.Random, think: float, seconds: float) -> list[float]:
    """One table's move times in ``[0, seconds)``: a Poisson process with ``think`` seconds between moves on average."""
    times, t = [], rng.expovariate(1 / think)
    while t < seconds:
        times.append(t)
        t += rng.expovariate(1 / think)
    return times


async def drive(service: GameService, table, due: list[float], until: float, latencies: list[float],
                thinker: Thinkers):
    """Makes a move at each ``due`` loop time (at once when the table is behind), stopping at ``until``: a move not
    made by then counts as not made. Returns the table it ends on (a finished game is replaced by a new one)."""
    loop, rng = asyncio.get_running_loop(), random.Random(table.row.channel_id * 7919 + int(until))
    for when in due:
        await asyncio.sleep(max(0.0, when - loop.time()))
        if loop.time() >= until:
            break
        if table.status != "running":
            table = await service_load.new_table(service, table.row.channel_id, rng.randrange(1 << 30))
        player = table.to_act()[0]
        action = await service_load.decide(table, player, rng, "worker", thinker)
        start = time.perf_counter()
        update = await service.act_as(table.id, player, action, table.version)
        service_load.render_text(table, update)
        latencies.append(time.perf_counter() - start)
    return table


def _child(*args) -> None:
    event_loop.run(_phases(*args))


class Processes:
    def __init__(self, url: str, count: int, tables: int) -> None:
        self.postmaster = postmaster_of(url) if url.startswith("postgres") else None
        ctx = multiprocessing.get_context("spawn")
        self.commands = [ctx.Queue() for _ in range(count)]
        self.results = ctx.Queue()
        self.children = [ctx.Process(target=_child, args=(url, tables, q, self.results)) for q in self.commands]
        for child in self.children:
            child.start()
        assert [self.results.get() for _ in self.children] == ["ready"] * count

    def drive(self, rate: float, seconds: float) -> dict:
        """Every process at ``rate`` actions/s for ``seconds``: total actions/s, worst p99, mean CPU/action."""
        server = server_cpu_seconds(self.postmaster) if self.postmaster else 0.0
        for q in self.commands:
            q.put((rate, seconds))
        rows = [self.results.get() for _ in self.children]
        server = server_cpu_seconds(self.postmaster) - server if self.postmaster else 0.0
        actions, scheduled = sum(r["actions"] for r in rows), sum(r["scheduled"] for r in rows)
        deployment = sum(r["cpu"] + r["workers_cpu"] for r in rows) + server
        return {"offered": rate * len(rows), "made": actions / seconds, "share_made": actions / max(scheduled, 1),
                "deployment_cpu_per_action": deployment / max(actions, 1), "server_cpu_per_action":
                server / max(actions, 1), "workers_cpu_per_action": sum(r["workers_cpu"] for r in rows) /
                max(actions, 1),
                "scheduled": scheduled, "p99": max(r["p99"] for r in rows),
                "cpu_per_action": sum(r["cpu_per_action"] * r["actions"] for r in rows) / max(actions, 1)}

    def close(self) -> None:
        for q in self.commands:
            q.put(None)
        for child in self.children:
            child.join()


def sustained(r: dict) -> bool:
    return r["scheduled"] > 0 and r["p99"] <= P99_LIMIT and r["share_made"] >= SUSTAINED


def search(procs: Processes, start: float, seconds: float, steps: int) -> tuple[dict | None, list[dict]]:
    """The best sustained run: rates per process doubling from ``start`` while sustained (halving while not,
    when ``start`` already fails), then ``steps`` halvings of the gap between the best and the first failure."""
    tried: list[dict] = []
    per = len(procs.children)

    def attempt(rate: float) -> dict:
        tried.append(procs.drive(rate, seconds))
        return tried[-1]

    first = attempt(start)
    good, bad = (first, None) if sustained(first) else (None, start)
    rate = start
    while good is None and rate > start / 16:  # down until one is sustained
        rate /= 2
        r = attempt(rate)
        good, bad = (r, bad) if sustained(r) else (None, rate)
    while bad is None and rate < 64 * start:  # up until one fails
        rate *= 2
        r = attempt(rate)
        good, bad = (r, None) if sustained(r) else (good, rate)
    for _ in range(steps if good is not None and bad is not None else 0):
        rate = (good["offered"] / per + bad) / 2
        r = attempt(rate)
        good, bad = (r, bad) if sustained(r) else (good, rate)
    return good, tried


def run(setups: list[tuple[str, int]], tables: int, seconds: float, start: float, steps: int) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for backend, count in setups:
            with database(backend, Path(folder)) as url:
                procs = Processes(url, count, tables)
                try:
                    best, tried = search(procs, start, seconds, steps)
                finally:
                    procs.close()
            cpu = best["cpu_per_action"] if best else tried[-1]["cpu_per_action"]
            rows.append([backend, count, f"{best['made']:.0f}" if best else "none",
                         ms(best["p99"]) if best else "—", ms(cpu), f"{1 / cpu:.0f}",
                         ", ".join(f"{r['offered']:.0f}{'✓' if sustained(r) else '✗'}" for r in tried)])
            print(rows[-1], flush=True)
    print_table(f"Capacity: highest actions/s with p99 <= {P99_LIMIT * 1000:.0f} ms ({tables:,} tables per process, "
                f"{seconds:.0f} s per rate, bots in their worker; 2 shared cores)",
                ["backend", "processes", "sustained actions/s", "p99 there", "process CPU / action",
                 "extrapolated actions/s per process per core", "offered rates tried (total)"], rows)


ACTIONS_PER_TABLE = 1 / service_load.THINK_MEAN  # an active table's actions per second (one every ~2 s)


def deployment(setups: list[tuple[str, int]], tables: int, seconds: float, rate: float, runs: int) -> None:
    """CPU per action of the whole deployment (the bot processes, their thinking workers, the database server) at
    one offered rate, ``runs`` times per setup, and what that makes in cores per 1,000 active tables."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for backend, count in setups:
            with database(backend, Path(folder)) as url:
                procs = Processes(url, count, tables)
                try:
                    results = [procs.drive(rate, seconds) for _ in range(runs)]
                finally:
                    procs.close()
            cpu = sorted(r["deployment_cpu_per_action"] for r in results)
            middle = cpu[len(cpu) // 2]
            rows.append([backend, count, f"{rate * count:.0f}", " · ".join(ms(c) for c in cpu), ms(middle),
                         f"{cpu[0] / middle - 1:+.0%} / {cpu[-1] / middle - 1:+.0%}",
                         ms(sorted(r["workers_cpu_per_action"] for r in results)[len(cpu) // 2]),
                         ms(sorted(r["server_cpu_per_action"] for r in results)[len(cpu) // 2]),
                         f"{middle * ACTIONS_PER_TABLE * 1000:.2f}"])
            print(rows[-1], flush=True)
    print_table(f"Whole deployment's CPU per action ({tables:,} tables per process, {seconds:.0f} s per run, bots in "
                "their worker)", ["backend", "processes", "offered actions/s", "CPU / action, each run",
                                  "median", "spread (min / max vs median)", "of it: workers", "of it: database",
                                  "cores per 1,000 active tables"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.capacity")
    parser.add_argument("--tables", type=int, default=500, help="tables per process")
    parser.add_argument("--seconds", type=float, default=6.0, help="per offered rate")
    parser.add_argument("--start", type=float, default=100.0, help="first rate per process (actions/s)")
    parser.add_argument("--steps", type=int, default=2, help="halvings once a rate failed")
    parser.add_argument("--setup", action="append", help="backend:processes (repeat); default sqlite:1 "
                        "postgres-durable:1 postgres-durable:2 postgres-durable:4")
    parser.add_argument("--deployment", type=float, metavar="RATE", help="instead of the search: the whole "
                        "deployment's CPU per action at RATE actions/s per process, --runs times per setup "
                        "(default setups sqlite:1 postgres-durable:1)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.deployment:
        setups = [(s.split(":")[0], int(s.split(":")[1])) for s in args.setup or ["sqlite:1", "postgres-durable:1"]]
        deployment(setups, args.tables, args.seconds, args.deployment, args.runs)
        return
    setups = [(s.split(":")[0], int(s.split(":")[1])) for s in args.setup or
              ["sqlite:1", "postgres-durable:1", "postgres-durable:2", "postgres-durable:4"]]
    run(setups, args.tables, args.seconds, args.start, args.steps)


if __name__ == "__main__":
    main()
