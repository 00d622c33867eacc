-- Per-server settings: the language of public messages (NULL: follow the server's Discord locale).
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    language TEXT
);
