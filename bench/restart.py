"""Restart of a big bot, run on demand (never in the test suite): ``python bench/restart.py``.

A SQLite database is filled with ``--tables`` live mid-game tables of a game (``--games``: each game in
turn; 4 people seated, 1-hour turn clocks, so nothing times out): ``--distinct`` games of that kind, each
played with random legal moves to a random point between 30% and 70% of its length, copied over the
tables under fresh table and channel ids, each with the engine snapshot the bot would have stored with it
(games that have them: all but Foist and Minimisère; taken at the last multiple of
``ENGINE_SNAPSHOT_EVERY`` actions). Then a fresh process (``--run``, a subprocess, so nothing built
above is in its memory) restarts on it as the bot does: the table runtime (``engine.tables``) on the real
database, a started APScheduler, a presenter that shows nothing (Discord's side of a press, ~1.4 ms of CPU,
is ``bench/press_cost.py``'s). From the moment it opens the database it

- restores the tables (:meth:`TableRuntime.restore`: read, clocks armed, no game replayed) and starts
  replaying them in the background (:meth:`TableRuntime.finish_restoring`, at once: in the bot it waits for
  discord.py's ready, seconds later, so presses meet a longer background pass there, not a shorter one);
- presses ``--rate`` times a second on tables picked at random (each press the default action of the
  seat to act, through :meth:`TableRuntime.commit`, stored in SQLite), from the start until ``--after``
  seconds past the end of the background replay;
- and watches the event loop (a 5 ms sleep's lateness).

Printed per game: when the first press was answered, when every table was replayed, each press's time to
its answer (those that replayed their table first apart), the loop's longest block, and (``--memory``, a
second run with tracemalloc on) the memory held per live table once all are replayed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_rules  # noqa: E402
from engine.tables.session import TableDraft, TableSettings  # noqa: E402
from engine.tables.snapshot import ENGINE_SNAPSHOT_EVERY, engine_snapshot_of, snapshot_of  # noqa: E402

SEATS = 4
GUILD = 1
PEOPLE = [1001, 1002, 1003, 1004]


def mid_game(
    key: str, seed: int, rng: random.Random
) -> tuple[dict, list[tuple[int, int, str, int]], tuple[int, str, str] | None]:
    """One table of game ``key`` played at random to between 30% and 70% of its length: its snapshot
    (stored form), its actions ``(position, seat, code, timed_out)`` and its latest engine snapshot as
    stored ``(version, digest, JSON)``, if the game has them."""
    rules = get_rules(key)
    whole = rules.new_game(SEATS, seed)
    while not whole.is_terminal():
        seat = rng.choice(whole.seats_to_act())
        whole.apply(seat, rng.choice(whole.legal_actions(seat)).code)
    stop = int(len(whole.history) * rng.uniform(0.3, 0.7))
    now = datetime.now(timezone.utc)
    table = TableDraft("t", GUILD, 0, rules, TableSettings(3600, 3600, 2), PEOPLE[0], "p0")
    for user in PEOPLE[1:]:
        table.join(user, f"p{user}")
    table.start(PEOPLE[0], seed, now)
    engine = None
    for seat, code in whole.history[:stop]:
        table.act(table.players[seat], table.state.version, code, now)
        if table.state.version % ENGINE_SNAPSHOT_EVERY == 0:
            taken = engine_snapshot_of(table)
            engine = None if taken is None else (taken.version, taken.digest, taken.snapshot)
    actions = [
        (position, seat, code, int(timed_out)) for position, seat, code, timed_out in table.unsaved_actions()
    ]
    return snapshot_of(table).to_stored(), actions, engine


def build(path: Path, key: str, tables: int, distinct: int) -> None:
    """A bot database at ``path`` holding ``tables`` live mid-game tables of ``key``."""
    from storage import Database

    async def schema() -> None:
        db = await Database.open(path)
        await db.close()

    asyncio.run(schema())
    rng = random.Random(21)
    games = [mid_game(key, seed, rng) for seed in range(distinct)]
    stamp = datetime.now(timezone.utc).isoformat()
    rows, action_rows, seat_rows, engine_rows = [], [], [], []
    for number in range(tables):
        snapshot, actions, engine = games[number % distinct]
        table_id = f"{number:010x}"
        channel_id = 10_000 + number
        rows.append(
            (
                table_id,
                GUILD,
                channel_id,
                key,
                json.dumps({**snapshot, "table_id": table_id, "channel_id": channel_id}),
                stamp,
            )
        )
        action_rows += [(table_id, *action) for action in actions]
        seat_rows += [(table_id, user) for user in PEOPLE]
        if engine is not None:
            engine_rows.append((table_id, *engine))
    connection = sqlite3.connect(path)
    with connection:
        connection.executemany(
            "INSERT INTO live_tables (table_id, guild_id, channel_id, game, snapshot, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
        connection.executemany(
            "INSERT INTO live_table_actions (table_id, position, seat, code, timed_out)"
            " VALUES (?, ?, ?, ?, ?)",
            action_rows,
        )
        connection.executemany("INSERT INTO live_table_seats (table_id, user_id) VALUES (?, ?)", seat_rows)
        connection.executemany(
            "INSERT INTO live_table_engine_snapshots (table_id, version, digest, snapshot)"
            " VALUES (?, ?, ?, ?)",
            engine_rows,
        )
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the one file that each run copies
    connection.close()


class Presenter:
    """Shows nothing (the Discord side of a press is bench/press_cost.py's)."""

    def show(self, outcome) -> None:
        pass

    def forget(self, table) -> None:
        pass

    async def post_table(self, table, intro: str) -> None:
        pass

    async def notice(self, table, text: str) -> None:
        pass


async def restart(path: Path, rate: float, after: float, memory: bool) -> dict:
    """Restart on the database at ``path``, press meanwhile, and return the figures (seconds, bytes)."""
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    from bot.run import tune_interpreter
    from engine.tables import moves
    from engine.tables.registry import TableRegistry
    from engine.tables.runtime import TableRuntime
    from engine.tables.session import TableError, TablePhase
    from engine.tables.store import TableStore
    from engine.tables.tasks import Supervisor
    from storage import Database

    tune_interpreter()  # the garbage collector's thresholds and the switch interval of the bot's process
    if memory:
        tracemalloc.start()
    started = time.perf_counter()
    db = await Database.open(path)
    scheduler = AsyncIOScheduler(timezone="UTC")
    scheduler.start()
    registry = TableRegistry()
    store = TableStore(db, registry, shutting_down=lambda: False)
    runtime = TableRuntime(
        registry, store, scheduler, Presenter(), Supervisor(), lobby_idle_seconds=900, ai_pause_seconds=1.0
    )
    count = await runtime.restore()
    restored_at = time.perf_counter() - started
    ids = list(registry.waiting)
    replayed_at: list[float] = []
    background = asyncio.ensure_future(runtime.finish_restoring(lambda table: None))
    background.add_done_callback(lambda _: replayed_at.append(time.perf_counter() - started))

    presses: list[tuple[float, float, bool]] = []  # (sent, seconds to the answer, replayed its table first)
    blocked = [0.0]

    async def watch() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            blocked[0] = max(blocked[0], time.perf_counter() - before - 0.005)

    async def press(table_id: str) -> None:
        sent = time.perf_counter()
        cold = table_id in registry.waiting
        table = registry.get(table_id)
        if table is None or table.phase is not TablePhase.PLAYING:
            return
        seat = table.state.seats_to_act()[0]
        move = moves.Play(table.players[seat], table.state.version, table.state.default_action(seat))
        answered = []

        async def answer(outcome) -> None:
            answered.append(time.perf_counter())

        try:
            await runtime.commit(table, move, answer)
        except TableError:  # busy, or refused: an answer too
            answered.append(time.perf_counter())
        presses.append((sent - started, answered[0] - sent, cold))

    collections: list[tuple[int, float]] = []  # (generation, seconds) of each garbage collection
    collecting = [0.0]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            collecting[0] = time.perf_counter()
        else:
            collections.append((info["generation"], time.perf_counter() - collecting[0]))

    gc.callbacks.append(timed)
    watcher = asyncio.ensure_future(watch())
    rng = random.Random(1)
    pending: set[asyncio.Task] = set()
    running_since = None
    while True:
        if replayed_at and running_since is None:
            running_since = time.perf_counter()
        if running_since is not None and time.perf_counter() - running_since >= after:
            break
        task = asyncio.ensure_future(press(rng.choice(ids)))
        pending.add(task)
        task.add_done_callback(pending.discard)
        await asyncio.sleep(1 / rate)
    await asyncio.gather(*pending)
    held = None
    if memory:
        held = tracemalloc.get_traced_memory()[0]
    watcher.cancel()
    scheduler.shutdown(wait=False)
    await db.close()
    first = min((sent + wait for sent, wait, _ in presses), default=None)
    return {
        "tables": count,
        "restored_at": restored_at,
        "first_answer_at": first,
        "replayed_at": replayed_at[0],
        "presses": presses,
        "blocked": blocked[0],
        "memory": held,
        "collections": [max((s for g, s in collections if g == k), default=0.0) for k in range(3)],
    }


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(key: str, result: dict, memory: dict | None) -> None:
    presses = result["presses"]
    waits = [wait for _, wait, _ in presses]
    meanwhile = [wait for sent, wait, _ in presses if sent <= result["replayed_at"]]
    running = [wait for sent, wait, _ in presses if sent > result["replayed_at"]]
    cold = [wait for _, wait, was_cold in presses if was_cold]
    ms = 1000
    per_table = "" if memory is None else f"{memory['memory'] / memory['tables'] / 1024:.1f} KB"
    print(
        f"| {key} | {result['tables']:,} | {result['restored_at']:.2f} s | "
        f"{result['first_answer_at']:.2f} s | "
        f"{result['replayed_at']:.1f} s | {len(presses)} ({len(cold)} replayed first) | "
        f"{quantile(meanwhile, 0.5) * ms:.1f} / {quantile(meanwhile, 0.99) * ms:.1f} / "
        f"{max(meanwhile, default=float('nan')) * ms:.0f} ms | "
        f"{quantile(running, 0.5) * ms:.1f} / {quantile(running, 0.99) * ms:.1f} ms | "
        f"{max(waits) * ms:.0f} ms | {result['blocked'] * ms:.0f} ms | "
        f"{' / '.join(f'{s * ms:.0f}' for s in result['collections'])} ms | {per_table} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="foist,minimize,declare,memory")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--distinct", type=int, default=50, help="distinct mid-game tables per game")
    parser.add_argument("--rate", type=float, default=50.0, help="presses a second")
    parser.add_argument("--after", type=float, default=3.0, help="seconds of presses after the replay")
    parser.add_argument("--memory", action="store_true", help="also a run with tracemalloc on")
    parser.add_argument("--run", nargs=2, metavar=("DATABASE", "MEMORY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        result = asyncio.run(restart(Path(args.run[0]), args.rate, args.after, args.run[1] == "1"))
        print(json.dumps(result))
        return
    print(
        "| game | live tables | restored (read, clocks armed) | first press answered | every table replayed "
        "| presses | press → answer during the replay p50 / p99 / max | after it p50 / p99 | longest press "
        "| loop blocked at most | longest garbage collection, generation 0 / 1 / 2 "
        "| memory per table (tracemalloc) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for key in args.games.split(","):
            path = Path(folder) / f"{key}.db"
            build(path, key, args.tables, args.distinct)
            result = run(path, args, memory=False)
            report(key, result, run(path, args, memory=True) if args.memory else None)


def run(path: Path, args: argparse.Namespace, *, memory: bool) -> dict:
    """A restart in a fresh process on a copy of the database at ``path`` (presses change the tables)."""
    copy = path.with_suffix(".run.db")
    copy.write_bytes(path.read_bytes())
    command = [sys.executable, __file__, "--rate", str(args.rate), "--after", str(args.after)]
    command += ["--run", str(copy), "1" if memory else "0"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
