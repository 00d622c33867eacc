"""``python -m bench.one_bad_server [--scale 12] [--tables 50]``: one server's trouble against a healthy server, through
the test harness (real discord.py objects, only HTTP faked), in accelerated time.

Server A has ``--tables`` tables (one person and three bots each, each in its own thread of one channel); they lose
Send Messages, each table gets a move to show, and an admin then edits the channel ten times in a minute (ten
CHANNEL_UPDATE events; each once the writers woken by the one before have their answer, as they would in real time).
Server B, healthy, has one table whose person (on a 30 s clock) moves 5 s after a board shows them it is their turn,
and only then. 2.5 minutes in, A's access comes back; the run ends at four. Two cases: the loss announced (a channel
overwrite denying the bot, CHANNEL_UPDATE; its removal is announced too) and unannounced (nothing tells the bot,
before or after: the cache thinks it may write).

Printed per case: B's boards behind (episodes where B's board stayed behind its game for over 10 s) and the longest
lag, B's person timed out on a board they were not shown, refused requests per minute (process, A, B: mean and most
in any minute), how long the budget held B's writers, and A's recovery time after access came back (the last of its
boards current). Every wait of the writers, the budget's window and B's clock are divided by ``--scale``; figures
are given in simulated seconds. discord.py's own per-route rate limits would run in real time and clip the
accelerated requests, so the fake Discord sends no rate-limit headers here (it enforces no limits either)."""
from __future__ import annotations

import argparse
import asyncio
import inspect
import logging
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .report import print_table

ROOT = Path(__file__).resolve().parents[1]
GUILD_B, BOB = 900_000_000_000_000_555, 777
SIM_MINUTES, ACCESS_BACK_AT, EDITS_EVERY = 4, 2.5 * 60.0, 6.0  # simulated minutes, seconds, seconds
THINK, BEHIND_AFTER = 5.0, 10.0  # B's person moves this long after being shown; a board behind this long counts
WAITS = {"backoff_first": 0.5, "backoff_max": 30.0, "unreachable_first": 15.0, "unreachable_max": 600.0,  # seconds:
         "probe_every": 60.0, "server_probe_every": 15.0, "hold_after": 2.0}  # TableOutbox's waits on the branch


@dataclass
class Case:
    announced: bool
    refused_a: list[int] = field(default_factory=list)  # per simulated minute
    refused_b: list[int] = field(default_factory=list)
    behind: int = 0
    longest_lag: float = 0.0
    unseen_timeouts: int = 0
    timeouts: int = 0
    b_held: float = 0.0
    recovery: float | None = None
    b_moves: int = 0


def _imports():
    sys.path.insert(0, str(ROOT))
    from bot.policies import choose_action
    from bot.storage import SeatRow
    from bot.table import UpdateKind, human_player
    from cogs.outbox import TableOutbox
    from tests.discord_helpers import start_harness
    from tests.test_discord_output import shows_version

    return choose_action, SeatRow, UpdateKind, human_player, TableOutbox, start_harness, shows_version


choose_action, SeatRow, UpdateKind, human_player, TableOutbox, start_harness, shows_version = _imports()


def seats(user_id: int, name: str) -> list:
    return [SeatRow(0, human_player(user_id), name, user_id),
            *[SeatRow(i, f"bot{i}", f"Bot {i}", None, True) for i in (1, 2, 3)]]


async def move(service, table, player: str) -> None:
    from bot.errors import HostError

    action = choose_action(table.engine, table.state, player, random.Random(table.version))
    try:
        await service.act_as(table.id, player, action, table.version)
    except HostError:  # a bot or the clock moved first: that move stands
        pass


class Run:
    """One case in one harness: server A's threads and tables, server B's table (a new one when it finishes)."""

    def __init__(self, h, case: Case, scale: float) -> None:
        self.h, self.case, self.scale = h, case, scale
        self.refusals = h.bot.get_cog("TableCog").refusals
        self.refusals.window = 600.0 / scale
        self.per_server = "guild_id" in inspect.signature(self.refusals.wait).parameters
        self.elsewhere = h.add_guild(GUILD_B)["elsewhere"]
        self.turn_seconds = max(1, round(30 / scale))
        self.threads: list[int] = []
        self.a_tables: list = []
        self.b_table = None
        self.lag_since: float | None = None
        self.lag_counted = False
        self.seen_at: float | None = None
        self.start = 0.0
        h.user(BOB, "bob")
        h.bot.service.subscribe(self.on_update)

    async def on_update(self, update) -> None:
        if update.table.row.guild_id == GUILD_B and update.kind is UpdateKind.TIMEOUT:
            self.case.timeouts += 1  # (told as it commits: the board still shows what came before)
            board_id = update.table.row.board_message_id
            board = self.h.message(board_id) if board_id else None
            shown = board is not None and shows_version(board) == update.version - 1 and f"<@{BOB}>" in board.text
            self.case.unseen_timeouts += not shown

    async def open_tables(self, count: int) -> None:
        h = self.h
        for n in range(count):
            user = h.user(10_000 + n, f"a{n}")
            call = type("C", (), {"json": {"name": f"t{n}", "type": 11}})()
            thread = int(h.server._create_thread(call, {"channel_id": str(h.channel_id)})[1]["id"])
            self.threads.append(thread)
            self.a_tables.append(await h.bot.service.create_seated_table(
                game="akuma", guild_id=h.guild_id, channel_id=thread, seats=seats(user.id, user.name),
                host_id=user.id, seed=n + 1, turn_seconds=self.turn_seconds))
        await self.open_b(999)
        began = time.monotonic()
        while time.monotonic() - began < 120 and any(  # every A board shown, waiting for its person
                not t.row.board_message_id or t.seats[0].player not in t.to_act() for t in self.a_tables):
            await asyncio.sleep(0.05)

    async def open_b(self, seed: int) -> None:
        self.b_table = await self.h.bot.service.create_seated_table(
            game="akuma", guild_id=GUILD_B, channel_id=self.elsewhere, seats=seats(BOB, "bob"), host_id=BOB,
            seed=seed, turn_seconds=self.turn_seconds)

    def now(self) -> float:
        return (time.monotonic() - self.start) * self.scale

    def a_writing(self) -> bool:
        """Some A writer is still answering the last edit (in real time 6 s is plenty; accelerated, it may not be)."""
        tables = self.h.bot.get_cog("TableCog")
        return any(tables.outbox(t.id).writing() for t in self.a_tables)

    def board_current(self, table) -> bool:
        board_id = table.row.board_message_id
        return bool(board_id) and shows_version(self.h.message(board_id)) == table.version

    async def watch_b(self, t: float, tick: float) -> None:
        """B's writers held, B's board behind, and B's person moving once shown their turn."""
        case, table = self.case, self.b_table
        held = self.refusals.wait(GUILD_B) if self.per_server else self.refusals.wait()
        case.b_held += tick * self.scale if held > 0 else 0.0
        if table.status != "running":
            await self.open_b(table.row.seed + 1)
            self.lag_since = self.seen_at = None
            return
        current = self.board_current(table)
        if not current:
            self.lag_since = t if self.lag_since is None else self.lag_since
            lag = t - self.lag_since
            case.longest_lag = max(case.longest_lag, lag)
            if lag > BEHIND_AFTER and not self.lag_counted:  # once per episode
                case.behind, self.lag_counted = case.behind + 1, True
            return
        self.lag_since, self.lag_counted = None, False
        bob = human_player(BOB)
        if bob not in table.to_act():
            self.seen_at = None
            return
        self.seen_at = t if self.seen_at is None else self.seen_at
        if t - self.seen_at >= THINK:
            await move(self.h.bot.service, table, bob)
            case.b_moves += 1
            self.seen_at = None

    def count_refused(self, calls_from: int) -> None:
        a_paths = tuple(f"/channels/{tid}/" for tid in self.threads)
        for minute in range(SIM_MINUTES):
            lo, hi = self.start + minute * 60 / self.scale, self.start + (minute + 1) * 60 / self.scale
            calls = [c for c in self.h.calls[calls_from:] if c.status >= 400 and lo <= c.at < hi]
            self.case.refused_a.append(sum(c.path.startswith(a_paths) for c in calls))
            self.case.refused_b.append(sum(c.path.startswith(f"/channels/{self.elsewhere}") for c in calls))

    async def play(self) -> None:
        import discord

        h, case = self.h, self.case
        ids = "|".join(map(str, self.threads))
        faults = [h.server.faults.fail("POST", rf"/channels/({ids})/messages", status=403, code=50013, times=None),
                  h.server.faults.fail("PATCH", rf"/channels/({ids})/messages/\d+", status=403, code=50013,
                                       times=None)]
        parent = h.server.channels[h.channel_id]
        denied = discord.Permissions(send_messages=True, send_messages_in_threads=True).value

        def edit(deny: int | None, topic: str = "") -> None:
            if deny is not None:
                parent["permission_overwrites"] = [{"id": h.bot_user["id"], "type": 1, "allow": "0",
                                                    "deny": str(deny)}] if deny else []
            parent["topic"] = topic
            h.dispatch("CHANNEL_UPDATE", parent)

        if case.announced:
            edit(denied)
        self.start, calls_from = time.monotonic(), len(h.calls)
        for table in self.a_tables:  # every A table has a move to show
            if table.seats[0].player in table.to_act():
                await move(h.bot.service, table, table.seats[0].player)
        edits, back_at, tick = 0, None, 0.02
        while (t := self.now()) < SIM_MINUTES * 60:
            await asyncio.sleep(tick)
            if edits < 10 and t >= edits * EDITS_EVERY and not self.a_writing():  # ten edits of A's channel
                edits += 1
                edit(denied if case.announced else None, f"edit {edits}")
            if back_at is None and t >= ACCESS_BACK_AT:  # A's access comes back
                back_at = t
                for fault in faults:
                    h.server.faults.faults.remove(fault)
                if case.announced:
                    edit(0)
            if back_at is not None and case.recovery is None and all(map(self.board_current, self.a_tables)):
                case.recovery = t - back_at
            await self.watch_b(t, tick)
        self.count_refused(calls_from)


async def run_case(case: Case, scale: float, count: int) -> None:
    for name, seconds in WAITS.items():  # the base commit lacks some: set anyway, harmless there
        setattr(TableOutbox, name, seconds / scale)
    with tempfile.TemporaryDirectory() as tmp:
        h = await start_harness(Path(tmp) / "bot.db")
        try:
            h.allow_errors(Exception)
            h.server.faults._window_of = lambda call: None  # no rate-limit headers: see the module's docstring
            run = Run(h, case, scale)
            await run.open_tables(count)
            await run.play()
        finally:
            await h.close(check=False)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.one_bad_server")
    parser.add_argument("--scale", type=float, default=12.0, help="time runs this many times faster")
    parser.add_argument("--tables", type=int, default=50, help="tables in the server that loses access")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    cases = [Case(announced=True), Case(announced=False)]
    for case in cases:
        asyncio.run(run_case(case, args.scale, args.tables))
    rows = []
    for case in cases:
        refused = [a + b for a, b in zip(case.refused_a, case.refused_b, strict=True)]
        first = refused[: int(ACCESS_BACK_AT // 60)]  # the minutes without access
        rows.append(["announced" if case.announced else "unannounced", case.behind, f"{case.longest_lag:.0f}",
                     f"{case.unseen_timeouts}/{case.timeouts}", case.b_moves, " ".join(map(str, refused)),
                     f"{sum(first) / len(first):.0f} / {max(first)}", f"{max(case.refused_a)}",
                     f"{max(case.refused_b)}", f"{case.b_held:.0f}",
                     "never" if case.recovery is None else f"{case.recovery:.0f}"])
    print_table(f"One bad server: {args.tables} tables lose access in server A, server B healthy "
                f"(time x{args.scale:g}; simulated seconds)", [
        "loss", "B behind", "B lag s", "B unseen timeouts", "B moves", "refused each min", "refused/min mean/most",
        "A most/min",
        "B most/min", "B held s", "A recovery s"], rows)


if __name__ == "__main__":
    main()
