"""Exclusive ownership of shards between processes on one database: PostgreSQL advisory locks held on a
dedicated connection (they vanish with the process, so whoever starts next on the range takes over); on SQLite a
lock file per shard next to the database (``flock``, released by the kernel when the process dies)."""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

SHARD_LOCK_CLASS = 0x5348  # first key of the two-key advisory lock ("SH"); the second is the shard id


class ShardsTaken(Exception):
    """Another process owns some of these shards."""

    def __init__(self, taken: list[int]) -> None:
        super().__init__(f"shards {taken} are owned by another running process on this database; give this "
                         f"process a range that does not overlap (SHARD_IDS) or stop the other one first")
        self.taken = taken


class PgClaim:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    @classmethod
    async def take(cls, dsn: str, ids: tuple[int, ...]) -> "PgClaim":
        import asyncpg

        conn = await asyncpg.connect(dsn)
        got = [await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK_CLASS, i) for i in ids]
        if not all(got):
            await conn.close()  # releases the ones it did get
            raise ShardsTaken([i for i, ok in zip(ids, got, strict=True) if not ok])
        return cls(conn)

    async def release(self) -> None:
        await self.conn.close()


class FileClaim:
    def __init__(self, fds: list[int]) -> None:
        self.fds = fds

    @classmethod
    async def take(cls, database: str, ids: tuple[int, ...]) -> "FileClaim":
        fds, taken = [], []
        for shard in ids:
            fd = os.open(f"{Path(database)}.shard-{shard}.lock", os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                taken.append(shard)
            else:
                fds.append(fd)
        claim = cls(fds)
        if taken:
            await claim.release()
            raise ShardsTaken(taken)
        return claim

    async def release(self) -> None:
        for fd in self.fds:
            os.close(fd)  # closing the descriptor drops its flock
        self.fds = []


IDENTIFY_LOCK_CLASS = 0x4944  # ("ID") second key: the IDENTIFY bucket, shard_id % max_concurrency


async def pg_identify_slot(dsn: str, bucket: int) -> Any:
    """Wait until no other process identifies a shard of ``bucket``; the slot is held until released."""
    import asyncpg

    conn = await asyncpg.connect(dsn)
    await conn.execute("SELECT pg_advisory_lock($1, $2)", IDENTIFY_LOCK_CLASS, bucket)
    return PgClaim(conn)


async def file_identify_slot(database: str, bucket: int) -> Any:
    import asyncio

    fd = os.open(f"{Path(database)}.identify-{bucket}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    await asyncio.to_thread(fcntl.flock, fd, fcntl.LOCK_EX)
    return FileClaim([fd])
