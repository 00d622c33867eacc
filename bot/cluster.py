"""``python -m bot cluster --processes N``: N bot processes over ``SHARD_COUNT`` shards, each owning a contiguous
range (``SHARD_IDS``) on the shared database (PostgreSQL: ``DATABASE_URL``). A process that exits is started
again on the same range after a pause; it resumes that range's tables (bots, timers, ratings, tournaments)."""
from __future__ import annotations

import os
import subprocess
import sys
import time

from .settings import Settings

RESTART_PAUSE = 5.0


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


def run_cluster(processes: int) -> int:
    settings = Settings()
    if not settings.shard_count:
        print("set SHARD_COUNT (and DATABASE_URL=postgresql://… for several processes)", file=sys.stderr)
        return 2
    children: dict[str, subprocess.Popen[bytes]] = {}
    try:
        while True:
            for shard_ids in ranges(settings.shard_count, processes):
                child = children.get(shard_ids)
                if child is None or child.poll() is not None:
                    env = os.environ | {"SHARD_IDS": shard_ids, "SHARD_COUNT": str(settings.shard_count)}
                    children[shard_ids] = subprocess.Popen([sys.executable, "-m", "bot", "run"], env=env)
            time.sleep(RESTART_PAUSE)
    except KeyboardInterrupt:
        for child in children.values():
            child.terminate()
        for child in children.values():
            child.wait()
    return 0
