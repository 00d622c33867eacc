"""The database's health check (issue 56, ``/healthz``), on SQLite and PostgreSQL: it answers what the database is
while it is the one the bot writes and would take a write, and says what is wrong otherwise — the SQLite file
deleted or replaced under the running bot (which would go on writing into a file nobody opens again), a read-only
connection, a closed one; a PostgreSQL server that takes no writes, a closed pool. Nothing is written by it."""
from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import DatabaseUnusable, Storage, parse_url
from bot.storage.sqlite import SqliteDatabase

from .conftest import rows


async def unusable(storage: Storage) -> str:
    with pytest.raises(DatabaseUnusable) as raised:
        await storage.health()
    return raised.value.kind


async def test_a_usable_database_says_what_it_is_and_is_left_unchanged(db_url: str) -> None:
    storage = await Storage.open(db_url)
    try:
        before = await storage.db.fetchval("SELECT COUNT(*) FROM games")
        assert await storage.health() == storage.backend
        assert await storage.health() == storage.backend  # nothing left half done by the first
        async with storage.db.transaction() as tx:  # the bot's writes go on as before
            await tx.execute("UPDATE guild_settings SET web_links = web_links")
        assert await storage.db.fetchval("SELECT COUNT(*) FROM games") == before
    finally:
        await storage.close()


@pytest.mark.parametrize("how", ["deleted", "moved", "replaced"])
async def test_a_sqlite_file_gone_from_under_the_bot_is_unusable(tmp_path: Path, how: str) -> None:
    path = tmp_path / "games.db"
    storage = await Storage.open(path)
    try:
        assert await storage.health() == "sqlite"
        if how == "deleted":
            os.remove(path)
        elif how == "moved":
            os.rename(path, tmp_path / "elsewhere.db")
        else:
            shutil.copy(path, tmp_path / "copy.db")
            os.replace(tmp_path / "copy.db", path)  # a restored backup, say: the bot still writes the old file
        kind = await unusable(storage)
        assert kind == ("sqlite: the database file was replaced by another file" if how == "replaced"
                        else "sqlite: the database file is gone (deleted or moved)")
        assert str(tmp_path) not in kind  # no path in what /healthz tells
    finally:
        await storage.close()


async def test_a_read_only_or_closed_sqlite_connection_is_unusable(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    await (await Storage.open(path)).close()
    conn = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)  # as a read-only mount
    storage = Storage(SqliteDatabase(conn, str(path)))
    try:
        assert await storage.db.fetchval("SELECT COUNT(*) FROM games") == 0  # it reads
        assert await unusable(storage) == "sqlite: SQLITE_READONLY"  # but would take no write
    finally:
        await storage.close()
    assert await unusable(storage) == "sqlite: the connection is closed"
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] > 0  # the probe left the header alone


async def test_a_postgres_server_taking_no_writes_or_a_closed_pool_is_unusable(db_url: str) -> None:
    if parse_url(db_url)[0] != "postgres":
        pytest.skip("PostgreSQL only")
    storage = await Storage.open(db_url)
    try:
        assert await storage.health() == "postgres"
        name = rows(db_url, "SELECT current_database()")[0][0]
        rows(db_url, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        await storage.db.pool.expire_connections()  # its connections come back as the server now makes them
        assert await unusable(storage) == "postgresql: the server takes no writes (read-only)"
        back = await asyncpg.connect(db_url)
        try:
            await back.execute("SET default_transaction_read_only = off")
            await back.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
        finally:
            await back.close()
        await storage.db.pool.expire_connections()
        assert await storage.health() == "postgres"
    finally:
        await storage.close()
    assert (await unusable(storage)).startswith("postgresql: InterfaceError")
