"""Live tables on a real SQLite file and a real PostgreSQL database: one transaction per change, results
once; SQLite's integrity check and backups; engine snapshots."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import psycopg
import pytest

from engine.tables import moves
from engine.tables.snapshot import ENGINE_SNAPSHOT_EVERY, TableSnapshot, restore
from storage import Database, GameResult, IntegrityError, StoredAction, StoredEngineSnapshot, database_path
from tests.storage.test_database import result
from tests.tables.fakes import make_runtime
from tests.tables.test_runtime import long_game, same_table


@pytest.fixture
async def db(database_url: str):
    database = await Database.open(database_url)
    yield database
    await database.close()


def damage_table(path: Path, table: str) -> None:
    """Scribble over the cell pointers of ``table``'s root b-tree page in a closed database file, a damage
    ``PRAGMA integrity_check`` always reports."""
    with sqlite3.connect(path) as raw_db:
        (root,) = raw_db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        (page_size,) = raw_db.execute("PRAGMA page_size").fetchone()
        raw_db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = bytearray(path.read_bytes())
    start = (root - 1) * page_size
    raw[start + 12 : start + 400] = b"\xff" * 388
    path.write_bytes(bytes(raw))


async def save(db: Database, table_id: str, snapshot: dict, actions=(), result=None) -> None:
    await db.save_table(table_id, 1, 2, "foist", snapshot, list(actions), result)


async def test_a_table_and_its_log_round_trip(db: Database) -> None:
    await save(db, "t1", {"phase": "lobby"})
    await save(db, "t1", {"phase": "playing"}, [StoredAction(0, 1, "take"), StoredAction(1, 1, "pay", True)])
    await save(db, "t1", {"phase": "playing", "n": 3}, [StoredAction(2, 2, "take")])
    stored = await db.load_table("t1")
    assert stored is not None and stored.snapshot == {"phase": "playing", "n": 3}
    assert (stored.guild_id, stored.channel_id, stored.game) == (1, 2, "foist")
    assert [(a.position, a.seat, a.code, a.timed_out) for a in stored.actions] == [
        (0, 1, "take", False),
        (1, 1, "pay", True),
        (2, 2, "take", False),
    ]
    (log,) = await db.load_table_logs()  # as a restart reads it
    assert (log.table_id, log.snapshot) == ("t1", stored.snapshot)
    assert log.actions == [(1, "take", False), (1, "pay", True), (2, "take", False)]
    assert await db.load_table("nope") is None


async def test_a_replaced_log_takes_the_place_of_the_stored_one_and_nothing_else(db: Database) -> None:
    """``replace_log``: an upgraded log (an older engine's, rewritten on load) replaces the stored one in the
    same transaction as the snapshot; other tables' logs stay."""
    old = [
        StoredAction(0, 1, "t6r"),
        StoredAction(1, 1, "f3"),
        StoredAction(2, 1, "fback"),
        StoredAction(3, 0, "draw"),
    ]
    await save(db, "t1", {"n": 1}, old)
    await save(db, "t2", {"n": 1}, [StoredAction(0, 0, "take")])
    upgraded = [StoredAction(0, 1, "t6r"), StoredAction(1, 0, "draw", True)]
    await db.save_table("t1", 1, 2, "declare", {"n": 2}, upgraded, replace_log=True)
    await save(db, "t1", {"n": 3}, [StoredAction(2, 1, "take5r")])  # the next move follows the new log
    first, second = [await db.load_table(table_id) for table_id in ("t1", "t2")]
    assert first is not None and second is not None and first.snapshot == {"n": 3}
    assert [(a.position, a.seat, a.code, a.timed_out) for a in first.actions] == [
        (0, 1, "t6r", False),
        (1, 0, "draw", True),
        (2, 1, "take5r", False),
    ]
    assert [a.code for a in second.actions] == ["take"]


async def test_a_forked_log_is_refused_whole(db: Database) -> None:
    await save(db, "t1", {"v": 1}, [StoredAction(0, 0, "take")])
    with pytest.raises(IntegrityError):
        await save(db, "t1", {"v": 2}, [StoredAction(1, 0, "pay"), StoredAction(0, 1, "take")])
    (stored,) = await db.load_table_logs()
    assert stored.snapshot == {"v": 1} and len(stored.actions) == 1  # nothing of the failed save


async def test_the_final_move_and_the_result_are_stored_together_once(db: Database) -> None:
    final = result("t1", 1, {10: 1, 11: 2})
    await save(db, "t1", {"phase": "scoreboard"}, [StoredAction(0, 0, "take")], final)
    await save(db, "t1", {"phase": "scoreboard", "again": True}, [], final)  # a retry stores no second
    assert await db.result_count("t1") == 1
    await db.delete_table("t1")
    assert await db.load_table_logs() == [] and await db.load_table("t1") is None
    assert await db.result_count("t1") == 1  # the leaderboard keeps it


async def test_a_failure_late_in_a_save_leaves_nothing_of_it(db: Database) -> None:
    """The final move's save fails at its last statement (the result's seats): the snapshot and the actions
    written earlier in the same transaction are rolled back too."""
    await save(db, "t1", {"v": 1}, [StoredAction(0, 0, "take")])
    final = result("t1", 1, {10: 1, 11: 2})
    duplicate_seat = GameResult(**{**final.__dict__, "seats": [final.seats[0], final.seats[0]]})
    with pytest.raises(IntegrityError):
        moves = [StoredAction(1, 1, "pay"), StoredAction(2, 0, "take")]
        await save(db, "t1", {"v": 2}, moves, duplicate_seat)
    stored = await db.load_table("t1")
    assert stored is not None and stored.snapshot == {"v": 1} and [a.position for a in stored.actions] == [0]
    assert await db.result_count("t1") == 0
    await save(db, "t1", {"v": 2}, [StoredAction(1, 1, "pay")], final)  # the connection still works
    assert await db.result_count("t1") == 1


async def test_a_move_is_one_hop_to_the_database_thread(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's whole write is handed to the database's thread at once: on SQLite one statement (the
    lock wait already set by the first), on PostgreSQL one transaction (snapshot, actions, result)."""
    await save(db, "t1", {"v": 1}, [StoredAction(0, 0, "take")])
    calls = []
    if db.dialect == "sqlite":
        connection = db._driver._connection
        execute = connection.execute

        def counting_execute(*args, **kwargs):
            calls.append(args)
            return execute(*args, **kwargs)

        monkeypatch.setattr(connection, "execute", counting_execute)
        await save(db, "t1", {"v": 2}, [StoredAction(1, 1, "pay")])
        await save(db, "t1", {"v": 2}, [])  # (a new message id: no action)
        engine = StoredEngineSnapshot(3, "d", "{}")  # a move with its engine snapshot
        await db.save_table(
            "t1", 1, 2, "declare", {"v": 2}, [StoredAction(2, 0, "x")], engine_snapshot=engine
        )
        assert len(calls) == 3
        assert (await db.load_table("t1")).engine_snapshot == engine  # type: ignore[union-attr]
    else:
        submit = db._driver._threads.submit

        def counting_submit(*args, **kwargs):
            calls.append(args)
            return submit(*args, **kwargs)

        monkeypatch.setattr(db._driver._threads, "submit", counting_submit)
        await save(db, "t1", {"v": 2}, [StoredAction(1, 1, "pay")], result("t1", 1, {10: 1, 11: 2}))
        assert len(calls) == 1
        assert await db.result_count("t1") == 1
    stored = await db.load_table("t1")
    assert stored is not None and stored.snapshot == {"v": 2}
    assert [a.position for a in stored.actions] == ([0, 1, 2] if db.dialect == "sqlite" else [0, 1])


async def test_integrity_check_finds_a_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    database = await Database.open(path)
    assert await database.integrity_problems() == []
    for n in range(300):
        await save(database, f"t{n}", {"filler": "x" * 500})
    await database.close()
    damage_table(path, "live_tables")
    damaged = await Database.open(path)
    try:
        assert await damaged.integrity_problems() != []
    finally:
        await damaged.close()


async def test_a_backup_is_a_consistent_copy_that_opens_on_its_own(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.db")
    await save(db, "t1", {"phase": "playing"}, [StoredAction(0, 0, "take")])
    target = tmp_path / "backups" / "copy.sqlite3"
    await db.backup_to(target)
    assert not (tmp_path / "backups" / "copy.sqlite3.partial").exists()
    restored = await Database.open(target)
    try:
        (stored,) = await restored.load_table_logs()
        assert stored.snapshot == {"phase": "playing"} and len(stored.actions) == 1
        assert await restored.integrity_problems() == []
    finally:
        await restored.close()
        await db.close()


async def test_server_turn_length_defaults(db: Database) -> None:
    assert await db.guild_turn_seconds(5) is None
    await db.set_guild_turn_seconds(5, 45)
    assert await db.guild_turn_seconds(5) == 45
    await db.set_guild_turn_seconds(5, None)
    assert await db.guild_turn_seconds(5) is None


# -- who sits where (V006): the shard routing finds a user's tables and a table's server --------------


async def test_seats_are_stored_with_the_table_and_found_by_user(db: Database) -> None:
    await db.save_table("t1", 10, 20, "foist", {"v": 1}, seated_users=[5, 6])
    await db.save_table("t2", 11, 21, "foist", {"v": 1}, seated_users=[6, 6, 7])
    await db.save_table("t3", 12, 22, "foist", {"v": 1})  # seats never given: none stored
    assert await db.tables_of_user(6) == [("t1", 10, 20), ("t2", 11, 21)]
    assert await db.tables_of_user(5) == [("t1", 10, 20)] and await db.tables_of_user(99) == []
    await db.save_table("t1", 10, 20, "foist", {"v": 2}, [StoredAction(0, 0, "take")])  # None: unchanged
    assert await db.tables_of_user(5) == [("t1", 10, 20)]
    await db.save_table("t1", 10, 20, "foist", {"v": 3}, seated_users=[8])  # replaced
    assert await db.tables_of_user(5) == [] and await db.tables_of_user(8) == [("t1", 10, 20)]
    await db.save_table("t2", 11, 21, "foist", {"v": 2}, seated_users=[])
    assert await db.tables_of_user(6) == [] and await db.tables_of_user(7) == []
    assert await db.table_guild("t1") == 10 and await db.table_guild("t3") == 12
    assert await db.table_guild("nope") is None
    await db.delete_table("t1")  # its seats go with it
    assert await db.tables_of_user(8) == [] and await db.table_guild("t1") is None


async def test_a_failed_save_leaves_the_seats_as_they_were(db: Database) -> None:
    await db.save_table("t1", 10, 20, "foist", {"v": 1}, [StoredAction(0, 0, "take")], seated_users=[5])
    with pytest.raises(IntegrityError):  # a forked log: the whole save is refused
        await db.save_table("t1", 10, 20, "foist", {"v": 2}, [StoredAction(0, 1, "pay")], seated_users=[6])
    assert await db.tables_of_user(5) == [("t1", 10, 20)] and await db.tables_of_user(6) == []


async def test_a_process_loads_only_the_tables_of_its_servers(db: Database) -> None:
    for n, guild in enumerate((1, 2, 3, 4, 5)):
        await db.save_table(f"t{n}", guild, 7, "foist", {"n": n}, [StoredAction(0, 0, f"a{n}")])
    mine = await db.load_table_logs(guild_filter=lambda guild: guild % 2 == 1)
    assert [(t.table_id, t.guild_id, [code for _, code, _ in t.actions]) for t in mine] == [
        ("t0", 1, ["a0"]),
        ("t2", 3, ["a2"]),
        ("t4", 5, ["a4"]),
    ]
    assert [t.table_id for t in await db.load_table_logs()] == ["t0", "t1", "t2", "t3", "t4"]
    assert await db.load_table_logs(guild_filter=lambda guild: False) == []


async def test_the_migration_seats_the_tables_live_at_the_time(database_url: str) -> None:
    """V006 reads the seats of the tables already stored from their snapshots: a lobby's players, a game's
    human players (no AI seat)."""
    from storage.postgres import PostgresConnection, migrate_postgresql
    from storage.schema import apply_migration, migrations, python_step

    if database_url.startswith("sqlite:"):
        path = database_path(database_url)
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = sqlite3.connect(path, isolation_level=None)
        for version, name, sql in migrations()[:5]:
            apply_migration(raw, version, sql, python_step(name))
    else:
        raw = PostgresConnection(psycopg.connect(database_url, autocommit=True))
        migrate_postgresql(raw, migrations("postgresql")[:5])
    tables = [
        ("lobby", {"phase": "lobby", "lobby_players": [3, 4], "players": []}),
        ("game", {"phase": "playing", "lobby_players": [3], "players": [5, -1, 3]}),
        ("broken", "not json"),
    ]
    for table_id, snapshot in tables:
        raw.execute(
            "INSERT INTO live_tables (table_id, guild_id, channel_id, game, snapshot, updated_at)"
            " VALUES (?, 1, 2, 'foist', ?, '2026-11-01T00:00:00+00:00')",
            (table_id, snapshot if isinstance(snapshot, str) else json.dumps(snapshot)),
        )
    (raw.raw if isinstance(raw, PostgresConnection) else raw).close()
    db = await Database.open(database_url)
    try:
        assert await db.tables_of_user(3) == [("game", 1, 2), ("lobby", 1, 2)]
        assert await db.tables_of_user(4) == [("lobby", 1, 2)] and await db.tables_of_user(-1) == []
    finally:
        await db.close()


# -- engine snapshots (V009): a long game comes back from its latest snapshot and the actions after it ----


async def test_an_engine_snapshot_is_stored_with_its_save_replaced_and_goes_with_the_table(
    db: Database, rows_of
) -> None:
    first = StoredEngineSnapshot(1, "d1", '{"state": 1}')
    await db.save_table("t1", 1, 2, "declare", {"v": 1}, [StoredAction(0, 0, "a")], engine_snapshot=first)
    await db.save_table("t2", 1, 3, "declare", {"v": 1}, [StoredAction(0, 0, "a")], engine_snapshot=first)
    await save(db, "t1", {"v": 2}, [StoredAction(1, 1, "b")])  # a move without one: it stays
    stored = await db.load_table("t1")
    assert stored is not None and stored.engine_snapshot == first and len(stored.actions) == 2
    second = StoredEngineSnapshot(2, "d2", '{"state": 2}')
    await db.save_table("t1", 1, 2, "declare", {"v": 3}, [StoredAction(2, 0, "c")], engine_snapshot=second)
    logs = {log.table_id: log for log in await db.load_table_logs()}
    assert (logs["t1"].engine_snapshot, logs["t2"].engine_snapshot) == (second, first)
    with pytest.raises(IntegrityError):  # a forked log: the snapshot of that save is refused with it
        await db.save_table("t1", 1, 2, "declare", {"v": 4}, [StoredAction(2, 1, "x")], engine_snapshot=first)
    assert (await db.load_table("t1")).engine_snapshot == second  # type: ignore[union-attr]
    await db.save_table("t1", 1, 2, "declare", {"v": 5}, [StoredAction(0, 0, "a")], replace_log=True)
    assert (await db.load_table("t1")).engine_snapshot is None  # type: ignore[union-attr]  # its log is gone
    assert await db.load_table("nope") is None
    await db.delete_table("t2")  # it goes with its table
    assert rows_of("SELECT table_id FROM live_table_engine_snapshots") == []


@pytest.mark.parametrize("key", ["declare", "minimize", "tokenize", "eradicize"])
async def test_a_restart_on_the_database_brings_a_long_game_back_from_its_engine_snapshot(
    database_url: str, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """Played through the runtime on the real database past its first engine snapshot, a Minimize: Declare,
    MINIMIZE, TOKENIZE or ERADICIZE table comes back in a new process (a new connection) from that snapshot
    and the actions after it, equal to its whole log replayed."""
    db = await Database.open(database_url)
    try:
        world = make_runtime(db=db)
        table = await long_game(world, key)
        world.runtime.tasks.cancel_all()
    finally:
        await db.close()
    db = await Database.open(database_url)
    try:
        (stored,) = await db.load_table_logs()
        assert stored.engine_snapshot is not None and stored.engine_snapshot.version == ENGINE_SNAPSHOT_EVERY
        whole = restore(TableSnapshot.from_stored(stored.snapshot), stored.actions)  # no engine snapshot
        same_table(whole, table)
        after = make_runtime(db=db, now=world.clock.now)
        assert await after.runtime.restore() == 1
        revived = after.runtime.registry.get(table.table_id)
        assert revived is not None
        same_table(revived, whole)
        seat = revived.state.seats_to_act()[0]  # it plays on, stored as before: its seats are not stored
        code = revived.state.default_action(seat)  # again, so on SQLite the move is one statement
        written = []
        if db.dialect == "sqlite":
            connection = db._driver._connection
            execute = connection.execute
            monkeypatch.setattr(connection, "execute", lambda *args: written.append(args) or execute(*args))
        await after.runtime.commit(revived, moves.Play(revived.players[seat], revived.state.version, code))
        statements = [sql for sql, *_ in written if not sql.startswith("PRAGMA")]  # (the lock wait, once)
        assert len(statements) == (1 if db.dialect == "sqlite" else 0)
        assert len((await db.load_table(table.table_id)).actions) == ENGINE_SNAPSHOT_EVERY + 3  # type: ignore[union-attr]
        after.runtime.tasks.cancel_all()
    finally:
        await db.close()
