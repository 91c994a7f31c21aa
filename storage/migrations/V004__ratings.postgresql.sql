-- PostgreSQL's V004 (see V004__ratings.sql): ids are BIGINT, REAL is DOUBLE PRECISION.
-- Ratings, per-player aggregates and seasons. The results already stored are rated after these
-- statements, in the order they were played, by storage/migrations/V004__ratings.py (same transaction).

-- Per-server settings: the games a player needs before a rating leaderboard lists them, and the current
-- season (a new one starts with /table season).
ALTER TABLE guild_settings ADD COLUMN min_rated_games INTEGER;        -- NULL: 5
ALTER TABLE guild_settings ADD COLUMN season INTEGER;                 -- NULL: 1

-- The seasons a server closed with /table season (the current one has no row yet).
CREATE TABLE seasons (
    guild_id      BIGINT  NOT NULL,
    season        INTEGER NOT NULL,
    ended_at      TEXT    NOT NULL,             -- ISO-8601 UTC
    PRIMARY KEY (guild_id, season)
);

-- A player's rating and aggregates in one game of one server, for one season. Only the games that count
-- (see storage/ratings.py) are in them; a closed season's rows stay as they were (its archive).
CREATE TABLE ratings (
    guild_id      BIGINT  NOT NULL,
    season        INTEGER NOT NULL,
    game          TEXT    NOT NULL,             -- engine key
    user_id       BIGINT  NOT NULL,
    display_name  TEXT    NOT NULL,             -- as of the player's last game
    mu            DOUBLE PRECISION NOT NULL,             -- openskill Plackett-Luce mean
    sigma         DOUBLE PRECISION NOT NULL,             -- and uncertainty
    ordinal       DOUBLE PRECISION NOT NULL,             -- mu - 3 sigma: the conservative rating the boards rank by
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,             -- rank 1, shared first places included
    placement_sum INTEGER NOT NULL,             -- sum of ranks: average placement = placement_sum / games
    last_game_id  BIGINT  NOT NULL,             -- games.id of the last game counted
    PRIMARY KEY (guild_id, season, game, user_id)
);
CREATE INDEX ratings_by_game_ordinal ON ratings (guild_id, season, game, ordinal DESC);
CREATE INDEX ratings_by_ordinal ON ratings (guild_id, season, ordinal DESC);
CREATE INDEX ratings_by_player ON ratings (guild_id, user_id, season);

-- One row per human seat of every stored game: the player's history, with the rating after the game.
CREATE TABLE player_results (
    game_id       BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    guild_id      BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,
    game          TEXT    NOT NULL,
    season        INTEGER NOT NULL,
    rank          INTEGER NOT NULL,             -- 1 = won
    seats         INTEGER NOT NULL,             -- how many seats the game had (AI seats included)
    counted       INTEGER NOT NULL,             -- 1: in the ratings and aggregates (see storage/ratings.py)
    ordinal       DOUBLE PRECISION,                      -- the player's rating in this game after it (NULL: not counted)
    finished_at   TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- A player's games newest first (finished_at, then game_id: the migration stores old games by id, not
-- in the order they were played).
CREATE INDEX player_results_by_player ON player_results (guild_id, user_id, finished_at, game_id);
CREATE INDEX player_results_by_player_game ON player_results (guild_id, user_id, season, game, finished_at, game_id);
