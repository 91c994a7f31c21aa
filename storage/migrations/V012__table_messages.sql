-- Where the Discord layer shows each live table, kept apart from the table's snapshot: the table's public
-- message, and each DM player's one live DM of it. A restart edits these messages instead of posting them
-- again. The rows go with the table (ON DELETE CASCADE). The tables live at this migration get theirs from
-- their snapshots, which held them until now (V012__table_messages.py moves them).
CREATE TABLE table_messages (
    table_id      TEXT    PRIMARY KEY REFERENCES live_tables(table_id) ON DELETE CASCADE,
    message_id    BIGINT,                       -- the table message; NULL: not posted, or deleted
    posted_at     TEXT                          -- ISO-8601 UTC: when that message was posted
);

CREATE TABLE table_dms (
    table_id      TEXT    NOT NULL REFERENCES live_tables(table_id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,             -- the player (a Discord user id)
    channel_id    BIGINT  NOT NULL,             -- their DM channel
    message_id    BIGINT  NOT NULL,             -- their live DM of the table
    PRIMARY KEY (table_id, user_id)
);
