"""The SQLite group commit runs as one function on aiosqlite's connection thread (``in_connection_thread``, which
uses aiosqlite's own entry to that thread): it runs there and not on the loop, it commits a batch whole, and a
batch that fails rolls back whole and leaves the connection usable."""
from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.rows import PendingAction, SeatRow
from bot.storage.sqlite import SqliteDatabase, in_connection_thread


async def test_work_runs_on_the_connections_own_thread(tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "t.db")
    try:
        seen = await in_connection_thread(db.conn, lambda conn: (threading.get_ident(), conn.execute(
            "SELECT 41 + 1").fetchone()[0]))
        assert seen[1] == 42 and seen[0] not in (threading.get_ident(), threading.main_thread().ident)
    finally:
        await db.close()


def pending(game_id: int, version: int, action: str) -> PendingAction:
    return PendingAction(game_id, version, "p0", action, "{}", "running", False, None, None, [],
                         asyncio.get_running_loop().create_future())


async def test_a_batch_commits_whole_and_a_failing_one_rolls_back_whole(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "g.db")
    try:
        table = await storage.create_game(guild_id=1, channel_id=2, game="akuma", options={}, seed=1, host_id=3,
                                          locale="en", seats=[SeatRow(0, "p0", "alice", 3, False)])
        db = storage.db
        assert isinstance(db, SqliteDatabase)
        row = await storage.get_game(table)
        assert row is not None
        written = await db.write_actions([pending(table, row.version, '{"type": "a"}'),
                                          pending(table, row.version + 5, '{"type": "stale"}')], now=1.0)
        assert written == {table}  # the stale one (another version) is left to its caller
        assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE game_id = ?", table) == 1
        broken = pending(table, row.version + 1, '{"type": "b"}')
        broken.notices = [("p0", None)]  # type: ignore[list-item]  # NOT NULL: the last statement fails
        with pytest.raises(sqlite3.IntegrityError):
            await db.write_actions([broken], now=2.0)
        assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE game_id = ?", table) == 1  # rolled back
        assert await db.fetchval("SELECT version FROM games WHERE id = ?", table) == row.version + 1
        assert await db.write_actions([pending(table, row.version + 1, '{"type": "c"}')], now=3.0) == {table}
    finally:
        await storage.close()
