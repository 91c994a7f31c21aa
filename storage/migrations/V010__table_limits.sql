-- Limits on a server's tables, each set in /table defaults (NULL: the bot's default; 0: no limit):
-- the open lobbies one member may have, the tables the server may have, and of those the tables
-- at which no person sits (every seat an AI player's).
ALTER TABLE guild_settings ADD COLUMN member_lobby_limit INTEGER;     -- open lobbies per member
ALTER TABLE guild_settings ADD COLUMN table_limit INTEGER;            -- live tables per server
ALTER TABLE guild_settings ADD COLUMN ai_table_limit INTEGER;         -- live tables with no person seated
