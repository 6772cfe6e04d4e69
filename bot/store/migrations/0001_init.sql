-- Partida match store, schema 1.
-- Portable SQL for SQLite and PostgreSQL. Three type words differ between the two and are filled
-- in by bot/store/migrate.py before the file runs:
--   @ID@    an auto-numbered 64-bit primary key
--   @JSON@  a JSON document (TEXT in SQLite, JSON in PostgreSQL)
--   @TS@    a UTC timestamp (ISO-8601 TEXT in SQLite, TIMESTAMPTZ in PostgreSQL)
-- Statements are separated by a semicolon at the end of a line.

CREATE TABLE matches (
    id          @ID@,
    guild_id    BIGINT,
    channel_id  BIGINT NOT NULL,
    game        TEXT NOT NULL,
    status      TEXT NOT NULL
                CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    host_id     BIGINT NOT NULL,
    seats       @JSON@ NOT NULL,
    options     @JSON@ NOT NULL,
    seed        BIGINT,
    setup       @JSON@,
    state       @JSON@,
    version     INTEGER NOT NULL DEFAULT 0,
    lang        TEXT NOT NULL DEFAULT 'en',
    meta        @JSON@ NOT NULL,
    created_at  @TS@ NOT NULL,
    updated_at  @TS@ NOT NULL
);

-- At most one live (lobby or active) match per channel or thread; finished and abandoned ones pile up.
CREATE UNIQUE INDEX matches_one_live_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');

CREATE INDEX matches_by_channel ON matches (channel_id, id);

CREATE TABLE actions (
    match_id    BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    action      @JSON@ NOT NULL,
    revealed    BOOLEAN NOT NULL,
    created_at  @TS@ NOT NULL,
    PRIMARY KEY (match_id, idx)
);

-- Who sits in which match (derived from matches.seats by the store, kept in the same transaction).
CREATE TABLE match_players (
    match_id    BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

CREATE INDEX match_players_by_user ON match_players (user_id, match_id);
