"""What only PostgreSQL has: a pool of connections the server may drop, locks held by other connections
(a press gives up in time), values read back with the types SQLite gives, and its URL handling."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone

import psycopg
import pytest

from storage import Database, GameResult, SeatResult, StoredAction, is_locked, press_write_deadline
from storage.backend import database_target, redacted_database_url
from storage.postgres import postgresql_sql
from tests.storage.conftest import query

SNOWFLAKE = 1_234_567_890_123_456_789  # Discord's ids need 64 bits
START = datetime(2026, 11, 1, 20, 0, tzinfo=timezone.utc)


def terminate_other_connections(url: str) -> int:
    """Make the server drop every other connection to ``url``'s database (as a restart or a network fault
    would); returns how many it dropped."""
    rows = query(
        url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    return len(rows)


async def test_the_next_call_works_after_the_server_dropped_the_connections(postgres_url: str) -> None:
    db = await Database.open(postgres_url, pool_size=2)
    try:
        await db.save_table("t1", SNOWFLAKE, 2, "foist", {"n": 1}, [StoredAction(0, 0, "take")])
        assert terminate_other_connections(postgres_url) == 2
        for n in range(2, 6):  # every connection of the pool was dropped; each call gets a live one
            await db.save_table("t1", SNOWFLAKE, 2, "foist", {"n": n}, [StoredAction(n - 1, 0, "take")])
        (stored,) = await db.load_table_logs()
        assert stored.snapshot == {"n": 5} and len(stored.actions) == 5
    finally:
        await db.close()


async def test_a_move_that_loses_its_connection_midway_is_not_run_again(postgres_url: str) -> None:
    # Only a connection that fails at a job's first statement (dropped while it sat in the pool) is
    # retried; one dropped after the server answered (here: while the INSERT waits for a lock) fails the
    # move, which is stored neither then nor later by a second run of it.
    db = await Database.open(postgres_url, pool_size=1)
    other = psycopg.connect(postgres_url)
    try:
        other.execute("LOCK TABLE live_tables IN ACCESS EXCLUSIVE MODE")
        token = press_write_deadline.set(time.monotonic() + 30)  # a run again would wait for the lock
        try:
            saving = asyncio.ensure_future(db.save_table("t1", SNOWFLAKE, 2, "foist", {"n": 1}))
        finally:
            press_write_deadline.reset(token)
        waiting: list[tuple] = []
        for _ in range(500):
            waiting = query(
                postgres_url,
                "SELECT pid FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
            if waiting:
                break
            await asyncio.sleep(0.01)
        assert len(waiting) == 1, waiting
        query(postgres_url, "SELECT pg_terminate_backend(?)", (waiting[0][0],))
        other.rollback()  # a run again would now store the move
        with pytest.raises(psycopg.OperationalError):
            await saving
        assert await db.load_table_logs() == []
        await db.save_table("t1", SNOWFLAKE, 2, "foist", {"n": 2})  # the pool has a live connection again
        assert [table.snapshot for table in await db.load_table_logs()] == [{"n": 2}]
    finally:
        other.close()
        await db.close()


async def test_a_lock_held_elsewhere_makes_a_press_give_up_in_time(postgres_url: str) -> None:
    db = await Database.open(postgres_url)
    other = psycopg.connect(postgres_url)  # not autocommit: the lock lasts until its transaction ends
    try:
        await db.save_table("t1", 1, 2, "foist", {"n": 1})
        other.execute("LOCK TABLE live_tables, schema_version IN ACCESS EXCLUSIVE MODE")
        token = press_write_deadline.set(time.monotonic() + 0.3)
        try:
            outcomes = await asyncio.gather(
                *(db.save_table(f"t{n}", 1, 2, "foist", {"n": n}) for n in range(4)), return_exceptions=True
            )
        finally:
            press_write_deadline.reset(token)
        assert all(is_locked(outcome) for outcome in outcomes), outcomes
        assert "lock" in (await db.write_problem(0.1) or "")
        other.rollback()
        await db.save_table("t9", 1, 2, "foist", {"n": 9})  # nothing stuck
        assert await db.write_problem(0.1) is None
        assert sorted(table.table_id for table in await db.load_table_logs()) == ["t1", "t9"]
    finally:
        other.close()
        await db.close()


async def test_values_come_back_with_the_types_sqlite_gives(database_url: str) -> None:
    db = await Database.open(database_url)
    try:
        seats = [
            SeatResult(0, SNOWFLAKE, "Ann", 12.5, 1),
            SeatResult(1, SNOWFLAKE + 1, "Bob", 7, 2),
            SeatResult(2, -3, "AI", 3.0, 3, is_ai=True),
        ]
        result = GameResult(
            "t1", SNOWFLAKE, SNOWFLAKE + 7, "foist", {"a": [1, 2]}, 2**62, [(0, "take")], START,
            START + timedelta(minutes=5), seats,
        )  # fmt: skip
        snapshot = {"id": SNOWFLAKE}
        await db.save_table("t1", SNOWFLAKE, SNOWFLAKE + 7, "foist", snapshot, [StoredAction(0, 1, "x")])
        await db.record_result(result)
        game_id = await db.finished_game_id(SNOWFLAKE, "t1")
        assert type(game_id) is int
        game = await db.finished_game(SNOWFLAKE, game_id)
        assert game is not None and game.seed == 2**62 and game.guild_id == SNOWFLAKE
        assert [(s.user_id, s.points, type(s.points)) for s in game.seats] == [
            (SNOWFLAKE, 12.5, float),
            (SNOWFLAKE + 1, 7, int),
            (-3, 3, int),
        ]
        table = await db.load_table("t1")
        assert table is not None
        assert (table.guild_id, table.channel_id, table.snapshot) == (SNOWFLAKE, SNOWFLAKE + 7, snapshot)
        assert [type(value) for value in (table.actions[0].position, table.actions[0].seat)] == [int, int]
        (log,) = await db.load_table_logs()
        assert type(log.guild_id) is int and [type(value) for value in log.actions[0]] == [int, str, bool]
        await db.set_guild_turn_seconds(SNOWFLAKE, 45)
        assert await db.guild_turn_seconds(SNOWFLAKE) == 45
        (row, _) = await db.leaderboard(SNOWFLAKE)
        assert [type(v) for v in (row.user_id, row.played, row.wins)] == [int, int, int]
        await db.set_min_rated_games(SNOWFLAKE, 1)
        board = await db.rating_leaderboard(SNOWFLAKE)
        assert [type(v) for v in (board.rows[0].ordinal, board.rows[0].games, board.rows[0].wins)] == [
            float,
            int,
            int,
        ]
        stats = await db.player_stats(SNOWFLAKE, SNOWFLAKE)
        assert type(stats.standings[0].placement_sum) is int and type(stats.chart[0]) is float
    finally:
        await db.close()


def test_urls_name_the_backend_and_never_show_the_password() -> None:
    url = "postgresql://bot:s3cret@db.example:5432/cardtable?sslmode=require"
    assert database_target(url).dialect == "postgresql"
    assert "s3cret" not in database_target(url).shown and "s3cret" not in redacted_database_url(url)
    assert redacted_database_url("postgres://bot@h/db?password=s3cret").endswith("password=***")
    assert database_target("sqlite:///data/x.db").path is not None
    for wrong in ("postgresql://bot:s3cret@host:5432/", "mysql://bot:s3cret@host/db"):
        with pytest.raises(ValueError) as refused:
            database_target(wrong)
        assert "s3cret" not in str(refused.value)


@pytest.mark.parametrize(
    ("sqlite", "postgresql"),
    [
        ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = %s AND c = %s"),
        (
            "SELECT :guild, x::BIGINT FROM t WHERE g = :guild",
            "SELECT %(guild)s, x::BIGINT FROM t WHERE g = %(guild)s",
        ),
        (
            "SELECT 'a ? :b 50%' FROM t WHERE x LIKE ? -- why? :no",
            "SELECT 'a ? :b 50%%' FROM t WHERE x LIKE %s -- why? :no",
        ),
        (
            "SELECT x FROM ratings INDEXED BY ratings_by_player WHERE y = ?",
            "SELECT x FROM ratings  WHERE y = %s",
        ),
        ('SELECT "odd?name" FROM t WHERE v = ?', 'SELECT "odd?name" FROM t WHERE v = %s'),
    ],
)
def test_sqlites_placeholders_become_psycopgs(sqlite: str, postgresql: str) -> None:
    assert postgresql_sql(sqlite, True) == postgresql
    assert postgresql_sql("SELECT 1 % 2, 'x%'", False) == "SELECT 1 % 2, 'x%'"  # no parameters: as it is


def test_the_errors_a_retry_may_cure_are_told_from_the_others() -> None:
    import sqlite3

    assert is_locked(sqlite3.OperationalError("database is locked"))
    assert not is_locked(sqlite3.OperationalError("disk I/O error"))
    assert is_locked(psycopg.errors.LockNotAvailable()) and is_locked(psycopg.errors.QueryCanceled())
    assert is_locked(psycopg.errors.DeadlockDetected()) and is_locked(psycopg.errors.AdminShutdown())
    assert is_locked(psycopg.OperationalError("the connection is lost"))  # no server's code: client side
    assert not is_locked(psycopg.errors.UniqueViolation()) and not is_locked(psycopg.errors.DiskFull())
