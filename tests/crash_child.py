"""The child process of the crash-safety test (``tests/test_crash_safety.py``): the real bot, killed at random.

``python -m tests.crash_child --db DB --dir DIR --life N [--finish]`` runs a ``GameHostBot`` (all its cogs, on the
SQLite file DB) behind the fake Discord edge of ``tests.discord_harness``, and plays an endless scripted series of
tables of every registered game that has a Discord module — one channel per game, two people (``alice`` hosts,
``bob`` joins) and bot seats, every move made by clicking through hand views (``tests.ui_driver``).

Files in DIR, all append-only so a SIGKILL at any moment leaves them readable:
- ``messages.jsonl``: every message the fake Discord stored or edited (its full payload), written as the request is
  answered — Discord keeps a message once it has answered, so a restarted bot finds the old board and hand
  messages (``Harness.adopt``) and their buttons can be clicked again; ``{"thread": …}`` lines are the threads
  Discord opened (each table plays in its own thread), which a restarted bot finds again the same way;
- ``journal.jsonl``: one record per *acknowledged* action (table, version, player, action), written, flushed and
  fsynced only after the bot's answer to that click came back;
- ``lives.jsonl``: what each start found and checked — games resumed where they were (memory = database =
  replay of the action log), tables waiting on a bot moved on, stored turn-timer deadlines re-armed, every
  earlier acknowledged action present in the database, old buttons that still worked.

``--finish`` plays every open table to its end (and at least one whole game of each kind), then closes cleanly.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.client import GameHostBot
from bot.errors import HostError
from bot.settings import Settings
from cogs.controls import action_of
from engines import EngineError, get_engine

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import JOIN, START, lift_limits
from .ui_driver import playable_games

ALICE, BOB = 101, 102
BOT_DELAY = 0.02  # > 0, so a kill can land while a bot "thinks"


def channel_names() -> list[str]:
    return [f"t-{g}" for g in playable_games()]


# ---- checks shared with the parent test ------------------------------------------------------------------------
def replay(db: sqlite3.Connection, game_id: int) -> tuple[str | None, str | None, list[tuple[str, dict]], int]:
    """(stored state, state replayed from new_game + the action log, the log, stored version)."""
    game, seed, options, state, version, _status = db.execute(
        "SELECT game, seed, options, state, version, status FROM games WHERE id = ?", (game_id,)).fetchone()
    log = [(p, json.loads(a)) for p, a in db.execute(
        "SELECT player, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
    if state is None:
        return None, None if not log else "actions without a state", log, version
    engine = get_engine(game)
    players = [p for (p,) in db.execute("SELECT player FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]
    replayed = engine.new_game(players, seed=seed, options=json.loads(options))
    for player, data in log:
        replayed, _ = engine.apply(replayed, player, engine.parse_action(data))
    return state, engine.dump(replayed), log, version


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut short by a kill: never acknowledged
            pass
    return out


def verify(db_path: Path, journal: Path) -> dict[str, Any]:
    """Every acknowledged action is in the action log at its version; every game's state is the replay of its log."""
    db = sqlite3.connect(db_path)
    problems: list[str] = []
    games = [r[0] for r in db.execute("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id")]
    logs = {}
    for gid in games:
        stored, replayed, log, version = replay(db, gid)
        if stored != replayed:
            problems.append(f"table {gid}: stored state differs from the replay of its {len(log)} actions")
        logs[gid] = (log, version - len(log))  # the version the first action was made at
    acks = [r for r in read_jsonl(journal) if r.get("kind") == "act"]
    for ack in acks:
        log, first = logs.get(ack["gid"], ([], 0))
        index = ack["ver"] - first
        if not 0 <= index < len(log) or log[index] != (ack["player"], ack["action"]):
            problems.append(f"acknowledged action lost or changed: {ack}")
    starts = [r for r in read_jsonl(journal) if r.get("kind") == "start"]
    for start in starts:
        if start["gid"] not in logs:
            problems.append(f"acknowledged start of table {start['gid']} lost")
    finished = db.execute("SELECT game, COUNT(*) FROM games WHERE status = 'finished' GROUP BY game").fetchall()
    db.close()
    return {"problems": problems, "acks": len(acks), "starts": len(starts), "games": len(games),
            "finished": dict(finished)}


# ---- the child ---------------------------------------------------------------------------------------------------
class Child:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dir = Path(args.dir)
        self.rng = random.Random(args.seed * 1000 + args.life)
        self.journal = open(self.dir / "journal.jsonl", "a", encoding="utf-8")
        self.messages_out = open(self.dir / "messages.jsonl", "a", encoding="utf-8")
        self.old_messages: set[int] = set()
        self.life: dict[str, Any] = {"life": args.life, "finish": args.finish}

    def ack(self, record: dict[str, Any]) -> None:
        self.journal.write(json.dumps(record) + "\n")
        self.journal.flush()
        os.fsync(self.journal.fileno())

    def persist_messages(self, h: Harness) -> None:
        """Record every message the fake Discord creates or edits, as soon as the request is answered."""
        server = h.server
        touched: set[int] = set()
        update, handle = server.update_message, server.handle

        def update_message(p: dict, body: dict, files: dict) -> dict:
            touched.add(int(p["id"]))
            return update(p, body, files)

        def handle_call(call: Any) -> Any:
            touched.clear()
            response = handle(call)
            if call.route.endswith("/threads") and call.status == 201:
                self.messages_out.write(json.dumps({"thread": call.response}) + "\n")
            for mid in sorted(touched):
                if mid in server.messages:
                    self.messages_out.write(json.dumps(server.messages[mid]) + "\n")
            self.messages_out.flush()
            return response

        server.update_message, server.handle = update_message, handle_call  # type: ignore[method-assign]

    def adopt_messages(self, h: Harness) -> None:
        latest: dict[int, dict] = {}
        for payload in read_jsonl(self.dir / "messages.jsonl"):
            if "thread" in payload:  # a table's thread: Discord keeps it
                h.server.channels[int(payload["thread"]["id"])] = payload["thread"]
                continue
            latest[int(payload["id"])] = payload
        for payload in latest.values():
            h.adopt(payload)
        self.old_messages = set(latest)

    def before_start(self) -> dict[str, Any]:
        db = sqlite3.connect(self.args.db)
        try:
            waiting = dict(db.execute("SELECT id, version FROM games WHERE status='running' AND bot_to_act=1"))
            deadlines = dict(db.execute("SELECT id, deadline FROM games WHERE status='running' AND deadline IS "
                                        "NOT NULL"))
        except sqlite3.OperationalError:  # the first life: no tables yet
            waiting, deadlines = {}, {}
        db.close()
        return {"waiting": waiting, "deadlines": deadlines}

    async def check_resume(self, h: Harness, before: dict[str, Any]) -> None:
        """Games resume where they were; bot tables moved on; stored deadlines re-armed; earlier acks kept."""
        bot: Any = h.bot
        db = sqlite3.connect(self.args.db)
        problems: list[str] = []
        running = [gid for (gid,) in db.execute("SELECT id FROM games WHERE status = 'running'")]
        for gid in running:
            table = await bot.service.table(gid)
            stored, replayed, _, version = replay(db, gid)
            if not (stored == replayed == table.engine.dump(table.state) and version == table.version):
                problems.append(f"table {gid} did not resume where it was")
            if table.status == "running" and any(table.is_bot(p) for p in table.to_act()):
                problems.append(f"table {gid} still waits on a bot after the restart")
        for gid, version in before["waiting"].items():
            table = await bot.service.table(gid)
            if table.version == version:
                problems.append(f"table {gid} waited on a bot and was not woken")
        rearmed = 0
        for gid, deadline in before["deadlines"].items():
            table = await bot.service.table(gid)
            task = bot.timers._tasks.get(gid)
            if table.row.deadline == deadline:
                if task is None or task.done():
                    problems.append(f"table {gid}: stored deadline {deadline} not re-armed")
                rearmed += 1
        db.close()
        earlier = verify(Path(self.args.db), self.dir / "journal.jsonl")
        problems += earlier["problems"]
        self.life.update(running=len(running), woken=len(before["waiting"]), rearmed=rearmed,
                         acks_checked=earlier["acks"], problems=problems)
        self.write_life()
        if problems:
            raise SystemExit("resume checks failed:\n" + "\n".join(problems))

    def write_life(self) -> None:
        with open(self.dir / "lives.jsonl", "a", encoding="utf-8") as out:
            out.write(json.dumps(self.life) + "\n")
            out.flush()
            os.fsync(out.fileno())

    async def old_hand_clicks(self, h: Harness, users: dict[int, Any]) -> int:
        """Click an action button of the newest hand view each person got before the restart."""
        clicked = 0
        bot: Any = h.bot
        for gid in await bot.storage.game_ids(status=("running",)):
            table = await bot.service.table(gid)
            for uid, user in users.items():
                hands = [h.message(i) for i in sorted(self.old_messages)
                         if h.server.messages[i].get("interaction_metadata", {}).get("user", {}).get("id") == str(uid)]
                hands = [m for m in hands if any(str(c.get("custom_id", "")).startswith(f"gh:do:{gid}:")
                                                 and not c.get("disabled") for c in m.components)]
                if not hands or table.status != "running":
                    continue
                button = next(c for c in hands[-1].components if str(c.get("custom_id", "")).startswith(
                    f"gh:do:{gid}:") and not c.get("disabled"))
                version = table.version
                m = ui_driver.DO.fullmatch(button["custom_id"])
                action = action_of(table, f"u{uid}", m["code"])  # what it names now (it is played only if current)
                r = await h.click(user, hands[-1], button["custom_id"])
                assert r.responded and r.ephemeral, f"an old hand button got no ephemeral answer: {r}"
                applied = r.callbacks[0]["type"] == 7 and table.version > version
                assert applied or "moved on" in r.text or "⚠️" in r.text, r.text
                if applied:
                    assert action is not None
                    self.ack({"kind": "act", "gid": gid, "ver": int(m["ver"]), "player": f"u{uid}",
                              "action": action.model_dump(mode="json"), "old_button": True})
                clicked += 1
        return clicked

    async def step(self, h: Harness, game: str, users: dict[int, Any], finishing: bool) -> bool:
        """One thing to do at this game's channel; False once it has nothing left (finish mode)."""
        bot: Any = h.bot
        cid = h.channel_ids[f"t-{game}"]
        alice, bob = users[ALICE], users[BOB]
        tables = await bot.service.tables_in_channel(cid)
        if not tables:
            done = await bot.storage.db.fetch(
                "SELECT COUNT(*) FROM games WHERE game = ? AND status = 'finished'", game)
            if finishing and done[0][0] >= 1:
                return False
            engine = get_engine(game)
            await h.slash(alice, f"play {game}", channel=cid, bots=max(engine.min_players, 3) - 2)
            return True
        table = tables[0]
        if table.status == "lobby":
            if table.row.lobby_message_id not in h.server.messages:  # killed before the lobby was posted
                await h.slash(alice, "game end", channel=cid)
                return True
            lobby = h.message(table.row.lobby_message_id)
            if table.seat_of_user(BOB) is None and len(table.seats) < table.engine.max_players:
                await h.click(bob, lobby, label=JOIN)
            else:
                r = await h.click(alice, lobby, label=START)
                if r.responded and table.status != "lobby":
                    self.ack({"kind": "start", "gid": table.id})
            return True
        due = table.user_ids_to_act()
        if not due:
            await h.settle()
            due = table.user_ids_to_act()
            if not due and table.status == "running":
                raise AssertionError(f"table {table.id} is stuck: {table.to_act()} must act")
            return True
        acted = await ui_driver.act(h, users[due[0]], table, self.rng)
        if acted.applied:
            self.ack({"kind": "act", "gid": acted.game_id, "ver": acted.version, "player": acted.player,
                      "action": acted.action})
        return True

    async def run(self) -> None:
        before = self.before_start()
        settings = Settings(_env_file=None, discord_token=None, database_path=Path(self.args.db),
                            bot_move_delay=BOT_DELAY)
        h = Harness(GameHostBot(settings, sync_commands=False), channels=channel_names())
        self.persist_messages(h)
        self.adopt_messages(h)
        await h.start()
        h.allow_errors(HostError, EngineError)
        await lift_limits(h)  # alice hosts a table in every game's channel, one after another
        users = {ALICE: h.user(ALICE, "alice"), BOB: h.user(BOB, "bob")}
        await self.check_resume(h, before)
        self.life["old_hand_clicks"] = await self.old_hand_clicks(h, users)
        self.write_life()
        games = playable_games()
        active = set(games)
        while active:
            for game in games:
                if game in active and not await self.step(h, game, users, self.args.finish):
                    active.discard(game)
            old = sum(1 for r in h.server.replies.values() if r.source_message_id in self.old_messages)
            if old != self.life.get("old_clicks"):
                self.life["old_clicks"] = old
                self.write_life()
        await h.close()
        self.life["closed"] = True
        self.write_life()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--life", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--finish", action="store_true")
    args = parser.parse_args()
    asyncio.run(Child(args).run())


if __name__ == "__main__":
    sys.exit(main())
