"""``python -m bot cluster --processes N``: N bot processes over ``SHARD_COUNT`` shards, each owning a contiguous
range (``SHARD_IDS``) on the shared database (PostgreSQL: ``DATABASE_URL``). A process that exits is started
again on the same range after a pause; it resumes that range's tables (bots, timers, ratings, tournaments). A
process refused because its shards are owned elsewhere (another launcher on the same database) stops the
launcher. ``--dry-run``: the processes only claim their shards and say so (``bot.dry_run``), no Discord."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Iterable

from .settings import Settings

if TYPE_CHECKING:
    from .storage import ShardFilter

RESTART_PAUSE = 5.0  # seconds before a process that exited is started again
POLL = 0.2
REFUSED = 3  # exit status of a bot process whose shards another running process owns (ShardsTaken)


def syncs_commands(shards: "ShardFilter | None") -> bool:
    """One process syncs the command tree: the one owning shard 0 (the only process when not sharded)."""
    return shards is None or 0 in shards.ids


def ranges(count: int, processes: int) -> list[str]:
    """Contiguous shard ranges, as even as possible: 8 shards over 3 processes -> 0-2, 3-5, 6-7."""
    if not 1 <= processes <= count:
        raise ValueError(f"--processes must be between 1 and SHARD_COUNT ({count})")
    size, extra = divmod(count, processes)
    out, start = [], 0
    for n in range(processes):
        end = start + size + (n < extra)
        out.append(f"{start}-{end - 1}")
        start = end
    return out


def run_cluster(processes: int, *, dry_run: bool = False) -> int:
    settings = Settings()
    if not settings.shard_count:
        print("set SHARD_COUNT (and DATABASE_URL=postgresql://… for several processes)", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _interrupt)
    command = [sys.executable, "-m", "bot", "run", *(["--dry-run"] if dry_run else [])]
    children: dict[str, subprocess.Popen[bytes]] = {}
    try:
        return _supervise(children, ranges(settings.shard_count, processes), command, settings.shard_count)
    except KeyboardInterrupt:
        return 0
    finally:
        _stop(children.values())


def _supervise(children: dict[str, subprocess.Popen[bytes]], shard_ranges: list[str], command: list[str],
               count: int) -> int:
    """Keep one process per range running; returns ``REFUSED`` once one is refused its shards."""
    exited: dict[str, float] = {}
    while True:
        for shard_ids in shard_ranges:
            child = children.get(shard_ids)
            if child is not None and child.poll() is None:
                continue
            if child is not None and child.returncode == REFUSED:
                print(f"the process for shards {shard_ids} was refused: another running process (another launcher?)"
                      f" owns some of them on this database; stopping", file=sys.stderr)
                return REFUSED
            if child is not None and time.monotonic() - exited.setdefault(shard_ids, time.monotonic()) < RESTART_PAUSE:
                continue
            exited.pop(shard_ids, None)
            env = os.environ | {"SHARD_IDS": shard_ids, "SHARD_COUNT": str(count)}
            children[shard_ids] = subprocess.Popen(command, env=env)
        time.sleep(POLL)


def _stop(children: Iterable[subprocess.Popen[bytes]]) -> None:
    running = [c for c in children if c.poll() is None]
    for child in running:
        child.terminate()
    for child in running:
        child.wait()


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the launcher as Ctrl-C does: its processes are stopped first
