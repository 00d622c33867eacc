-- actions.stand_in (issue 53, SQLite 0020): a bot made this move for a person's seat (their clock ran out, or they
-- were away); actions stored before read as the seat's own.
ALTER TABLE actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
