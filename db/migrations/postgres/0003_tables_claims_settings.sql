-- Which state the table message shows, leases that keep several bot processes from doing one job twice, why a
-- game ended, undone actions, notifications sent once, and per-person and per-guild settings.

ALTER TABLE games ADD COLUMN table_version INTEGER;

ALTER TABLE games ADD COLUMN end_reason TEXT
    CHECK (end_reason IN ('finished', 'cancelled', 'abandoned', 'expired', 'unreadable'));

-- the process handling a game's reminder or deadline, and until when its claim holds
ALTER TABLE games ADD COLUMN timer_owner TEXT;

ALTER TABLE games ADD COLUMN timer_claim_until BIGINT;

UPDATE games SET end_reason = status WHERE status IN ('finished', 'cancelled');

CREATE INDEX games_by_host ON games (guild_id, host_user_id) WHERE status = 'lobby';

CREATE INDEX games_stale_lobbies ON games (updated_at) WHERE status = 'lobby';

ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1));

-- one process posts the table of a game at a version; a claim whose lease ran out can be taken over
CREATE TABLE table_claims (
    game_id      BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    owner        TEXT    NOT NULL,
    lease_until  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, version)
);

-- a notification (turn ping, reminder, DM) is sent once per game, turn and kind
CREATE TABLE notifications (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn_key    BIGINT  NOT NULL,
    kind        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    claimed_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, turn_key, kind)
);

CREATE TABLE user_settings (
    user_id      BIGINT  PRIMARY KEY,
    notify       TEXT    NOT NULL CHECK (notify IN ('channel', 'dm', 'both')),
    timezone     TEXT,
    quiet_start  INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end    INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
    language     TEXT
);

CREATE TABLE guild_settings (
    guild_id                BIGINT  PRIMARY KEY,
    max_lobbies_per_member  INTEGER NOT NULL CHECK (max_lobbies_per_member >= 0),
    max_games_per_member    INTEGER NOT NULL CHECK (max_games_per_member >= 0),
    lobby_expiry_hours      DOUBLE PRECISION NOT NULL CHECK (lobby_expiry_hours > 0),
    language                TEXT
);
