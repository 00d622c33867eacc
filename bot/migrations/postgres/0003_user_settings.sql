-- Per-person settings (SQLite 0007): muted turn pings (the person is still named, but not @mentioned).
CREATE TABLE user_settings (
    user_id BIGINT PRIMARY KEY,
    mute_pings INTEGER NOT NULL DEFAULT 0
);
