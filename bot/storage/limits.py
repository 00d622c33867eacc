"""Servers' limits (``0011_limits.sql``) and the counts they are checked against, on either backend."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .backend import Database
from .rows import GameStatus

if TYPE_CHECKING:  # bot.limits imports discord; the storage package stays loadable without it
    from bot.limits import Cap, Limits



def _limit_columns() -> tuple[str, ...]:
    """The columns of ``guild_settings`` that hold a server's limits: the fields of ``Limits``."""
    from bot.limits import Limits

    return tuple(Limits.model_fields)


class LimitStore:
    db: Database

    async def guild_limits(self, guild_id: int) -> "Limits":
        """The server's limits: the defaults, with what its admins changed."""
        from bot.limits import Limits

        columns = _limit_columns()
        row = await self.db.fetchrow(f"SELECT {', '.join(columns)} FROM guild_settings WHERE guild_id = ?", guild_id)
        return Limits() if row is None else Limits.from_columns({k: row[k] for k in columns})

    async def set_guild_limits(self, guild_id: int, changes: "dict[Cap, int]") -> None:
        """Store changed caps (checked by ``Limits.changed`` first); the others keep their value."""
        if not changes:
            return
        columns = [cap.value for cap in changes]
        assert set(columns) <= set(_limit_columns())
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns)
        async with self.db.transaction() as tx:
            await tx.execute(f"INSERT INTO guild_settings (guild_id, {', '.join(columns)}) "
                             f"VALUES (?{', ?' * len(columns)}) ON CONFLICT (guild_id) DO UPDATE SET {updates}",
                             guild_id, *changes.values())

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """The role whose members may create and start tournaments besides Manage Server (None: nobody else)."""
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, organiser_role_id) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET organiser_role_id = excluded.organiser_role_id",
                             guild_id, role_id)

    async def count_games(self, guild_id: int | None, status: GameStatus, *, host_id: int | None = None) -> int:
        """The server's games of ``status`` (None: the tables of no server, in DMs and group DMs); with ``host_id``,
        only the casual ones that member hosts (a tournament's tables are hosted by its creator and bounded by the
        tournament's own caps)."""
        sql = "SELECT COUNT(*) FROM games WHERE " + ("guild_id IS NULL" if guild_id is None else "guild_id = ?")
        sql += " AND status = ?"
        params: list[object] = [status] if guild_id is None else [guild_id, status]
        if host_id is not None:
            sql += (" AND host_id = ? AND NOT EXISTS (SELECT 1 FROM tournament_tables tt "
                    "WHERE tt.game_id = games.id)")
            params.append(host_id)
        return int(await self.db.fetchval(sql, *params))
