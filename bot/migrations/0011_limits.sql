-- Counterpart: PostgreSQL 0007_limits.sql.
-- Limits against amplification (issue 32): who may create and start tournaments (Manage Server, or this role),
-- caps on tournaments' bot entrants and rounds, on open lobbies and running tables per member and per server, and
-- how many lobbies, tables and tournaments a member may create a minute. NULL: the default (bot/limits.py), so a
-- better default reaches every server that never changed it.
ALTER TABLE guild_settings ADD COLUMN organiser_role_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN tournament_bots INTEGER;
ALTER TABLE guild_settings ADD COLUMN tournament_rounds INTEGER;
ALTER TABLE guild_settings ADD COLUMN lobbies_per_member INTEGER;
ALTER TABLE guild_settings ADD COLUMN lobbies_per_server INTEGER;
ALTER TABLE guild_settings ADD COLUMN tables_per_member INTEGER;
ALTER TABLE guild_settings ADD COLUMN tables_per_server INTEGER;
ALTER TABLE guild_settings ADD COLUMN creations_per_minute INTEGER;
CREATE INDEX games_by_guild_status ON games (guild_id, status, host_id);
