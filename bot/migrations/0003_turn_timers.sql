-- Counterpart: PostgreSQL 0001_init.sql (SQLite 0001-0005 in one step).
-- Turn timers: each table's time per decision, the stored deadline of the decision it waits for (so timers
-- survive restarts), and per seat the expiries in a row and whether the seat went to a bot for absence.
ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 120;
ALTER TABLE games ADD COLUMN deadline REAL;
CREATE INDEX games_by_deadline ON games (status, deadline);
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
