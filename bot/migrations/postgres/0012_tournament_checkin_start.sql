-- Check-in that closes itself (issue 43, SQLite 0016): at the check-in deadline those not checked in are dropped, and
-- with start_at_deadline = 1 (the organiser's choice at creation) the tournament then starts by itself.
ALTER TABLE tournaments ADD COLUMN start_at_deadline INTEGER NOT NULL DEFAULT 0;
