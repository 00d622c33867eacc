"""Hold this process and every process it started (the bots' thinking workers, a database server it spawned) to a
share of one core, together, while a block runs: a cgroup CPU quota where the cgroup tree is writable (v2
``cpu.max``, v1 ``cpu.cfs_quota_us``; processes started inside the block inherit it), else a helper process that
stops and continues the whole tree in a duty cycle (SIGSTOP for ``1 - share`` of every period, the tree re-read
every second). ``Throttle.how`` says which was used."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

PERIOD = 0.02  # seconds of one duty cycle (and 20,000 µs of the cgroup quota period)
CGROUP = Path("/sys/fs/cgroup")
DUTY_CYCLE = r"""
import os, signal, sys, time
from bench.throttle import process_tree
root, run, stop = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
me, pids, read = os.getpid(), [], 0.0

def signal_all(sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass

try:
    while True:
        if time.monotonic() - read > 1.0:  # processes started meanwhile (a replaced worker) are held too
            pids, read = [p for p in process_tree(root) if p != me], time.monotonic()
        time.sleep(run)
        signal_all(signal.SIGSTOP)
        time.sleep(stop)
        signal_all(signal.SIGCONT)
        os.kill(root, 0)  # ends the helper (ProcessLookupError) once the process it holds is gone
except (ProcessLookupError, KeyboardInterrupt):
    pass
finally:
    signal_all(signal.SIGCONT)
"""


class Throttle:
    how = "none"


def process_tree(root: int) -> list[int]:
    """``root`` and every process descended from it (read from ``/proc``; just ``root`` where there is none)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat") if Path("/proc").is_dir() else ():
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):  # ended while being read
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.parent.name))
    return descendants(root, parents)


def descendants(root: int, children: dict[int, list[int]]) -> list[int]:
    """``root`` and everything below it in ``children`` (parent -> its children), parents first."""
    tree, at = [root], 0
    while at < len(tree):
        tree += children.get(tree[at], [])
        at += 1
    return tree


@contextmanager
def quarter_core(share: float = 0.25, *, cgroup: bool = True) -> Iterator[Throttle]:
    """This process and its descendants limited to ``share`` of one core in total inside the block (``cgroup``
    False: the duty cycle only)."""
    throttle = Throttle()
    group = _cgroup_quota(share) if cgroup else None
    if group is not None:
        leave, where = group
        throttle.how = f"cgroup CPU quota ({where}: {share:.0%} of a core for the whole process tree)"
        try:
            yield throttle
        finally:
            leave()
        return
    root = os.getpid()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                                        os.environ.get("PYTHONPATH", "")])}
    helper = subprocess.Popen([sys.executable, "-c", DUTY_CYCLE, str(root), str(PERIOD * share),
                               str(PERIOD * (1 - share))], env=env)
    throttle.how = (f"SIGSTOP/SIGCONT duty cycle of the whole process tree from a helper process ({share:.0%} of "
                    f"every {PERIOD * 1000:.0f} ms)")
    try:
        yield throttle
    finally:
        helper.terminate()  # its finally sends SIGCONT; once more here in case it died with the tree stopped
        helper.wait()
        for pid in process_tree(root):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


def _cgroup_quota(share: float) -> tuple[Callable[[], None], str] | None:
    """Moves this process tree into a new cgroup with a CPU quota; returns (how to move back, which file) or None."""
    period = int(PERIOD * 1_000_000)
    name = f"bench-throttle-{os.getpid()}-{int(time.time())}"
    for limit, procs, write in (
            (CGROUP / name / "cpu.max", CGROUP / name / "cgroup.procs", f"{int(period * share)} {period}"),
            (CGROUP / "cpu" / name / "cpu.cfs_quota_us", CGROUP / "cpu" / name / "cgroup.procs",
             str(int(period * share)))):
        group = limit.parent
        marker = "cgroup.controllers" if limit.name == "cpu.max" else limit.name
        if not (group.parent / marker).exists():  # not a cgroup hierarchy with the cpu controller
            continue
        try:
            group.mkdir()
        except OSError:
            continue
        if not limit.exists():  # the kernel makes a cgroup's files itself: this is a plain directory
            group.rmdir()
            continue
        parent = group.parent / "cgroup.procs"
        try:
            if limit.name == "cpu.cfs_quota_us":
                (group / "cpu.cfs_period_us").write_text(str(period))
            limit.write_text(write)
            for pid in process_tree(os.getpid()):
                _move(pid, procs)
        except OSError:
            _empty(group, parent)
            continue

        def leave(group: Path = group, parent: Path = parent) -> None:
            _empty(group, parent)
        return leave, str(limit)
    return None


def _move(pid: int, procs: Path) -> None:
    try:
        procs.write_text(str(pid))
    except ProcessLookupError:  # it ended meanwhile
        pass


def _empty(group: Path, parent: Path) -> None:
    """Every process still in ``group`` back to ``parent``'s cgroup, then the group removed."""
    for line in (group / "cgroup.procs").read_text().split():
        _move(int(line), parent)
    group.rmdir()
