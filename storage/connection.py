"""What the SQL work functions of :mod:`storage` share on both databases: they are written once, against
the subset of :mod:`sqlite3` they use, and run on SQLite (:mod:`storage.sqlite`) or PostgreSQL
(:mod:`storage.postgres`, whose connection translates the SQL).

- :func:`dialect_of` tells a work function which it runs on, for the few statements that must differ.
- :func:`in_transaction` runs a work function inside ``BEGIN`` ... ``COMMIT`` on either.
- :func:`is_locked` tells the errors a retry may cure ("the database is busy or away") on both;
  :func:`is_unreachable` those of a PostgreSQL server that cannot be reached at all.
"""

from __future__ import annotations

import contextlib
import contextvars
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
import psycopg.errors
import psycopg_pool

from storage.backend import POSTGRESQL, SQLITE, Dialect

_T = TypeVar("_T")

press_write_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "press_write_deadline", default=None
)
"""``time.monotonic()`` after which a write made in this context stops waiting for a lock (the bot sets it
for the work of each press, so a locked database still lets the press be answered in time); on PostgreSQL
also how long the work waits for a connection of the pool."""


def dialect_of(connection: Any) -> Dialect:
    """``"sqlite"`` or ``"postgresql"``: the dialect of a work function's connection (a plain
    :class:`sqlite3.Connection` counts as SQLite)."""
    return getattr(connection, "dialect", SQLITE)


def in_transaction(connection: Any, work: Callable[..., _T], *args: Any) -> _T:
    """``BEGIN`` (SQLite: ``BEGIN IMMEDIATE``), ``work(connection, *args)``, ``COMMIT``; on any error
    ``ROLLBACK`` and raise."""
    begin = "BEGIN" if dialect_of(connection) == POSTGRESQL else "BEGIN IMMEDIATE"
    return transaction(connection, begin, work, *args)


def transaction(connection: Any, begin: str, work: Callable[..., _T], *args: Any) -> _T:
    """``begin`` (the statement(s) that open the transaction), ``work(connection, *args)``, ``COMMIT``; on
    any error ``ROLLBACK`` (what fails in it is ignored) and raise.

    Raises
    ------
    psycopg.DatabaseError
        On PostgreSQL, if the server answered ``COMMIT`` with ``ROLLBACK`` (a statement of ``work`` failed
        and ``work`` caught it): such a transaction must not pass for stored.
    """
    connection.execute(begin)
    try:
        value = work(connection, *args)
        committed = connection.execute("COMMIT")
        if dialect_of(connection) == POSTGRESQL and committed.statusmessage != "COMMIT":
            status = committed.statusmessage
            raise psycopg.DatabaseError(f"the transaction was rolled back at COMMIT ({status})")
    except BaseException:
        # A failed COMMIT (disk full, I/O error) must not leave the connection inside a transaction, or
        # every later write fails; after some failures there is nothing to undo.
        with contextlib.suppress(*DatabaseError):
            connection.execute("ROLLBACK")
        raise
    return value


# -- errors ----------------------------------------------------------------------------------------

_RETRYABLE_POSTGRES = (
    psycopg.errors.LockNotAvailable,  # lock_timeout
    psycopg.errors.QueryCanceled,  # statement_timeout
    psycopg.errors.TransactionRollback,
    psycopg.errors.SerializationFailure,
    psycopg.errors.DeadlockDetected,
    psycopg.errors.AdminShutdown,
    psycopg.errors.CrashShutdown,
    psycopg.errors.CannotConnectNow,
    psycopg_pool.PoolTimeout,
)


def is_locked(error: BaseException) -> bool:
    """True if ``error`` means "the database is busy or briefly away; a retry may work": SQLite's
    "database is locked" (another connection holds the write lock); PostgreSQL's lock or statement
    timeout, a deadlock or serialization failure, a lost connection or a server restarting (see
    :func:`is_unreachable` to tell those last ones apart)."""
    if isinstance(error, sqlite3.OperationalError):
        return "locked" in str(error)
    if isinstance(error, _RETRYABLE_POSTGRES):
        return True
    if isinstance(error, psycopg.OperationalError):  # a connection error (class 08) or a lost connection
        return error.sqlstate is None or error.sqlstate.startswith("08")
    return False


def is_unreachable(error: BaseException) -> bool:
    """True if ``error`` means the PostgreSQL server is away (stopped, restarting, the connection lost,
    no connection to be had in time), not busy with another program's locks."""
    if isinstance(
        error,
        (
            psycopg.errors.AdminShutdown,
            psycopg.errors.CrashShutdown,
            psycopg.errors.CannotConnectNow,
            psycopg_pool.PoolTimeout,
        ),
    ):
        return True
    if isinstance(error, psycopg.OperationalError):  # class 08: connection; 57P: the server going away
        return error.sqlstate is None or error.sqlstate.startswith(("08", "57P"))
    return False


DatabaseError = (sqlite3.Error, psycopg.Error, psycopg_pool.PoolTimeout)
"""The exceptions a database of either kind raises for a failed statement, connection or commit."""

IntegrityError = (sqlite3.IntegrityError, psycopg.IntegrityError)
"""A constraint refused a write (a duplicate key, a missing parent row), on either database."""
