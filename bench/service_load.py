"""The service under load: latency of one action (load, validate, apply, SQLite commit, text render) with
many tables acting concurrently, against the floor of a bare aiosqlite insert + commit of a row the same size, and
beside it how long a bot's decision waits (in the bot, a decision is asked once the bot's pacing delay is over, so
this is its wait beyond pacing). Each run measures a steady state (``Window``): a warm-up is not counted, no action
is issued after the window ends, and the actions still under way then are not counted either; the CPU figures are
the window's own."""
from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot import event_loop, render
from bot.policies import choose_action
from bot.service import GameService
from bot.storage import Storage
from bot.table import Table
from bot.thinking import Thinkers
from engines import GAMES, Action, get_engine

from .report import ms, percentile, print_table, rss_bytes

THINK_MEAN = 2.0  # seconds between two moves at one table (bots wait 1.5 s; people longer)
WARM_UP = 0.2  # of a run's seconds, not counted: every table's first move and the queues filling


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` so far (Linux /proc; 0 where unavailable)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(eq=False)
class Window:
    """The measured part of a load run, in loop time: from ``begin`` (after the warm-up) to ``end``, after which
    no action is issued. An action counts when it started inside; its latency counts even if it ends after."""
    begin: float
    end: float
    latencies: list[float] = field(default_factory=list)  # seconds of each counted action
    waits: list[float] = field(default_factory=list)  # seconds each counted bot decision waited for its answer
    marks: list[tuple[float, ...]] = field(default_factory=list)  # (loop time, loop, process, workers, server CPU)

    @classmethod
    def after_warm_up(cls, now: float, seconds: float) -> "Window":
        return cls(now + seconds * WARM_UP, now + seconds)

    def counts(self, at: float) -> bool:
        return self.begin <= at < self.end

    def watch(self, worker_pids: Callable[[], list[int]], server: Callable[[], float] = lambda: 0.0) -> None:
        """Reads the CPU clocks as the window begins and ends (the loop's thread, this process, the workers, a
        database server's CPU seconds as ``server`` counts them)."""
        loop = asyncio.get_running_loop()

        def mark() -> None:
            self.marks.append((loop.time(), time.thread_time(), time.process_time(),
                               sum(map(cpu_seconds, worker_pids())), server()))
        loop.call_at(self.begin, mark)
        loop.call_at(self.end, mark)

    async def closed(self) -> None:
        """Until both marks are read: the drivers may all stop just before the end's mark fires (a quick run)."""
        loop = asyncio.get_running_loop()
        while len(self.marks) < 2:
            await asyncio.sleep(max(0.0, self.end - loop.time()) + 0.001)

    def figures(self) -> dict:
        """Actions/s and CPU per counted action over the window as the clocks read it."""
        (t0, loop0, proc0, work0, server0), (t1, loop1, proc1, work1, server1) = self.marks
        actions = max(len(self.latencies), 1)
        return {"actions": len(self.latencies), "seconds": t1 - t0, "p50": percentile(self.latencies, 50),
                "p99": percentile(self.latencies, 99), "wait50": percentile(self.waits, 50),
                "wait99": percentile(self.waits, 99), "loop_cpu_per_action": (loop1 - loop0) / actions,
                "process_cpu_per_action": (proc1 - proc0) / actions,
                "workers_cpu_per_action": (work1 - work0) / actions,
                "server_cpu_per_action": (server1 - server0) / actions}


def render_text(table: Table, update) -> None:
    """The text the Discord cog draws after an action: the board from the table's spectator view (as
    ``cogs.common.board_embed`` builds it) and the action's event lines."""
    names = render.Names(table.names())
    render.board(table.row.game, table.view(None), names, "en")
    for ev in update.events:
        render.event_line(table.row.game, ev, names, "en")


async def floor(storage: Storage, row_bytes: int, count: int) -> list[float]:
    """A bare insert + commit of a row of ``row_bytes`` on the same database settings, one at a time."""
    async with storage.db.transaction() as tx:
        await tx.execute("CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY, body TEXT)")
    body = "x" * row_bytes
    times = []
    for n in range(count):
        start = time.perf_counter()
        async with storage.db.transaction() as tx:
            await tx.execute("INSERT INTO bench_floor (id, body) VALUES (?, ?)", n + 1, body)
        times.append(time.perf_counter() - start)
    return times


async def new_table(service: GameService, slot: int, seed: int) -> Table:
    game = GAMES[slot % len(GAMES)]
    players = min(4, get_engine(game).max_players)
    return await service.create_bot_table(game=game, players=players, seed=seed, channel_id=slot)


async def decide(table: Table, player: str, rng: random.Random, bots: str, thinker: Thinkers | None) -> Action:
    """The seat's move: random, the ``normal`` heuristic here on the loop, or the same heuristic in the thinker's
    worker process (handed the table's state, as in ``BotScheduler.think``)."""
    engine = table.engine
    if bots == "random":
        return rng.choice(engine.legal_actions(table.state, player))
    if thinker is None:
        return choose_action(engine, table.state, player, rng)
    return await thinker.decide(engine, table.state, player, f"{table.row.seed}:{table.version}:{player}", "normal",
                                state_text=table.state_text)


async def drive(service: GameService, table: Table, think: float, window: Window, sizes: list[int],
                bots: str = "loop", thinker: Thinkers | None = None, during_pacing: bool = True) -> None:
    """Moves ``table``'s seats, one move after each pause (the bots' pacing, ~``think`` s on average). As the bot
    scheduler does, the decision is asked as the pause begins and awaited once it is over (``during_pacing``
    False: asked after it, as the scheduler did before); its wait beyond the pause is the bots' wait."""
    slot = table.row.channel_id
    rng = random.Random(slot)
    loop = asyncio.get_running_loop()
    while True:
        pause = rng.expovariate(1 / think)
        if loop.time() + pause >= window.end:  # its next move would fall after the window: the table stops now
            return
        if table.status != "running":
            await asyncio.sleep(pause)
            table = await new_table(service, slot, rng.randrange(1 << 30))
            continue
        player = table.to_act()[0]
        counted = window.counts(loop.time() + pause)
        # the bot's thinking is not part of the action, but on the loop it delays every other table's action
        thinking = asyncio.ensure_future(decide(table, player, rng, bots, thinker)) if during_pacing else None
        await asyncio.sleep(pause)
        paced = time.perf_counter()
        action = await (thinking or decide(table, player, rng, bots, thinker))
        start = time.perf_counter()
        update = await service.act_as(table.id, player, action, table.version)
        render_text(table, update)
        if counted:
            window.latencies.append(time.perf_counter() - start)
            window.waits.append(start - paced)
        if len(sizes) < 200:
            sizes.append(len(table.engine.dump(table.state)) + len(json.dumps(action.model_dump(mode="json"))))


LABELS = {"loop": " (bots on the loop)", "worker": " (bots in their worker)", "random": " (random movers)"}


async def load_run(tables: int, seconds: float, folder: Path, bots: str = "worker", during_pacing: bool = True) -> dict:
    """``bots``: "worker" (the normal heuristic decides in the quick worker of the bot's ``Thinkers``, the bot's
    default), "loop" (it decides on the event loop, ``BOT_THINK_QUICK_IN_WORKER=0``) or "random" (random legal
    moves: the host alone)."""
    storage = await Storage.open(folder / f"load-{tables}-{bots}.db")
    thinker = None
    if bots == "worker":
        thinker = Thinkers(quick_in_worker=True)
        thinker.start()
        await thinker.ready()
    service = GameService(storage)
    sizes: list[int] = []
    rss_before = rss_bytes()
    running = [await new_table(service, slot, slot) for slot in range(tables)]  # before the clock starts
    await service.drain()
    rss_after = rss_bytes()
    # One table alone is measured unloaded (short pauses, many samples); many tables at a realistic pace.
    think = 0.005 if tables == 1 else THINK_MEAN
    began = time.perf_counter()
    window = Window.after_warm_up(asyncio.get_running_loop().time(), seconds)
    window.watch(lambda: [] if thinker is None else thinker.quick.pids() + thinker.strong.pids())
    await asyncio.gather(*(drive(service, table, think, window, sizes, bots, thinker, during_pacing)
                           for table in running))
    lasted = time.perf_counter() - began
    await window.closed()
    await service.drain()
    workers_rss, fallbacks = 0, 0
    if thinker is not None:
        fallbacks = thinker.quick.fallbacks + thinker.strong.fallbacks
        workers_rss = sum(rss_bytes(pid) for pid in thinker.quick.pids() + thinker.strong.pids())
        await thinker.close()
    row = int(sum(sizes) / max(len(sizes), 1))
    floor_times = await floor(storage, row, 100 if seconds < 5 else 300)
    db_bytes = await database_bytes(storage)
    actions = await count_actions(storage)
    await storage.close()
    return {"tables": tables, **window.figures(), "lasted": lasted, "floor50": percentile(floor_times, 50),
            "floor99": percentile(floor_times, 99), "row": row, "rss_per_table": (rss_after - rss_before) / tables,
            "rss": rss_after, "workers_rss": workers_rss, "fallbacks": fallbacks,
            "db_per_action": db_bytes / max(actions, 1),
            "label": f"{tables:,}" + (LABELS[bots] if tables == 1000 else "")}


async def database_bytes(storage: Storage) -> int:
    if storage.backend == "postgres":
        return int(await storage.db.fetchval("SELECT pg_database_size(current_database())"))
    await storage.db.fetch("PRAGMA wal_checkpoint(TRUNCATE)")
    return await storage.db.fetchval("PRAGMA page_count") * await storage.db.fetchval("PRAGMA page_size")


async def count_actions(storage: Storage) -> int:
    return int(await storage.db.fetchval("SELECT COUNT(*) FROM actions"))


def run(quick: bool) -> list[dict]:
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for tables in (1, 100, 1000):
            seconds = (4.0 if tables > 1 else 3.0) if quick else (20.0 if tables > 1 else 10.0)
            results.append(event_loop.run(load_run(tables, seconds, Path(folder))))
        # The same load with the bots' heuristics on the event loop, and with seats that pick random legal moves
        # (what the host costs without any thinking).
        others = [event_loop.run(load_run(1000, 4.0 if quick else 20.0, Path(folder), bots=bots))
                  for bots in ("loop", "random")]
    rows = [[r["label"], r["actions"], f"{r['actions'] / r['seconds']:.0f}", ms(r["p50"]), ms(r["p99"]),
             ms(r["floor50"]), ms(r["floor99"]), f"{r['p99'] / r['floor99']:.2f}×", ms(r["wait50"]),
             ms(r["wait99"]), r["row"], r["fallbacks"]]
            for r in [*results, *others]]
    print_table(f"Action latency (1 table: back to back; more: each table acts every ~{THINK_MEAN:.0f} s; "
                "action = load, validate, apply, commit, text render; the first "
                f"{WARM_UP:.0%} of each run not counted) and the bots' decision wait beyond their pacing",
                ["tables", "actions", "actions/s", "p50", "p99", "floor p50", "floor p99", "p99 / floor p99",
                 "bot wait p50", "bot wait p99", "row bytes", "bot decisions on the loop"], rows)
    big = results[-1]
    print_table("Memory and storage", ["figure", "value"], [
        ["RSS with 1,000 active tables", f"{big['rss'] / 2**20:.0f} MB"],
        ["RSS growth per active table", f"{big['rss_per_table'] / 1024:.1f} KB"],
        ["RSS of the thinking workers (quick and strong), after the run", f"{big['workers_rss'] / 2**20:.0f} MB"],
        ["database bytes per action", f"{big['db_per_action']:.0f} B"],
    ])
    return results


def compare(tables: int, seconds: float, modes: list[str], profile: Path | None = None,
            during_pacing: bool = True) -> None:
    """One line per run, in the order given (alternate the modes to see the run-to-run spread); a mode is a bot
    setting (``worker``, ``loop``, ``random``) and, after ``@``, the event loop (``uvloop`` or ``asyncio``; the
    default is what a bot process uses, ``bot/event_loop.py``). With ``profile``, the last run's cProfile
    statistics are written there (``python -m pstats FILE``)."""
    import cProfile

    with tempfile.TemporaryDirectory() as folder:
        for i, mode in enumerate(modes):
            bots, _, loop = mode.partition("@")
            profiler = cProfile.Profile() if profile is not None and i == len(modes) - 1 else None
            if profiler is not None:
                profiler.enable()
            factory = {"": event_loop.loop_factory(), "asyncio": None, "uvloop": _uvloop_factory()}[loop]
            with asyncio.Runner(loop_factory=factory) as runner:
                r = runner.run(load_run(tables, seconds, Path(folder) / str(i), bots, during_pacing))
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(profile)
            print(f"{tables:,} tables, bots: {mode:<14}  actions/s {r['actions'] / r['seconds']:>4.0f}  "
                  f"p50 {ms(r['p50'])}  p99 {ms(r['p99'])}  floor p99 {ms(r['floor99'])}  "
                  f"bot wait p50 {ms(r['wait50'])}  p99 {ms(r['wait99'])}  "
                  f"loop CPU/action {ms(r['loop_cpu_per_action'])}  "
                  f"process CPU/action {ms(r['process_cpu_per_action'])}  "
                  f"workers CPU/action {ms(r['workers_cpu_per_action'])}  "
                  f"bot decisions on the loop {r['fallbacks']}  run lasted {r['lasted']:.1f} s of {seconds:.0f}",
                  flush=True)


def _uvloop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop even when ``GAMEHOST_UVLOOP=0`` (asyncio's where uvloop is not installed)."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.service_load",
                                     description="Action latency under load, one run per mode given.")
    parser.add_argument("modes", nargs="+", help="e.g. worker loop worker loop, or worker@asyncio worker@uvloop "
                        f"(bot settings: {', '.join(sorted(LABELS))})")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--profile", type=Path, default=None, help="write the last run's cProfile stats here")
    parser.add_argument("--think-after-pacing", action="store_true",
                        help="ask a bot's decision once its pause is over (the bot scheduler before issue 45)")
    args = parser.parse_args()
    compare(args.tables, args.seconds, args.modes, args.profile, not args.think_after_pacing)
