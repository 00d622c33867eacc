-- Counterpart: PostgreSQL 0006_table_threads.sql.
-- Casual tables in their own thread (issue 14). open_thread: 1 while the table still has to move, at its start, to
-- a public thread started from its lobby message (set by /play, cleared once it moved or gave up). lobby_channel_id:
-- where the lobby message is once the table plays in that thread (channel_id is then the thread, NULL: the lobby is
-- in channel_id). guild_settings.tables: where a server's tables play ('thread' or 'channel', NULL: thread).
ALTER TABLE games ADD COLUMN open_thread INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN lobby_channel_id INTEGER;
CREATE INDEX games_by_lobby_channel ON games (lobby_channel_id, status);
ALTER TABLE guild_settings ADD COLUMN tables TEXT CHECK (tables IN ('thread', 'channel'));
