-- Counterpart: PostgreSQL 0001_init.sql (SQLite 0001-0005 in one step).
-- Games (lobbies and tables), their seats, and the append-only action log.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    lobby_message_id INTEGER,
    board_message_id INTEGER,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    seed             INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    host_id          INTEGER NOT NULL,
    locale           TEXT    NOT NULL DEFAULT 'en',
    version          INTEGER NOT NULL DEFAULT 0,
    state            TEXT,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    player   TEXT    NOT NULL,
    user_id  INTEGER,
    is_bot   INTEGER NOT NULL DEFAULT 0,
    name     TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player)
);

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    player     TEXT    NOT NULL,
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Private events waiting to be shown in a player's next hand view.
CREATE TABLE notices (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player     TEXT    NOT NULL,
    event      TEXT    NOT NULL
);
CREATE INDEX notices_by_player ON notices (game_id, player);
