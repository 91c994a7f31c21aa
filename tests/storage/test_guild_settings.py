"""A server's table defaults on a real database (SQLite and PostgreSQL): tables in threads (V005) beside
the turn length, and hints in rated games (V008)."""

from __future__ import annotations

from storage.database import Database


async def test_tables_in_threads_is_off_until_a_server_turns_it_on(database_url: str) -> None:
    db = await Database.open(database_url)
    try:
        assert await db.guild_table_threads(1) is False
        await db.set_guild_turn_seconds(1, 45)
        assert await db.guild_table_threads(1) is False  # a row for the server, the column still unset
        await db.set_guild_table_threads(1, True)
        assert await db.guild_table_threads(1) is True and await db.guild_table_threads(2) is False
        assert await db.guild_turn_seconds(1) == 45  # the other default is left alone
        await db.set_guild_table_threads(1, None)
        assert await db.guild_table_threads(1) is False
    finally:
        await db.close()
    again = await Database.open(database_url)  # migrated once: opening again changes nothing
    try:
        await again.set_guild_table_threads(3, True)
        assert await again.guild_table_threads(3) is True
    finally:
        await again.close()


async def test_hints_in_rated_games_are_off_until_a_server_turns_them_on(database_url: str) -> None:
    db = await Database.open(database_url)
    try:
        assert await db.guild_hints_in_rated(1) is False
        await db.set_guild_counts_ai_games(1, True)
        assert await db.guild_hints_in_rated(1) is False  # a row for the server, the column still unset
        await db.set_guild_hints_in_rated(1, True)
        assert await db.guild_hints_in_rated(1) is True and await db.guild_hints_in_rated(2) is False
        assert await db.guild_counts_ai_games(1) is True  # the other default is left alone
        await db.set_guild_hints_in_rated(1, False)
        assert await db.guild_hints_in_rated(1) is False
        await db.set_guild_hints_in_rated(1, True)
    finally:
        await db.close()
    again = await Database.open(database_url)  # stored, not kept in memory
    try:
        assert await again.guild_hints_in_rated(1) is True
    finally:
        await again.close()


async def test_table_limits_are_unset_until_a_server_sets_them(database_url: str) -> None:
    """V010: each limit is stored alone, 0 (no limit) stays 0, and ``None`` gives the default back."""
    db = await Database.open(database_url)
    try:
        assert await db.guild_table_limits(1) == (None, None, None)
        await db.set_guild_turn_seconds(1, 45)
        assert await db.guild_table_limits(1) == (None, None, None)  # a row, the columns still unset
        await db.set_guild_table_limit(1, "member_lobby_limit", 5)
        await db.set_guild_table_limit(1, "ai_table_limit", 0)
        assert await db.guild_table_limits(1) == (5, None, 0)
        await db.set_guild_table_limit(1, "table_limit", 400)
        await db.set_guild_table_limit(1, "member_lobby_limit", None)
        assert await db.guild_table_limits(1) == (None, 400, 0)
        assert await db.guild_table_limits(2) == (None, None, None)
        assert await db.guild_turn_seconds(1) == 45  # the other defaults are left alone
        try:
            await db.set_guild_table_limit(1, "turn_seconds", 3)
        except ValueError:
            pass
        else:
            raise AssertionError("a column that is no limit was accepted")
    finally:
        await db.close()
    again = await Database.open(database_url)
    try:
        assert await again.guild_table_limits(1) == (None, 400, 0)
    finally:
        await again.close()
