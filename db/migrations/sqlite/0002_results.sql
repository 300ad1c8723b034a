-- Final results per seat, for statistics, and the indexes the statistics and the turn scheduler read.

CREATE TABLE results (
    game_id    INTEGER NOT NULL,
    player_id  TEXT    NOT NULL,
    score      INTEGER NOT NULL,
    won        INTEGER NOT NULL CHECK (won IN (0, 1)),
    team       INTEGER,
    breakdown  TEXT,
    PRIMARY KEY (game_id, player_id),
    FOREIGN KEY (game_id, player_id) REFERENCES seats (game_id, player_id) ON DELETE CASCADE
);

CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE INDEX games_reminder_due ON games (next_reminder_at) WHERE status = 'playing' AND next_reminder_at IS NOT NULL;

CREATE INDEX games_deadline_due ON games (deadline_at) WHERE status = 'playing' AND deadline_at IS NOT NULL;
