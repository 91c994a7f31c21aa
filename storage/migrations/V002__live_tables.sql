-- Tables in play (lobby, game or scoreboard), so that a restart or a crash loses nothing.
-- A table is its snapshot (everything but the action log, as JSON) plus its action log, one row per
-- action; both change together in one transaction per action. Rows go when the table closes.
CREATE TABLE live_tables (
    table_id      TEXT    PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game          TEXT    NOT NULL,             -- engine key
    snapshot      TEXT    NOT NULL,             -- JSON: phase, seats, names, options, seed, clocks, message id
    updated_at    TEXT    NOT NULL              -- ISO-8601 UTC
);

CREATE TABLE live_table_actions (
    table_id      TEXT    NOT NULL REFERENCES live_tables(table_id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,             -- index in the action log, from 0
    seat          INTEGER NOT NULL,
    code          TEXT    NOT NULL,             -- the engine's action code
    timed_out     INTEGER NOT NULL DEFAULT 0,   -- 1: played by the turn clock
    PRIMARY KEY (table_id, position)
);

-- Per-server defaults an admin (Manage Server) sets with /table defaults.
CREATE TABLE guild_settings (
    guild_id      INTEGER PRIMARY KEY,
    turn_seconds  INTEGER                       -- NULL: the bot's default
);
