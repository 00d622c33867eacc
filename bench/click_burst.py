"""``python -m bench.click_burst [--tables N]``: every table's person clicks My hand in the same instant (issue 35,
item 1), through the test harness's strict edge (real discord.py objects, only HTTP faked), with the process quiet
and held to a quarter core (``bench.throttle``: a cgroup CPU quota where writable, else a SIGSTOP/SIGCONT duty
cycle), each with the shipped early deferral and without it (the same tables, interleaved). Every figure is
timestamped at the fake edge when the request arrives: the first acknowledgement (an answer or a deferral) and the
hand itself shown (the answer, or the deferral's first edit), both from the moment the click was dispatched.
Discord fails an interaction not acknowledged within 3 s."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time

from .discord_path import harness_with_tables, progress
from .report import ms, percentile, print_table
from .throttle import quarter_core

DEADLINE = 3.0  # seconds Discord gives the first answer
NEVER = 10.0 ** 9  # a backlog limit never reached: the early deferral switched off


async def burst(h, tables, limit: float) -> dict:
    """One My hand click per table at once; returns the first-acknowledgement and hand-shown times (seconds)."""
    h.bot.backlog.max_in_flight = h.bot.backlog.max_age = limit
    deferred_before = h.bot.backlog.deferred
    from tests.discord_harness_http import Reply
    from tests.discord_harness_payloads import interaction_payload

    clicks = []  # Discord builds the payloads: not this process's work, so before the clock starts
    for user, table in tables:
        msg = h.message(table.row.board_message_id)
        if table.status == "running":
            data = {"custom_id": msg.button("My hand", None)["custom_id"], "component_type": 2}
            clicks.append((user, msg, interaction_payload(h, user, 3, data, msg.channel_id, msg)))
    replies = []
    for user, msg, payload in clicks:  # as the gateway delivers a burst: one event after the other
        reply = Reply(h.server, int(payload["id"]), payload["token"], 3, msg.channel_id, user.payload,
                      source_message_id=msg.id)
        h.server.replies[reply.token] = reply
        h.dispatch("INTERACTION_CREATE", payload)
        replies.append(reply)
    waited = time.monotonic()
    while any(r.shown_at is None for r in replies) and time.monotonic() - waited < 300:
        await asyncio.sleep(0.05)  # only to know when to stop: the times come from the edge
    acks = [r.answered_at - r.created for r in replies if r.answered_at is not None]
    shown = [r.shown_at - r.created for r in replies if r.shown_at is not None]
    return {"clicks": len(replies), "ack": acks, "shown": shown, "deferred": h.bot.backlog.deferred - deferred_before,
            "late": sum(a > DEADLINE for a in acks) + len(replies) - len(acks)}


async def measure(count: int, rounds: int) -> tuple[list[dict], str]:
    results: list[dict] = []
    how = "?"
    async with harness_with_tables(count) as (h, tables, began):
        for _ in range(rounds):
            for throttled in (False, True):
                for early in (True, False):
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


def run(count: int, rounds: int) -> list[list[str]]:
    results, how = asyncio.run(measure(count, rounds))
    rows = []
    for throttled in (False, True):
        base = merged(results, throttled, False)
        for early in (True, False):
            r = merged(results, throttled, early)
            rows.append([count, "¼ core" if throttled else "quiet", "defer when behind" if early else "always direct",
                         r["clicks"], r["deferred"], ms(percentile(r["ack"], 50)), ms(percentile(r["ack"], 99)),
                         f"{percentile(r['ack'], 99) / percentile(base['ack'], 99):.2f}x",
                         ms(percentile(r["shown"], 99)), r["late"]])
    print_table(f"My hand burst: first acknowledgement and hand shown (strict edge; throttle: {how})",
                ["tables", "process", "answer", "clicks", "deferred", "first ack p50", "first ack p99",
                 "ack p99 vs direct", "hand shown p99", "acks later than 3 s"], rows)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.click_burst")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds of the four bursts")
    args = parser.parse_args()
    print(f"# python -m bench.click_burst --tables {args.tables} --rounds {args.rounds}", file=sys.stderr)
    run(args.tables, args.rounds)


if __name__ == "__main__":
    main()
