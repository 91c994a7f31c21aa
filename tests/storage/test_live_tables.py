"""Live tables on a real SQLite file and a real PostgreSQL database: one transaction per change, results
once; SQLite's integrity check and backups."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import Database, GameResult, IntegrityError, StoredAction
from tests.storage.test_database import result


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
    (stored,) = await db.load_tables()
    assert stored.snapshot == {"phase": "playing", "n": 3}
    assert [(a.position, a.seat, a.code, a.timed_out) for a in stored.actions] == [
        (0, 1, "take", False),
        (1, 1, "pay", True),
        (2, 2, "take", False),
    ]
    assert await db.load_table("t1") == stored
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
    first, second = await db.load_tables()
    assert first.snapshot == {"n": 3}
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
    (stored,) = await db.load_tables()
    assert stored.snapshot == {"v": 1} and len(stored.actions) == 1  # nothing of the failed save


async def test_the_final_move_and_the_result_are_stored_together_once(db: Database) -> None:
    final = result("t1", 1, {10: 1, 11: 2})
    await save(db, "t1", {"phase": "scoreboard"}, [StoredAction(0, 0, "take")], final)
    await save(db, "t1", {"phase": "scoreboard", "again": True}, [], final)  # a retry stores no second
    assert await db.result_count("t1") == 1
    await db.delete_table("t1")
    assert await db.load_tables() == []
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
    (stored,) = await db.load_tables()
    assert stored.snapshot == {"v": 1} and [a.position for a in stored.actions] == [0]
    assert await db.result_count("t1") == 0
    await save(db, "t1", {"v": 2}, [StoredAction(1, 1, "pay")], final)  # the connection still works
    assert await db.result_count("t1") == 1


async def test_a_save_is_one_call_to_the_database_thread(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's whole transaction (snapshot, actions, result) is handed to the database thread at once."""
    calls = []
    submit = db._thread.submit

    def counting_submit(*args, **kwargs):
        calls.append(args)
        return submit(*args, **kwargs)

    monkeypatch.setattr(db._thread, "submit", counting_submit)
    await save(db, "t1", {"v": 1}, [StoredAction(0, 0, "take")])
    await save(db, "t1", {"v": 2}, [StoredAction(1, 1, "pay")], result("t1", 1, {10: 1, 11: 2}))
    assert len(calls) == 2
    assert await db.result_count("t1") == 1


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
        (stored,) = await restored.load_tables()
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
