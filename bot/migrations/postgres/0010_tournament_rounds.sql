-- Tournaments an organiser can run (issue 37, SQLite 0014): break_seconds is the pause between rounds (0: the next
-- round is seated as soon as the last table ends), next_round_at when the pause under way ends (NULL: no pause),
-- checkin_until the check-in deadline shown to entrants, turn_seconds the time per decision at its tables.
-- A result row with forfeit = 1 is a seat a bot played for a person who had dropped: it scores nothing for them.
ALTER TABLE tournaments ADD COLUMN break_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN next_round_at DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN checkin_until DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 120;
ALTER TABLE tournament_results ADD COLUMN forfeit INTEGER NOT NULL DEFAULT 0;
