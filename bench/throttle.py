"""Hold this process to a share of one core while a block runs: a cgroup CPU quota where the cgroup tree is
writable (v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``), else a helper process that stops and continues it in a duty
cycle (SIGSTOP for ``1 - share`` of every period). ``Throttle.how`` says which was used. The duty cycle stops every
thread of this process but not its children (the bots' worker processes keep their cores)."""
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
pid, run, stop = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
try:
    while True:
        time.sleep(run)
        os.kill(pid, signal.SIGSTOP)
        time.sleep(stop)
        os.kill(pid, signal.SIGCONT)
except (ProcessLookupError, KeyboardInterrupt):
    pass
finally:
    try:
        os.kill(pid, signal.SIGCONT)
    except ProcessLookupError:
        pass
"""


class Throttle:
    how = "none"


@contextmanager
def quarter_core(share: float = 0.25, *, cgroup: bool = True) -> Iterator[Throttle]:
    """This process limited to ``share`` of one core inside the block (``cgroup`` False: the duty cycle only)."""
    throttle = Throttle()
    group = _cgroup_quota(share) if cgroup else None
    if group is not None:
        leave, where = group
        throttle.how = f"cgroup CPU quota ({where}: {share:.0%} of a core)"
        try:
            yield throttle
        finally:
            leave()
        return
    helper = subprocess.Popen([sys.executable, "-c", DUTY_CYCLE, str(os.getpid()), str(PERIOD * share),
                               str(PERIOD * (1 - share))])
    throttle.how = f"SIGSTOP/SIGCONT duty cycle from a helper process ({share:.0%} of every {PERIOD * 1000:.0f} ms)"
    try:
        yield throttle
    finally:
        helper.terminate()  # its finally sends SIGCONT; once more here in case it died stopped
        helper.wait()
        os.kill(os.getpid(), signal.SIGCONT)


def _cgroup_quota(share: float) -> tuple[Callable[[], None], str] | None:
    """Moves this process into a new cgroup with a CPU quota; returns (how to move back, which file) or None."""
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
        try:
            if limit.name == "cpu.cfs_quota_us":
                (group / "cpu.cfs_period_us").write_text(str(period))
            limit.write_text(write)
            parent = group.parent / "cgroup.procs"
            procs.write_text(str(os.getpid()))
        except OSError:
            group.rmdir()
            continue

        def leave(group: Path = group, parent: Path = parent) -> None:
            parent.write_text(str(os.getpid()))
            group.rmdir()
        return leave, str(limit)
    return None
