"""The speed benches of issue 35 run and measure what they say: the quarter-core throttle holds a busy process to
about a quarter of a core (the duty cycle as well as the cgroup), the My hand burst defers only when told to, the
PostgreSQL server CPU is that server's own, and the capacity search finds a sustained rate."""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bench import backends, capacity, click_burst
from bench.throttle import quarter_core

from .pg_server import PgServer


def busy_share(seconds: float) -> float:
    """The share of one core this thread gets while spinning for ``seconds``."""
    wall, cpu = time.perf_counter(), time.thread_time()
    while time.perf_counter() - wall < seconds:
        pass
    return (time.thread_time() - cpu) / seconds


@pytest.mark.parametrize("cgroup", [True, False])
def test_the_throttle_holds_the_process_to_about_a_quarter_core(cgroup: bool) -> None:
    with quarter_core(cgroup=cgroup) as held:
        share = busy_share(1.5)
        inside = Path("/proc/self/cgroup").read_text()
    assert cgroup or held.how.startswith("SIGSTOP/SIGCONT")
    assert share < 0.4, (held.how, share)  # a busy thread alone would get up to a whole core
    assert ("bench-throttle" in inside) == held.how.startswith("cgroup")
    assert "bench-throttle" not in Path("/proc/self/cgroup").read_text()  # nothing stays throttled afterwards


async def test_a_burst_defers_only_with_the_early_deferral() -> None:
    results, how = await click_burst.measure(6, 1)
    assert how != "none"
    by = {(r["throttled"], r["early"]): r for r in results}
    assert all(r["clicks"] == 6 and len(r["ack"]) == 6 and len(r["shown"]) == 6 for r in results)
    assert by[False, True]["deferred"] == by[True, True]["deferred"] == 6
    assert by[False, False]["deferred"] == by[True, False]["deferred"] == 0
    assert all(a <= s for r in results for a, s in zip(sorted(r["ack"]), sorted(r["shown"]), strict=True))


def test_server_cpu_counts_only_that_servers_processes(pg_server: PgServer) -> None:
    other = PgServer().start()
    try:
        url = other.new_database()
        assert backends.postmaster_of(url) == other.pid() != pg_server.pid()

        async def work() -> None:
            from .pg_server import execute
            await execute(url, "SELECT count(*) FROM generate_series(1, 3000000)")

        mine, theirs = backends.server_cpu_seconds(other.pid()), backends.server_cpu_seconds(pg_server.pid())
        asyncio.run(work())
        assert backends.server_cpu_seconds(other.pid()) - mine > 0.05
        assert backends.server_cpu_seconds(pg_server.pid()) - theirs < 0.05
    finally:
        other.stop()


def test_capacity_search_finds_a_sustained_rate(tmp_path) -> None:
    with backends.database("sqlite", tmp_path) as url:
        procs = capacity.Processes(url, 1, 20)
        try:
            best, tried = capacity.search(procs, 5.0, 1.5, 0)
        finally:
            procs.close()
    assert best is not None and capacity.sustained(best) and best in tried
    assert best["made"] > 0 and best["cpu_per_action"] > 0
