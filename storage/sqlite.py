"""SQLite's machinery, through aiosqlite: one connection (aiosqlite's own thread), its pragmas, a move
stored by one statement, transactions that wait for another program's lock only until a deadline, backups,
and the read-only file told apart.

A move (a live table's new snapshot, at most one new action and, one move in 64 of the games that have
one, its engine snapshot: the common write) is ONE statement in autocommit mode: an ``INSERT`` into the
connection's temporary view ``move_rows``, whose ``INSTEAD OF`` trigger upserts the snapshot, appends the
action and upserts the engine snapshot inside SQLite (:data:`MOVE_SCHEMA`). SQLite runs a
statement atomically, and in autocommit mode commits it (fsynced: ``synchronous = FULL``) before the await
returns: one hop from the event loop, as durable as a ``BEGIN IMMEDIATE`` ... ``COMMIT`` of the same rows.

Every other piece of work is a plain function ``work(connection, *args)`` written against the sqlite3 subset
shared with PostgreSQL (:mod:`storage.connection`): it runs on a worker thread, each statement handed to
aiosqlite's thread and awaited there (:class:`_Bridge`). An ``asyncio.Lock`` keeps such a transaction of
several statements whole: no other statement of the bot runs on the connection while one is open, so a
move can never land inside another transaction (to be rolled back or committed with it).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.backend import SQLITE, Dialect
from storage.connection import in_transaction
from storage.schema import apply_migration, migrations, python_step, refuse_newer, schema_version

_T = TypeVar("_T")

BUSY_TIMEOUT_MS = 5000
"""How long a write at start (migrations) waits for a lock held by another program (a second bot, a backup
tool, the sqlite3 shell) before it fails with "database is locked"."""

BUSY_STEP_MS = 250
"""A write's lock wait (``PRAGMA busy_timeout``) is its deadline's remaining time rounded to the nearest
multiple of this, so consecutive presses (about 1.5 s left each) find it already set and cost no extra
statement; a write waits at most half of this past its deadline."""

MOVE_SCHEMA = (
    "CREATE TEMP VIEW IF NOT EXISTS move_rows AS SELECT"
    " NULL AS table_id, NULL AS guild_id, NULL AS channel_id, NULL AS game, NULL AS snapshot,"
    " NULL AS updated_at, NULL AS position, NULL AS seat, NULL AS code, NULL AS timed_out,"
    " NULL AS engine_version, NULL AS engine_digest, NULL AS engine_snapshot",
    "CREATE TEMP TRIGGER IF NOT EXISTS store_move INSTEAD OF INSERT ON move_rows BEGIN"
    " INSERT INTO live_tables (table_id, guild_id, channel_id, game, snapshot, updated_at)"
    " VALUES (NEW.table_id, NEW.guild_id, NEW.channel_id, NEW.game, NEW.snapshot, NEW.updated_at)"
    " ON CONFLICT (table_id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at;"
    " INSERT INTO live_table_actions (table_id, position, seat, code, timed_out)"
    " SELECT NEW.table_id, NEW.position, NEW.seat, NEW.code, NEW.timed_out WHERE NEW.position IS NOT NULL;"
    " INSERT INTO live_table_engine_snapshots (table_id, version, digest, snapshot)"
    " SELECT NEW.table_id, NEW.engine_version, NEW.engine_digest, NEW.engine_snapshot"
    " WHERE NEW.engine_version IS NOT NULL"
    " ON CONFLICT (table_id) DO UPDATE SET"
    " version = excluded.version, digest = excluded.digest, snapshot = excluded.snapshot;"
    " END",
)
"""The connection's temporary view and trigger that store a move in one statement (temporary: nothing in
the database file, no migration; made by each connection when it opens, before the tables they name need
to exist)."""

STORE_MOVE = (
    "INSERT INTO move_rows (table_id, guild_id, channel_id, game, snapshot, updated_at,"
    " position, seat, code, timed_out, engine_version, engine_digest, engine_snapshot)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class SqliteConnection(sqlite3.Connection):
    """A :class:`sqlite3.Connection` that says its dialect (``sqlite3.connect(..., factory=...)``)."""

    dialect: Dialect = SQLITE


class DatabaseUnwritable(Exception):
    """The database file (or its folder) cannot be written; ``str(error)`` is one line for the admin."""


def raise_if_read_only(path: Path, error: BaseException) -> None:
    """Raise :class:`DatabaseUnwritable` if ``error`` is SQLite's "attempt to write a readonly database"."""
    if isinstance(error, sqlite3.OperationalError) and "readonly" in str(error):
        raise DatabaseUnwritable(
            f"the database {path} is read-only ({error}): the bot must be able to write it and to "
            f"create files in {path.parent}; check their owner and permissions"
        ) from None


class SqliteDriver:
    """One SQLite file, open through aiosqlite. Make one with :meth:`open`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()  # held while statements of the bot run (a transaction: all of them)
        self._busy_ms = BUSY_TIMEOUT_MS  # the connection's PRAGMA busy_timeout now

    @classmethod
    async def open(cls, path: Path) -> SqliteDriver:
        """Open (creating them if needed) the file ``path`` and its folders, and set the connection's
        pragmas (WAL, foreign keys, ``synchronous = FULL``: a committed move survives power loss).

        Raises
        ------
        DatabaseUnwritable
            If the file or its folder is read-only for the bot.
        sqlite3.Error
            If it cannot be opened.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # A plain connection first: a path that cannot be opened (a folder, an unwritable folder) fails
            # here, not inside aiosqlite, whose thread reports such a failure to an event loop that may be
            # closed by then (a traceback after the bot's one-line message).
            await asyncio.to_thread(_open_and_close, path)
            connection = await aiosqlite.connect(path, isolation_level=None, factory=SqliteConnection)
        except BaseException as error:
            raise_if_read_only(path, error)
            raise
        try:
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA foreign_keys = ON",
                f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
                "PRAGMA synchronous = FULL",
                *MOVE_SCHEMA,
            ):
                await connection.execute(pragma)
        except BaseException as error:
            await connection.close()
            raise_if_read_only(path, error)
            raise
        return cls(connection)

    async def run(self, work: Callable[..., _T], *args: Any) -> _T:
        """``work(connection, *args)`` on a worker thread, its statements run by aiosqlite, no other
        statement of the bot between them."""
        async with self._lock:
            return await self._in_worker(work, *args)

    async def transact(self, deadline: float | None, work: Callable[..., _T], *args: Any) -> _T:
        """``work(connection, *args)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT``, waiting for another
        program's lock until ``deadline`` (``time.monotonic()``; ``None``: :data:`BUSY_TIMEOUT_MS`). Rolled
        back (and the error raised) if any statement or the COMMIT fails."""
        async with self._lock:
            await self._wait_for_locks_until(deadline)
            return await self._in_worker(in_transaction, work, *args)

    async def store_move(
        self,
        deadline: float | None,
        row: Sequence[Any],
        action: Sequence[Any] | None,
        engine: Sequence[Any] | None = None,
    ) -> None:
        """Store a live table's row ``(table_id, guild_id, channel_id, game, snapshot, updated_at)``, at
        most one new action ``(table_id, position, seat, code, timed_out)`` and its engine snapshot if
        given ``(version, digest, snapshot)`` in one statement, committed (fsynced) when this returns;
        waiting for another program's lock until ``deadline`` as :meth:`transact`.

        Raises
        ------
        sqlite3.IntegrityError
            If the action's position is already stored; nothing is written.
        sqlite3.Error
            On any other failure; nothing is written.
        """
        values = (
            *row,
            *(action[1:] if action is not None else (None, None, None, None)),
            *(engine if engine is not None else (None, None, None)),
        )
        async with self._lock:
            await self._wait_for_locks_until(deadline)
            await self._connection.execute(STORE_MOVE, values)

    async def migrate(self) -> None:
        """Apply the pending migrations, each in its own transaction with its version bump.

        Raises
        ------
        RuntimeError
            If the file's version is newer than this code knows.
        """
        known = migrations(SQLITE)
        current = await self.run(schema_version)
        refuse_newer(current, known)
        for version, name, sql in known[current:]:
            # executescript would commit on its own; run the statements in one explicit transaction.
            await self.transact(None, apply_migration, version, sql, python_step(name))

    async def backup(self, target: Path) -> None:
        """A consistent copy of the whole file written to ``target`` (SQLite's online backup)."""
        copy = sqlite3.connect(target, check_same_thread=False)  # used on aiosqlite's thread
        try:
            async with self._lock:
                await self._connection.backup(copy)
        finally:
            copy.close()

    async def close(self) -> None:
        """Close the connection once the work already handed over is done."""
        async with self._lock:
            await self._connection.close()

    async def _wait_for_locks_until(self, deadline: float | None) -> None:
        wait_ms = BUSY_TIMEOUT_MS
        if deadline is not None:
            remaining = (deadline - time.monotonic()) * 1000
            wait_ms = max(0, min(BUSY_TIMEOUT_MS, round(remaining / BUSY_STEP_MS) * BUSY_STEP_MS))
        if wait_ms != self._busy_ms:
            await self._connection.execute(f"PRAGMA busy_timeout = {wait_ms}")
            self._busy_ms = wait_ms

    async def _in_worker(self, work: Callable[..., _T], *args: Any) -> _T:
        bridge = _Bridge(self._connection, asyncio.get_running_loop())
        return await asyncio.to_thread(work, bridge, *args)


def _open_and_close(path: Path) -> None:
    sqlite3.connect(path).close()


class _Cursor:
    """What the work functions use of a sqlite3 cursor, on a worker thread: the rows are read through
    aiosqlite's cursor as they are asked for (``fetchone`` a chunk at a time), so a read that stops early
    (a leaderboard's first rows) does not read the rest."""

    CHUNK = 64

    def __init__(self, cursor: aiosqlite.Cursor, loop: asyncio.AbstractEventLoop) -> None:
        self._cursor = cursor
        self._loop = loop
        self._buffered: list[Any] = []
        self._done = False
        self.rowcount = cursor.rowcount

    def fetchone(self) -> Any:
        if not self._buffered and not self._done:
            self._buffered = self._call(self._cursor.fetchmany(self.CHUNK))
            self._done = len(self._buffered) < self.CHUNK
        return self._buffered.pop(0) if self._buffered else None

    def fetchmany(self, size: int = 1) -> list[Any]:
        taken = []
        while len(taken) < size and (row := self.fetchone()) is not None:
            taken.append(row)
        return taken

    def fetchall(self) -> list[Any]:
        taken, self._buffered = self._buffered, []
        if not self._done:
            taken += self._call(self._cursor.fetchall())
            self._done = True
        return taken

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())

    def close(self) -> None:
        self._call(self._cursor.close())
        self._buffered, self._done = [], True

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()


class _Bridge:
    """The sqlite3 subset the work functions use, on a worker thread: each statement is handed to the
    aiosqlite connection (whose futures belong to the event loop ``loop``)."""

    dialect: Dialect = SQLITE

    def __init__(self, connection: aiosqlite.Connection, loop: asyncio.AbstractEventLoop) -> None:
        self._connection = connection
        self._loop = loop

    def execute(self, sql: str, parameters: Any = ()) -> _Cursor:
        cursor = asyncio.run_coroutine_threadsafe(self._connection.execute(sql, parameters), self._loop)
        return _Cursor(cursor.result(), self._loop)

    def executemany(self, sql: str, rows: Iterable[Any]) -> _Cursor:
        cursor = asyncio.run_coroutine_threadsafe(self._connection.executemany(sql, list(rows)), self._loop)
        return _Cursor(cursor.result(), self._loop)
