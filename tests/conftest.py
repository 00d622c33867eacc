from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, AsyncIterator, Iterator

import pytest

if TYPE_CHECKING:
    from .discord_harness import Harness

from bot.service import GameService
from bot.storage import Storage, parse_url

from .pg_server import PgServer, execute, run_sync

# Locally, GAMEHOST_SKIP_POSTGRES=1 skips the PostgreSQL runs; without it (CI) a server that cannot start FAILS them.
SKIP_POSTGRES = os.environ.get("GAMEHOST_SKIP_POSTGRES") == "1"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server = PgServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database on each backend: a SQLite file, or a new database on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    if SKIP_POSTGRES:
        pytest.skip("GAMEHOST_SKIP_POSTGRES=1")
    return request.getfixturevalue("pg_server").new_database()


def rows(db_url: str | Path, sql: str, *args) -> list[tuple]:
    """Read (or change) the database behind the service's back, on its own connection (``?`` placeholders)."""
    backend, where = parse_url(db_url)
    if backend == "sqlite":
        with sqlite3.connect(where) as conn:
            return conn.execute(sql, args).fetchall()
    counter = iter(range(1, 1000))
    return run_sync(execute(where, re.sub(r"\?", lambda _: f"${next(counter)}", sql), *args))


@pytest.fixture
async def service(db_url: str) -> AsyncIterator[GameService]:
    storage = await Storage.open(db_url)
    yield GameService(storage)
    await storage.close()


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator["Harness"]:
    """The real bot behind the Discord harness, on a fresh SQLite file (Discord-layer tests)."""
    from .discord_helpers import start_harness

    harness = await start_harness(tmp_path / "bot.db")
    yield harness
    await harness.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the worker thread of every SQLite connection a failed test left open (its traceback keeps the harness,
    and so the connection, alive): aiosqlite's threads are not daemons, so one left running would keep the test
    process from exiting after the run, and a red run would hang until CI's time limit instead of failing."""
    import gc

    import aiosqlite

    for connection in [o for o in gc.get_objects() if isinstance(o, aiosqlite.Connection)]:
        if connection._thread.is_alive():
            connection.stop()


def _watch_the_real_bot(harness: "Harness") -> None:
    """Every harness of the real bot checks every message it writes (tests/discord_invariants.py)."""
    from bot.client import GameHostBot

    from .discord_invariants import watch

    if isinstance(harness.bot, GameHostBot):
        watch(harness)


def pytest_configure(config: pytest.Config) -> None:
    from .discord_harness import Harness

    if _watch_the_real_bot not in Harness.watchers:
        Harness.watchers.append(_watch_the_real_bot)
