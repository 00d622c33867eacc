"""The refusal budget in shares (bot/refusals.py, issue 41): one server is held back at its own share whatever the
others do, and when the whole process reaches its cap only the servers that caused it hold back."""
from __future__ import annotations

from bot.refusals import RefusalBudget

A, B, C = 1, 2, 3


def budget(**limits: float) -> tuple[RefusalBudget, list[float]]:
    now = [0.0]
    return RefusalBudget(**limits, clock=lambda: now[0]), now  # type: ignore[arg-type]


def test_a_server_at_its_share_waits_and_the_others_go_on() -> None:
    refusals, now = budget(limit=10, server_limit=3, window=60.0)
    for at in (0.0, 1.0, 2.0):
        now[0] = at
        assert refusals.wait(A) == 0.0
        refusals.refused(A, table_id=7)
    assert refusals.wait(A) == 58.0  # until its oldest refusal leaves the window
    assert refusals.wait(B) == 0.0 and refusals.wait(None) == 0.0  # nobody else is held
    assert refusals.of_server(A) == 3 and refusals.of_table(7) == 3 and refusals.in_window() == 3
    now[0] = 60.5
    assert refusals.wait(A) == 0.0 and refusals.of_server(A) == 2 and refusals.of_table(7) == 2


def test_at_the_process_cap_only_the_servers_over_an_even_share_wait() -> None:
    refusals, now = budget(limit=10, server_limit=6, window=60.0)
    for _ in range(6):
        refusals.refused(A, 1)
    now[0] = 5.0
    for _ in range(3):
        refusals.refused(B, 2)
    assert refusals.wait(B) == 0.0  # 9 of 10: nobody over the cap yet
    refusals.refused(C, 3)
    assert refusals.in_window() == 10
    assert refusals.wait(A) == 55.0  # 6 of 10 among 3 servers (an even share: 3.3): A caused it
    assert refusals.wait(B) == 0.0 and refusals.wait(C) == 0.0  # 3 and 1, under the share: they go on
    assert refusals.wait(4) == 0.0  # a server that was never refused is never held
    refusals.refused(B, 2)
    assert refusals.wait(B) == 55.0  # now 4 of 11: over the share, and the process over its cap
    now[0] = 60.0  # A's refusals leave the window: the process is under its cap again
    assert refusals.wait(A) == refusals.wait(B) == 0.0
    assert refusals.totals[A] == 6 and refusals.total == 11


def test_empty_servers_and_tables_leave_memory() -> None:
    refusals, now = budget(limit=10, server_limit=5, window=10.0)
    for server in range(100):
        refusals.refused(server, table_id=server)
    now[0] = 11.0
    assert refusals.in_window() == 0
    assert not refusals._servers and not refusals._tables


def test_a_servers_held_writers_ask_together_and_wake_each_other() -> None:
    refusals, now = budget(limit=10, server_limit=5, window=60.0)
    assert refusals.may_probe(A, every=15.0) and not refusals.may_probe(A, every=15.0)  # one asks for the server
    assert refusals.may_probe(B, every=15.0)  # another server asks on its own
    now[0] = 14.0
    assert not refusals.may_probe(A, every=15.0)
    refusals.changed(A)  # an event: one request now, whenever the last was
    assert refusals.may_probe(A, every=15.0) and not refusals.may_probe(A, every=15.0)
    woken: list[int] = []
    for table in (1, 2, 3):
        refusals.hold(A, table, lambda table=table: woken.append(table))
    refusals.hold(B, 9, lambda: woken.append(9))
    refusals.reachable(A, 2)  # table 2 got through: the others held in A try again, B's stay
    assert woken == [1, 3]
    refusals.reachable(A, 1)
    assert woken == [1, 3]  # each wake once
