"""SQLite's machinery: one connection on one thread of its own, its pragmas, transactions that wait for
another program's lock only until a deadline, backups, and the read-only file told apart.

The connection lives on one thread (:class:`storage.threads.DatabaseThreads` with one thread), so two
transactions can never interleave: the thread runs one work function at a time, in the order they were
handed over, and a whole transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) is one hop from the event loop.
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from storage.backend import SQLITE, Dialect
from storage.connection import in_transaction
from storage.schema import apply_migration, migrations, python_step, refuse_newer, schema_version
from storage.threads import DatabaseThreads

_T = TypeVar("_T")

BUSY_TIMEOUT_MS = 5000
"""How long a write at start (migrations) waits for a lock held by another program (a second bot, a backup
tool, the sqlite3 shell) before it fails with "database is locked"."""


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
    """One SQLite file, open on its own thread. Make one with :meth:`open`."""

    def __init__(self, thread: DatabaseThreads, connection: sqlite3.Connection) -> None:
        self._threads = thread
        self._connection = connection

    @classmethod
    async def open(cls, path: Path) -> SqliteDriver:
        """Open (creating them if needed) the file ``path`` and its folders.

        Raises
        ------
        DatabaseUnwritable
            If the file or its folder is read-only for the bot.
        sqlite3.Error
            If it cannot be opened.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        thread = DatabaseThreads()
        try:
            connection = await thread.submit(functools.partial(connect, path))
        except BaseException as error:
            thread.shutdown(wait=True)
            raise_if_read_only(path, error)
            raise
        return cls(thread, connection)

    async def run(self, work: Callable[..., _T], *args: Any) -> _T:
        """``work(connection, *args)`` on the database thread: one hop, awaited until it is done."""
        return await self._threads.submit(functools.partial(work, self._connection, *args))

    async def transact(self, deadline: float | None, work: Callable[..., _T], *args: Any) -> _T:
        """``work(connection, *args)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT``, in one hop; waiting for
        another program's lock until ``deadline`` (``time.monotonic()``; ``None``: :data:`BUSY_TIMEOUT_MS`).
        Rolled back (and the error raised) if any statement or the COMMIT fails."""
        if deadline is None:
            return await self.run(in_transaction, work, *args)
        return await self.run(_in_transaction_until, deadline, work, *args)

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
        await self.run(_backup, target)

    async def close(self) -> None:
        """Close the connection once the work already handed over is done."""
        await self.run(sqlite3.Connection.close)
        self._threads.shutdown(wait=True)


def connect(path: Path) -> sqlite3.Connection:
    """Open the connection (autocommit: transactions are explicit) and set its per-connection pragmas."""
    connection = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, factory=SqliteConnection
    )
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA synchronous = FULL")  # a committed move survives power loss
    except BaseException:
        connection.close()
        raise
    return connection


def _in_transaction_until(
    connection: sqlite3.Connection, deadline: float, work: Callable[..., _T], *args: Any
) -> _T:
    """:func:`storage.connection.in_transaction`, waiting for another program's lock only until
    ``deadline`` (``time.monotonic()``); past it, one try without waiting."""
    wait_ms = max(0, min(BUSY_TIMEOUT_MS, int((deadline - time.monotonic()) * 1000)))
    connection.execute(f"PRAGMA busy_timeout = {wait_ms}")
    try:
        return in_transaction(connection, work, *args)
    finally:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def _backup(connection: sqlite3.Connection, target: Path) -> None:
    copy = sqlite3.connect(target)
    try:
        connection.backup(copy)
    finally:
        copy.close()
