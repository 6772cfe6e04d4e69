-- Partida match store, schema 7 (issue 21): ratings, per-person aggregates and act-time samples.
-- Numbered 0007: 0005 and 0006 belong to other branches and may be missing here; bot/store/migrate.py
-- applies numbered files in order even with a gap. Nothing here depends on them.

-- One row per finished match whose result went into the ratings: the primary key makes rating a
-- match happen once, whoever asks twice. places: the players (see ratings_rows.player) by place,
-- ties sharing a place. guild_id NULL: a match outside any server (rated across servers only).
CREATE TABLE rated_matches (
    match_id    BIGINT PRIMARY KEY,
    game        TEXT NOT NULL,
    guild_id    BIGINT,
    places      @JSON@ NOT NULL,
    rated_at    @TS@ NOT NULL
);

-- A player's rating and stored aggregates in one game and one scope (a server's id, 0: across
-- servers). player: 'u<user id>' for a person, 'ai:<level>' for the AI seats of a level.
-- ordinal = mu - 3 sigma (what the leaderboard sorts by), kept as a column so it is indexed.
-- moves/timed/seconds: the person's actions, how many were timed and the seconds they took.
CREATE TABLE ratings (
    game        TEXT NOT NULL,
    scope       BIGINT NOT NULL,
    player      TEXT NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    ordinal     DOUBLE PRECISION NOT NULL,
    matches     INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    moves       INTEGER NOT NULL,
    timed       INTEGER NOT NULL,
    seconds     DOUBLE PRECISION NOT NULL,
    updated_at  @TS@ NOT NULL,
    PRIMARY KEY (game, scope, player)
);

CREATE INDEX ratings_board ON ratings (scope, game, ordinal DESC, player);
CREATE INDEX ratings_by_wins ON ratings (scope, game, wins DESC, matches DESC, player);
CREATE INDEX ratings_by_player ON ratings (player, scope, game);

-- The same aggregates summed over the games, per scope and player, and the rated matches per scope
-- and game: statistics read a few rows whatever the number of matches.
CREATE TABLE player_totals (
    scope       BIGINT NOT NULL,
    player      TEXT NOT NULL,
    matches     INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    moves       INTEGER NOT NULL,
    timed       INTEGER NOT NULL,
    seconds     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, player)
);

CREATE INDEX player_totals_by_wins ON player_totals (scope, wins DESC, matches DESC, player);

CREATE TABLE rating_totals (
    scope       BIGINT NOT NULL,
    game        TEXT NOT NULL,
    matches     INTEGER NOT NULL,
    PRIMARY KEY (scope, game)
);

-- How long a person took to act (seconds from the moment they could act to their action), one row
-- per timed action: the pace forecast takes medians per match and across matches.
CREATE TABLE act_times (
    id          @ID@,
    user_id     BIGINT NOT NULL,
    match_id    BIGINT NOT NULL,
    seconds     DOUBLE PRECISION NOT NULL,
    at          @TS@ NOT NULL
);

CREATE INDEX act_times_by_user ON act_times (user_id, id);
CREATE INDEX act_times_by_match ON act_times (match_id, user_id);
