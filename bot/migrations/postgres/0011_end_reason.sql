-- Why a table ended before its game did (issue 41, SQLite 0015, a bot.table.EndReason value: abandoned,
-- paused_ended, idle, channel_gone, lobby_idle), written with its status in the same transaction, so a writer
-- restored after a kill tells the true reason in the lobby's edit. NULL: ended by its game, cancelled without a
-- stated reason, or ended before this migration.
ALTER TABLE games ADD COLUMN end_reason TEXT;
