"""Copying a whole database to another, e.g. a server's SQLite file to PostgreSQL (``cardtable migrate-db``).

The source is opened as the bot opens it (so it is migrated to the latest version first), the target must
be empty (its tables are created by the same migrations). Every table is copied, live tables with their
action logs and seats included, in foreign-key order, in ONE transaction of the target, ids preserved;
PostgreSQL's identity sequences then continue after the copied ids. The source is read in one transaction
too, so the copy is consistent even if something writes to it meanwhile (stop the bot first all the same:
what it writes after the copy began is not copied). Last, the rows of each table are counted on both sides.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from storage.backend import POSTGRESQL, DatabaseTarget, database_target
from storage.connection import dialect_of, in_transaction
from storage.database import Database, live_order
from storage.postgres import PostgresConnection
from storage.sqlite import SqliteConnection

TABLES: tuple[tuple[str, str], ...] = (
    ("guild_settings", "guild_id"),
    ("seasons", "guild_id, season"),
    ("games", "id"),
    ("game_seats", "game_id, seat"),
    ("ratings", "guild_id, season, game, user_id"),
    ("player_results", "game_id, seat"),
    ("live_tables", "{live_order}"),  # the order they were first stored: the target keeps it
    ("live_table_actions", "table_id, position"),
    ("live_table_seats", "table_id, user_id"),
    ("live_table_engine_snapshots", "table_id"),
    ("table_messages", "table_id"),
    ("table_dms", "table_id, user_id"),
    ("queue_players", "guild_id, user_id"),
    ("queue_boards", "channel_id"),
)
"""Every table of the bot's schema with the order its rows are copied in, parents before children."""

IDENTITY_COLUMNS = (("games", "id"), ("live_tables", "seq"))
"""PostgreSQL's identity columns, whose sequences must continue after the copied values."""

BATCH_ROWS = 5000


class TargetNotEmpty(Exception):
    """The target database already holds data; ``str(error)`` says which table (nothing was copied)."""


@dataclass(frozen=True)
class TableCount:
    """Rows of one table in the source and in the target after the copy."""

    table: str
    source: int
    target: int


async def copy_database(source: Path | str, target: Path | str) -> list[TableCount]:
    """Copy every row of the database ``source`` names into the empty database ``target`` names (paths or
    URLs as :meth:`storage.Database.open` takes them) and count both sides.

    Returns
    -------
    list[TableCount]
        Each table's rows on both sides, in copy order; they agree unless something went wrong.

    Raises
    ------
    FileNotFoundError
        If the source is a SQLite file that does not exist.
    TargetNotEmpty
        If any table of the target holds a row (nothing is copied).
    ValueError, RuntimeError, sqlite3.Error, psycopg.Error
        A URL of another kind, a database newer than this code, or a database error; the target's copy
        transaction is rolled back whole.
    """
    source_target = database_target(source)
    if source_target.path is not None and not source_target.path.is_file():
        raise FileNotFoundError(f"there is no SQLite database at {source_target.path}")
    origin = await Database.open(source)  # migrated to the latest version, as the bot would
    try:
        destination = await Database.open(target, pool_size=1)
        try:
            # Straight on the target's thread, without a running write's timeouts: a big copy takes time.
            await destination._run(in_transaction, _copy_all, source_target)
            return [
                TableCount(table, await _count(origin, table), await _count(destination, table))
                for table, _ in TABLES
            ]
        finally:
            await destination.close()
    finally:
        await origin.close()


async def _count(database: Database, table: str) -> int:
    return await database._run(_count_rows, table)


def _count_rows(connection: Any, table: str) -> int:
    return int(connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _copy_all(target: Any, source_target: DatabaseTarget) -> None:
    """On the target's thread, inside its transaction: refuse a non-empty target, stream every table from a
    connection of the source's own (read in one transaction), then move the identity sequences on."""
    for table, _ in TABLES:
        if _count_rows(target, table):
            raise TargetNotEmpty(f"the target database is not empty: its table {table} has rows")
    source, close = _connect(source_target)
    try:
        snapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ" if dialect_of(source) == POSTGRESQL else "BEGIN"
        source.execute(snapshot)
        for table, order in TABLES:
            _copy_table(source, target, table, order)
        source.execute("ROLLBACK")  # it only read
    finally:
        close()
    if dialect_of(target) == POSTGRESQL:
        for table, column in IDENTITY_COLUMNS:
            target.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f" GREATEST(COALESCE(MAX({column}), 0), 1), MAX({column}) IS NOT NULL) FROM {table}"
            )


def _copy_table(source: Any, target: Any, table: str, order: str) -> None:
    present = set(_columns(target, table))  # PostgreSQL's live_tables.seq is not in SQLite's, nor rowid here
    columns = [name for name in _columns(source, table) if name in present]
    names = ", ".join(columns)
    order = order.format(live_order=live_order(source))
    rows = source.execute(f"SELECT {names} FROM {table} ORDER BY {order}")
    insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    while batch := rows.fetchmany(BATCH_ROWS):
        target.executemany(insert, batch)


def _columns(connection: Any, table: str) -> list[str]:
    cursor = connection.execute(f"SELECT * FROM {table} LIMIT 0")
    names = [str(column[0]) for column in cursor.description]
    cursor.fetchall()
    return names


def _connect(found: DatabaseTarget) -> tuple[Any, Callable[[], None]]:
    """A connection of its own to the source (autocommit: the reading transaction is explicit) and how to
    close it."""
    if found.dialect == POSTGRESQL:
        assert found.url is not None
        raw = psycopg.connect(found.url, autocommit=True)
        return PostgresConnection(raw), raw.close
    assert found.path is not None
    connection = sqlite3.connect(found.path, isolation_level=None, factory=SqliteConnection)
    return connection, connection.close
