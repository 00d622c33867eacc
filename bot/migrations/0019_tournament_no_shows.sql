-- Counterpart: PostgreSQL 0015_tournament_no_shows.sql.
-- Tournaments that finish whoever does not show up (issue 51):
-- * seats.showed_up: the seat's person made a move of their own (or took the seat back) at this table. A tournament
--   seat a bot played for a person who never showed up is a no-show. Seats stored before this migration count as
--   shown (nothing was tracked then), and every seat written since says so explicitly.
-- * tournament_results.no_show: that seat was a no-show (last place, no points).
-- * an entrant 'away' (a no-show, not seated again until they come back), a tournament 'checkin_closed' (the
--   deadline passed, the organiser starts it), and checkin_remind_at, when the one reminder before the deadline is
--   due (NULL: none due, or sent).
-- * format 'swiss_knockout' (Swiss rounds, then a knockout of the top `cut`): swiss_rounds is the Swiss stage's
--   length, cut how many of its standings go on (0 for the other formats).
-- SQLite cannot alter a CHECK constraint: widening the IN lists (every stored row still passes) is the schema-text
-- edit of 0017, under writable_schema (the runner bumps schema_version in the same transaction, see sqlite.py).
ALTER TABLE seats ADD COLUMN showed_up INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tournament_results ADD COLUMN no_show INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN checkin_remind_at REAL;
ALTER TABLE tournaments ADD COLUMN swiss_rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN cut INTEGER NOT NULL DEFAULT 0;
PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = replace(sql, 'CHECK (format IN (''swiss'', ''roundrobin'', ''knockout''))',
                                       'CHECK (format IN (''swiss'', ''roundrobin'', ''knockout'', ''swiss_knockout''))')
 WHERE type = 'table' AND name = 'tournaments';
UPDATE sqlite_master SET sql = replace(sql,
    'CHECK (status IN (''signup'', ''checkin'', ''running'', ''finished'', ''cancelled''))',
    'CHECK (status IN (''signup'', ''checkin'', ''checkin_closed'', ''running'', ''finished'', ''cancelled''))')
 WHERE type = 'table' AND name = 'tournaments';
UPDATE sqlite_master SET sql = replace(sql, 'CHECK (status IN (''entered'', ''checked_in'', ''dropped''))',
                                       'CHECK (status IN (''entered'', ''checked_in'', ''dropped'', ''away''))')
 WHERE type = 'table' AND name = 'tournament_entrants';
PRAGMA writable_schema = OFF;
