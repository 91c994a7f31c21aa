-- Who sits at each live table (lobby players, or the game's human players; never an AI seat), so that a
-- process finds the tables of a user who writes to the bot in a DM (shard 0) and routes it to the process
-- owning the table's server. The rows change with the table, in its transaction; they go with the table.
-- The tables live at this migration get theirs from their snapshots (V006__live_table_seats.py).
CREATE TABLE live_table_seats (
    table_id      TEXT    NOT NULL REFERENCES live_tables(table_id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,             -- a Discord user id
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX live_table_seats_by_user ON live_table_seats (user_id);
