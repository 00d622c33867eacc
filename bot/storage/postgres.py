"""The PostgreSQL backend: an asyncpg pool. Writes are ordinary transactions with row locks (optimistic
version checks, ``SELECT … FOR UPDATE`` where a value is read and written back); the group commit of many
tables' actions is one statement with a per-row outcome. Migrations run under an advisory lock and are recorded
in ``schema_migrations``, so processes starting together apply each one once.

Nothing here logs a statement's parameters: they hold games' states (every hand)."""
from __future__ import annotations

import re
import time
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any, AsyncIterator, Sequence

import asyncpg

from .backend import Database, DatabaseUnusable, Row, Tx, migrations
from .claims import PgClaim, pg_identify_slot
from .rows import PendingAction

MIGRATION_LOCK = 0x67616D65  # advisory lock key ("game") held while migrating
_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders (the SQL of the seam is written once) as PostgreSQL's ``$1, $2, …``."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def _count(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgTx(Tx):
    def __init__(self, conn: Any) -> None:
        self.conn = conn  # an asyncpg connection or pool: both have fetch/execute/executemany

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *args))

    async def execute(self, sql: str, *args: Any) -> int:
        return _count(await self.conn.execute(numbered(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.conn.executemany(numbered(sql), rows)


# One statement for a whole batch of actions of different tables: the version-checked UPDATE says which rows
# matched (RETURNING id); the action log, seat changes and notices are written for those rows only.
GROUP_COMMIT = """
WITH b AS (
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                         $8::float8[], $18::text[], $20::int[])
                  AS b(id, expected, player, action, state, status, bot_to_act, deadline, board_shown, stand_in)),
u AS (
    UPDATE games g SET version = g.version + 1, updated_at = $9, state = b.state, status = b.status,
                       bot_to_act = b.bot_to_act, deadline = b.deadline,
                       board_shown = COALESCE(b.board_shown, g.board_shown)
    FROM b WHERE g.id = b.id AND g.version = b.expected RETURNING g.id),
a AS (
    INSERT INTO actions (game_id, seq, player, action, created_at, stand_in)
    SELECT b.id, COALESCE((SELECT MAX(x.seq) FROM actions x WHERE x.game_id = b.id), 0) + 1, b.player, b.action, $9,
           b.stand_in
    FROM b JOIN u ON u.id = b.id),
s AS (
    UPDATE seats t SET timeouts = s.timeouts, is_bot = s.is_bot, away = s.away, showed_up = s.showed_up
    FROM unnest($10::bigint[], $11::int[], $12::int[], $13::int[], $14::int[], $19::int[])
         AS s(game_id, seat, timeouts, is_bot, away, showed_up)
    WHERE t.game_id = s.game_id AND t.seat = s.seat AND s.game_id IN (SELECT id FROM u)),
n AS (
    INSERT INTO notices (game_id, player, event)
    SELECT n.game_id, n.player, n.event
    FROM unnest($15::bigint[], $16::text[], $17::text[]) WITH ORDINALITY AS n(game_id, player, event, ord)
    WHERE n.game_id IN (SELECT id FROM u) ORDER BY n.ord)
SELECT id FROM u
"""


def _group_args(batch: list[PendingAction], now: float) -> list[Any]:
    seats = [(a.game_id, a.seat.seat, a.seat.timeouts, int(a.seat.is_bot), int(a.seat.away), int(a.seat.showed_up))
             for a in batch if a.seat is not None]
    notices = [(a.game_id, p, e) for a in batch for p, e in a.notices]
    columns = [[a.game_id for a in batch], [a.expected_version for a in batch], [a.player for a in batch],
               [a.action for a in batch], [a.state for a in batch], [a.status for a in batch],
               [int(a.bot_to_act) for a in batch], [a.deadline for a in batch], now]
    columns += [[s[i] for s in seats] for i in range(5)]
    columns += [[n[i] for n in notices] for i in range(3)]
    columns.append([a.board_shown for a in batch])
    columns.append([s[5] for s in seats])  # $19: each seat's showed_up
    columns.append([int(a.stand_in) for a in batch])  # $20: a bot moved for the seat's person
    return columns


class PostgresDatabase(PgTx, Database):
    dialect = "postgres"
    for_update = " FOR UPDATE"

    def __init__(self, pool: Any, dsn: str = "") -> None:
        super().__init__(pool)
        self.pool = pool
        self.dsn = dsn

    @classmethod
    async def open(cls, dsn: str, *, min_size: int = 1, max_size: int = 8) -> "PostgresDatabase":
        pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size)
        return cls(pool, dsn)

    async def close(self) -> None:
        await self.pool.close()

    async def health(self) -> str:
        """A query on the pool the bot writes through, and the server would take a write (not a read-only
        standby, not ``default_transaction_read_only``)."""
        try:
            read_only = await self.pool.fetchval("SELECT current_setting('transaction_read_only')")
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            code = getattr(error, "sqlstate", None)
            raise DatabaseUnusable(f"postgresql: {type(error).__name__}" + (f" ({code})" if code else "")) from None
        if read_only == "on":
            raise DatabaseUnusable("postgresql: the server takes no writes (read-only)")
        return self.dialect

    async def claim_shards(self, ids: tuple[int, ...]) -> PgClaim:
        return await PgClaim.take(self.dsn, ids)

    async def identify_slot(self, bucket: int) -> PgClaim:
        return await pg_identify_slot(self.dsn, bucket)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self.pool.acquire() as conn:
            async with conn.transaction():
                yield PgTx(conn)

    async def migrate(self) -> int:
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                                   "applied_at DOUBLE PRECISION NOT NULL)")
                done = {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
                for number, sql in migrations("postgres"):
                    if number not in done:
                        async with conn.transaction():
                            await conn.execute(sql)
                            await conn.execute("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                                               number, time.time())
                        done.add(number)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        return max(done, default=0)

    async def write_actions(self, batch: list[PendingAction], now: float) -> set[int]:
        rows = await self.pool.fetch(GROUP_COMMIT, *_group_args(batch, now))
        return {r[0] for r in rows}
