-- A knockout at multiplayer tables (issue 43, SQLite 0017): format 'knockout', and `advance`, the top k of each table
-- who go on (0 for the other formats).
ALTER TABLE tournaments ADD COLUMN advance INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check CHECK (format IN ('swiss', 'roundrobin', 'knockout'));
