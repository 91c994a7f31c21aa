-- The turn notices on Discord: each "it is your turn" line in a table's channel (or thread), and each
-- turn DM, stored as it goes out and removed once it is deleted, so that a process that was killed
-- leaves none behind: the next one deletes those whose turn is over. No reference to live_tables: a
-- notice outlives its table until it is deleted.
CREATE TABLE turn_notices (
    notice_id     INTEGER PRIMARY KEY,
    guild_id      BIGINT  NOT NULL,             -- the table's server
    table_id      TEXT    NOT NULL,
    user_id       BIGINT  NOT NULL,             -- the player told
    version       INTEGER NOT NULL,             -- the game's actions applied when it was posted
    since_id      BIGINT  NOT NULL,             -- a snowflake from shortly before it was posted
    channel_id    BIGINT,                       -- NULL: a DM not sent yet (its channel not known)
    message_id    BIGINT                        -- NULL: on its way, or its answer never came
);
