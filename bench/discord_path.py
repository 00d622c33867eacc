"""The Discord path: click → first interaction answer (timestamped at the edge) through the test harness's strict
edge (real discord.py objects, only HTTP faked), at 1, 100 (and on request 1,000) tables, beside a bare insert +
commit; then the same with the edge answering every tenth channel write with a 2 s 429, and how far each game runs
ahead of its board. The tables are opened through the game service; only the measured clicks go through the
harness. Progress goes to stderr (a 1,000-table run takes minutes). The My hand burst quiet and at a quarter core:
``python -m bench.click_burst``."""
from __future__ import annotations

import asyncio
import re
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot import event_loop
from bot.errors import HostError

from .report import ms, percentile, print_table
from .service_load import floor

ROOT = Path(__file__).resolve().parents[1]
VERSION = re.compile(r"move (\d+)")


def _harness():
    sys.path.insert(0, str(ROOT))
    from bot.policies import choose_action
    from tests.discord_helpers import dispatch_click, start_harness

    return start_harness, dispatch_click, choose_action


async def open_tables(h, count: int) -> list:
    """One person and three bots per table, each table in its own thread of the harness's channel, opened through
    the game service as a tournament opens its tables (/play + Start through the harness costs minutes at 1,000
    tables); the measured clicks still go through the harness. Returns once every board is posted."""
    from bot.storage import SeatRow
    from bot.table import human_player

    tables = []
    for n in range(count):
        user = h.user(10_000 + n, f"p{n}")
        thread = h.server._create_thread(type("C", (), {"json": {"name": f"t{n}", "type": 11}})(),
                                         {"channel_id": str(h.channel_id)})[1]["id"]
        seats = [SeatRow(0, human_player(user.id), user.name, user.id)]
        seats += [SeatRow(i, f"bot{i}", f"Bot {i}", None, True) for i in (1, 2, 3)]
        table = await h.bot.service.create_seated_table(game="akuma", guild_id=h.guild_id, channel_id=int(thread),
                                                        seats=seats, host_id=user.id, seed=n + 1)
        tables.append((user, table))
    started = time.perf_counter()
    while any(not tb.row.board_message_id for _, tb in tables) and time.perf_counter() - started < 300:
        await asyncio.sleep(0.05)
    return tables


def progress(what: str, began: float) -> None:
    print(f"  discord path: {what} after {time.perf_counter() - began:.1f} s", file=sys.stderr, flush=True)


def shown(h, table) -> int:
    message = h.server.messages.get(table.row.board_message_id or 0)
    match = VERSION.search(((message or {}).get("embeds") or [{}])[0].get("author", {}).get("name", ""))
    return int(match[1]) if match else 0


async def click_all(h, tables, dispatch_click) -> list[float]:
    """Every table's person clicks My hand at once; seconds from the click to Discord receiving the first answer,
    timestamped by the fake edge as the request arrives (waiting for them polls only every 50 ms, to stop)."""
    replies = []
    for user, table in tables:
        msg = h.message(table.row.board_message_id)
        if table.status != "running" or not any(c.get("label") == "My hand" for c in msg.components):
            continue  # that game is over (or its board not yet posted): nothing to click
        replies.append(dispatch_click(h, user, msg, msg.button("My hand", None)))
    started = time.monotonic()
    while any(r.answered_at is None for r in replies) and time.monotonic() - started < 60:
        await asyncio.sleep(0.05)
    return [r.answered_at - r.created for r in replies if r.answered_at is not None]


async def move_all(h, tables, rng, choose_action) -> None:
    for _user, table in tables:
        player = next((p for p in table.to_act() if not table.is_bot(p)), None) if table.status == "running" else None
        if player is not None:
            action = choose_action(table.engine, table.state, player, rng)
            try:
                await h.bot.service.act_as(table.id, player, action, table.version)
            except HostError:  # the turn timer moved for them meanwhile (long set-up at 1,000 tables)
                pass


@asynccontextmanager
async def harness_with_tables(count: int) -> AsyncIterator[tuple[Any, list, float]]:
    """The bot on a temporary SQLite file behind the strict edge, with ``count`` tables open (``open_tables``):
    ``(harness, tables, when the set-up began)``; the harness is closed afterwards."""
    start_harness, _, _ = _harness()
    with tempfile.TemporaryDirectory() as tmp:
        h = await start_harness(Path(tmp) / "bot.db")
        h.park_sleeps_over = 0.5
        try:
            began = time.perf_counter()
            tables = await open_tables(h, count)
            progress(f"{count} tables open", began)
            yield h, tables, began
        finally:
            h.server.faults.clear()
            await h.close(check=False)


async def measure(count: int, rounds: int, limited: bool) -> dict:
    import random

    _, dispatch_click, choose_action = _harness()
    async with harness_with_tables(count) as (h, tables, began):
        if limited:
            h.server.faults.fail("POST", r"/channels/\d+/messages", status=429, retry_after=2.0, times=None,
                                 every=10)
            h.server.faults.fail("PATCH", r"/channels/\d+/messages/\d+", status=429, retry_after=2.0,
                                 times=None, every=10)
        rng, latencies, lags = random.Random(1), [], []
        for _ in range(rounds):
            latencies += await click_all(h, tables, dispatch_click)
            await move_all(h, tables, rng, choose_action)
            await asyncio.sleep(0.05)
            lags += [tb.moves - shown(h, tb) for _, tb in tables]
            progress(f"{len(latencies)} clicks answered", began)
        behind = time.perf_counter()
        while any(tb.moves > shown(h, tb) for _, tb in tables) and time.perf_counter() - behind < 120:
            await asyncio.sleep(0.05)
        caught_up = time.perf_counter() - behind
        progress("boards caught up", began)
        floor_times = await floor(h.bot.storage, 2000, 100)
    return {"tables": count, "limited": limited, "clicks": len(latencies), "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99), "floor50": percentile(floor_times, 50),
            "floor99": percentile(floor_times, 99), "lag_max": max(lags, default=0),
            "lag99": percentile(lags, 99), "caught_up": caught_up}


def run(quick: bool, sizes: list[int] | None = None) -> list[dict]:
    sizes = sizes or ([1, 10] if quick else [1, 100])
    rounds = 3 if quick else 5
    results = [event_loop.run(measure(n, rounds, limited)) for limited in (False, True) for n in sizes]
    print_table("Discord path: click → first answer (strict edge)",
                ["tables", "edge", "clicks", "answer p50", "answer p99", "commit floor p50", "commit floor p99",
                 "board behind: max", "p99", "board caught up after"],
                [[r["tables"], "every 10th write 429 (2 s)" if r["limited"] else "no faults", r["clicks"],
                  ms(r["p50"]), ms(r["p99"]), ms(r["floor50"]), ms(r["floor99"]), f"{r['lag_max']} moves",
                  f"{r['lag99']:.0f} moves", f"{r['caught_up']:.2f} s"] for r in results])
    return results
