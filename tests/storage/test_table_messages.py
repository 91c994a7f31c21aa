"""Where each live table is shown on Discord (V012, :mod:`storage.table_messages`), on a real SQLite file and
a real PostgreSQL database: the table message and the live DMs by table id, written apart from the table,
gone with it; the Discord layer's owner of them (:class:`cogs.tables.message_ids.TableMessageIds`) brings
them back after a restart; and the migration moves them out of the snapshots a database written before it
holds."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import datetime, timedelta, timezone

import psycopg
import pytest

from cogs.tables.message_ids import TableMessageIds
from engine.tables.session import TableSession, TableSettings
from engine.tables.snapshot import TableSnapshot, snapshot_of
from engine.tables.tasks import Supervisor
from storage import Database, StoredTableMessages, database_path
from tests.tables.toy_game import PickAndCall

POSTED = datetime(2026, 11, 22, 12, 0, 5, 250_000, tzinfo=timezone.utc)


@pytest.fixture
async def db(database_url: str):
    database = await Database.open(database_url)
    yield database
    await database.close()


async def stored_table(db: Database, table_id: str, guild_id: int = 1) -> None:
    await db.save_table(table_id, guild_id, 2, "foist", {"phase": "lobby"}, [], None)


async def test_a_tables_message_and_live_dms_are_stored_replaced_and_go_with_it(
    db: Database, rows_of
) -> None:
    await stored_table(db, "t1")
    await stored_table(db, "t2", guild_id=7)
    assert await db.table_messages() == []
    assert await db.save_table_messages("t1", 555, POSTED, {42: (9, 900), 43: (8, 800)})
    assert await db.save_table_messages("t2", None, None, {44: (7, 700)})  # its message deleted
    assert await db.table_messages() == [
        StoredTableMessages("t1", 1, 555, POSTED, {42: (9, 900), 43: (8, 800)}),
        StoredTableMessages("t2", 7, None, None, {44: (7, 700)}),
    ]
    assert await db.table_messages(lambda guild: guild == 7) == [
        StoredTableMessages("t2", 7, None, None, {44: (7, 700)})
    ]
    later = POSTED + timedelta(hours=1)
    # Moved to a fresh message; one DM gone, one sent again.
    assert await db.save_table_messages("t1", 556, later, {43: (8, 801)})
    (first, _) = await db.table_messages()
    assert first == StoredTableMessages("t1", 1, 556, later, {43: (8, 801)})
    assert rows_of("SELECT user_id, message_id FROM table_dms WHERE table_id = 't1'") == [(43, 801)]
    # Nothing of it is the table's snapshot.
    snapshot = json.dumps({"phase": "lobby"})
    assert rows_of("SELECT snapshot FROM live_tables WHERE table_id = 't1'") == [(snapshot,)]
    await db.delete_table("t1")  # closed: its rows go with it
    assert rows_of("SELECT table_id FROM table_messages") == [("t2",)]
    assert rows_of("SELECT table_id FROM table_dms") == [("t2",)]
    # A write that comes after the table is gone writes nothing.
    assert not await db.save_table_messages("t1", 557, later, {42: (9, 901)})
    assert rows_of("SELECT table_id FROM table_messages") == [("t2",)]


async def test_the_discord_layer_gets_its_message_ids_back_after_a_restart(database_url: str) -> None:
    """What :class:`TableMessageIds` notes is written as it changes, the last change last, and read back by
    the next process's."""
    db = await Database.open(database_url)
    table = TableSession.new("t1", 1, 2, PickAndCall(), TableSettings(30, 30, 2), 101, "host")
    await db.save_table("t1", 1, 2, table.rules.key, snapshot_of(table).to_json(), [], None)
    tasks = Supervisor()
    ids = TableMessageIds(db, tasks)
    ids.posted(table, 555, POSTED)
    ids.dm_sent(table, 102, 9, 900)
    ids.dm_sent(table, 103, 8, 800)
    ids.posted(table, 556, POSTED + timedelta(hours=1))  # moved while the first write was on its way
    ids.dm_gone(table, 103)
    while tasks.tasks:
        await asyncio.gather(*tasks.tasks)
    await db.close()

    db = await Database.open(database_url)
    try:
        again = TableMessageIds(db, Supervisor())
        assert await again.load() == 1
        assert again.message_id("t1") == 556 and again.posted_at("t1") == POSTED + timedelta(hours=1)
        assert again.live_dm("t1", 102) == (9, 900) and again.live_dm("t1", 103) is None
        elsewhere = TableMessageIds(db, Supervisor())  # a process of other servers
        assert await elsewhere.load(lambda guild: guild != 1) == 0 and elsewhere.message_id("t1") is None
    finally:
        await db.close()


def at_version_11(database_url: str):
    """A raw connection to the test's database, migrated up to V011 (the schema before this one)."""
    from storage.postgres import PostgresConnection, migrate_postgresql
    from storage.schema import apply_migration, migrations, python_step

    if database_url.startswith("sqlite:"):
        path = database_path(database_url)
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = sqlite3.connect(path, isolation_level=None)
        raw.execute("PRAGMA foreign_keys = ON")
        for version, name, sql in migrations()[:11]:
            apply_migration(raw, version, sql, python_step(name))
        return raw, raw.close
    raw = PostgresConnection(psycopg.connect(database_url, autocommit=True))
    migrate_postgresql(raw, migrations("postgresql")[:11])
    return raw, raw.raw.close


async def test_the_migration_moves_the_message_ids_out_of_the_stored_snapshots(
    database_url: str, rows_of
) -> None:
    """A database written before V012 held each table's message id, its posting time and its live DMs in
    the table's snapshot; after the upgrade they are the Discord layer's rows, and the snapshot, without
    them, reads as the same table."""
    table = TableSession.new("t1", 1, 2, PickAndCall(), TableSettings(30, 30, 2), 101, "host")
    before = {
        **snapshot_of(table).to_stored(),  # as the release before wrote it: the table, and where it was shown
        "message_id": 1300000000000000000,
        "message_posted_at": "2026-03-14T18:00:00Z",
        "live_dms": {"102": [9, 900], "103": [8, 800]},
    }
    lobby = {"phase": "lobby", "message_id": None, "message_posted_at": None, "live_dms": {}}  # never posted
    raw, close = at_version_11(database_url)
    for table_id, snapshot in (("t1", json.dumps(before)), ("t2", json.dumps(lobby)), ("bad", "not json")):
        raw.execute(
            "INSERT INTO live_tables (table_id, guild_id, channel_id, game, snapshot, updated_at)"
            " VALUES (?, 1, 2, 'foist', ?, '2026-11-01T00:00:00+00:00')",
            (table_id, snapshot),
        )
    close()
    db = await Database.open(database_url)
    try:
        assert await db.schema_version() >= 12
        posted = datetime(2026, 3, 14, 18, 0, tzinfo=timezone.utc)
        assert await db.table_messages() == [
            StoredTableMessages("t1", 1, 1300000000000000000, posted, {102: (9, 900), 103: (8, 800)})
        ]
        stored = await db.load_table("t1")
        assert stored is not None
        assert not {"message_id", "message_posted_at", "live_dms"} & set(stored.snapshot)
        assert TableSnapshot.from_stored(stored.snapshot) == snapshot_of(table)
        lobby_now = await db.load_table("t2")
        assert lobby_now is not None and lobby_now.snapshot == {"phase": "lobby"}
        unreadable = rows_of("SELECT snapshot FROM live_tables WHERE table_id = 'bad'")
        assert unreadable == [("not json",)]  # left as it was
    finally:
        await db.close()
