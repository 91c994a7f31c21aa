"""Several writers on one PostgreSQL database, as several bot processes are: two :class:`Database` objects
(two pools) migrate an empty database at once, and store the results of one server at once; the ratings
come out exactly as if the results had been stored one after another, and each result is stored once."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from storage import Database, GameResult, SeatResult
from storage.schema import migrations
from tests.storage.conftest import query

GUILD = 100
START = datetime(2026, 11, 1, 20, 0, tzinfo=timezone.utc)


def random_result(number: int, rng: random.Random) -> GameResult:
    """Result ``number`` of a server: 2-4 of six players, ranks with ties now and then."""
    users = rng.sample(range(1, 7), rng.randint(2, 4))
    ranks = sorted(rng.randint(1, len(users)) for _ in users)
    placed = zip(users, ranks, strict=True)
    seats = [SeatResult(i, user, f"user{user}", rank * 10, rank) for i, (user, rank) in enumerate(placed)]
    finished = START + timedelta(minutes=number)
    return GameResult(f"t{number}", GUILD, 7, "foist", {}, number, [(0, "take")], START, finished, seats)


async def test_two_processes_starting_at_once_migrate_once(postgres_url: str) -> None:
    first, second = await asyncio.gather(Database.open(postgres_url), Database.open(postgres_url))
    try:
        latest = len(migrations("postgresql"))
        assert await first.schema_version() == latest and await second.schema_version() == latest
        assert query(postgres_url, "SELECT version FROM schema_version") == [(latest,)]
    finally:
        await asyncio.gather(first.close(), second.close())


async def test_results_stored_at_once_from_two_processes_rate_as_one_after_another(
    postgres_url: str, tmp_path: Path
) -> None:
    one, other = await Database.open(postgres_url), await Database.open(postgres_url)
    rng = random.Random(15)
    results = [random_result(n, rng) for n in range(40)]
    try:
        await one.set_min_rated_games(GUILD, 1)
        final = results[-1]
        await asyncio.gather(
            *((one, other)[n % 2].record_result(result) for n, result in enumerate(results[:-1])),
            # The last one as a table's final save, by both at once: stored once.
            *(db.save_table(final.table_id, GUILD, 7, "foist", {"end": 1}, [], final) for db in (one, other)),
        )
        assert query(postgres_url, "SELECT COUNT(*), COUNT(DISTINCT table_id) FROM games") == [(40, 40)]
        # The aggregates count every stored result once.
        aggregates = query(
            postgres_url,
            "SELECT user_id, games, wins, placement_sum FROM ratings WHERE guild_id = ? ORDER BY user_id",
            (GUILD,),
        )
        counted = query(
            postgres_url,
            "SELECT user_id, COUNT(*), SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END), SUM(rank)"
            " FROM player_results WHERE guild_id = ? AND counted = 1 GROUP BY user_id ORDER BY user_id",
            (GUILD,),
        )
        assert aggregates == counted and sum(row[1] for row in counted) == sum(len(r.seats) for r in results)
        # The ratings are those of the same results stored one by one in the order they were stored.
        order = [row[0] for row in query(postgres_url, "SELECT table_id FROM games ORDER BY id")]
        by_table = {result.table_id: result for result in results}
        alone = await Database.open(tmp_path / "alone.db")
        try:
            await alone.set_min_rated_games(GUILD, 1)
            for table_id in order:
                await alone.record_result(by_table[table_id])
            expected = await alone.rating_leaderboard(GUILD, "foist")
        finally:
            await alone.close()
        board = await other.rating_leaderboard(GUILD, "foist")
        assert [row.user_id for row in board.rows] == [row.user_id for row in expected.rows]
        for got, want in zip(board.rows, expected.rows, strict=True):
            assert (got.mu, got.sigma, got.games, got.wins) == pytest.approx(
                (want.mu, want.sigma, want.games, want.wins), rel=1e-12
            )
    finally:
        await asyncio.gather(one.close(), other.close())
