-- Counterpart: PostgreSQL 0003_user_settings.sql.
-- Per-person settings: muted turn pings (the person is still named, but not @mentioned).
CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    mute_pings INTEGER NOT NULL DEFAULT 0
);
