-- Counterpart: PostgreSQL 0016_action_stand_in.sql.
-- actions.stand_in: a bot made this move for a person's seat (their clock ran out, or they were away), so that
-- looking back says so instead of showing it as the person's own (issue 53). Actions stored before this migration
-- read as the seat's own (nothing was tracked then).
ALTER TABLE actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
