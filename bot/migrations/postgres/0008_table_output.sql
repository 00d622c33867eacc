-- What the players of a table were shown (issue 31; SQLite 0012), so a restarted bot derives the visible side
-- from the stored table: board_shown is a JSON object (bot.storage.rows.BoardShown: the version and event lines the
-- board message shows, the people whose turn it was posted for, the nonce of a board post under way). result_shown,
-- told_shown and end_tidied say that the finished table's result, the line in its lobby's channel and the tidy end
-- (lobby edited, thread archived) were delivered. Tables that ended before this migration count as shown.
ALTER TABLE games ADD COLUMN board_shown TEXT;
ALTER TABLE games ADD COLUMN result_shown INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN told_shown INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN end_tidied INTEGER NOT NULL DEFAULT 0;
UPDATE games SET result_shown = 1, told_shown = 1, end_tidied = 1 WHERE status NOT IN ('lobby', 'running');
