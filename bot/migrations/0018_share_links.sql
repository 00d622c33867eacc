-- Counterpart: PostgreSQL 0014_share_links.sql.
-- Links to a finished game's replay page outside Discord (issue 56): a token from `secrets`, kept only as its
-- SHA-256 (the link itself is shown once, to whoever asked), with the game, the seat whose hand it shows (NULL:
-- the spectator's view), who made it, when it expires and when it was revoked (`/game unshare`).
-- guild_settings.web_links: 0 when a server's moderators turned links to its games off (NULL: on).
CREATE TABLE share_links (
    token_sha256 TEXT    NOT NULL PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER,
    created_by   INTEGER NOT NULL,
    created_at   REAL    NOT NULL,
    expires_at   REAL    NOT NULL,
    revoked_at   REAL
);
CREATE INDEX share_links_by_game ON share_links (game_id, created_by);
ALTER TABLE guild_settings ADD COLUMN web_links INTEGER;
