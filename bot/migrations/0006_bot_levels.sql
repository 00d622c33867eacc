-- Counterpart: PostgreSQL 0002_bot_levels.sql.
-- Bot levels: each bot seat plays easy, normal or strong: a tournament's bot entrants all play one level.
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal' CHECK (level IN ('easy', 'normal', 'strong'));
ALTER TABLE tournaments ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'normal'
    CHECK (bot_level IN ('easy', 'normal', 'strong'));
