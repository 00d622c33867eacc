"""The two hand-written migration series build one schema: a fresh SQLite file and a fresh PostgreSQL database,
each migrated by ``Storage.open``, are read back from the databases themselves and must have the same tables, the
same columns with compatible types, NOT NULL flags and defaults, the same primary keys, UNIQUE constraints,
foreign keys, CHECK constraints and named indexes. Columns are compared as a set, not in order: ``ALTER TABLE …
ADD COLUMN`` can only append, so two series whose migrations landed in a different order could not be brought back
into one order without rebuilding the table, and no code depends on it (every statement names its columns). Also:
both series are numbered 1..n, and each migration's comment names its counterpart in the other series."""
from __future__ import annotations

import re
import uuid
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import AsyncIterator

import asyncpg
import pytest

from bot.storage import Storage
from bot.storage.backend import migrations

from .conftest import SKIP_POSTGRES
from .pg_server import PgServer, execute
from .schemas import Schema, differences, normalise_check, normalise_default, read_postgres, read_sqlite

# Differences the project accepts, each with its reason: none today (an entry that no longer occurs fails too).
ALLOWED_DIFFERENCES: dict[str, str] = {}


async def migrated_sqlite(tmp_path: Path) -> Schema:
    path = tmp_path / "parity.db"
    storage = await Storage.open(f"sqlite:///{path}")
    await storage.close()
    return read_sqlite(path)


@pytest.fixture
async def postgres_url(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """An empty PostgreSQL database (not the tests' pre-migrated template), migrated by ``Storage.open``."""
    if SKIP_POSTGRES:
        pytest.skip("GAMEHOST_SKIP_POSTGRES=1")
    server: PgServer = request.getfixturevalue("pg_server")
    name = f"parity_{uuid.uuid4().hex[:12]}"
    await execute(server.url("postgres"), f"CREATE DATABASE {name}")
    storage = await Storage.open(server.url(name))
    await storage.close()
    yield server.url(name)
    await execute(server.url("postgres"), f"DROP DATABASE {name}")


async def test_both_backends_migrate_to_the_same_schema(tmp_path: Path, postgres_url: str) -> None:
    sqlite, postgres = await migrated_sqlite(tmp_path), await read_postgres(postgres_url)
    assert len(sqlite.tables) > 5 and sqlite.indexes, "the SQLite schema was not read"  # guards an empty read
    found = differences(sqlite, postgres)
    unexpected = [d for d in found if d not in ALLOWED_DIFFERENCES]
    stale = [d for d in ALLOWED_DIFFERENCES if d not in found]
    assert not unexpected, ("the SQLite and PostgreSQL schemas differ (fix it with a NEW migration in both "
                            "bot/migrations/ and bot/migrations/postgres/):\n  " + "\n  ".join(unexpected))
    assert not stale, "allowed differences that no longer occur (remove them):\n  " + "\n  ".join(stale)


async def test_ids_are_bigint_on_postgresql(postgres_url: str) -> None:
    """SQLite's INTEGER is always 8 bytes; PostgreSQL's is 4, too small for a Discord snowflake, so every id and
    seed there is BIGINT (the kinds above cannot see this: both are integers)."""
    schema = await read_postgres(postgres_url)
    narrow = [f"{table}.{name}: {column.declared}" for table, columns in sorted(schema.tables.items())
              for name, column in columns.columns.items()
              if (name in ("id", "seed") or name.endswith("_id")) and column.declared != "bigint"]
    assert not narrow, "ids and seeds must be BIGINT on PostgreSQL:\n  " + "\n  ".join(narrow)


async def test_every_kind_of_difference_is_named(tmp_path: Path, postgres_url: str) -> None:
    """The comparison can fail: a PostgreSQL database changed behind the migrations' back in each way a migration
    could go wrong is reported line by line, naming the table, column or index."""
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("""
            ALTER TABLE games ALTER COLUMN seed TYPE TEXT;
            ALTER TABLE games ALTER COLUMN deadline TYPE REAL;
            ALTER TABLE games ALTER COLUMN state SET NOT NULL;
            ALTER TABLE games ALTER COLUMN turn_seconds SET DEFAULT 90;
            ALTER TABLE games ADD COLUMN extra REAL;
            ALTER TABLE notices ALTER COLUMN id DROP IDENTITY;
            ALTER TABLE actions DROP CONSTRAINT actions_pkey;
            ALTER TABLE actions ADD PRIMARY KEY (game_id, seq, player);
            ALTER TABLE seats DROP CONSTRAINT seats_game_id_player_key;
            ALTER TABLE seats DROP CONSTRAINT seats_level_check;
            ALTER TABLE seats ADD CHECK (level IN ('easy', 'normal', 'strong', 'master'));
            ALTER TABLE games ADD CHECK (version >= 0);
            ALTER TABLE game_results DROP CONSTRAINT game_results_game_id_fkey;
            ALTER TABLE game_results ADD FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE;
            DROP INDEX games_by_status;
            DROP INDEX games_by_deadline;
            CREATE INDEX games_by_deadline ON games (deadline, status);
            CREATE TABLE scratch (id INTEGER PRIMARY KEY)""")
    finally:
        await conn.close()
    found = differences(await migrated_sqlite(tmp_path), await read_postgres(postgres_url))
    assert found == [
        "table scratch: only in PostgreSQL",
        "actions: primary key (game_id, seq) in SQLite, (game_id, seq, player) in PostgreSQL",
        "game_results: foreign key (game_id) -> games (id) ON DELETE NO ACTION only in SQLite",
        "game_results: foreign key (game_id) -> games (id) ON DELETE CASCADE only in PostgreSQL",
        "games.extra: only in PostgreSQL",
        "games.seed: type integer (SQLite INTEGER) vs text (PostgreSQL text)",
        "games.state: nullable in SQLite, NOT NULL in PostgreSQL",
        "games.turn_seconds: default 120 in SQLite, 90 in PostgreSQL",
        "games.deadline: type real (SQLite REAL) vs float4 (PostgreSQL real)",
        "games: CHECK version >= 0 only in PostgreSQL",
        "notices.id: values generated by the database in SQLite, values given by the code in PostgreSQL",
        "seats: UNIQUE (game_id, player) only in SQLite",
        "seats: CHECK level IN ('easy', 'normal', 'strong') only in SQLite",
        "seats: CHECK level IN ('easy', 'master', 'normal', 'strong') only in PostgreSQL",
        "index games_by_status on games (status): only in SQLite",
        "index games_by_deadline: on games (status, deadline) in SQLite, on games (deadline, status) in PostgreSQL",
    ]


@pytest.mark.parametrize(("sqlite", "postgres"), [
    ("'{}'", "'{}'::text"), ("0", "0"), ("'-1'", "'-1'::integer"), ("(0)", "0"), ("0.0", "'0'::double precision"),
    ("NULL", None), ("'normal'", "'normal'::character varying"),
])
def test_defaults_are_compared_in_one_spelling(sqlite: str, postgres: str | None) -> None:
    assert normalise_default(sqlite) == normalise_default(postgres)
    assert normalise_default("1") != normalise_default("0") and normalise_default("'0'") != normalise_default("'a'")


@pytest.mark.parametrize(("sqlite", "postgres", "other"), [
    ("CHECK (status IN ('lobby', 'running'))", "CHECK ((status = ANY (ARRAY['running'::text, 'lobby'::text])))",
     "CHECK (status IN ('lobby', 'paused'))"),
    ("CHECK (version >= 0)", "CHECK ((version >= 0))", "CHECK (version > 0)"),
    ("CHECK (seats_min <= seats_max AND rounds > 0)", "CHECK (((seats_min <= seats_max) AND (rounds > 0)))",
     "CHECK (seats_min <= seats_max OR rounds > 0)"),
    ("CHECK (tables IN ('thread', 'channel'))",
     "CHECK (((tables)::text = ANY ((ARRAY['thread'::character varying, 'channel'::character varying])::text[])))",
     "CHECK (tables IN ('thread'))"),
    ("CHECK (level IN ('easy') AND seat >= 0)", "CHECK (((level = ANY (ARRAY['easy'::text])) AND (seat >= 0)))",
     "CHECK (level IN ('Easy') AND seat >= 0)"),
])
def test_checks_are_compared_in_one_spelling(sqlite: str, postgres: str, other: str) -> None:
    assert normalise_check(sqlite) == normalise_check(postgres)
    assert normalise_check(other) != normalise_check(postgres)


MIGRATIONS = resources.files("bot") / "migrations"


def migration_files(folder: Traversable) -> dict[int, tuple[str, str]]:
    """number -> (name without the number, text) of each ``NNNN_name.sql`` in ``folder``."""
    found = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number, name = entry.name.removesuffix(".sql").split("_", 1)
            found[int(number)] = (name, entry.read_text(encoding="utf-8"))
    return found


def cited(text: str, series: str) -> set[int]:
    """The numbers of ``series`` ('SQLite' or 'PostgreSQL') a migration's comment names: ``SQLite 0011``,
    ``SQLite migrations 0001-0005``."""
    comment = "\n".join(line for line in text.splitlines() if line.startswith("--"))
    numbers: set[int] = set()
    for first, last in re.findall(rf"{series}(?: migrations?)? (\d{{4}})(?:-(\d{{4}}))?", comment):
        numbers |= set(range(int(first), int(last or first) + 1))
    return numbers


def test_migrations_are_numbered_and_name_their_counterparts() -> None:
    """The numbering rule of ``migrations()`` holds for both series, and each migration's comment names its
    counterpart: the file of the same name in the other series; PostgreSQL's 0001_init is SQLite's 0001-0005 in one
    step (the SQLite migrations no PostgreSQL file shares a name with), and those cite PostgreSQL 0001."""
    assert [n for n, _ in migrations("sqlite")] == sorted(migration_files(MIGRATIONS))
    assert [n for n, _ in migrations("postgres")] == sorted(migration_files(MIGRATIONS / "postgres"))
    sqlite, postgres = migration_files(MIGRATIONS), migration_files(MIGRATIONS / "postgres")
    sqlite_by_name = {name: number for number, (name, _) in sqlite.items()}
    postgres_by_name = {name: number for number, (name, _) in postgres.items()}
    assert postgres[1][0] == "init" and sqlite[1][0] == "init"
    folded = {number for name, number in sqlite_by_name.items() if name not in postgres_by_name or number == 1}
    wrong = []
    for number, (name, text) in sorted(postgres.items()):
        if name not in sqlite_by_name:
            wrong.append(f"postgres/{number:04d}_{name}.sql has no SQLite migration of the same name")
            continue
        expected = folded if number == 1 else {sqlite_by_name[name]}
        if cited(text, "SQLite") != expected:
            wrong.append(f"postgres/{number:04d}_{name}.sql cites SQLite {sorted(cited(text, 'SQLite'))}, "
                         f"expected {sorted(expected)}")
    for number, (name, text) in sorted(sqlite.items()):
        expected = {1} if number in folded else {postgres_by_name[name]}
        if cited(text, "PostgreSQL") != expected:
            wrong.append(f"{number:04d}_{name}.sql cites PostgreSQL {sorted(cited(text, 'PostgreSQL'))}, "
                         f"expected {sorted(expected)}")
    assert not wrong, "migration comments name the wrong counterpart:\n  " + "\n  ".join(wrong)
