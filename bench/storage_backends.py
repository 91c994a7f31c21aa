"""What a move's save and a result cost on each database: SQLite (the file, ``synchronous = FULL``) and
PostgreSQL (a throwaway durable cluster on loopback, ``fsync`` on, from :mod:`tests.postgres_server`).

Usage::

    python3 bench/storage_backends.py [--tables 200] [--moves 20] [--concurrent 1 50] [--results 200]

For each database and each level of ``--concurrent`` (how many tables save at the same moment, as many
tables' players pressing at once): ``--tables`` live tables (a 3 KB snapshot, three seats) each save
``--moves`` moves, every save one transaction through :class:`storage.Database` (the thread hop
included), timed from the event loop. Then ``--results`` results of one server are stored, as many at
once as ``--concurrent`` says (each rates its players: the read-modify-write that takes the server's
lock on PostgreSQL). Prints a Markdown table of p50 / p99 / max in milliseconds and saves per second.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import Database, GameResult, SeatResult, StoredAction  # noqa: E402
from tests.postgres_server import ThrowawayPostgres  # noqa: E402

START = datetime(2026, 11, 1, tzinfo=timezone.utc)


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


async def timed(calls: list, concurrent: int) -> tuple[list[float], float]:
    """Run the coroutine factories ``calls``, ``concurrent`` at a time; each one's milliseconds, and the
    wall seconds of all."""
    times: list[float] = []
    gate = asyncio.Semaphore(concurrent)

    async def one(call) -> None:
        async with gate:
            began = time.perf_counter()
            await call()
            times.append((time.perf_counter() - began) * 1000)

    began = time.perf_counter()
    await asyncio.gather(*(one(call) for call in calls))
    return sorted(times), time.perf_counter() - began


async def measure(target: Path | str, label: str, args: argparse.Namespace) -> list[str]:
    lines = []
    for concurrent in args.concurrent:
        db = await Database.open(target)
        try:
            padding = "x" * 3000
            for table in range(args.tables):
                await db.save_table(
                    f"{concurrent}-t{table}", 1, 2, "foist", {"p": padding}, seated_users=[1, 2, 3]
                )
            calls = []
            for move in range(args.moves):  # round by round: every table's move n before any move n + 1
                for table in range(args.tables):
                    table_id = f"{concurrent}-t{table}"
                    action = [StoredAction(move, move % 3, "take")]
                    calls.append(
                        lambda t=table_id, a=action, m=move, db=db, p=padding: db.save_table(
                            t, 1, 2, "foist", {"m": m, "p": p}, a
                        )
                    )
            times, wall = await timed(calls, concurrent)
            lines.append(_row(label, f"a move's save, {concurrent} at once", times, wall))
            rng = random.Random(concurrent)
            results = []
            for n in range(args.results):
                users = rng.sample(range(1, 41), 4)
                seats = [SeatResult(i, user, f"u{user}", 10 * i, i + 1) for i, user in enumerate(users)]
                finished = START + timedelta(minutes=n)
                results.append(
                    GameResult(
                        f"{concurrent}-r{n}", 5, 6, "foist", {}, n, [(0, "take")], START, finished, seats
                    )
                )
            times, wall = await timed([lambda r=r, db=db: db.record_result(r) for r in results], concurrent)
            lines.append(_row(label, f"a result of one server, {concurrent} at once", times, wall))
        finally:
            await db.close()
    return lines


def _row(label: str, what: str, times: list[float], wall: float) -> str:
    return (
        f"| {label} | {what} | {percentile(times, 0.5):.2f} | {percentile(times, 0.99):.2f} | {times[-1]:.2f}"
        f" | {len(times) / wall:,.0f} |"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--results", type=int, default=200)
    parser.add_argument("--concurrent", type=int, nargs="+", default=[1, 50])
    args = parser.parse_args()
    lines = [
        "| database | what | p50 ms | p99 ms | max ms | per second |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    with tempfile.TemporaryDirectory() as folder:
        lines += await measure(Path(folder) / "bench.db", "SQLite", args)
    with ThrowawayPostgres(durable=True) as server:
        lines += await measure(server.create_database(), "PostgreSQL (pool of 4)", args)
    print("\n".join(lines))


if __name__ == "__main__":
    asyncio.run(main())
