"""``cardtable migrate-db``: a server's SQLite database copied into an empty PostgreSQL database answers
every read as the original does, live tables included, and new ids continue after the copied ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from storage import Database, StoredAction, StoredGame
from storage.transfer import TABLES, TargetNotEmpty, copy_database
from tests.storage.test_ratings import GUILD, OTHER_GUILD, result

USERS = (1, 2, 3, 4)


async def filled_sqlite(path: Path) -> None:
    """A database with finished games in two seasons and two servers, ratings, settings, a game with an AI
    seat, a live table in the middle of its game and a lobby."""
    db = await Database.open(path)
    try:
        await db.set_min_rated_games(GUILD, 1)
        await db.set_guild_turn_seconds(GUILD, 45)
        await db.set_guild_counts_ai_games(OTHER_GUILD, False)
        await db.record_result(result("a", {1: 1, 2: 2, 3: 3}))
        await db.record_result(result("b", {2: 1, 1: 2}, minutes=30, ais={-1: 3}))
        await db.record_result(result("c", {1: 1, 4: 2}, guild=OTHER_GUILD, game="minimize"))
        await db.start_season(GUILD)
        await db.record_result(result("d", {3: 1, 4: 1, 1: 3}, minutes=60))
        await db.forget_member(OTHER_GUILD, 4)
        moves = [StoredAction(0, 0, "take"), StoredAction(1, 1, "pass", True)]
        await db.save_table("live", GUILD, 7, "foist", {"phase": "playing"}, moves, seated_users=[1, 2])
        await db.save_table("lobby", OTHER_GUILD, 8, "foist", {"phase": "lobby"}, seated_users=[3])
    finally:
        await db.close()


async def answers(db: Database) -> list:
    """Everything the bot reads, for both servers."""
    found: list = [await db.load_table_logs(), [await db.tables_of_user(user) for user in USERS]]
    for guild in (GUILD, OTHER_GUILD):
        found += [
            await db.leaderboard(guild),
            await db.rating_leaderboard(guild),
            await db.rating_leaderboard(guild, "foist", season=1),
            await db.current_season(guild),
            await db.guild_turn_seconds(guild),
            await db.guild_counts_ai_games(guild),
        ]
        for user in USERS:
            history = await db.player_history(guild, user)
            found += [await db.player_stats(guild, user), history]
            found += [await db.finished_game(guild, entry.game_id) for entry in history]
    return found


async def test_a_copy_to_postgresql_answers_as_the_sqlite_original(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "bot.db"
    await filled_sqlite(source)
    counts = await copy_database(f"sqlite:///{source}", postgres_url)
    assert [count.table for count in counts] == [table for table, _ in TABLES]
    assert all(count.source == count.target for count in counts)
    assert {count.table: count.target for count in counts}["live_table_actions"] == 2
    original, copy = await Database.open(source), await Database.open(postgres_url)
    try:
        before = await answers(original)
        assert [table.table_id for table in before[0]] == ["live", "lobby"]
        assert before[1][0] == [("live", GUILD, 7)]
        assert {item.id for item in before if isinstance(item, StoredGame)} == {1, 2, 3, 4}  # every game read
        assert await answers(copy) == before
        # New rows continue after the copied ids, on both, and in the same order of live tables.
        await original.record_result(result("e", {1: 1, 2: 2}, minutes=90))
        await copy.record_result(result("e", {1: 1, 2: 2}, minutes=90))
        await original.save_table("new", GUILD, 9, "foist", {"phase": "lobby"}, seated_users=[4])
        await copy.save_table("new", GUILD, 9, "foist", {"phase": "lobby"}, seated_users=[4])
        assert await copy.finished_game_id(GUILD, "e") == await original.finished_game_id(GUILD, "e") == 5
        assert await answers(copy) == await answers(original)
    finally:
        await original.close()
        await copy.close()
    with pytest.raises(TargetNotEmpty, match="not empty"):
        await copy_database(source, postgres_url)


def test_cardtable_migrate_db_prints_the_counts_and_refuses_a_full_target(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    source = tmp_path / "bot.db"
    asyncio.run(filled_sqlite(source))
    assert main(["migrate-db", "--from", f"sqlite:///{source}", "--to", postgres_url]) == 0
    out = capsys.readouterr().out
    assert "live_table_seats" in out and "every count agrees" in out
    assert main(["migrate-db", "--from", f"sqlite:///{source}", "--to", postgres_url]) == 1
    assert "not empty" in capsys.readouterr().err
    assert main(["migrate-db", "--from", f"sqlite:///{tmp_path / 'none.db'}", "--to", postgres_url]) == 1
    assert "there is no SQLite database" in capsys.readouterr().err
