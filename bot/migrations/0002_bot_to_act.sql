-- Counterpart: PostgreSQL 0001_init.sql (SQLite 0001-0005 in one step).
-- Whether a bot seat must decide next, so a restart wakes only those tables instead of loading every game.
ALTER TABLE games ADD COLUMN bot_to_act INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_waiting_on_bots ON games (status, bot_to_act);
