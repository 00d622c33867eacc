"""The SQLite backend: one aiosqlite connection in WAL mode (``synchronous=FULL``); every write transaction is
``BEGIN IMMEDIATE`` under a lock, so writers queue in the process and the file lock keeps other processes out."""
from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Sequence, TypeVar

import aiosqlite

from .backend import Database, DatabaseUnusable, Row, Tx, migrations
from .claims import FileClaim, file_identify_slot
from .rows import PendingAction

T = TypeVar("T")


class SqliteTx(Tx):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        async with self.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def execute(self, sql: str, *args: Any) -> int:
        cur = await self.conn.execute(sql, args)
        count = cur.rowcount
        await cur.close()
        return count

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(sql, rows)


async def _switch_to_wal(conn: aiosqlite.Connection, patience: float = 30.0) -> None:
    """Switching a fresh file to WAL needs an exclusive lock and SQLite does not wait for it (busy_timeout is not
    consulted), so processes opening one new database together retry here instead of failing at start."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + patience
    delay = 0.01
    while True:
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() > give_up:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.5)


class SqliteDatabase(SqliteTx, Database):
    dialect = "sqlite"
    for_update = ""

    def __init__(self, conn: aiosqlite.Connection, path: str = ":memory:") -> None:
        super().__init__(conn)
        self.path = path
        self._write_lock = asyncio.Lock()
        self._file = None if path == ":memory:" else _identity(path)  # the file opened, to know it is still there

    @classmethod
    async def open(cls, path: str | Path) -> "SqliteDatabase":
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA busy_timeout=30000")  # another process writing: wait instead of failing
        await _switch_to_wal(conn)
        await conn.execute("PRAGMA synchronous=FULL")
        await conn.execute("PRAGMA foreign_keys=ON")
        return cls(conn, str(path))

    async def close(self) -> None:
        await self.conn.close()

    async def health(self) -> str:
        """The file opened is still at its path (deleted or replaced, an open connection goes on writing into a
        file nobody will open again: everything is lost at the next start), and the connection would take a write
        (a write transaction that changes a header field to its own value and rolls back)."""
        if self._file is not None:
            try:
                now = _identity(self.path)
            except FileNotFoundError:
                raise DatabaseUnusable("sqlite: the database file is gone (deleted or moved)") from None
            if now != self._file:
                raise DatabaseUnusable("sqlite: the database file was replaced by another file")
        try:
            async with self._write_lock:
                await in_connection_thread(self.conn, _would_write)
        except ValueError:  # aiosqlite's "no active connection"
            raise DatabaseUnusable("sqlite: the connection is closed") from None
        except sqlite3.Error as error:
            raise DatabaseUnusable(f"sqlite: {getattr(error, 'sqlite_errorname', type(error).__name__)}") from None
        return self.dialect

    async def claim_shards(self, ids: tuple[int, ...]) -> FileClaim:
        return await FileClaim.take(self.path, ids)

    async def identify_slot(self, bucket: int) -> FileClaim:
        return await file_identify_slot(self.path, bucket)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def migrate(self) -> int:
        """The applied number is ``PRAGMA user_version``, read inside the write transaction, so two processes
        starting together apply each migration once."""
        current = 0
        for number, sql in migrations("sqlite"):
            async with self.transaction():
                current = await self.fetchval("PRAGMA user_version")
                if number > current:
                    for statement in filter(str.strip, sql.split(";")):
                        await self.conn.execute(statement)
                    if "writable_schema" in sql:  # the schema's text was edited: connections must re-read it
                        version = await self.fetchval("PRAGMA schema_version")
                        await self.conn.execute(f"PRAGMA schema_version = {int(version) + 1}")
                    await self.conn.execute(f"PRAGMA user_version = {number}")
                    current = number
        return current

    async def write_actions(self, batch: list[PendingAction], now: float) -> set[int]:
        """The whole group commit in one round trip to the connection's thread, however big the batch: on a busy
        loop each round trip waits for a turn of the loop, and statement by statement a batch (at 1,000 tables
        about one action) made seven of them (``python -m bench.service_load``: loop CPU per action)."""
        async with self._write_lock:
            return await in_connection_thread(self.conn, _write_batch, batch, now)


def _identity(path: str) -> tuple[int, int]:
    found = os.stat(path)
    return found.st_dev, found.st_ino


def _would_write(db: sqlite3.Connection) -> None:
    """A write transaction that writes nothing: a read-only file, a full lock or a broken file refuses it. One
    hand-off to the connection's thread, so an impatient caller never leaves it half done."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(f"PRAGMA user_version = {version}")
    finally:
        db.execute("ROLLBACK")


async def in_connection_thread(conn: aiosqlite.Connection, work: Callable[..., T], *args: Any) -> T:
    """``work(sqlite3_connection, *args)`` run on the aiosqlite connection's own thread, in one hand-off. This is
    how every public aiosqlite call runs (``Connection._execute``, the library's one entry to its thread, unchanged
    since 0.17); ``tests/test_storage_thread.py`` fails first if a new aiosqlite changes it."""
    answer: T = await conn._execute(work, conn._conn, *args)
    return answer


def _write_batch(db: sqlite3.Connection, batch: list[PendingAction], now: float) -> set[int]:
    """The group commit's transaction, run on the connection's thread: the actions whose table is still at the
    version they were made for are written (state, log, seat, notices), the others left to their callers."""
    db.execute("BEGIN IMMEDIATE")
    try:
        ids = json.dumps([a.game_id for a in batch])  # one parameter, however many tables
        rows = db.execute("SELECT id, version FROM games WHERE id IN (SELECT value FROM json_each(?))",
                          (ids,)).fetchall()
        versions = {r[0]: r[1] for r in rows}  # read under BEGIN IMMEDIATE: nothing changes them until COMMIT
        done = [a for a in batch if versions.get(a.game_id) == a.expected_version]
        for sql, values in _batch_writes(done, now):
            if values:
                db.executemany(sql, values)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return {a.game_id for a in done}


def _batch_writes(done: list[PendingAction], now: float) -> list[tuple[str, list[tuple[Any, ...]]]]:
    return [
        ("UPDATE games SET version = version + 1, updated_at = ?, state = ?, status = ?, "
         "bot_to_act = ?, deadline = ?, board_shown = COALESCE(?, board_shown) WHERE id = ? AND version = ?",
         [(now, a.state, a.status, int(a.bot_to_act), a.deadline, a.board_shown, a.game_id, a.expected_version)
          for a in done]),
        ("INSERT INTO actions (game_id, seq, player, action, created_at, stand_in) VALUES "
         "(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?)",
         [(a.game_id, a.game_id, a.player, a.action, now, int(a.stand_in)) for a in done]),
        ("UPDATE seats SET timeouts = ?, is_bot = ?, away = ?, showed_up = ? WHERE game_id = ? AND seat = ?",
         [(a.seat.timeouts, int(a.seat.is_bot), int(a.seat.away), int(a.seat.showed_up), a.game_id, a.seat.seat)
          for a in done if a.seat is not None]),
        ("INSERT INTO notices (game_id, player, event) VALUES (?, ?, ?)",
         [(a.game_id, p, e) for a in done for p, e in a.notices]),
    ]
