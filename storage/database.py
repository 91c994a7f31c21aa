"""The database: opening it, migrating it, writing game results and reading leaderboards, on SQLite (the
embedded default) or PostgreSQL (several bot processes sharing one database).

Migrations are the numbered files ``storage/migrations/V<NNN>__<name>.sql``; where PostgreSQL needs other
SQL, ``V<NNN>__<name>.postgresql.sql`` beside it is run there instead. The applied version is SQLite's
``PRAGMA user_version``, or the one row of PostgreSQL's ``schema_version`` table. Each pending migration runs
in one transaction together with the version bump, so a crash leaves the database at the old or the new
version, never between; on PostgreSQL the whole migration holds an advisory lock, so processes starting at
once migrate once. A migration that needs Python (V004 rates the results already stored) has a module of
the same name beside its SQL file, ``V<NNN>__<name>.py`` with ``migrate(connection)``, run after the SQL in
that same transaction, on either database.

Every method hands one plain function ``work(connection, *args)`` to the database thread(s) and awaits it,
so a whole transaction (``BEGIN`` ... ``COMMIT``) is ONE hop from the event loop. SQLite: one connection
on one thread, so two transactions can never interleave (the thread runs one function at a time, in the
order they were handed over). PostgreSQL: ``pool_size`` threads take the work from one queue, each job with
a connection of a :class:`psycopg_pool.ConnectionPool` (a connection the server dropped is replaced); what
several connections (or processes) change together is serialised by the database (a result of a server
takes that server's advisory lock, see :func:`lock_guild`). The SQL is written once, in SQLite's words,
and translated for PostgreSQL by :class:`storage.connection.PostgresConnection`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import importlib
import json
import queue
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import psycopg_pool

from storage.backend import (
    POSTGRESQL,
    SQLITE,
    DatabaseTarget,
    Dialect,
    database_path,
    database_target,
    error_line,
)
from storage.connection import (
    DatabaseError,
    PostgresConnection,
    SqliteConnection,
    dialect_of,
    is_locked,
)
from storage.ratings import lock_guild, rate_result
from storage.stats import StatsReads
from storage.turn_alerts import TurnAlertSettings

__all__ = ["database_path", "is_locked"]  # re-exported (storage/__init__.py)

_T = TypeVar("_T")

_MIGRATION_NAME = re.compile(r"^V(?P<version>\d{3})__\w+\.sql$")

DEFAULT_POOL_SIZE = 4
"""PostgreSQL: connections in the pool, and threads serving them (``DATABASE_POOL_SIZE``)."""

MIGRATION_LOCK_KEY = 7_106_165_634_520_331_590
"""PostgreSQL: the advisory lock a process holds while it migrates (any fixed bigint; server ids are the
keys of the per-server locks, see :func:`storage.ratings.lock_guild`)."""

POOL_WAIT_SECONDS = 10.0
"""PostgreSQL: how long a job waits for a live connection (the server restarting, a network fault) before it
fails with :class:`psycopg_pool.PoolTimeout` (:func:`storage.is_locked`: "busy, try again"); a press's job
waits only until its :data:`press_write_deadline`."""

STATEMENT_GRACE_MS = 1000
"""PostgreSQL: a running write's statements may run this much longer than its lock wait before the server
cancels them (``statement_timeout``), so a hung statement cannot hold a press for long either."""

BUSY_TIMEOUT_MS = 5000
"""How long a write at start (migrations) waits for a lock held by another program (a second bot, a backup
tool, the sqlite3 shell) before it fails with "database is locked"."""

RUNNING_WRITE_WAIT_SECONDS = 1.0
"""Once open, how long a write that is not a press's (a turn clock, a message moved, the health probe)
waits for such a lock: it is retried later, and a press queued behind it on the database thread must
still be answered in time. A press's writes wait until :data:`press_write_deadline`."""

press_write_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "press_write_deadline", default=None
)
"""``time.monotonic()`` after which a write made in this context stops waiting for a lock (the bot sets it
for the work of each press, so a locked database still lets the press be answered in time)."""


class DatabaseUnwritable(Exception):
    """The database file (or its folder) cannot be written; ``str(error)`` is one line for the admin."""


def _raise_if_read_only(path: Path, error: BaseException) -> None:
    """Raise :class:`DatabaseUnwritable` if ``error`` is SQLite's "attempt to write a readonly database"."""
    if isinstance(error, sqlite3.OperationalError) and "readonly" in str(error):
        raise DatabaseUnwritable(
            f"the database {path} is read-only ({error}): the bot must be able to write it and to "
            f"create files in {path.parent}; check their owner and permissions"
        ) from None


def _migrations(dialect: Dialect = SQLITE) -> list[tuple[int, str, str]]:
    """``(version, file name, SQL)`` of every migration, in version order, for ``dialect``: a
    ``V<NNN>__<name>.postgresql.sql`` file replaces ``V<NNN>__<name>.sql`` on PostgreSQL."""
    folder = resources.files("storage.migrations")
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            own = folder.joinpath(entry.name.removesuffix(".sql") + f".{dialect}.sql")
            text = (own if dialect != SQLITE and own.is_file() else entry).read_text(encoding="utf-8")
            found.append((int(match["version"]), entry.name, text))
    found.sort()
    versions = [version for version, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3, ... without gaps, found {versions}")
    return found


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game: who sat there, their points and rank (1 = won), and whether an AI
    played it (``is_ai``: such a seat never appears on a leaderboard; ``user_id`` is then the AI's own
    id, not a Discord user's)."""

    seat: int
    user_id: int
    display_name: str
    points: int | float
    rank: int
    is_ai: bool = False


@dataclass(frozen=True)
class GameResult:
    """A finished game as stored. ``actions`` is the action log ``[(seat, code), ...]``."""

    table_id: str
    guild_id: int
    channel_id: int
    game: str
    options: dict
    seed: int
    actions: Sequence[tuple[int, str]]
    started_at: datetime
    finished_at: datetime
    seats: Sequence[SeatResult]


@dataclass(frozen=True)
class StoredGame:
    """A finished game as stored, to replay it: ``id`` (the number players see in ``/history`` and give to
    ``/replay``), its server, the game's key, options, seed and action log ``[(seat, code), ...]``, when
    it finished, and its seats in seat order."""

    id: int
    table_id: str
    guild_id: int
    game: str
    options: dict
    seed: int
    actions: list[tuple[int, str]]
    finished_at: datetime
    seats: list[SeatResult]


@dataclass(frozen=True)
class LeaderboardRow:
    """A player's record in one server: games played, games won (rank 1, ties included), win rate 0..1."""

    user_id: int
    display_name: str
    played: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins divided by games played (0.0 with no games)."""
        return self.wins / self.played if self.played else 0.0


@dataclass(frozen=True)
class StoredAction:
    """One action of a live table's log: ``position`` in the log (from 0), ``seat``, ``code``, and whether
    the turn clock played it."""

    position: int
    seat: int
    code: str
    timed_out: bool = False


@dataclass(frozen=True)
class StoredTable:
    """A live table as stored: its snapshot (JSON-ready dict) and its action log in order."""

    table_id: str
    guild_id: int
    channel_id: int
    game: str
    snapshot: dict
    actions: list[StoredAction]


class _DatabaseThread:
    """The thread(s) the database work runs on: ``count`` threads take the work handed over from one
    queue, in order, and hand each result (or error) back to the event loop that awaits it. SQLite has one
    (its one connection lives there, and the work runs strictly one at a time); PostgreSQL one per
    connection of its pool.

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
        names = ["database"] if count == 1 else [f"database-{n}" for n in range(count)]
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


class Database(StatsReads, TurnAlertSettings):
    """The bot's database: SQLite over one connection on its own thread, or PostgreSQL over a pool of
    connections served by as many threads.

    Use :meth:`open` to create one; it applies pending migrations. Ratings, stats, history and seasons
    are read and changed through :class:`storage.stats.StatsReads`; players' turn alert choices through
    :class:`storage.turn_alerts.TurnAlertSettings`. ``dialect`` is ``"sqlite"`` or
    ``"postgresql"``; ``path`` is the SQLite file (``None`` on PostgreSQL); ``target`` says which database
    it is (``target.shown`` for messages: never the password).
    """

    def __init__(
        self,
        thread: "_DatabaseThread",
        target: DatabaseTarget,
        connection: sqlite3.Connection | None = None,
        pool: psycopg_pool.ConnectionPool | None = None,
    ) -> None:
        self._thread = thread
        self._connection = connection
        self._pool = pool
        self.target = target
        self.dialect: Dialect = target.dialect
        self.path = target.path
        self.is_open = False  # True once migrated and found writable (see RUNNING_WRITE_WAIT_SECONDS)

    async def _run(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work(connection, *args)`` on a database thread: one hop, awaited until it is done."""
        if self._pool is None:
            return await self._thread.submit(functools.partial(self._on_sqlite, work, *args))
        deadline = press_write_deadline.get()
        wait = POOL_WAIT_SECONDS if deadline is None else max(0.1, deadline - time.monotonic())
        return await self._thread.submit(functools.partial(_on_pool, self._pool, wait, work, *args))

    def _on_sqlite(self, work: Callable[..., _T], *args: Any) -> _T:
        return work(self._connection, *args)

    async def _transact(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work(connection, *args)`` inside ``BEGIN`` ... ``COMMIT`` (SQLite: ``BEGIN IMMEDIATE``) on a
        database thread, all in one hop; rolled back (and the error raised) if any statement or the
        COMMIT fails."""
        deadline = press_write_deadline.get()
        if deadline is None and self.is_open:
            deadline = time.monotonic() + RUNNING_WRITE_WAIT_SECONDS
        if deadline is None:
            return await self._run(_in_transaction, work, *args)
        return await self._run(_in_transaction_until, deadline, work, *args)

    @classmethod
    async def open(cls, target: Path | str, *, pool_size: int = DEFAULT_POOL_SIZE) -> "Database":
        """Open and migrate the database ``target`` names: a path or ``sqlite:///`` URL (the file and its
        folders are created if needed), or a ``postgresql://`` URL (the database must exist; its tables are
        created by the migrations). ``pool_size``: PostgreSQL's connections and threads.

        Raises
        ------
        ValueError
            If ``target`` is a URL of another kind.
        RuntimeError
            If the database's version is newer than this code knows (a downgrade).
        DatabaseUnwritable
            If the file or its folder is read-only for the bot.
        sqlite3.Error, psycopg.Error
            If the database cannot be opened (PostgreSQL: reached, or logged in to) or a migration fails
            (the failed migration is rolled back).
        """
        found = database_target(target)
        if found.dialect == POSTGRESQL:
            return await cls._open_postgresql(found, pool_size)
        assert found.path is not None
        path = found.path
        path.parent.mkdir(parents=True, exist_ok=True)
        thread = _DatabaseThread()
        try:
            connection = await thread.submit(functools.partial(_connect, path))
        except BaseException as error:
            thread.shutdown(wait=True)
            _raise_if_read_only(path, error)
            raise
        database = cls(thread, found, connection=connection)
        try:
            await database._migrate()
            await database._transact(_rewrite_version)  # a read-only file or folder fails here, at start
        except BaseException as error:
            await database.close()
            _raise_if_read_only(path, error)
            raise
        database.is_open = True
        return database

    @classmethod
    async def _open_postgresql(cls, found: DatabaseTarget, pool_size: int) -> "Database":
        if pool_size < 1:
            raise ValueError(f"the pool needs at least one connection, not {pool_size}")
        assert found.url is not None
        # One plain connection first: a wrong host, password or database name is raised as psycopg's
        # own one-line error, not as the pool's "couldn't get a connection after 30 sec".
        probe = await asyncio.to_thread(psycopg.connect, found.url, autocommit=True, connect_timeout=10)
        probe.close()
        pool = psycopg_pool.ConnectionPool(
            found.url,
            min_size=pool_size,
            max_size=pool_size,
            kwargs={"autocommit": True},
            open=False,
            name="cardtable",
        )
        await asyncio.to_thread(pool.open, wait=True, timeout=30)
        database = cls(_DatabaseThread(pool_size), found, pool=pool)
        try:
            await database._migrate()
            await database._transact(_rewrite_version)
        except BaseException:
            await database.close()
            raise
        database.is_open = True
        return database

    async def close(self) -> None:
        """Close the connection(s), after any work already handed to the database thread(s) has finished."""
        if self._pool is None:
            await self._run(sqlite3.Connection.close)
            self._thread.shutdown(wait=True)
            return
        await asyncio.to_thread(self._thread.shutdown, True)
        await asyncio.to_thread(self._pool.close)

    async def schema_version(self) -> int:
        """The applied migration version (SQLite's ``PRAGMA user_version``, PostgreSQL's
        ``schema_version``)."""
        return await self._run(_schema_version)

    async def _migrate(self) -> None:
        migrations = _migrations(self.dialect)
        if self.dialect == POSTGRESQL:
            await self._run(_migrate_postgresql, migrations)
            return
        current = await self.schema_version()
        _refuse_newer(current, migrations)
        for version, name, sql in migrations[current:]:
            # executescript would commit on its own; run the statements in one explicit transaction.
            await self._transact(_apply_migration, version, sql, _python_step(name))

    async def record_result(self, result: GameResult) -> bool:
        """Store a finished game and its seats in one transaction.

        Returns
        -------
        bool
            ``True`` if stored now, ``False`` if this table's result was already stored (nothing changes).
        """
        return await self._transact(_insert_result, result)

    async def finished_game(self, guild_id: int, game_id: int) -> StoredGame | None:
        """The finished game with this id stored for this server, or ``None`` (no such game, or it belongs
        to another server: a server never sees another's games)."""
        found = await self._run(_load_finished_game, "g.id = ? AND g.guild_id = ?", (game_id, guild_id))
        return found

    async def finished_game_id(self, guild_id: int, table_id: str) -> int | None:
        """The id of the result stored for this server's table ``table_id``, or ``None`` if none is."""
        rows = await self._run(
            _fetch_all, "SELECT id FROM games WHERE table_id = ? AND guild_id = ?", (table_id, guild_id)
        )
        return int(rows[0][0]) if rows else None

    # -- live tables -----------------------------------------------------------------------------

    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        game: str,
        snapshot: dict | str,
        new_actions: Sequence[StoredAction] = (),
        result: GameResult | None = None,
        *,
        replace_log: bool = False,
        seated_users: Sequence[int] | None = None,
    ) -> None:
        """Store a live table's new snapshot, the actions appended since the last save, and (when the game
        just ended) its result, all in one transaction: after a crash the table is as it was before or
        after the move, never between, and a result is stored exactly once.

        ``snapshot``: the JSON-ready data, or its JSON text already encoded.
        ``replace_log=True``: ``new_actions`` is the whole log, replacing the stored one (a log written by an
        older engine, upgraded on load).
        ``seated_users``: the Discord user ids seated at the table now (humans only), replacing the stored
        ones in the same transaction (see :meth:`tables_of_user`); ``None`` leaves them as they are.

        The transaction is one call to the database thread and is committed (fsynced: ``synchronous =
        FULL``) before this returns. The JSON is encoded here, on the event loop, so the thread only
        writes.

        Raises
        ------
        sqlite3.IntegrityError, psycopg.IntegrityError
            If an action's position is already stored (the log would fork); nothing is written.
        sqlite3.Error, psycopg.Error
            On any other database failure; nothing is written.
        """
        text = snapshot if isinstance(snapshot, str) else json.dumps(snapshot)
        row = (table_id, guild_id, channel_id, game, text, _iso(datetime.now(timezone.utc)))
        actions = [(table_id, a.position, a.seat, a.code, int(a.timed_out)) for a in new_actions]
        seats = None if seated_users is None else sorted({int(user) for user in seated_users})
        await self._transact(_save_table, row, actions, result, replace_log, seats)

    async def delete_table(self, table_id: str) -> None:
        """Forget a closed table (its result, if any, stays in the leaderboard)."""
        await self._transact(_execute, "DELETE FROM live_tables WHERE table_id = ?", (table_id,))

    async def load_tables(self, guild_filter: Callable[[int], bool] | None = None) -> list[StoredTable]:
        """Every live table with its action log, oldest table first; with ``guild_filter``, only the tables
        of the servers it accepts (``guild_filter(guild_id)``: a process recovers only its own tables)."""
        if guild_filter is None:
            rows, action_rows = await self._run(_load_tables)
        else:
            # The servers first: the filter runs here, on the event loop, not on the database thread.
            guilds = await self._run(_table_guilds)
            wanted = [table_id for table_id, guild_id in guilds if guild_filter(int(guild_id))]
            rows, action_rows = await self._run(_load_tables, wanted)
        actions: dict[str, list[StoredAction]] = {}
        for table_id, position, seat, code, timed_out in action_rows:
            actions.setdefault(table_id, []).append(StoredAction(position, seat, code, bool(timed_out)))
        return [
            StoredTable(table_id, guild_id, channel_id, game, json.loads(snapshot), actions.get(table_id, []))
            for table_id, guild_id, channel_id, game, snapshot in rows
        ]

    async def tables_of_user(self, user_id: int) -> list[tuple[str, int, int]]:
        """``(table_id, guild_id, channel_id)`` of every live table where the user sits (as stored by
        :meth:`save_table`'s ``seated_users``), by table id."""
        rows = await self._run(
            _fetch_all,
            "SELECT t.table_id, t.guild_id, t.channel_id FROM live_table_seats s"
            " JOIN live_tables t ON t.table_id = s.table_id WHERE s.user_id = ? ORDER BY t.table_id",
            (user_id,),
        )
        return [(str(table_id), int(guild_id), int(channel_id)) for table_id, guild_id, channel_id in rows]

    async def table_guild(self, table_id: str) -> int | None:
        """The server of the live table ``table_id``, or ``None`` if no such table is stored."""
        rows = await self._run(_fetch_all, "SELECT guild_id FROM live_tables WHERE table_id = ?", (table_id,))
        return int(rows[0][0]) if rows else None

    async def load_table(self, table_id: str) -> StoredTable | None:
        """One live table with its action log, or ``None`` if it is not stored."""
        found = await self._run(_load_table, table_id)
        if found is None:
            return None
        row, action_rows = found
        actions = [StoredAction(p, seat, code, bool(t)) for p, seat, code, t in action_rows]
        return StoredTable(row[0], row[1], row[2], row[3], json.loads(row[4]), actions)

    # -- server settings -------------------------------------------------------------------------

    async def guild_turn_seconds(self, guild_id: int) -> int | None:
        """The server's default turn length in seconds, or ``None`` if its admins set none."""
        rows = await self._run(
            _fetch_all, "SELECT turn_seconds FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def set_guild_turn_seconds(self, guild_id: int, seconds: int | None) -> None:
        """Set (or with ``None`` clear) the server's default turn length in seconds."""
        await self._transact(
            _execute,
            "INSERT INTO guild_settings (guild_id, turn_seconds) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds",
            (guild_id, seconds),
        )

    async def guild_counts_ai_games(self, guild_id: int) -> bool:
        """Whether humans' results in games with AI seats count on this server's leaderboard (default
        yes)."""
        rows = await self._run(
            _fetch_all, "SELECT count_ai_games FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return not rows or rows[0][0] is None or bool(rows[0][0])

    async def set_guild_counts_ai_games(self, guild_id: int, count: bool | None) -> None:
        """Set whether games with AI seats count on this server's leaderboard (``None``: the default,
        yes)."""
        await self._transact(
            _execute,
            "INSERT INTO guild_settings (guild_id, count_ai_games) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET count_ai_games = excluded.count_ai_games",
            (guild_id, None if count is None else int(count)),
        )

    async def guild_table_threads(self, guild_id: int) -> bool:
        """Whether ``/play`` opens new tables of this server in a thread of the channel (default no)."""
        rows = await self._run(
            _fetch_all, "SELECT table_threads FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return bool(rows and rows[0][0])

    async def set_guild_table_threads(self, guild_id: int, threads: bool | None) -> None:
        """Set whether new tables open in a thread (``None``: the default, no)."""
        await self._transact(
            _execute,
            "INSERT INTO guild_settings (guild_id, table_threads) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET table_threads = excluded.table_threads",
            (guild_id, None if threads is None else int(threads)),
        )

    # -- health and backups ----------------------------------------------------------------------

    async def integrity_problems(self) -> list[str]:
        """What ``PRAGMA integrity_check`` finds wrong (empty if the file is sound). Damage bad enough to
        stop the check itself ("database disk image is malformed") is reported the same way. PostgreSQL
        keeps its own files sound (checksums, WAL): nothing to check there, always empty."""
        if self.dialect == POSTGRESQL:
            return []
        try:
            rows = [str(row[0]) for row in await self._run(_fetch_all, "PRAGMA integrity_check", ())]
        except sqlite3.DatabaseError as error:
            return [str(error)]
        return [] if rows == ["ok"] else rows

    async def write_problem(self, wait_seconds: float) -> str | None:
        """``None`` if a write transaction can begin and commit now (waiting at most ``wait_seconds`` for
        a lock held by another program), else the error's words."""
        token = press_write_deadline.set(time.monotonic() + wait_seconds)
        try:
            await self._transact(_rewrite_version)
        except DatabaseError as error:
            return error_line(error, self.target.url or "")
        finally:
            press_write_deadline.reset(token)
        return None

    async def backup_to(self, target: Path) -> None:
        """Write a consistent copy of the whole database to ``target`` (SQLite's online backup), through a
        temporary file renamed into place, so a half-written backup never has the final name.

        Raises
        ------
        NotImplementedError
            On PostgreSQL: its backups are ``pg_dump``'s job.
        """
        if self.dialect == POSTGRESQL:
            raise NotImplementedError("a PostgreSQL database is backed up with pg_dump, not by the bot")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        await self._run(_backup, partial)
        partial.replace(target)

    async def result_count(self, table_id: str) -> int:
        """How many results are stored for ``table_id`` (0 or 1)."""
        rows = await self._run(_fetch_all, "SELECT COUNT(*) FROM games WHERE table_id = ?", (table_id,))
        return int(rows[0][0])

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]:
        """This server's top players: most wins, then best win rate, then most games. AI seats never
        appear; games with AI seats count for the humans in them unless the server turned that off
        (:meth:`set_guild_counts_ai_games`).

        Parameters
        ----------
        guild_id:
            The server.
        game:
            An engine key to count only that game, or ``None`` for all games.
        limit:
            At most this many rows.
        """
        rows = await self._run(
            _fetch_all,
            """
            SELECT * FROM (
            SELECT s.user_id,
                   (SELECT s2.display_name FROM game_seats s2 JOIN games g2 ON g2.id = s2.game_id
                     WHERE s2.user_id = s.user_id AND g2.guild_id = :guild AND s2.is_ai = 0
                     ORDER BY g2.finished_at DESC LIMIT 1) AS display_name,
                   COUNT(*) AS played,
                   SUM(CASE WHEN s.rank = 1 THEN 1 ELSE 0 END) AS wins
              FROM game_seats s JOIN games g ON g.id = s.game_id
             WHERE g.guild_id = :guild AND (CAST(:game AS TEXT) IS NULL OR g.game = :game) AND s.is_ai = 0
               AND (COALESCE((SELECT count_ai_games FROM guild_settings WHERE guild_id = :guild), 1) <> 0
                    OR NOT EXISTS (SELECT 1 FROM game_seats a WHERE a.game_id = g.id AND a.is_ai = 1))
             GROUP BY s.user_id
            """
            # PostgreSQL's ORDER BY takes an output column's name only on its own, not in an expression.
            """
            ) AS board
            ORDER BY wins DESC, CAST(wins AS DOUBLE PRECISION) / played DESC, played DESC, user_id
            LIMIT :limit
            """,
            {"guild": guild_id, "game": game, "limit": limit},
        )
        return [LeaderboardRow(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]


# -- what runs on the database thread(s) (plain sqlite3 or psycopg, no asyncio) -----------------------


def _connect(path: Path) -> sqlite3.Connection:
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


def _on_pool(pool: psycopg_pool.ConnectionPool, wait: float, work: Callable[..., _T], *args: Any) -> _T:
    """``work(connection, *args)`` with a connection of the pool, waiting at most ``wait`` seconds for one.

    A connection the server dropped while it sat in the pool (a restart, ``pg_terminate_backend``) fails
    at the job's first statement, before the server has done anything for the job (its first statement is
    a ``BEGIN``, a read, or the migrations' advisory lock: never a write of its own): the pool discards it
    and opens another, and the job runs again on the next connection, up to once per connection of the
    pool. This replaces the pool's check before each job (an empty query: a round trip and about a sixth
    of a move's client CPU, ``bench/shards.py``). An error after the server answered anything is raised
    as it is."""
    for attempt in range(pool.max_size + 1):
        with pool.connection(timeout=wait) as raw:
            connection = PostgresConnection(raw)
            try:
                return work(connection, *args)
            except psycopg.OperationalError:
                if connection.answered or not raw.broken or attempt == pool.max_size:
                    raise
    raise AssertionError("unreachable")  # the last attempt returns or raises


def _in_transaction(connection: sqlite3.Connection, work: Callable[..., _T], *args: Any) -> _T:
    """``BEGIN`` (SQLite: ``BEGIN IMMEDIATE``), ``work(connection, *args)``, ``COMMIT``; on any error
    ``ROLLBACK`` and raise."""
    begin = "BEGIN" if dialect_of(connection) == POSTGRESQL else "BEGIN IMMEDIATE"
    return _transaction(connection, begin, work, *args)


def _transaction(connection: sqlite3.Connection, begin: str, work: Callable[..., _T], *args: Any) -> _T:
    connection.execute(begin)
    try:
        value = work(connection, *args)
        committed = connection.execute("COMMIT")
        if dialect_of(connection) == POSTGRESQL and committed.statusmessage != "COMMIT":
            # PostgreSQL answers COMMIT in a transaction an error has aborted with ROLLBACK, not an error:
            # a work function that caught a failed statement and went on must not pass for stored.
            status = committed.statusmessage
            raise psycopg.DatabaseError(f"the transaction was rolled back at COMMIT ({status})")
    except BaseException:
        # A failed COMMIT (disk full, I/O error) must not leave the connection inside a transaction, or
        # every later write fails; after some failures there is nothing to undo.
        with contextlib.suppress(*DatabaseError):
            connection.execute("ROLLBACK")
        raise
    return value


def _in_transaction_until(
    connection: sqlite3.Connection, deadline: float, work: Callable[..., _T], *args: Any
) -> _T:
    """:func:`_in_transaction`, waiting for another program's lock only until ``deadline``
    (``time.monotonic()``); past it, one try without waiting (PostgreSQL: 1 ms, its least wait).

    PostgreSQL: ``SET LOCAL lock_timeout`` (any lock: rows, advisory locks) and ``statement_timeout`` (that
    plus :data:`STATEMENT_GRACE_MS`, so a hung statement cannot hold a press either), sent with the
    ``BEGIN`` in one round trip."""
    wait_ms = max(0, min(BUSY_TIMEOUT_MS, int((deadline - time.monotonic()) * 1000)))
    if dialect_of(connection) == POSTGRESQL:
        wait_ms = max(1, wait_ms)
        begin = (
            f"BEGIN; SET LOCAL lock_timeout = {wait_ms};"
            f" SET LOCAL statement_timeout = {wait_ms + STATEMENT_GRACE_MS}"
        )
        return _transaction(connection, begin, work, *args)
    connection.execute(f"PRAGMA busy_timeout = {wait_ms}")
    try:
        return _in_transaction(connection, work, *args)
    finally:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def _rewrite_version(connection: sqlite3.Connection) -> None:
    """Write the schema version unchanged: a write that proves the database takes writes."""
    if dialect_of(connection) == POSTGRESQL:
        connection.execute("UPDATE schema_version SET version = version")
        return
    connection.execute(f"PRAGMA user_version = {_schema_version(connection)}")


def _schema_version(connection: sqlite3.Connection) -> int:
    if dialect_of(connection) == POSTGRESQL:
        (exists,) = connection.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
        if not exists:
            return 0
        row = connection.execute("SELECT version FROM schema_version").fetchone()
        return 0 if row is None else int(row[0])
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    return int(version)


def _refuse_newer(current: int, migrations: list[tuple[int, str, str]]) -> None:
    if current > len(migrations):
        raise RuntimeError(f"the database is at version {current}, newer than this bot's {len(migrations)}")


def _python_step(name: str) -> Callable[[sqlite3.Connection], Any] | None:
    """``migrate(connection)`` of the module with the SQL file's name (``V004__ratings.py``), if there is
    one: the part of a migration SQL cannot do (rating stored results), run after the SQL."""
    stem = name.removesuffix(".sql")
    if not resources.files("storage.migrations").joinpath(stem + ".py").is_file():
        return None
    return importlib.import_module(f"storage.migrations.{stem}").migrate


def _apply_migration(
    connection: sqlite3.Connection,
    version: int,
    sql: str,
    python_step: Callable[[sqlite3.Connection], Any] | None = None,
) -> None:
    for statement in _split_statements(sql):
        connection.execute(statement)
    if python_step is not None:
        python_step(connection)
    if dialect_of(connection) == POSTGRESQL:
        connection.execute("UPDATE schema_version SET version = ?", (int(version),))
    else:
        connection.execute(f"PRAGMA user_version = {int(version)}")


def _migrate_postgresql(connection: PostgresConnection, migrations: list[tuple[int, str, str]]) -> None:
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
        current = _schema_version(connection)
        _refuse_newer(current, migrations)
        for version, name, sql in migrations[current:]:
            _in_transaction(connection, _apply_migration, version, sql, _python_step(name))
    finally:
        connection.execute("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK_KEY,))


def _execute(connection: sqlite3.Connection, sql: str, parameters: Sequence[Any]) -> None:
    connection.execute(sql, parameters)


def _fetch_all(connection: sqlite3.Connection, sql: str, parameters: Any) -> list[tuple]:
    return connection.execute(sql, parameters).fetchall()


def _insert_result(connection: sqlite3.Connection, result: GameResult) -> bool:
    lock_guild(connection, result.guild_id)  # PostgreSQL: this server's results are rated one at a time
    inserted = connection.execute(
        "INSERT INTO games (table_id, guild_id, channel_id, game, options, seed, actions,"
        " started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (table_id) DO NOTHING RETURNING id",
        (
            result.table_id,
            result.guild_id,
            result.channel_id,
            result.game,
            json.dumps(result.options, sort_keys=True),
            result.seed,
            json.dumps([list(action) for action in result.actions]),
            _iso(result.started_at),
            _iso(result.finished_at),
        ),
    ).fetchall()  # all of it: SQLite finishes a RETURNING statement only when it is read to the end
    if not inserted:
        return False
    game_id = int(inserted[0][0])
    connection.executemany(
        "INSERT INTO game_seats (game_id, seat, user_id, display_name, points, rank, is_ai)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                seat.seat,
                seat.user_id,
                seat.display_name,
                seat.points,
                seat.rank,
                int(seat.is_ai),
            )
            for seat in result.seats
        ],
    )
    rate_result(
        connection,
        game_id,
        result.guild_id,
        result.game,
        _iso(result.finished_at),
        [(seat.seat, seat.user_id, seat.display_name, seat.rank, seat.is_ai) for seat in result.seats],
    )
    return True


def _load_finished_game(connection: sqlite3.Connection, where: str, parameters: tuple) -> StoredGame | None:
    row = connection.execute(
        "SELECT g.id, g.table_id, g.guild_id, g.game, g.options, g.seed, g.actions, g.finished_at"
        f" FROM games g WHERE {where}",
        parameters,
    ).fetchone()
    if row is None:
        return None
    seats = [
        SeatResult(int(seat), int(user), str(name), _points(points), int(rank), bool(is_ai))
        for seat, user, name, points, rank, is_ai in connection.execute(
            "SELECT seat, user_id, display_name, points, rank, is_ai FROM game_seats"
            " WHERE game_id = ? ORDER BY seat",
            (row[0],),
        )
    ]
    return StoredGame(
        id=int(row[0]),
        table_id=str(row[1]),
        guild_id=int(row[2]),
        game=str(row[3]),
        options=json.loads(row[4]),
        seed=int(row[5]),
        actions=[(int(seat), str(code)) for seat, code in json.loads(row[6])],
        finished_at=datetime.fromisoformat(row[7]),
        seats=seats,
    )


def _points(stored: int | float) -> int | float:
    """Points as stored: SQLite keeps an int or a float (a whole float becomes an int there: INTEGER
    affinity); PostgreSQL's column is DOUBLE PRECISION, read back the same way."""
    if isinstance(stored, float) and stored.is_integer():
        return int(stored)
    return stored


def _save_table(
    connection: sqlite3.Connection,
    row: tuple[str, int, int, str, str, str],
    actions: list[tuple[str, int, int, str, int]],
    result: GameResult | None,
    replace_log: bool,
    seats: list[int] | None = None,
) -> None:
    if replace_log:
        connection.execute("DELETE FROM live_table_actions WHERE table_id = ?", (row[0],))
    connection.execute(
        "INSERT INTO live_tables (table_id, guild_id, channel_id, game, snapshot, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
        " snapshot = excluded.snapshot, updated_at = excluded.updated_at",
        row,
    )
    if actions:
        connection.executemany(
            "INSERT INTO live_table_actions (table_id, position, seat, code, timed_out)"
            " VALUES (?, ?, ?, ?, ?)",
            actions,
        )
    if seats is not None:
        connection.execute("DELETE FROM live_table_seats WHERE table_id = ?", (row[0],))
        if seats:
            connection.executemany(
                "INSERT INTO live_table_seats (table_id, user_id) VALUES (?, ?)", [(row[0], u) for u in seats]
            )
    if result is not None:
        _insert_result(connection, result)


def _load_tables(
    connection: sqlite3.Connection, table_ids: list[str] | None = None
) -> tuple[list[tuple], list[tuple]]:
    """The live tables' rows, oldest first, and their actions by table and position: all of them, or those
    of ``table_ids``."""
    if table_ids is None:
        rows = connection.execute(
            "SELECT table_id, guild_id, channel_id, game, snapshot FROM live_tables"
            f" ORDER BY {_live_order(connection)}"
        ).fetchall()
        action_rows = connection.execute(
            "SELECT table_id, position, seat, code, timed_out FROM live_table_actions"
            " ORDER BY table_id, position"
        ).fetchall()
        return rows, action_rows
    rows, action_rows = [], []
    for table_id in table_ids:
        found = _load_table(connection, table_id)
        if found is not None:  # (deleted since the servers were read)
            rows.append(found[0])
            action_rows += [(table_id, *action) for action in found[1]]
    return rows, action_rows


def _live_order(connection: sqlite3.Connection) -> str:
    """The column that orders live tables as they were first stored (SQLite's rowid; PostgreSQL's seq)."""
    return "seq" if dialect_of(connection) == POSTGRESQL else "rowid"


def _table_guilds(connection: sqlite3.Connection) -> list[tuple]:
    """``(table_id, guild_id)`` of every live table, oldest first."""
    return connection.execute(
        f"SELECT table_id, guild_id FROM live_tables ORDER BY {_live_order(connection)}"
    ).fetchall()


def _load_table(connection: sqlite3.Connection, table_id: str) -> tuple[tuple, list[tuple]] | None:
    row = connection.execute(
        "SELECT table_id, guild_id, channel_id, game, snapshot FROM live_tables WHERE table_id = ?",
        (table_id,),
    ).fetchone()
    if row is None:
        return None
    action_rows = connection.execute(
        "SELECT position, seat, code, timed_out FROM live_table_actions WHERE table_id = ? ORDER BY position",
        (table_id,),
    ).fetchall()
    return row, action_rows


def _backup(connection: sqlite3.Connection, target: Path) -> None:
    copy = sqlite3.connect(target)
    try:
        connection.backup(copy)
    finally:
        copy.close()


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _split_statements(sql: str) -> list[str]:
    """Statements of a migration file (split at ``;`` ending a line; migrations hold no triggers)."""
    without_comments = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [statement.strip() for statement in without_comments.split(";") if statement.strip()]
