-- The coach in rated games: hints are off at tables whose results are rated, unless a server
-- turns them on for all (then the scoreboard says how many hints each player used).
ALTER TABLE guild_settings ADD COLUMN hints_in_rated INTEGER;         -- NULL or 0: off; 1: on
