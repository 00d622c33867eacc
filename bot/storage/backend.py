"""The two database backends behind the storage seam share this small interface. SQL is written once with ``?``
placeholders in the subset both SQLite and PostgreSQL understand; a backend adapts placeholders and runs it.

Only the storage package uses it: nothing else holds a connection or writes SQL.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from .rows import PendingAction

Row = Any  # aiosqlite.Row or asyncpg.Record: both index by position and by column name
Param = int | float | str | bytes | None  # a value a statement binds to a placeholder (a column's value)


class Tx(ABC):
    """Statements inside one transaction (or, on ``Database`` itself, single autocommitted reads)."""

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class DatabaseUnusable(Exception):
    """The database cannot take the bot's writes; ``kind`` says how, for an operator (no path, no password)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class Database(Tx):
    dialect: str
    for_update: str  # " FOR UPDATE" where row locks exist (PostgreSQL); SQLite locks the whole file instead

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    async def migrate(self) -> int:
        """Apply every migration of this backend the database lacks, once, even with several processes."""

    @abstractmethod
    async def write_actions(self, batch: list[PendingAction], now: float) -> set[int]:
        """Group commit: write every action of ``batch`` (distinct tables) in one transaction; returns the ids
        of the games whose version matched (those actions are committed), the others changed nothing."""

    @abstractmethod
    async def health(self) -> str:
        """Check that this is still the database the bot writes and that it would take a write (nothing is
        written); returns what it is, or raises ``DatabaseUnusable`` saying what is wrong."""

    @abstractmethod
    async def claim_shards(self, ids: tuple[int, ...]) -> Any:
        """Own these shards exclusively until ``release()`` (or the process ends); ``ShardsTaken`` if another
        process owns any of them."""

    @abstractmethod
    async def identify_slot(self, bucket: int) -> Any:
        """Wait for the cross-process IDENTIFY slot of ``bucket`` (held until ``release()``)."""

    @abstractmethod
    async def close(self) -> None: ...


def migrations(backend: str) -> list[tuple[int, str]]:
    """``bot/migrations/NNNN_name.sql`` (SQLite) or ``bot/migrations/postgres/NNNN_name.sql`` in order; numbers
    must run 1, 2, 3 … without gaps or repeats."""
    files = resources.files("bot") / "migrations"
    if backend == "postgres":
        files = files / "postgres"
    found = sorted((int(e.name.split("_", 1)[0]), e.name, e.read_text(encoding="utf-8"))
                   for e in files.iterdir() if e.name.endswith(".sql"))
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps or repeats: {[f for _, f, _ in found]}")
    return [(n, sql) for n, _, sql in found]


def parse_url(target: str | Path) -> tuple[str, str]:
    """(backend, where): ``sqlite:///relative.db``, ``sqlite:////absolute.db``, a bare path (SQLite), or
    ``postgresql://user@host/db`` / ``postgres://…``."""
    text = str(target)
    if text.startswith(("postgresql://", "postgres://")):
        return "postgres", text
    if text.startswith("sqlite://"):
        return "sqlite", text.removeprefix("sqlite://").removeprefix("/") or ":memory:"
    if "://" in text:
        raise ValueError(f"unsupported database URL scheme: {text.split('://', 1)[0]}")
    return "sqlite", text


async def open_database(target: str | Path, **options: Any) -> Database:
    backend, where = parse_url(target)
    if backend == "postgres":
        from .postgres import PostgresDatabase

        return await PostgresDatabase.open(where, **options)
    from .sqlite import SqliteDatabase

    return await SqliteDatabase.open(where)
