"""PostgreSQL's machinery: a :class:`psycopg_pool.ConnectionPool` served by as many threads, the sqlite3
face its connections show the work functions (:class:`PostgresConnection`, SQLite's SQL translated by
:func:`postgresql_sql`), transactions with lock and statement timeouts, and migrations under an advisory
lock.

``pool_size`` threads take the work from one queue, each job with a connection of the pool (a connection the
server dropped is replaced); what several connections (or processes) change together is serialised by the
database (a result of a server takes that server's advisory lock, see :func:`storage.ratings.lock_guild`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import psycopg
import psycopg_pool

from storage.backend import POSTGRESQL, Dialect
from storage.connection import in_transaction, press_write_deadline, transaction
from storage.schema import Migration, apply_migration, migrations, python_step, refuse_newer, schema_version

_T = TypeVar("_T")

DEFAULT_POOL_SIZE = 4
"""Connections in the pool, and threads serving them (``DATABASE_POOL_SIZE``)."""

MIGRATION_LOCK_KEY = 7_106_165_634_520_331_590
"""The advisory lock a process holds while it migrates (any fixed bigint; server ids are the keys of the
per-server locks, see :func:`storage.ratings.lock_guild`)."""

POOL_WAIT_SECONDS = 2.0
"""How long a job that is not a press's (a turn clock, a lookup, the health probe) waits for a live
connection (the server restarting, a network fault) before it fails with :class:`psycopg_pool.PoolTimeout`
(:func:`storage.is_unreachable`); a press's job waits only until its :data:`storage.press_write_deadline`.
The wait counts from when the job is handed over, not from when a thread takes it: with the server away,
jobs queued behind others fail at their deadline instead of each waiting its own full time in turn, which
would keep a press behind them from being answered within Discord's 3 seconds."""

CONNECT_TIMEOUT_SECONDS = 3
"""libpq's ``connect_timeout`` for the pool's connections: a server that does not answer at all (a network
fault) holds a connection attempt no longer than this."""

RECONNECT_SECONDS = 4.0
"""The pool's ``reconnect_timeout``: how long it keeps retrying (with a growing delay: 1, 2, 4 s ...) to
replace a lost connection before it gives that attempt up; the next job that finds no connection then
starts a new attempt at once. Short, so a server back after a long outage is reached within a few seconds
of the next press, not after the pool's doubled delays (its default, 5 minutes, let them grow to minutes)."""

STATEMENT_GRACE_MS = 1000
"""A running write's statements may run this much longer than its lock wait before the server cancels them
(``statement_timeout``), so a hung statement cannot hold a press for long either."""

MIN_POOL_WAIT_SECONDS = 0.1
"""The least a job waits for a connection, even past its press's deadline."""

LOCK_WAIT_MS = 5000
"""The longest a write waits for a lock (``lock_timeout``) when its deadline is further away."""


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


class PostgresDriver:
    """A pool of connections to one PostgreSQL database, each served by a thread. Make one with
    :meth:`open`."""

    def __init__(self, pool: psycopg_pool.ConnectionPool, threads: DatabaseThreads) -> None:
        self._pool = pool
        self._threads = threads

    @classmethod
    async def open(cls, url: str, pool_size: int = DEFAULT_POOL_SIZE) -> PostgresDriver:
        """Connect ``pool_size`` connections to the database ``url`` names (it must exist).

        Raises
        ------
        ValueError
            If ``pool_size`` is less than 1.
        psycopg.Error
            If the server cannot be reached or refuses the login (psycopg's own one-line error).
        """
        if pool_size < 1:
            raise ValueError(f"the pool needs at least one connection, not {pool_size}")
        # One plain connection first: a wrong host, password or database name is raised as psycopg's
        # own one-line error, not as the pool's "couldn't get a connection after 30 sec".
        probe = await asyncio.to_thread(psycopg.connect, url, autocommit=True, connect_timeout=10)
        probe.close()
        pool = psycopg_pool.ConnectionPool(
            url,
            min_size=pool_size,
            max_size=pool_size,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_SECONDS},
            open=False,
            name="cardtable",
            reconnect_timeout=RECONNECT_SECONDS,
        )
        await asyncio.to_thread(pool.open, wait=True, timeout=30)
        return cls(pool, DatabaseThreads(pool_size))

    async def run(self, work: Callable[..., _T], *args: Any) -> _T:
        """``work(connection, *args)`` on a thread with a connection of the pool: one hop, awaited until
        it is done; the job waits for a connection until the press's deadline, if any, else
        :data:`POOL_WAIT_SECONDS`."""
        deadline = press_write_deadline.get()
        if deadline is None:
            deadline = time.monotonic() + POOL_WAIT_SECONDS
        else:  # a press past its write deadline still gets a brief chance at the pool
            deadline = max(deadline, time.monotonic() + MIN_POOL_WAIT_SECONDS)
        return await self._threads.submit(functools.partial(on_pool, self._pool, deadline, work, *args))

    async def transact(self, deadline: float | None, work: Callable[..., _T], *args: Any) -> _T:
        """``work(connection, *args)`` inside ``BEGIN`` ... ``COMMIT`` in one hop, waiting for a lock until
        ``deadline`` (``time.monotonic()``; ``None``: :data:`LOCK_WAIT_MS`); rolled back (and the error
        raised) if any statement or the COMMIT fails."""
        if deadline is None:
            return await self.run(in_transaction, work, *args)
        return await self.run(_in_transaction_until, deadline, work, *args)

    async def migrate(self) -> None:
        """Apply the pending migrations (see :func:`migrate_postgresql`).

        Raises
        ------
        RuntimeError
            If the database's version is newer than this code knows.
        """
        await self.run(migrate_postgresql, migrations(POSTGRESQL))

    async def close(self) -> None:
        """Close the pool once the work already handed over is done."""
        await asyncio.to_thread(self._threads.shutdown, True)
        await asyncio.to_thread(self._pool.close)


def on_pool(pool: psycopg_pool.ConnectionPool, deadline: float, work: Callable[..., _T], *args: Any) -> _T:
    """``work(connection, *args)`` with a connection of the pool, waiting for one until ``deadline``
    (``time.monotonic()``).

    A connection the server dropped while it sat in the pool (a restart, ``pg_terminate_backend``) fails
    at the job's first statement, before the server has done anything for the job (its first statement is
    a ``BEGIN``, a read, or the migrations' advisory lock: never a write of its own): the pool discards it
    and opens another, and the job runs again on the next connection, up to once per connection of the
    pool. This replaces the pool's check before each job (an empty query: a round trip and about a sixth
    of a move's client CPU, ``bench/shards.py``). An error after the server answered anything is raised
    as it is."""
    for attempt in range(pool.max_size + 1):
        wait = deadline - time.monotonic()
        if wait <= 0:  # queued past its deadline: nobody can use its answer any more
            raise psycopg_pool.PoolTimeout("no database connection became free in time")
        with pool.connection(timeout=wait) as raw:
            connection = PostgresConnection(raw)
            try:
                return work(connection, *args)
            except psycopg.OperationalError:
                if connection.answered or not raw.broken or attempt == pool.max_size:
                    raise
    raise AssertionError("unreachable")  # the last attempt returns or raises


def _in_transaction_until(
    connection: PostgresConnection, deadline: float, work: Callable[..., _T], *args: Any
) -> _T:
    """:func:`storage.connection.in_transaction`, waiting for a lock only until ``deadline``
    (``time.monotonic()``; past it, 1 ms, PostgreSQL's least wait): ``SET LOCAL lock_timeout`` (any lock:
    rows, advisory locks) and ``statement_timeout`` (that plus :data:`STATEMENT_GRACE_MS`, so a hung
    statement cannot hold a press either), sent with the ``BEGIN`` in one round trip."""
    wait_ms = max(1, min(LOCK_WAIT_MS, int((deadline - time.monotonic()) * 1000)))
    begin = (
        f"BEGIN; SET LOCAL lock_timeout = {wait_ms};"
        f" SET LOCAL statement_timeout = {wait_ms + STATEMENT_GRACE_MS}"
    )
    return transaction(connection, begin, work, *args)


def migrate_postgresql(connection: PostgresConnection, known: list[Migration]) -> None:
    """Apply the pending migrations, each in a transaction with its version bump, holding a session
    advisory lock throughout: a second process starting at the same moment waits, then finds nothing to
    do."""
    connection.execute("SELECT pg_advisory_lock(?)", (MIGRATION_LOCK_KEY,))
    try:
        connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL,"
            " one_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one_row))"
        )
        connection.execute("INSERT INTO schema_version (version) VALUES (0) ON CONFLICT DO NOTHING")
        current = schema_version(connection)
        refuse_newer(current, known)
        for version, name, sql in known[current:]:
            in_transaction(connection, apply_migration, version, sql, python_step(name))
    finally:
        connection.execute("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK_KEY,))


# -- the threads the jobs run on ---------------------------------------------------------------------


class DatabaseThreads:
    """The threads PostgreSQL's jobs run on, one per connection of the pool: ``count`` threads take the
    work handed over from one queue, in order, and hand each result (or error) back to the event loop that
    awaits it.

    A plain queue and ``call_soon_threadsafe``, not ``loop.run_in_executor``: the executor's bookkeeping
    (work items, locks, a future chained to a future) cost about as much CPU again as this whole hop,
    once per move.
    """

    def __init__(self, count: int = 1) -> None:
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        # Daemons: a process that exits without closing its database does not hang on these threads
        # (close() finishes every call handed over before it).
        names = [f"database-{n}" for n in range(count)]
        self._threads = [threading.Thread(target=self._serve, name=name, daemon=True) for name in names]
        self._closed = False
        for thread in self._threads:
            thread.start()

    def submit(self, call: Callable[[], _T]) -> asyncio.Future[_T]:
        """Queue ``call`` for the thread; the returned future (of the running loop) gets its result."""
        if self._closed:  # as an executor would: nothing would ever run it
            raise RuntimeError("the database thread is shut down")
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._queue.put((call, future))
        return future

    def shutdown(self, wait: bool = True) -> None:
        """Stop the threads once the calls already queued are done (``wait``: until then)."""
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            for thread in self._threads:
                thread.join()

    def _serve(self) -> None:
        while (item := self._queue.get()) is not None:
            call, future = item
            try:
                value, error = call(), None
            except BaseException as raised:  # handed to the awaiting coroutine, as an executor would
                value, error = None, raised
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody awaits it any more
                future.get_loop().call_soon_threadsafe(_settle, future, value, error)
            del item, call, future, value, error


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)
