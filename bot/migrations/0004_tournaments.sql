-- Counterpart: PostgreSQL 0001_init.sql (SQLite 0001-0005 in one step).
-- Community tournaments (rounds of tables hosted as ordinary games) and ratings per server and game.
CREATE TABLE tournaments (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id             INTEGER,
    channel_id           INTEGER NOT NULL,
    creator_id           INTEGER NOT NULL,
    name                 TEXT    NOT NULL DEFAULT '',
    game                 TEXT    NOT NULL,
    options              TEXT    NOT NULL DEFAULT '{}',
    format               TEXT    NOT NULL CHECK (format IN ('swiss', 'roundrobin')),
    rounds               INTEGER NOT NULL,
    seats_min            INTEGER NOT NULL,
    seats_max            INTEGER NOT NULL,
    final_table          INTEGER NOT NULL DEFAULT 0,
    first_round          TEXT    NOT NULL DEFAULT 'random',
    checkin              INTEGER NOT NULL DEFAULT 0,
    status               TEXT    NOT NULL CHECK (status IN ('signup', 'checkin', 'running', 'finished', 'cancelled')),
    current_round        INTEGER NOT NULL DEFAULT 0,
    seed                 INTEGER NOT NULL,
    locale               TEXT    NOT NULL DEFAULT 'en',
    signup_message_id    INTEGER,
    standings_message_id INTEGER,
    created_at           REAL    NOT NULL,
    updated_at           REAL    NOT NULL
);
CREATE INDEX tournaments_by_channel ON tournaments (channel_id, status);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    is_bot        INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL CHECK (status IN ('entered', 'checked_in', 'dropped')),
    seq           INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

-- One row per table of a round: a bye is a one-seat row with status bye, a voided table stays as 'void'
-- and its replay is a new row (attempt + 1).
CREATE TABLE tournament_tables (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    attempt       INTEGER NOT NULL DEFAULT 0,
    players       TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('pending', 'running', 'finished', 'cancelled', 'void', 'bye')),
    game_id       INTEGER REFERENCES games (id),
    channel_id    INTEGER
);
CREATE INDEX tournament_tables_by_tournament ON tournament_tables (tournament_id, round);
CREATE UNIQUE INDEX tournament_tables_by_game ON tournament_tables (game_id);

CREATE TABLE tournament_results (
    table_id INTEGER NOT NULL REFERENCES tournament_tables (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    place    INTEGER NOT NULL,
    points   REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

-- OpenSkill (Plackett-Luce) rating per server (0 outside servers), game and player.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_by_game ON ratings (guild_id, game);

-- Every human seat of every finished game (the stats), with the rating change when the game was rated (no bot
-- seats). The primary key makes recording a game idempotent.
CREATE TABLE game_results (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    place        INTEGER NOT NULL,
    seats        INTEGER NOT NULL,
    rated        INTEGER NOT NULL,
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    created_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_results_by_user ON game_results (guild_id, user_id, created_at);
