"""Bad input (issue 7, item 4): random and malformed interactions against running tables of every game.

The real bot (``GameHostBot`` with its cogs, on a SQLite file) runs tables of every registered game that has a
Discord module, each waiting on a person. The fuzzer (``tests/fuzz_inputs.py``) then sends raw interactions that
Discord's client would never send, or that a person may send but must be refused: clicks by someone not seated or
by the wrong seat, garbled, forged, overlong and unicode custom_ids, huge numbers, stale versions, codes of other
games, select values that were not offered (other players' cards, oversized, too many), controls forged onto
messages that do not have them or onto public messages, controls clicked in another server naming this
server's tables (by an admin there), unknown tables, lobby buttons that must be refused, slash
commands with out-of-range or unknown options, unknown modals. For every input: a clear ephemeral answer (flag 64,
or an edit of the sender's own ephemeral hand), no exception anywhere (the harness collects them; errors logged by
the bot count too), and no change to any game state (``engine.dump``), to the database (a checksum of the games,
seats and actions tables) or to any public message. Between batches every table moves on by one real move, so the
inputs meet many different decisions.

The default and ``GAMEHOST_FULL=1`` (CI) send 3,000 inputs (about 13 s), ``GAMEHOST_SOAK=1`` 12,000
(``tests/suite_level.py``).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import sqlite3
from collections import Counter
from pathlib import Path

import discord
from discord import app_commands

from bot.errors import HostError
from bot.i18n import t as text
from cogs.controls import action_of
from engines import EngineError

from . import ui_driver
from .discord_harness import Harness, HarnessError, HarnessUser
from .discord_helpers import JOIN, START, lift_limits, make_bot
from .fuzz_inputs import Generators, Input, Table, send_raw
from .suite_level import count
from .ui_driver import playable_games as playable

COUNT = int(os.environ.get("GAMEHOST_FUZZ_COUNT", count(quick=3_000, full=3_000, soak=12_000)))
BATCH = 300  # inputs between two real moves at every table
SEED = int(os.environ.get("GAMEHOST_FUZZ_SEED", 7))
ALICE, BOB, CAROL, MALLORY = 101, 102, 103, 104
GUILD_B = 800_000_000_000_000_001  # another server the bot is in


class BotErrors(logging.Handler):
    """Errors the bot logs itself (``reply_error`` logs unexpected exceptions before apologising)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def checksum(db: sqlite3.Connection) -> str:
    digest = hashlib.sha256()
    for name in ("games", "seats", "actions"):
        for row in db.execute(f"SELECT * FROM {name} ORDER BY rowid"):
            digest.update(repr(row).encode())
    return digest.hexdigest()


def snapshot(h: Harness, db: sqlite3.Connection, forged: set[int], *, full: bool = False) -> tuple:
    """Game states in memory, the database, the public messages. Cheap form (every input): the database's
    ``data_version`` (it moves whenever another connection — the bot's — commits) and each public message's last
    edit; full form (every batch): a checksum of the games, seats and actions tables and every public payload."""
    tables = sorted((tb.id, tb.version, tb.status, repr(tb.seats), tb.engine.dump(tb.state) if tb.state else None)
                    for tb in h.bot.service._tables.values())  # type: ignore[attr-defined]
    messages = [m for cid in h.channel_ids.values() for m in h.channel_messages(cid) if m.id not in forged]
    if not full:
        return db.execute("PRAGMA data_version").fetchone(), tables, [(m.id, m.payload["edited_timestamp"])
                                                                     for m in messages]
    return checksum(db), tables, [(m.id, json.dumps(m.payload)) for m in messages]


def bad_commands(h: Harness, lobby_id: int, table_ids: list[int]) -> list[tuple[str, list[dict]]]:
    """Slash commands (by someone who is not a table's host) with options Discord's client would refuse, or
    that the bot must refuse: out of range, not a choice, unknown table numbers, unknown (sub)commands."""
    out: list[tuple[str, list[dict]]] = []
    play = h.bot.tree.get_command("play")
    for sub in play.commands:  # type: ignore[union-attr]
        for p in sub.parameters:
            bad: list = []
            if p.type.value == 4:
                low = None if p.min_value is None else p.min_value - 1
                high = None if p.max_value is None else p.max_value + 1
                bad += [v for v in (low, high, -2 ** 53, 2 ** 53) if v is not None]
            if p.choices:
                bad += ["zzz", "", "random" * 30]
            elif p.type.value == 3:
                bad += ["¿?" * 40, "R99", "\x00"]
            out += [("play", [{"type": 1, "name": sub.name, "options": [{"name": p.display_name,
                                                                         "type": p.type.value, "value": v}]}])
                    for v in bad]
    numbers = [-1, 0, 2 ** 63, 10 ** 30, 987_654, lobby_id, *table_ids]
    for sub in ("end", "status"):
        out += [("game", [{"type": 1, "name": sub, "options": [{"name": "table", "type": 4, "value": v}]}])
                for v in numbers]
    out += [("game", [{"type": 1, "name": "leave", "options": []}]), ("nosuch", []),
            ("play", [{"type": 1, "name": "nosuch", "options": []}]),
            ("rules", [{"name": "game", "type": 3, "value": "zzz"}])]
    timer = h.bot.tree.get_command("game").get_command("timer")  # type: ignore[union-attr]
    if timer is not None:
        out += [("game", [{"type": 1, "name": "timer", "options": [{"name": "seconds", "type": 4, "value": v}]}])
                for v in (-5, 30, 10 ** 12)]
    return out


async def open_table(h: Harness, game: str, channel: int, alice: HarnessUser, bob: HarnessUser) -> int:
    from engines import get_engine

    for stray in await h.bot.service.tables_in_channel(channel):  # type: ignore[attr-defined]
        await h.bot.service.end(stray.id, alice.id, is_admin=True)  # type: ignore[attr-defined]
    await h.settle()
    r = await h.slash(alice, f"play {game}", channel=channel, bots=max(get_engine(game).min_players, 3) - 2)
    await h.click(bob, r.message, label=JOIN)
    await h.click(alice, r.message, label=START)
    tables = await h.bot.service.tables_in_channel(channel)  # type: ignore[attr-defined]
    return tables[0].id


async def describe(h: Harness, gid: int, users: dict[int, HarnessUser]) -> Table:
    table = await h.bot.service.table(gid)  # type: ignore[attr-defined]
    due_id = table.user_ids_to_act()[0]
    due, other = users[due_id], users[BOB if due_id == ALICE else ALICE]
    hand = await ui_driver.open_hand(h, due, table)
    player = f"u{due_id}"
    secrets = sorted({c for p in table.state.players if p != player for c in table.view(p).hand or []})
    return Table(gid, table.row.game, table.version, table.row.channel_id, due, other,
                 ui_driver.hand_entry(h, table), hand, secrets)  # type: ignore[arg-type]


async def advance(h: Harness, gid: int, users: dict[int, HarnessUser], rng: random.Random, channel: int,
                  game: str) -> int:
    """One real move at the table (bots then move until a person is due); a new table once it is over."""
    table = await h.bot.service.table(gid)  # type: ignore[attr-defined]
    if table.status == "running":
        await ui_driver.act(h, users[table.user_ids_to_act()[0]], table, rng)
    if table.status != "running":
        return await open_table(h, game, channel, users[ALICE], users[BOB])
    return gid


def legal_code(h: Harness, tb: Table, code: str) -> bool:
    table = h.bot.service._tables[tb.id]  # type: ignore[attr-defined]
    player = f"u{tb.due.id}"
    action = action_of(table, player, code)
    return action is not None and table.engine.is_legal(table.state, player, action)


def check_answer(inp: Input, reply, h: Harness) -> str | None:
    """Why this answer is not a clear ephemeral one (None when it is)."""
    if not reply.callbacks:
        return "no answer (Discord: 'This interaction failed')"
    kind = reply.callbacks[0]["type"]
    if kind == 7:
        if not (inp.message is not None and h.message(inp.message.id).ephemeral):
            return "edited a public message"
    elif kind not in (4, 5) or not reply.messages or not all(m.ephemeral for m in reply.messages):
        return f"answer not ephemeral (callback {kind})"
    body = reply.text.strip()
    if not body:
        return "empty answer"
    if text("error.unexpected", "en") in body:
        return "only the generic apology (an unexpected error)"
    return None


async def test_fuzzed_interactions_are_refused_clearly_and_change_nothing(tmp_path: Path) -> None:
    games = playable()
    assert games
    db = tmp_path / "fuzz.db"
    h = await Harness(make_bot(db), channels=[*games, "lobby"]).start()
    h.allow_errors(HostError, EngineError, app_commands.CommandNotFound)  # answered by the bot (checked below)
    errors = BotErrors()
    conn = sqlite3.connect(db)
    for name in ("bot", "cogs", "discord"):
        logging.getLogger(name).addHandler(errors)
    try:
        await lift_limits(h)  # alice opens a table in each game's channel at once
        users = {ALICE: h.user(ALICE, "alice"), BOB: h.user(BOB, "bob")}
        stranger = h.user(CAROL, "carol")
        admin_elsewhere = h.user(MALLORY, "mallory", permissions=discord.Permissions.all())
        elsewhere = (h.add_guild(GUILD_B)["elsewhere"], admin_elsewhere)
        rng = random.Random(SEED)
        gids = {g: await open_table(h, g, h.channel_ids[g], users[ALICE], users[BOB]) for g in games}
        for _ in range(4):  # a few real moves first, so every game's real button codes are known
            for g in games:
                gids[g] = await advance(h, gids[g], users, rng, h.channel_ids[g], g)
        lobby = await h.slash(users[ALICE], f"play {games[0]}", channel="lobby")
        lobby_tables = await h.bot.service.tables_in_channel(h.channel_ids["lobby"])  # type: ignore[attr-defined]
        counts: Counter[str] = Counter()
        failures: list[str] = []
        forged: set[int] = set()
        sent = 0
        while sent < COUNT:
            codes: dict[str, list[str]] = {g: [] for g in games}
            for message_id in h.server.messages:
                for c in h.message(message_id).components:
                    m = ui_driver.DO.fullmatch(c.get("custom_id") or "")
                    known_table = h.bot.service._tables.get(int(m["gid"])) if m else None  # type: ignore
                    if known_table is not None and message_id not in forged:
                        codes[known_table.row.game].append(m["code"])
            codes = {g: sorted(set(cs)) or ["?"] for g, cs in codes.items()}
            tables = [await describe(h, gids[g], users) for g in games]
            gen = Generators(h, rng, tables, stranger, (lobby_tables[0].id, h.channel_ids["lobby"], lobby.message),
                             codes, bad_commands(h, lobby_tables[0].id, list(gids.values())), users[BOB],
                             lambda tb, code: legal_code(h, tb, code), elsewhere)
            before, before_full = snapshot(h, conn, forged), snapshot(h, conn, forged, full=True)
            for _ in range(min(BATCH, COUNT - sent)):
                known = set(h.server.messages)
                inp = gen.make()
                forged |= set(h.server.messages) - known
                try:
                    reply = await send_raw(h, inp)
                    problem = check_answer(inp, reply, h)
                except HarnessError as error:  # an exception escaped somewhere in the bot
                    reply, problem = None, f"exception: {str(error).splitlines()[-1][:300]}"
                sent += 1
                counts[inp.kind] += 1
                if errors.records:
                    problem = f"the bot logged an error: {errors.records[0].getMessage()}"
                    errors.records.clear()
                if problem is None and snapshot(h, conn, forged) != before:
                    problem = "something changed (game state, database or a public message)"
                    before, before_full = snapshot(h, conn, forged), snapshot(h, conn, forged, full=True)
                if problem:
                    answer = reply.text[:200] if reply else None
                    failures.append(f"{inp.kind} {inp.data!r:.300}: {problem}; answer {answer!r}")
                for mid in set(h.server.messages) - known:  # forged messages and ephemeral answers: done with
                    if mid in forged or h.server.messages[mid]["flags"] & 64:
                        del h.server.messages[mid]
                        forged.discard(mid)
            if snapshot(h, conn, forged, full=True) != before_full:
                failures.append("the batch changed the database or a public message (full checksum)")
            for g in games:
                gids[g] = await advance(h, gids[g], users, rng, h.channel_ids[g], g)
        print(f"\nfuzz: {sent} inputs by kind: {json.dumps(dict(sorted(counts.items())))}; failures: {len(failures)}")
        assert not failures, f"{len(failures)} of {sent} inputs were mishandled:\n" + "\n".join(failures[:40])
        assert sent >= COUNT and len(counts) == len(gen.kinds)
    finally:
        for name in ("bot", "cogs", "discord"):
            logging.getLogger(name).removeHandler(errors)
        conn.close()
        await h.close(check=False)
