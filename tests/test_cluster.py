"""The launcher end to end: ``python -m bot cluster --processes 2 --dry-run`` as a real process tree on one
database (the children run the real shard claim, then hold it), a second launcher on that database refused with
the clear message, and a stopped launcher leaving no process behind. On SQLite and PostgreSQL."""
from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

from bot.cluster import ranges
from bot.settings import parse_shard_ids
from bot.storage import ShardFilter, Storage

COUNT = 4
LINE = re.compile(r"dry run: shards ([\d,]+) of (\d+) owned on (\w+); syncs commands: (yes|no)")


def launcher(db_url: str, cwd: Path) -> tuple[subprocess.Popen[str], "queue.Queue[str]"]:
    env = {k: v for k, v in os.environ.items() if k not in ("SHARD_IDS", "DISCORD_TOKEN", "DATABASE_PATH")}
    env |= {"DATABASE_URL": db_url, "SHARD_COUNT": str(COUNT), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "cluster", "--processes", "2", "--dry-run"], cwd=cwd,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    return proc, lines


def claims(lines: "queue.Queue[str]", n: int) -> list[tuple[set[int], bool]]:
    """The first ``n`` processes' lines: (shards owned, syncs commands)."""
    out = []
    for _ in range(n):
        m = LINE.fullmatch(lines.get(timeout=60).strip())
        assert m is not None and int(m[2]) == COUNT
        out.append((set(parse_shard_ids(m[1])), m[4] == "yes"))
    return out


async def test_cluster_children_own_disjoint_ranges_and_a_second_launcher_is_refused(db_url: str,
                                                                                      tmp_path: Path) -> None:
    first, lines = launcher(db_url, tmp_path)
    second = None
    try:
        owned = claims(lines, 2)
        assert sorted(min(s) for s, _ in owned) == [0, 2] and ranges(COUNT, 2) == ["0-1", "2-3"]
        assert owned[0][0].isdisjoint(owned[1][0]) and owned[0][0] | owned[1][0] == set(range(COUNT))
        assert [0 in s for s, syncs in owned if syncs] == [True]  # one process syncs: the one with shard 0

        second, _ = launcher(db_url, tmp_path)
        _, err = second.communicate(timeout=30)
        assert second.returncode == 3, err
        assert "owned by another running process on this database" in err and "stopping" in err
        assert first.poll() is None  # the first launcher and its processes carry on
    finally:
        if second is not None and second.poll() is None:
            second.terminate()
            second.wait(timeout=30)
        first.terminate()  # SIGTERM: the launcher stops its processes first
        first.wait(timeout=30)
    assert first.returncode == 0
    storage = await Storage.open(db_url)  # every shard is free again: no process was left behind
    claim = await storage.claim_shards(ShardFilter(COUNT, tuple(range(COUNT))))
    await claim.release()
    await storage.close()
