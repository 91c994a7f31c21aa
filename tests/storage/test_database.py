"""The store on a real SQLite file and a real PostgreSQL database: migrations, results written once,
leaderboards."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import aiosqlite
import pytest

from storage import Database, GameResult, IntegrityError, SeatResult, database_path
from storage.schema import migrations
from tests.storage.conftest import query

START = datetime(2026, 11, 1, 20, 0, tzinfo=timezone.utc)


def result(
    table_id: str, guild: int, ranks: dict[int, int], *, game: str = "foist", minutes: int = 0
) -> GameResult:
    """A finished game where user ``u`` got rank ``ranks[u]`` (points = rank * 10)."""
    return GameResult(
        table_id=table_id,
        guild_id=guild,
        channel_id=7,
        game=game,
        options={},
        seed=1,
        actions=[(0, "take")],
        started_at=START + timedelta(minutes=minutes),
        finished_at=START + timedelta(minutes=minutes + 20),
        seats=[
            SeatResult(seat=i, user_id=user, display_name=f"user{user}", points=rank * 10, rank=rank)
            for i, (user, rank) in enumerate(ranks.items())
        ],
    )


@pytest.fixture
async def db(database_url: str):
    database = await Database.open(database_url)
    yield database
    await database.close()


async def test_open_creates_file_migrates_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "new" / "bot.db"
    database = await Database.open(path)
    assert await database.schema_version() == len(migrations()) >= 1
    await database.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "game_seats"} <= tables
    again = await Database.open(path)  # reopening applies nothing twice
    assert await again.schema_version() == len(migrations())
    await again.close()


async def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 999")
    with pytest.raises(RuntimeError, match="newer"):
        await Database.open(path)


async def test_postgresql_is_migrated_once_and_a_newer_one_is_refused(postgres_url: str) -> None:
    database = await Database.open(postgres_url)
    assert database.dialect == "postgresql" and database.path is None
    assert await database.schema_version() == len(migrations("postgresql"))
    await database.close()
    listed = query(postgres_url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    tables = {row[0] for row in listed}
    assert {"games", "game_seats", "live_tables", "ratings", "schema_version"} <= tables
    again = await Database.open(postgres_url)  # reopening applies nothing twice
    assert await again.schema_version() == len(migrations("postgresql"))
    await again.close()
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("UPDATE schema_version SET version = 999")
    with pytest.raises(RuntimeError, match="newer"):
        await Database.open(postgres_url)


async def test_result_is_written_exactly_once(db: Database) -> None:
    first = result("t1", 100, {1: 1, 2: 2, 3: 3})
    assert await db.record_result(first) is True
    assert await db.record_result(first) is False
    assert await db.result_count("t1") == 1
    rows = await db.leaderboard(100)
    assert sum(row.played for row in rows) == 3


async def test_leaderboard_orders_by_wins_then_rate_and_is_per_guild(db: Database) -> None:
    await db.record_result(result("a", 100, {1: 1, 2: 2, 3: 3}, minutes=0))
    await db.record_result(result("b", 100, {1: 1, 2: 1, 3: 3}, minutes=30))  # a tie for first: both win
    await db.record_result(result("c", 100, {2: 2, 3: 1, 4: 3}, minutes=60))
    await db.record_result(result("d", 200, {9: 1, 2: 2, 3: 3}))  # another server
    await db.record_result(result("e", 100, {4: 1, 1: 2, 2: 3}, game="other", minutes=90))
    rows = await db.leaderboard(100, game="foist")
    assert [(r.user_id, r.wins, r.played) for r in rows] == [(1, 2, 2), (2, 1, 3), (3, 1, 3), (4, 0, 1)]
    assert rows[0].win_rate == 1.0 and rows[3].win_rate == 0.0
    everything = await db.leaderboard(100)
    assert [(r.user_id, r.wins, r.played) for r in everything] == [(1, 2, 3), (4, 1, 2), (3, 1, 3), (2, 1, 4)]
    assert [r.user_id for r in await db.leaderboard(200)] == [9, 2, 3]
    assert await db.leaderboard(300) == []
    assert len(await db.leaderboard(100, limit=2)) == 2


async def test_ai_seats_never_rank_and_the_server_chooses_if_games_with_ais_count(db: Database) -> None:
    with_ai = result("ai", 100, {1: 2, 2: 3})
    ai_seat = SeatResult(seat=2, user_id=-1, display_name="🤖 Ada", points=10, rank=1, is_ai=True)
    await db.record_result(GameResult(**{**with_ai.__dict__, "seats": [*with_ai.seats, ai_seat]}))
    await db.record_result(result("people", 100, {1: 1, 3: 2}, minutes=30))
    assert await db.guild_counts_ai_games(100) is True
    rows = await db.leaderboard(100)
    assert [(r.user_id, r.wins, r.played) for r in rows] == [(1, 1, 2), (2, 0, 1), (3, 0, 1)]
    await db.set_guild_counts_ai_games(100, False)
    assert await db.guild_counts_ai_games(100) is False
    assert [(r.user_id, r.wins, r.played) for r in await db.leaderboard(100)] == [(1, 1, 1), (3, 0, 1)]
    assert await db.guild_counts_ai_games(200) is True  # another server keeps the default
    await db.set_guild_counts_ai_games(100, None)
    assert len(await db.leaderboard(100)) == 3


async def test_a_failed_write_leaves_nothing_behind(db: Database) -> None:
    broken = result("x", 100, {1: 1, 2: 2})
    duplicate_seat = GameResult(**{**broken.__dict__, "seats": [broken.seats[0], broken.seats[0]]})
    with pytest.raises(IntegrityError):
        await db.record_result(duplicate_seat)
    assert await db.result_count("x") == 0
    assert await db.record_result(broken) is True


@pytest.mark.parametrize(
    ("url", "path"),
    [("sqlite:///data/bot.db", Path("data/bot.db")), ("sqlite:////var/lib/bot.db", Path("/var/lib/bot.db"))],
)
def test_database_path(url: str, path: Path) -> None:
    assert database_path(url) == path


@pytest.mark.parametrize("url", ["postgres://x", "sqlite:///", "data/bot.db"])
def test_database_path_refuses_other_urls(url: str) -> None:
    with pytest.raises(ValueError):
        database_path(url)


async def test_results_finishing_at_the_same_moment_are_all_stored(db: Database) -> None:
    """Many tables finishing at once share one connection: no transaction may interleave."""
    import asyncio

    stored = await asyncio.gather(
        *(db.record_result(result(f"t{i}", 100, {i: 1, 1000 + i: 2})) for i in range(30))
    )
    assert stored == [True] * 30
    assert sum(row.played for row in await db.leaderboard(100, limit=100)) == 60


class _FailingCommits:
    """A stand-in for the database's aiosqlite connection whose next ``failures`` COMMITs fail as a full or
    broken disk would; everything else goes to the real connection."""

    def __init__(self, real: aiosqlite.Connection, failures: int) -> None:
        self.real = real
        self.failures = failures

    async def execute(self, sql: str, *args: object):
        if sql == "COMMIT" and self.failures:
            self.failures -= 1
            raise sqlite3.OperationalError("disk I/O error")
        return await self.real.execute(sql, *args)

    async def executemany(self, sql: str, *args: object):
        return await self.real.executemany(sql, *args)


async def test_a_failed_commit_does_not_wedge_the_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A COMMIT that fails (disk full, I/O error) is rolled back, so later results are still stored."""
    db = await Database.open(tmp_path / "bot.db")
    monkeypatch.setattr(db._driver, "_connection", _FailingCommits(db._driver._connection, failures=1))
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        await db.record_result(result("lost", 100, {1: 1, 2: 2}))
    assert await db.record_result(result("next", 100, {1: 1, 2: 2})) is True
    assert await db.result_count("lost") == 0 and await db.result_count("next") == 1
    monkeypatch.undo()
    await db.close()


async def test_a_finished_game_is_found_by_id_only_in_its_own_server(db: Database) -> None:
    await db.record_result(result("t1", 100, {1: 2, 2: 1}))
    game_id = await db.finished_game_id(100, "t1")
    assert game_id is not None and await db.finished_game_id(200, "t1") is None
    game = await db.finished_game(100, game_id)
    assert game is not None and (game.table_id, game.game, game.seed, game.actions) == (
        "t1",
        "foist",
        1,
        [(0, "take")],
    )
    assert [(seat.seat, seat.user_id, seat.rank, seat.is_ai) for seat in game.seats] == [
        (0, 1, 2, False),
        (1, 2, 1, False),
    ]
    assert game.finished_at == START + timedelta(minutes=20)
    assert await db.finished_game(200, game_id) is None  # another server never sees it
    assert await db.finished_game(100, game_id + 1) is None
