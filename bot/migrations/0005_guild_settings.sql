-- Counterpart: PostgreSQL 0001_init.sql (SQLite 0001-0005 in one step).
-- Per-server settings: the language of public messages (NULL: follow the server's Discord locale).
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    language TEXT
);
