-- AI seats: a finished game's seats played by an AI are marked, so that they never appear on a
-- leaderboard; a server chooses whether humans' results in games with AI seats count there.
ALTER TABLE game_seats ADD COLUMN is_ai INTEGER NOT NULL DEFAULT 0;   -- 1: an AI played this seat

ALTER TABLE guild_settings ADD COLUMN count_ai_games INTEGER;         -- NULL or 1: count them; 0: do not
