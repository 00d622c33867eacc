"""SQLite storage through aiosqlite: games, seats, the append-only action log, notices.

One connection in WAL mode; every write is one explicit transaction under a lock, so an
action, its new state and its version bump land together or not at all.
"""
from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator

import aiosqlite


class VersionConflict(Exception):
    """The game's stored version is not the one the writer expected."""


@dataclass
class SeatRow:
    seat: int
    player: str
    name: str
    user_id: int | None = None
    is_bot: bool = False
    timeouts: int = 0  # decisions in a row that ran out of time
    away: bool = False  # handed to a bot after too many timeouts, until the player comes back


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    host_id: int
    locale: str = "en"
    version: int = 0
    state: str | None = None
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    turn_seconds: int = 120
    deadline: float | None = None
    seats: list[SeatRow] = field(default_factory=list)


_GAME_COLUMNS = ("id, guild_id, channel_id, game, options, seed, status, host_id, locale, version, state, "
                 "lobby_message_id, board_message_id, turn_seconds, deadline")
_UPDATABLE = {"status", "version", "state", "lobby_message_id", "board_message_id", "locale", "deadline",
              "turn_seconds"}


def _migrations() -> list[tuple[int, str]]:
    """``bot/migrations/NNNN_name.sql`` in order; numbers must run 1, 2, 3 … without gaps or repeats,
    because a database records only the highest number it has applied."""
    files = resources.files("bot") / "migrations"
    found = sorted((int(e.name.split("_", 1)[0]), e.name, e.read_text(encoding="utf-8"))
                   for e in files.iterdir() if e.name.endswith(".sql"))
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps or repeats: {[f for _, f, _ in found]}")
    return [(n, sql) for n, _, sql in found]


@dataclass
class _PendingAction:
    game_id: int
    expected_version: int
    player: str
    action: str
    state: str
    status: str
    bot_to_act: bool
    deadline: float | None
    seat: SeatRow | None  # a seat whose timeout count (or bot flag) changes with this action
    notices: list[tuple[str, str]]
    done: asyncio.Future[None]


class Storage:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._write_lock = asyncio.Lock()
        self._pending: list[_PendingAction] = []
        self._flusher: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str | Path) -> "Storage":
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=FULL")
        await db.execute("PRAGMA foreign_keys=ON")
        storage = cls(db)
        await storage.migrate()
        return storage

    async def close(self) -> None:
        await self.db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def migrate(self) -> int:
        """Apply, in order, every migration newer than the database; returns the new version."""
        async with self.db.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
        for number, sql in _migrations():
            if number <= current:
                continue
            async with self.transaction() as db:
                for statement in filter(str.strip, sql.split(";")):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")
            current = number
        return current

    # ---- games and seats -----------------------------------------------------------
    async def create_game(self, *, guild_id: int | None, channel_id: int, game: str, options: dict[str, Any],
                          seed: int, host_id: int, locale: str, seats: list[SeatRow], turn_seconds: int = 120) -> int:
        now = time.time()
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, game, options, seed, status, host_id, locale, "
                "turn_seconds, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game, json.dumps(options), seed, host_id, locale, turn_seconds, now, now),
            )
            game_id = cur.lastrowid
            await self._write_seats(db, game_id, seats)
        assert game_id is not None
        return game_id

    @staticmethod
    async def _write_seats(db: aiosqlite.Connection, game_id: int, seats: list[SeatRow]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO seats (game_id, seat, player, user_id, is_bot, name, timeouts, away) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.player, s.user_id, int(s.is_bot), s.name, s.timeouts, int(s.away)) for s in seats],
        )

    async def replace_seats(self, game_id: int, seats: list[SeatRow], *, expected_version: int,
                            host_id: int | None = None, bot_to_act: bool | None = None,
                            deadline: float | None | bool = False) -> None:
        """Rewrite a table's seats (lobby changes, a seat handed to a bot or back); bumps the version.
        ``deadline=False`` leaves the stored deadline as it is."""
        extra: dict[str, Any] = {} if host_id is None else {"host_id": host_id}
        if bot_to_act is not None:
            extra["bot_to_act"] = int(bot_to_act)
        if deadline is not False:
            extra["deadline"] = deadline
        async with self.transaction() as db:
            await self._bump_version(db, game_id, expected_version, **extra)
            await self._write_seats(db, game_id, seats)

    async def update_game(self, game_id: int, **fields: Any) -> None:
        unknown = set(fields) - _UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {unknown}")
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self.transaction() as db:
            await db.execute(f"UPDATE games SET {sets}, updated_at = ? WHERE id = ?",
                             (*fields.values(), time.time(), game_id))

    @staticmethod
    async def _bump_version(db: aiosqlite.Connection, game_id: int, expected: int, **fields: Any) -> None:
        sets = "".join(f", {k} = ?" for k in fields)
        cur = await db.execute(
            f"UPDATE games SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
            (time.time(), *fields.values(), game_id, expected),
        )
        if cur.rowcount != 1:
            raise VersionConflict(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        game = GameRow(**{k: row[k] for k in row.keys()} | {"options": json.loads(row["options"])})
        async with self.db.execute(
            "SELECT seat, player, name, user_id, is_bot, timeouts, away FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,)
        ) as cur:
            game.seats = [SeatRow(r["seat"], r["player"], r["name"], r["user_id"], bool(r["is_bot"]), r["timeouts"],
                                  bool(r["away"])) for r in await cur.fetchall()]
        return game

    async def game_ids(self, *, status: tuple[str, ...], channel_id: int | None = None) -> list[int]:
        marks = ", ".join("?" * len(status))
        sql = f"SELECT id FROM games WHERE status IN ({marks})"
        params: list[Any] = list(status)
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        async with self.db.execute(sql + " ORDER BY id", params) as cur:
            return [r[0] for r in await cur.fetchall()]

    # ---- server settings -------------------------------------------------------------
    async def guild_language(self, guild_id: int) -> str | None:
        async with self.db.execute("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language", (guild_id, language))

    # ---- the action log --------------------------------------------------------------
    async def start_game(self, game_id: int, *, state: str, expected_version: int, bot_to_act: bool,
                         deadline: float | None) -> None:
        async with self.transaction() as db:
            await self._bump_version(db, game_id, expected_version, status="running", state=state,
                                     bot_to_act=int(bot_to_act), deadline=deadline)

    async def commit_action(self, game_id: int, *, expected_version: int, player: str, action: dict[str, Any],
                            state: str, status: str, notices: list[tuple[str, str]], bot_to_act: bool = False,
                            deadline: float | None = None, seat: SeatRow | None = None) -> None:
        """Append the action, write the state and bump the version atomically; returns once committed.

        Group commit: actions of different tables that arrive while a commit is under way are written
        together in the next transaction, so many busy tables share one fsync instead of queueing behind
        each other. Each action is still all-or-nothing and is only acknowledged after its commit.
        """
        done = asyncio.get_running_loop().create_future()
        self._pending.append(_PendingAction(game_id, expected_version, player, json.dumps(action), state, status,
                                            bot_to_act, deadline, seat, notices, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_pending())
        await done

    async def _flush_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._write_actions(batch)
            except Exception as error:
                if len(batch) == 1:
                    batch[0].done.set_exception(error)
                    continue
                for item in batch:  # find the one that failed: the others still commit, one by one
                    try:
                        await self._write_actions([item])
                    except Exception as single:
                        item.done.set_exception(single)
                    else:
                        item.done.set_result(None)
                continue
            for item in batch:
                item.done.set_result(None)

    async def _write_actions(self, batch: list[_PendingAction]) -> None:
        now = time.time()
        async with self.transaction() as db:
            cur = await db.executemany(
                "UPDATE games SET version = version + 1, updated_at = ?, state = ?, status = ?, bot_to_act = ?, "
                "deadline = ? WHERE id = ? AND version = ?",
                [(now, a.state, a.status, int(a.bot_to_act), a.deadline, a.game_id, a.expected_version)
                 for a in batch])
            if cur.rowcount != len(batch):
                raise VersionConflict([a.game_id for a in batch])
            await db.executemany(
                "INSERT INTO actions (game_id, seq, player, action, created_at) VALUES "
                "(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?)",
                [(a.game_id, a.game_id, a.player, a.action, now) for a in batch])
            seats = [(a.seat.timeouts, int(a.seat.is_bot), int(a.seat.away), a.game_id, a.seat.seat)
                     for a in batch if a.seat is not None]
            if seats:
                await db.executemany("UPDATE seats SET timeouts = ?, is_bot = ?, away = ? WHERE game_id = ? AND seat = ?",
                                     seats)
            notices = [(a.game_id, p, e) for a in batch for p, e in a.notices]
            if notices:
                await db.executemany("INSERT INTO notices (game_id, player, event) VALUES (?, ?, ?)", notices)

    async def with_deadlines(self) -> list[int]:
        """Running tables waiting on a person's decision under a turn timer (what a restart must time again)."""
        async with self.db.execute(
                "SELECT id FROM games WHERE status = 'running' AND deadline IS NOT NULL ORDER BY deadline") as cur:
            return [r[0] for r in await cur.fetchall()]

    async def waiting_on_bots(self) -> list[int]:
        """Running tables whose next decision belongs to a bot seat (what a restart must wake)."""
        async with self.db.execute(
                "SELECT id FROM games WHERE status = 'running' AND bot_to_act = 1 ORDER BY id") as cur:
            return [r[0] for r in await cur.fetchall()]

    async def actions(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        async with self.db.execute(
            "SELECT player, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ) as cur:
            return [(r[0], json.loads(r[1])) for r in await cur.fetchall()]

    async def take_notices(self, game_id: int, player: str) -> list[str]:
        """Pending private events for a player, oldest first; they are removed once taken."""
        async with self.transaction() as db:
            async with db.execute("SELECT id, event FROM notices WHERE game_id = ? AND player = ? ORDER BY id",
                                  (game_id, player)) as cur:
                rows = await cur.fetchall()
            if rows:
                await db.execute(f"DELETE FROM notices WHERE id IN ({', '.join('?' * len(rows))})",
                                 [r[0] for r in rows])
        return [r[1] for r in rows]

    async def peek_notices(self, game_id: int, player: str) -> list[tuple[int, str]]:
        """Pending private events for a player, oldest first, with their ids; nothing is removed."""
        async with self.db.execute("SELECT id, event FROM notices WHERE game_id = ? AND player = ? ORDER BY id",
                                   (game_id, player)) as cur:
            return [(int(r[0]), r[1]) for r in await cur.fetchall()]

    async def drop_notices(self, game_id: int, player: str, up_to_id: int) -> None:
        """Remove a player's notices up to ``up_to_id`` (once the message showing them was delivered)."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM notices WHERE game_id = ? AND player = ? AND id <= ?",
                             (game_id, player, up_to_id))
