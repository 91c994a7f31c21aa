-- Tables in threads: a server may choose that /play opens each new table in a new public thread of the
-- channel (so one channel holds several tables at once), unless /play says otherwise.
ALTER TABLE guild_settings ADD COLUMN table_threads INTEGER;          -- NULL or 0: in the channel; 1: in a thread
