-- The queues that find partners (/queue): each member waiting for a game in a channel (at most one queue
-- per member and server, hence the key), each channel's "Looking for a game" message, and the server's
-- setting of how long a queue waits before AI players fill a table (minutes; NULL: never).
CREATE TABLE queue_players (
    guild_id      BIGINT  NOT NULL,             -- the server
    user_id       BIGINT  NOT NULL,             -- the member waiting (a Discord user id)
    channel_id    BIGINT  NOT NULL,             -- the channel whose queue they joined
    game          TEXT    NOT NULL,             -- the game's key
    players       INTEGER NOT NULL,             -- the table size they asked for
    name          TEXT    NOT NULL,             -- their display name when they joined
    since         TEXT    NOT NULL,             -- ISO-8601 UTC: when they joined
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE queue_boards (
    channel_id    BIGINT  PRIMARY KEY,          -- the channel of the "Looking for a game" message
    guild_id      BIGINT  NOT NULL,
    message_id    BIGINT  NOT NULL              -- the message, edited as the queues change
);

ALTER TABLE guild_settings ADD COLUMN queue_ai_after INTEGER;       -- minutes; NULL: no AI fill
