"""One face for both databases: the SQL work functions of :mod:`storage` are written once, against the
subset of :mod:`sqlite3` they use, and run on SQLite or PostgreSQL.

- :class:`SqliteConnection` is :class:`sqlite3.Connection` itself, marked ``dialect = "sqlite"``.
- :class:`PostgresConnection` wraps a :mod:`psycopg` connection: ``execute(sql, parameters)`` returns a
  cursor (``fetchone``, ``fetchall``, ``fetchmany``, ``rowcount``, iteration), ``executemany(sql, rows)``;
  the SQL is SQLite's, translated by :func:`postgresql_sql` (``?`` and ``:name`` placeholders, SQLite's
  ``INDEXED BY`` hints dropped).
- :func:`dialect_of` tells a work function which it runs on, for the few statements that must differ.

:func:`is_locked` tells the errors a retry may cure ("the database is busy") on both.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable
from typing import Any

import psycopg
import psycopg.errors
import psycopg_pool

from storage.backend import POSTGRESQL, SQLITE, Dialect


class SqliteConnection(sqlite3.Connection):
    """A :class:`sqlite3.Connection` that says its dialect (``sqlite3.connect(..., factory=...)``)."""

    dialect: Dialect = SQLITE


class PostgresConnection:
    """A psycopg connection (autocommit: transactions are explicit ``BEGIN`` ... ``COMMIT``) seen through
    the sqlite3 subset the work functions use. ``raw`` is the psycopg connection."""

    dialect: Dialect = POSTGRESQL

    def __init__(self, raw: psycopg.Connection) -> None:
        self.raw = raw
        self.answered = False  # the server has answered a statement sent through this object

    def execute(self, sql: str, parameters: Any = ()) -> psycopg.Cursor:
        """Run one statement (SQLite's placeholders: ``?`` with a sequence, ``:name`` with a mapping) and
        return its cursor."""
        if not parameters:
            cursor = self.raw.execute(postgresql_sql(sql, False))
        else:
            cursor = self.raw.execute(postgresql_sql(sql, True), parameters)
        self.answered = True
        return cursor

    def executemany(self, sql: str, rows: Iterable[Any]) -> psycopg.Cursor:
        """Run one statement once per parameter row.

        One row (a press's one new action) is one plain ``execute``: psycopg's ``executemany`` enters and
        leaves pipeline mode even for one row, which cost a move's transaction about a quarter of its
        client CPU (``bench/shards.py``)."""
        rows = list(rows)
        if len(rows) == 1:
            return self.execute(sql, rows[0])
        cursor = self.raw.cursor()
        cursor.executemany(postgresql_sql(sql, True), rows)
        self.answered = True
        return cursor


def dialect_of(connection: Any) -> Dialect:
    """``"sqlite"`` or ``"postgresql"``: the dialect of a work function's connection (a plain
    :class:`sqlite3.Connection` counts as SQLite)."""
    return getattr(connection, "dialect", SQLITE)


_TOKENS = re.compile(
    r"""
      (?P<literal>'(?:[^']|'')*')             # a string literal: left as it is
    | (?P<quoted>"(?:[^"]|"")*")              # a quoted identifier
    | (?P<comment>--[^\n]*)                   # a comment
    | (?P<cast>::)                            # PostgreSQL's cast, not a placeholder
    | (?P<named>(?<![:\w]):(?P<name>[A-Za-z_]\w*))
    | (?P<positional>\?)
    | (?P<percent>%)
    | (?P<indexed>\bINDEXED\s+BY\s+\w+)      # SQLite's index hint
    """,
    re.VERBOSE | re.IGNORECASE,
)


@functools.lru_cache(maxsize=1024)
def postgresql_sql(sql: str, with_parameters: bool = True) -> str:
    """SQLite's SQL as psycopg takes it: ``?`` -> ``%s``, ``:name`` -> ``%(name)s``, a literal ``%`` doubled
    (when parameters are passed), ``INDEXED BY <index>`` dropped; string literals, quoted identifiers,
    comments and ``::casts`` are left alone."""

    def replace(match: re.Match[str]) -> str:
        kind = match.lastgroup
        if kind == "name":
            kind = "named"
        if kind == "named":
            return f"%({match['name']})s"
        if kind == "positional":
            return "%s"
        if kind == "percent":
            return "%%" if with_parameters else "%"
        if kind == "indexed":
            return ""
        if kind == "literal" and with_parameters:
            return match.group().replace("%", "%%")
        return match.group()

    return _TOKENS.sub(replace, sql)


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
    timeout, a deadlock or serialization failure, a lost connection or a server restarting."""
    if isinstance(error, sqlite3.OperationalError):
        return "locked" in str(error)
    if isinstance(error, _RETRYABLE_POSTGRES):
        return True
    if isinstance(error, psycopg.OperationalError):  # a connection error (class 08) or a lost connection
        return error.sqlstate is None or error.sqlstate.startswith("08")
    return False


DatabaseError = (sqlite3.Error, psycopg.Error, psycopg_pool.PoolTimeout)
"""The exceptions a database of either kind raises for a failed statement, connection or commit."""

IntegrityError = (sqlite3.IntegrityError, psycopg.IntegrityError)
"""A constraint refused a write (a duplicate key, a missing parent row), on either database."""
