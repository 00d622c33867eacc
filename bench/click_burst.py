"""``python -m bench.click_burst [--tables N]``: every table's person clicks My hand in the same instant (issue 35,
item 1), through the test harness's strict edge (real discord.py objects, only HTTP faked), with the process quiet
and held to a quarter core (``bench.throttle``: a cgroup CPU quota where writable, else a SIGSTOP/SIGCONT duty
cycle, either holding the bots' worker processes too), each with the shipped early deferral and without it (the
same tables, interleaved), on the event loop the bot ships (``bot/event_loop.py``). Every figure is timestamped at
the fake edge when the request arrives: the first acknowledgement (an answer or a deferral) and the hand itself
shown (the answer, or the deferral's first edit), both by Discord's clock: from when Discord created the
interaction, which for a burst is the burst's start, since Discord creates them all at once and the process still
has to read them one after another (``discord_clock``). Discord fails an interaction not acknowledged within 3 s.
Beside it, the late count by the clock this bench used before (each click from its own dispatch), which cannot see
the time spent reading the burst."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import sys
import time
from collections.abc import Sequence

from bot import event_loop

from .discord_path import harness_with_tables, progress
from .report import ms, percentile, print_table
from .throttle import quarter_core

DEADLINE = 3.0  # seconds Discord gives the first answer
NEVER = 10.0 ** 9  # a backlog limit never reached: the early deferral switched off


def discord_clock(created: float, at: Sequence[float | None]) -> list[float | None]:
    """Seconds from the interactions' creation (``created``, the same instant for every click of a burst) to each
    event ``at`` (None: it never happened)."""
    return [None if when is None else when - created for when in at]


class FullCollectionTimes:
    """When the collector's full (oldest-generation) collections ran during a block, and for how long."""

    def __init__(self) -> None:
        self.runs: list[tuple[float, float]] = []  # (start, seconds)
        self._began = 0.0

    def _callback(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._began = time.monotonic()
        else:
            self.runs.append((self._began, time.monotonic() - self._began))

    def __enter__(self) -> "FullCollectionTimes":
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def before(self, until: float) -> tuple[int, float]:
        """How many began before ``until`` (monotonic) and the seconds they took."""
        runs = [seconds for began, seconds in self.runs if began < until]
        return len(runs), sum(runs)


def late(waits: Sequence[float | None], deadline: float = DEADLINE) -> int:
    """How many interactions Discord failed: acknowledged after ``deadline`` seconds, or never."""
    return sum(wait is None or wait > deadline for wait in waits)


async def burst(h, tables, limit: float) -> dict:
    """One My hand click per table at once; returns the first-acknowledgement and hand-shown times (seconds)."""
    h.bot.backlog.max_in_flight = h.bot.backlog.max_age = limit
    deferred_before = h.bot.backlog.deferred
    from tests.discord_harness_http import Reply
    from tests.discord_harness_payloads import interaction_payload

    clicks = []  # Discord builds the payloads: not this process's work, so before the clock starts
    for user, table in tables:
        msg = h.message(table.row.board_message_id)
        if table.status == "running" and any(c.get("label") == "My hand" for c in msg.components):
            data = {"custom_id": msg.button("My hand", None)["custom_id"], "component_type": 2}
            clicks.append((user, msg, interaction_payload(h, user, 3, data, msg.channel_id, msg)))
    replies = []
    calls_before = len(h.server.calls)
    with FullCollectionTimes() as collections:
        created = time.monotonic()  # Discord created every interaction of the burst in this instant
        cpu = [(created, time.process_time())]  # the process's CPU seconds along the burst
        for user, msg, payload in clicks:  # as the gateway delivers a burst: one event after the other
            reply = Reply(h.server, int(payload["id"]), payload["token"], 3, msg.channel_id, user.payload,
                          source_message_id=msg.id)
            h.server.replies[reply.token] = reply
            h.dispatch("INTERACTION_CREATE", payload)
            replies.append(reply)
        waited = time.monotonic()
        while any(r.shown_at is None for r in replies) and time.monotonic() - waited < 300:
            cpu.append((time.monotonic(), time.process_time()))
            await asyncio.sleep(0.05)  # only to know when to stop: the times come from the edge
    last_ack = max((r.answered_at for r in replies if r.answered_at is not None), default=created)
    full_count, full_seconds = collections.before(last_ack)
    until_ack = next((used for at, used in cpu if at >= last_ack), cpu[-1][1]) - cpu[0][1]
    edge = sum(call.edge_cpu for call in h.server.calls[calls_before:] if call.at <= last_ack)
    acks = discord_clock(created, [r.answered_at for r in replies])
    shown = discord_clock(created, [r.shown_at for r in replies])
    by_dispatch = [None if r.answered_at is None else r.answered_at - r.created for r in replies]
    return {"clicks": len(replies), "ack": [a for a in acks if a is not None],
            "shown": [s for s in shown if s is not None], "deferred": h.bot.backlog.deferred - deferred_before,
            "late": late(acks), "late_by_dispatch": late(by_dispatch), "bursts": 1,
            "full_collections": full_count, "full_collection_s": full_seconds, "cpu_until_ack": until_ack,
            "edge_cpu_until_ack": edge}


async def measure(count: int, rounds: int, answers: tuple[bool, ...] = (True, False)) -> tuple[list[dict], str]:
    results: list[dict] = []
    how = "?"
    async with harness_with_tables(count) as (h, tables, began):
        for _ in range(rounds):
            for throttled in (False, True):
                for early in answers:
                    throttle = quarter_core() if throttled else contextlib.nullcontext()
                    with throttle as held:
                        how = getattr(held, "how", how)
                        figures = await burst(h, tables, 4 if early else NEVER)
                    h.bot.backlog.max_in_flight, h.bot.backlog.max_age = 4, 1.0
                    results.append({"throttled": throttled, "early": early, **figures})
                    await asyncio.sleep(1.0)  # the live hand views' redraws settle between bursts
                    progress(f"burst {'¼ core' if throttled else 'quiet'} "
                             f"{'deferring' if early else 'direct'} done", began)
    return results, how


def merged(results: list[dict], throttled: bool, early: bool) -> dict:
    rows = [r for r in results if r["throttled"] == throttled and r["early"] == early]
    return {key: [x for r in rows for x in r[key]] if isinstance(rows[0][key], list) else sum(r[key] for r in rows)
            for key in rows[0] if key not in ("throttled", "early")}


def run(count: int, rounds: int, answers: tuple[bool, ...] = (True, False)) -> list[list[str]]:
    results, how = event_loop.run(measure(count, rounds, answers))
    rows = []
    for throttled in (False, True):
        base = merged(results, throttled, answers[-1])
        for early in answers:
            r = merged(results, throttled, early)
            rows.append([count, "¼ core" if throttled else "quiet", "defer when behind" if early else "always direct",
                         r["clicks"], r["deferred"], ms(percentile(r["ack"], 50)), ms(percentile(r["ack"], 99)),
                         f"{percentile(r['ack'], 99) / percentile(base['ack'], 99):.2f}x",
                         ms(percentile(r["shown"], 99)), r["late"], r["late_by_dispatch"],
                         f"{r['full_collections']} ({r['full_collection_s']:.2f} s)",
                         f"{r['cpu_until_ack'] / r['bursts']:.2f} s "
                         f"({r['edge_cpu_until_ack'] / r['cpu_until_ack']:.0%})",
                         " / ".join(str(b["late"]) for b in results
                                    if b["throttled"] == throttled and b["early"] == early)])
    print_table(f"My hand burst: first acknowledgement and hand shown, by Discord's clock (strict edge; loop: "
                f"{event_loop.loop_name()}; throttle: {how})",
                ["tables", "process", "answer", "clicks", "deferred", "first ack p50", "first ack p99",
                 "ack p99 vs direct", "hand shown p99", "acks later than 3 s", "late by each click's dispatch",
                 "full collections before the last ack", "CPU per burst until its last ack (of it: the fake Discord)",
                 "late per burst"], rows)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.click_burst")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds of the four bursts")
    parser.add_argument("--defer-only", action="store_true", help="only the shipped answer (no always-direct bursts)")
    args = parser.parse_args()
    print(f"# python -m bench.click_burst --tables {args.tables} --rounds {args.rounds}"
          f"{' --defer-only' if args.defer_only else ''}", file=sys.stderr)
    run(args.tables, args.rounds, (True,) if args.defer_only else (True, False))


if __name__ == "__main__":
    main()
