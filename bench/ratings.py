"""Ratings at scale: a million stored results in one server, the V004 migration that rates them, and the
reads the slash commands make.

Usage::

    python3 bench/ratings.py [--results 1000000] [--players 5000] [--repeat 200] [--path /tmp/r.db]

1. Builds a database as the bot before V004 left it (migrations 1-3), with ``--results`` finished games
   in one server (plus 1% in a second server), by bulk inserts in one transaction (not through the bot):
   seeded, 2-5 human seats a game from ``--players`` members, the seven games, a game in ten with an AI
   seat.
2. Opens it with :meth:`storage.Database.open`, which applies V004: the SQL, then rating every stored
   result in the order played (timed: the migration's seconds).
3. Times, through the bot's own :class:`storage.Database` (the database thread hop included), each read
   ``--repeat`` times: the leaderboard top 10 of a game and of each player's best game (and both again
   with a minimum of games nobody has, every player provisional: the most a board reads), a player's stats
   (all games and one game) plus drawing the chart (:func:`cogs.rating_chart.rating_chart_png`), and
   a player's history; and storing one more result (its transaction rates it, fsynced).

Prints a Markdown table of p50 / p99 / max in milliseconds, and the CPU milliseconds per call. ``--reuse``
measures the reads again on a database ``--path`` built (and migrated) before.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.rating_chart import rating_chart_png  # noqa: E402
from engine import GAMES  # noqa: E402
from storage import Database, GameResult, SeatResult  # noqa: E402
from storage.schema import apply_migration, migrations  # noqa: E402

GUILD, OTHER_GUILD = 1_000, 2_000
START = datetime(2025, 1, 1, tzinfo=timezone.utc)


def build(path: Path, results: int, players: int) -> float:
    """Write the pre-V004 database with ``results`` games; returns the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(13)
    games = sorted(GAMES)
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA journal_mode = OFF")
    raw.execute("PRAGMA synchronous = OFF")
    for version, _name, sql in migrations()[:3]:
        apply_migration(raw, version, sql)
    raw.execute("BEGIN")
    game_rows, seat_rows = [], []
    for game_id in range(1, results + 1):
        guild = OTHER_GUILD if game_id % 100 == 0 else GUILD
        finished = (START + timedelta(seconds=30 * game_id)).isoformat(timespec="seconds")
        game_rows.append(
            (game_id, f"t{game_id}", guild, 7, rng.choice(games), "{}", game_id, "[]", finished, finished)
        )
        seats = rng.randint(2, 5)
        humans = rng.sample(range(1, players + 1), seats)
        places = list(range(1, seats + 1))
        rng.shuffle(places)
        if rng.random() < 0.05 and seats > 2:  # a shared place now and then
            places[places.index(2)] = 1
        with_ai = game_id % 10 == 0
        for seat, (user, rank) in enumerate(zip(humans, places, strict=True)):
            is_ai = with_ai and seat == seats - 1
            seat_rows.append(
                (game_id, seat, -1 if is_ai else user, "AI" if is_ai else f"p{user}", 0, rank, is_ai)
            )
        if len(game_rows) >= 50_000:
            _flush(raw, game_rows, seat_rows)
    _flush(raw, game_rows, seat_rows)
    raw.execute("COMMIT")
    raw.close()
    return time.perf_counter() - started


def _flush(raw: sqlite3.Connection, game_rows: list, seat_rows: list) -> None:
    raw.executemany(
        "INSERT INTO games (id, table_id, guild_id, channel_id, game, options, seed, actions, started_at,"
        " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        game_rows,
    )
    raw.executemany(
        "INSERT INTO game_seats (game_id, seat, user_id, display_name, points, rank, is_ai)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        seat_rows,
    )
    game_rows.clear()
    seat_rows.clear()


async def timed(label: str, repeat: int, call, rows: list) -> None:
    """Run ``call()`` ``repeat`` times; add a row of its p50 / p99 / max milliseconds, and the process's CPU
    milliseconds per call (both threads: the event loop's and the database's), which a busy machine
    inflates far less than the wall clock."""
    times = []
    await call()  # warm: the first read of a page comes from the disk
    cpu_started = time.process_time()
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    cpu = (time.process_time() - cpu_started) * 1000 / repeat
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    rows.append(f"| {label} | {statistics.median(times):.2f} | {p99:.2f} | {times[-1]:.2f} | {cpu:.2f} |")


async def measure(path: Path, repeat: int, players: int) -> tuple[tuple[float, float], list[str]]:
    started, cpu_started = time.perf_counter(), time.process_time()
    database = await Database.open(path)
    migration = (time.perf_counter() - started, time.process_time() - cpu_started)
    rows: list[str] = []
    rng = random.Random(5)
    try:
        await database.set_min_rated_games(GUILD, 5)
        board = await database.rating_leaderboard(GUILD, "foist")
        top = board.rows[0].user_id
        await timed(
            "leaderboard top 10, one game", repeat, lambda: database.rating_leaderboard(GUILD, "foist"), rows
        )
        await timed(
            "leaderboard top 10, best game of each", repeat, lambda: database.rating_leaderboard(GUILD), rows
        )

        async def stats(game: str | None) -> None:
            found = await database.player_stats(GUILD, rng.randint(1, players), game)
            rating_chart_png(found.chart, "chart")

        await timed("/stats all games (query + PNG chart)", repeat, lambda: stats(None), rows)
        await timed("/stats one game (query + PNG chart)", repeat, lambda: stats("foist"), rows)
        await timed("/stats query alone", repeat, lambda: database.player_stats(GUILD, top), rows)
        await timed(
            "/history (10 games)",
            repeat,
            lambda: database.player_history(GUILD, rng.randint(1, players)),
            rows,
        )
        # A first night's board at this size: nobody has the minimum, so the walk for established
        # players reads the whole season's ratings and the provisional players fill the board.
        await database.set_min_rated_games(GUILD, 10**6)
        first = await database.rating_leaderboard(GUILD, "foist")
        assert first.rows == [] and len(first.provisional) == 10
        await timed(
            "leaderboard, nobody established (10 provisional), one game",
            repeat,
            lambda: database.rating_leaderboard(GUILD, "foist"),
            rows,
        )
        await timed(
            "leaderboard, nobody established (10 provisional), best game of each",
            repeat,
            lambda: database.rating_leaderboard(GUILD),
            rows,
        )
        await database.set_min_rated_games(GUILD, 5)
        number = iter(range(10**9))
        run = time.time_ns()  # fresh table ids on every run, so --reuse stores new results too

        async def record() -> None:
            n = next(number)
            when = START + timedelta(days=3650, seconds=n)
            seats = [
                SeatResult(s, u, f"p{u}", 0, s + 1) for s, u in enumerate(rng.sample(range(1, players), 4))
            ]
            await database.record_result(
                GameResult(f"new{run}-{n}", GUILD, 7, "foist", {}, n, [], when, when, seats)
            )

        await timed("record_result, rated (fsynced transaction)", min(repeat, 100), record, rows)
    finally:
        await database.close()
    return migration, rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument(
        "--path", type=Path, default=None, help="where to build the database (default: a temp dir)"
    )
    parser.add_argument("--reuse", action="store_true", help="measure again on a --path built before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.path or Path(folder) / "ratings.db"
        if not (args.reuse and path.exists()):
            path.unlink(missing_ok=True)
            built = build(path, args.results, args.players)
            print(f"built {args.results:,} results ({path.stat().st_size / 2**20:.0f} MiB) in {built:.1f} s")
        migration, rows = asyncio.run(measure(path, args.repeat, args.players))
        wall, cpu = migration
        if not args.reuse:
            print(f"V004 migration (SQL + rating every stored result): {wall:.1f} s ({cpu:.1f} s of CPU)")
        print(f"machine load average while measuring: {os.getloadavg()[0]:.1f}")
        print("| read | p50 ms | p99 ms | max ms | CPU ms per call |\n| --- | --- | --- | --- | --- |")
        print("\n".join(rows))


if __name__ == "__main__":
    main()
