-- Which version of its engine's rules played each game (issue 33: exact replays; SQLite 0013), written when the
-- game is dealt. 0 means unknown: the game was stored before versions were recorded (a replay checks such a game
-- against its stored final state and refuses it if they differ).
ALTER TABLE games ADD COLUMN engine_version INTEGER NOT NULL DEFAULT 0;
