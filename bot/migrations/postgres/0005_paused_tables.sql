-- Paused tables (SQLite 0009): when every person at a running table is away, it pauses (no turn clock, no bot
-- moves) until one of them comes back. paused_at is when it paused (NULL: not paused).
ALTER TABLE games ADD COLUMN paused_at DOUBLE PRECISION;
