"""The storage seam: everything the host stores — games, seats, actions, notices, timers, tournaments, ratings,
server settings and limits — goes through ``Storage``; nothing outside this package holds a connection or writes SQL.

Two backends, chosen by the database URL: SQLite (``sqlite:///data/gamehost.db``, a bare path too) and PostgreSQL
(``postgresql://…``, asyncpg with a pool). Both give the same guarantees: one atomic write per action,
acknowledged only after its commit; optimistic version checks; group commit of concurrent tables; migrations
applied once even when several processes start together.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from .backend import Database, DatabaseUnusable, open_database, parse_url
from .claims import ShardsTaken
from .games import GameStore
from .limits import LimitStore
from .ratings import RatingStore
from .rows import (
    LEGACY_ENGINE_VERSION,
    BotLevel,
    EndReason,
    GameRow,
    GameStatus,
    LoggedAction,
    SeatRow,
    ShardFilter,
    TablesIn,
    VersionConflict,
)
from .shares import ShareRow, ShareStore
from .tournaments import TournamentStore


class Storage(GameStore, LimitStore, ShareStore):
    def __init__(self, db: Database) -> None:
        self.db = db
        self.tournaments = TournamentStore(db)
        self.ratings = RatingStore(db)
        self._init_games()

    @property
    def backend(self) -> str:
        return self.db.dialect

    @classmethod
    async def open(cls, target: str | Path, **options: Any) -> "Storage":
        """Open (and migrate) the database at ``target``: a ``sqlite://`` or ``postgresql://`` URL, or a path."""
        db = await open_database(target, **options)
        try:
            await db.migrate()
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def claim_shards(self, shards: ShardFilter) -> Any:
        """Own ``shards`` exclusively (see ``claims``); returns the claim to ``release()``."""
        return await self.db.claim_shards(shards.ids)

    async def identify_slot(self, bucket: int) -> Any:
        """Wait until no other process on this database is identifying a shard of IDENTIFY ``bucket``
        (shard_id % max_concurrency); returns the slot to ``release()`` once Discord's 5 s window is over."""
        return await self.db.identify_slot(bucket)

    async def migrate(self) -> int:
        return await self.db.migrate()

    async def health(self) -> str:
        """The database answers and would take a write (``Database.health``); ``DatabaseUnusable`` if not."""
        return await self.db.health()

    async def close(self) -> None:
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self.db.close()


__all__ = ["Storage", "DatabaseUnusable", "BotLevel", "EndReason",
           "GameRow", "GameStatus", "LEGACY_ENGINE_VERSION", "LoggedAction", "SeatRow", "ShardFilter",
           "ShareRow", "ShardsTaken", "TablesIn", "VersionConflict", "parse_url"]
