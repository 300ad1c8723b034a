-- Games, their seats and the log of accepted actions.
-- Times are Unix epoch milliseconds (UTC); JSON columns hold text written by the store.

CREATE TABLE games (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER,
    channel_id        INTEGER NOT NULL,
    host_user_id      INTEGER NOT NULL,
    kind              TEXT    NOT NULL,
    status            TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    version           INTEGER NOT NULL CHECK (version >= 1),
    seed              INTEGER NOT NULL,
    config            TEXT    NOT NULL,
    state             TEXT,
    table_channel_id  INTEGER,
    table_message_id  INTEGER,
    reminder_hours    REAL,
    deadline_hours    REAL,
    next_reminder_at  INTEGER,
    deadline_at       INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    started_at        INTEGER,
    ended_at          INTEGER
);

-- One game in its lobby or in play per channel, whatever the code above us does.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status IN ('lobby', 'playing');

CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat_order    INTEGER NOT NULL CHECK (seat_order >= 0),
    player_id     TEXT    NOT NULL,
    user_id       INTEGER,
    display_name  TEXT    NOT NULL,
    colour        TEXT,
    cpu_level     TEXT,
    PRIMARY KEY (game_id, seat_order),
    UNIQUE (game_id, player_id),
    UNIQUE (game_id, colour),
    -- a seat is a person or a computer player, never both
    CHECK ((user_id IS NULL) <> (cpu_level IS NULL))
);

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    player_id   TEXT,
    user_id     INTEGER,
    action      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
