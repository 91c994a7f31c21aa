-- Game nights (/gamenight): a night of a server (its channel, games, start, format and rounds, the Discord
-- scheduled event and the bot's messages that belong to it), who signed up, and each round's tables with
-- their seats and, once played, their places. Standings are derived from the places (engine.nights).
CREATE TABLE nights (
    night_id            BIGINT  PRIMARY KEY,    -- the id of the interaction that created it (a snowflake)
    guild_id            BIGINT  NOT NULL,       -- the server
    channel_id          BIGINT  NOT NULL,       -- the channel whose threads hold its tables
    games               TEXT    NOT NULL,       -- game keys, comma-separated (the first is played)
    starts_at           TEXT    NOT NULL,       -- ISO-8601 UTC: the start
    format              TEXT    NOT NULL,       -- engine.nights.Format: swiss, knockout, random
    rounds              INTEGER NOT NULL,       -- rounds to play
    ai_fill             INTEGER NOT NULL,       -- 1: AI seats fill a short table; 0: the last ones wait
    remind_minutes      INTEGER NOT NULL,       -- minutes before the start for the reminder; 0: none
    seed                BIGINT  NOT NULL,       -- the seating's seed
    created_by          BIGINT  NOT NULL,       -- the member who created it
    event_id            BIGINT,                 -- the Discord guild scheduled event
    signup_message_id   BIGINT,                 -- the message with I'm in / Not this time
    standings_message_id BIGINT,                -- the standings message, edited after each round
    reminder_message_id BIGINT,                 -- the reminder's mention line, deleted at the start
    state               TEXT    NOT NULL,       -- scheduled, running, over, canceled
    round_number        INTEGER NOT NULL        -- the round being played (0: not started)
);

CREATE TABLE night_signups (
    night_id      BIGINT  NOT NULL REFERENCES nights(night_id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,             -- the member (a Discord user id)
    name          TEXT    NOT NULL,             -- their display name when they signed up
    status        TEXT    NOT NULL,             -- in, out (Not this time), interested (the event), left
    since         TEXT    NOT NULL,             -- ISO-8601 UTC: when they first signed up (the order)
    left_round    INTEGER,                      -- the round they left during (status left)
    PRIMARY KEY (night_id, user_id)
);

CREATE TABLE night_tables (
    night_id      BIGINT  NOT NULL REFERENCES nights(night_id) ON DELETE CASCADE,
    round_number  INTEGER NOT NULL,             -- 1, 2, ...
    table_index   INTEGER NOT NULL,             -- 0 is the top table
    players       TEXT    NOT NULL,             -- user ids in seat order, comma-separated
    ai_seats      INTEGER NOT NULL,             -- AI seats after the players
    table_id      TEXT,                         -- the runtime's table, once opened
    thread_id     BIGINT,                       -- its thread
    ranks         TEXT,                         -- each seat's rank, comma-separated, once played
    PRIMARY KEY (night_id, round_number, table_index)
);

CREATE INDEX night_tables_by_table ON night_tables (table_id);
