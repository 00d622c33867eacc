"""Links to finished games' replay pages (``0018_share_links.sql``) and whether a server allows them, on either
backend. Only a token's SHA-256 is stored: the link is shown once, to whoever asked for it, and a copy of the
database opens no page."""
from __future__ import annotations

from dataclasses import dataclass

from .backend import Database


@dataclass(frozen=True)
class ShareRow:
    game_id: int
    seat: int | None  # the seat whose hand the link shows; None: the spectator's view
    created_by: int
    created_at: float
    expires_at: float
    revoked_at: float | None


class ShareStore:
    db: Database

    async def add_share(self, token_sha256: str, *, game_id: int, seat: int | None, created_by: int,
                        created_at: float, expires_at: float) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO share_links (token_sha256, game_id, seat, created_by, created_at, "
                             "expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                             token_sha256, game_id, seat, created_by, created_at, expires_at)

    async def share(self, token_sha256: str) -> ShareRow | None:
        """The link stored under this digest, whatever its expiry or revocation (the caller decides)."""
        row = await self.db.fetchrow("SELECT game_id, seat, created_by, created_at, expires_at, revoked_at "
                                     "FROM share_links WHERE token_sha256 = ?", token_sha256)
        if row is None:
            return None
        return ShareRow(int(row["game_id"]), None if row["seat"] is None else int(row["seat"]),
                        int(row["created_by"]), float(row["created_at"]), float(row["expires_at"]),
                        None if row["revoked_at"] is None else float(row["revoked_at"]))

    async def revoke_shares(self, game_id: int, now: float, *, created_by: int | None = None) -> int:
        """Revoke the game's links that still open (not revoked, not expired; only those ``created_by`` made,
        when given); how many."""
        sql = "UPDATE share_links SET revoked_at = ? WHERE game_id = ? AND revoked_at IS NULL AND expires_at > ?"
        params: list[object] = [now, game_id, now]
        if created_by is not None:
            sql += " AND created_by = ?"
            params.append(created_by)
        async with self.db.transaction() as tx:
            return await tx.execute(sql, *params)

    async def guild_web_links(self, guild_id: int) -> bool:
        """Whether links to the server's games answer (its moderators may turn them off; on by default)."""
        value = await self.db.fetchval("SELECT web_links FROM guild_settings WHERE guild_id = ?", guild_id)
        return value is None or bool(value)

    async def set_guild_web_links(self, guild_id: int, on: bool) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, web_links) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET web_links = excluded.web_links",
                             guild_id, int(on))
