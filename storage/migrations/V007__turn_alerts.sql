-- How a player's turns find them: each player's choice per server, and a server's switch for
-- the mentions of its tables. A choice for one table only lives in that table's snapshot.
CREATE TABLE turn_alert_choices (
    guild_id      BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,             -- a Discord user id
    mode          TEXT    NOT NULL,             -- 'channel' (a mention), 'dm' or 'off'
    PRIMARY KEY (guild_id, user_id)
);

ALTER TABLE guild_settings ADD COLUMN turn_mentions INTEGER;          -- NULL or 1: mention; 0: never
