-- Engine snapshots of live tables: a restart rebuilds a long game from its latest snapshot and
-- replays only the actions after it, instead of its whole log. At most one row per table, written with the
-- move that reaches every Kth action (engine.tables.store), in that move's transaction; it goes with the
-- table. A snapshot is used only if `digest` is the digest of the stored log's first `version` actions.
CREATE TABLE live_table_engine_snapshots (
    table_id      TEXT    PRIMARY KEY REFERENCES live_tables(table_id) ON DELETE CASCADE,
    version       INTEGER NOT NULL,             -- actions applied when it was taken
    digest        TEXT    NOT NULL,             -- of the log's first `version` actions (hex)
    snapshot      TEXT    NOT NULL              -- JSON: the game's state and the table's last log lines
);
