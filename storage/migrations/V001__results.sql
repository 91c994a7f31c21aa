-- Finished games and their seats: the per-server leaderboard is computed from these.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    table_id      TEXT    NOT NULL UNIQUE,      -- one result per table: written exactly once
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game          TEXT    NOT NULL,             -- engine key, e.g. 'foist'
    options       TEXT    NOT NULL,             -- JSON of the game's options
    seed          INTEGER NOT NULL,
    actions       TEXT    NOT NULL,             -- JSON action log [[seat, code], ...]: replays the game
    started_at    TEXT    NOT NULL,             -- ISO-8601 UTC
    finished_at   TEXT    NOT NULL
);

CREATE TABLE game_seats (
    game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    display_name  TEXT    NOT NULL,
    points        INTEGER NOT NULL,
    rank          INTEGER NOT NULL,             -- 1 = won; tied seats share a rank
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX games_by_guild_and_game ON games (guild_id, game);
CREATE INDEX game_seats_by_user ON game_seats (user_id);
