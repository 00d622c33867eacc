-- Links to a finished game's replay page outside Discord (issue 56, SQLite 0018): a token from `secrets`, kept only
-- as its SHA-256, with the game, the seat whose hand it shows (NULL: the spectator's view), who made it, when it
-- expires and when it was revoked. guild_settings.web_links: 0 when a server turned links off (NULL: on).
CREATE TABLE share_links (
    token_sha256 TEXT    NOT NULL PRIMARY KEY,
    game_id      BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER,
    created_by   BIGINT  NOT NULL,
    created_at   DOUBLE PRECISION NOT NULL,
    expires_at   DOUBLE PRECISION NOT NULL,
    revoked_at   DOUBLE PRECISION
);
CREATE INDEX share_links_by_game ON share_links (game_id, created_by);
ALTER TABLE guild_settings ADD COLUMN web_links INTEGER;
