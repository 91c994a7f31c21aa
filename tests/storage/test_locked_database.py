"""A database write-locked by another connection: writes give up in time, never block the bot for long."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from storage import Database, StoredAction, is_locked, press_write_deadline
from storage.database import RUNNING_WRITE_WAIT_SECONDS


async def save(database: Database, n: int) -> None:
    await database.save_table(f"t{n}", 1, 2, "foist", {"n": n}, [StoredAction(0, 0, "take")])


async def test_writes_give_up_at_the_press_deadline_even_queued_behind_each_other(tmp_path: Path) -> None:
    database = await Database.open(tmp_path / "bot.db")
    other = sqlite3.connect(tmp_path / "bot.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        began = time.monotonic()
        token = press_write_deadline.set(began + 0.5)
        try:
            outcomes = await asyncio.gather(*(save(database, n) for n in range(6)), return_exceptions=True)
        finally:
            press_write_deadline.reset(token)
        took = time.monotonic() - began
        assert all(is_locked(outcome) for outcome in outcomes), outcomes
        assert took < 1.0  # six writes queued on one thread: each waits only until the same deadline

        began = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await save(database, 7)  # not a press: waits RUNNING_WRITE_WAIT_SECONDS
        assert time.monotonic() - began < RUNNING_WRITE_WAIT_SECONDS + 0.5
        assert await database.write_problem(0.1) == "database is locked"

        other.execute("ROLLBACK")
        await save(database, 8)  # nothing stuck: the next write goes through
        assert await database.write_problem(0.1) is None
        assert [table.table_id for table in await database.load_table_logs()] == ["t8"]
    finally:
        other.close()
        await database.close()
