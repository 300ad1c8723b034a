-- PostgreSQL twin of sqlite/0005_leases_departures.sql.
-- Leases held by name: each running bot process holds "bot:<its name>" while it uses the database (renewed while it
-- runs, dropped when it stops cleanly), so `python -m db restore` can refuse while a bot runs; "backup" is held by
-- the process that takes the scheduled backup of the period.

CREATE TABLE leases (
    name         TEXT    PRIMARY KEY,
    owner        TEXT    NOT NULL,
    lease_until  BIGINT  NOT NULL,
    taken_at     BIGINT  NOT NULL
);

-- A server the bot was removed from, and when: its games are kept for a period (so an accidental kick loses
-- nothing), then deleted; the bot joining it again removes the row.
CREATE TABLE guild_departures (
    guild_id  BIGINT  PRIMARY KEY,
    left_at   BIGINT  NOT NULL
);
