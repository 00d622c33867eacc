-- Counterpart: PostgreSQL 0005_paused_tables.sql.
-- Paused tables: when every person at a running table is away, it pauses (no turn clock, no bot moves) until one
-- of them comes back. paused_at is when it paused (NULL: not paused), so a restart keeps it paused and closes it
-- once it has been idle too long.
ALTER TABLE games ADD COLUMN paused_at REAL;
