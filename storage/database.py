"""The database: opening it, migrating it, writing game results and live tables, reading leaderboards, on
SQLite (the embedded default, :mod:`storage.sqlite`) or PostgreSQL (several bot processes sharing one
database, :mod:`storage.postgres`).

:class:`Database` is the one face the bot sees; the SQL of its queries is written once, in SQLite's words,
as plain work functions ``work(connection, *args)`` (the end of this module), which the database's driver
runs on its thread(s): a whole transaction (``BEGIN`` ... ``COMMIT``) is ONE hop from the event loop.
Migrations: :mod:`storage.schema`.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from storage.backend import POSTGRESQL, DatabaseTarget, Dialect, database_target, error_line
from storage.connection import DatabaseError, dialect_of, press_write_deadline
from storage.nights import NightRows
from storage.postgres import DEFAULT_POOL_SIZE, PostgresDriver
from storage.queues import QueueRows
from storage.ratings import lock_guild, rate_result
from storage.schema import rewrite_version, schema_version
from storage.sqlite import SqliteDriver, raise_if_read_only
from storage.stats import StatsReads
from storage.table_messages import TableMessageRows
from storage.turn_alerts import TurnAlertSettings
from storage.turn_notices import TurnNoticeRows

_T = TypeVar("_T")

RUNNING_WRITE_WAIT_SECONDS = 1.0
"""Once open, how long a write that is not a press's (a turn clock, a message moved, the health probe)
waits for another program's lock: it is retried later, and a press queued behind it on the database thread
must still be answered in time. A press's writes wait until :data:`storage.press_write_deadline`."""


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
class StoredEngineSnapshot:
    """A live table's engine snapshot as stored (``V009__engine_snapshots.sql``): taken after ``version``
    actions of its log, ``digest`` the digest of those actions (hex), ``snapshot`` the JSON text (decoded
    only when the table is rebuilt from it). What they hold is :mod:`engine.tables.snapshot`'s business."""

    version: int
    digest: str
    snapshot: str


@dataclass(frozen=True)
class StoredTableLog:
    """A live table as a restart reads it (:meth:`Database.load_table_logs`): its server, its snapshot
    (JSON-ready dict), its action log in order, as plain ``(seat, code, timed_out)`` tuples, and its engine
    snapshot if one is stored."""

    table_id: str
    guild_id: int
    snapshot: dict
    actions: list[tuple[int, str, bool]]
    engine_snapshot: StoredEngineSnapshot | None = None


@dataclass(frozen=True)
class StoredTable:
    """A live table as stored: its snapshot (JSON-ready dict), its action log in order, and its engine
    snapshot if one is stored."""

    table_id: str
    guild_id: int
    channel_id: int
    game: str
    snapshot: dict
    actions: list[StoredAction]
    engine_snapshot: StoredEngineSnapshot | None = None


GUILD_FLAGS = frozenset({"table_threads", "hints_in_rated", "turn_mentions"})
"""The yes/no columns of ``guild_settings`` (:meth:`Database._guild_flag`)."""
TABLE_LIMITS = ("member_lobby_limit", "table_limit", "ai_table_limit")
"""The columns of a server's table limits in ``guild_settings`` (``V010__table_limits.sql``), in the order
:meth:`Database.guild_table_limits` returns them."""


class Database(StatsReads, TurnAlertSettings, TurnNoticeRows, TableMessageRows, QueueRows, NightRows):
    """The bot's database: SQLite over one aiosqlite connection (:mod:`storage.sqlite`), or PostgreSQL
    over a pool of connections served by as many threads (:mod:`storage.postgres`).

    Use :meth:`open` to create one; it applies pending migrations. Ratings, stats, history and seasons
    are read and changed through :class:`storage.stats.StatsReads`; players' turn alert choices through
    :class:`storage.turn_alerts.TurnAlertSettings`; the turn notices on Discord not deleted yet through
    :class:`storage.turn_notices.TurnNoticeRows`; where each live table is shown on Discord (its message,
    its live DMs) through :class:`storage.table_messages.TableMessageRows`; the queues that find partners
    through :class:`storage.queues.QueueRows`; game nights through :class:`storage.nights.NightRows`.
    ``dialect`` is ``"sqlite"`` or ``"postgresql"``; ``path`` is the SQLite file (``None`` on PostgreSQL);
    ``target`` says which database it is (``target.shown`` for messages: never the password).
    """

    def __init__(self, driver: SqliteDriver | PostgresDriver, target: DatabaseTarget) -> None:
        self._driver = driver
        self.target = target
        self.dialect: Dialect = target.dialect
        self.path = target.path
        self.is_open = False  # True once migrated and found writable (see RUNNING_WRITE_WAIT_SECONDS)

    async def _run(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work(connection, *args)`` through the database's driver (PostgreSQL: one hop to a thread
        of the pool; SQLite: its statements handed to aiosqlite's thread from a worker thread), awaited
        until it is done."""
        return await self._driver.run(work, *args)

    async def _transact(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work(connection, *args)`` inside ``BEGIN`` ... ``COMMIT`` (SQLite: ``BEGIN IMMEDIATE``)
        through the driver (PostgreSQL: in one hop); rolled back (and the error raised) if any statement
        or the COMMIT fails. A press's write waits for a lock until its
        :data:`storage.press_write_deadline`, any other's once open :data:`RUNNING_WRITE_WAIT_SECONDS`."""
        return await self._driver.transact(self._write_deadline(), work, *args)

    def _write_deadline(self) -> float | None:
        """Until when (``time.monotonic()``) a write now may wait for a lock; ``None`` before it is open."""
        deadline = press_write_deadline.get()
        if deadline is None and self.is_open:
            deadline = time.monotonic() + RUNNING_WRITE_WAIT_SECONDS
        return deadline

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
        driver: SqliteDriver | PostgresDriver
        if found.dialect == POSTGRESQL:
            assert found.url is not None
            driver = await PostgresDriver.open(found.url, pool_size)
        else:
            assert found.path is not None
            driver = await SqliteDriver.open(found.path)
        database = cls(driver, found)
        try:
            await driver.migrate()
            await database._transact(rewrite_version)  # a read-only file or folder fails here, at start
        except BaseException as error:
            await database.close()
            if found.path is not None:
                raise_if_read_only(found.path, error)
            raise
        database.is_open = True
        return database

    async def close(self) -> None:
        """Close the connection(s), after any work already handed to the database thread(s) has finished."""
        await self._driver.close()

    async def schema_version(self) -> int:
        """The applied migration version (SQLite's ``PRAGMA user_version``, PostgreSQL's
        ``schema_version``)."""
        return await self._run(schema_version)

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
        engine_snapshot: StoredEngineSnapshot | None = None,
    ) -> None:
        """Store a live table's new snapshot, the actions appended since the last save, and (when the game
        just ended) its result, all in one transaction: after a crash the table is as it was before or
        after the move, never between, and a result is stored exactly once.

        ``snapshot``: the JSON-ready data, or its JSON text already encoded.
        ``replace_log=True``: ``new_actions`` is the whole log, replacing the stored one (a log written by an
        older engine, upgraded on load).
        ``seated_users``: the Discord user ids seated at the table now (humans only), replacing the stored
        ones in the same transaction (see :meth:`tables_of_user`); ``None`` leaves them as they are.
        ``engine_snapshot``: the table's engine snapshot as of the log with ``new_actions``, replacing the
        stored one in the same transaction; ``None`` leaves it as it is (``replace_log`` deletes it, the log
        it was taken of being gone).

        The transaction is one hop to the database's thread (SQLite: a move, with at most one new action,
        maybe its engine snapshot and nothing else, is one statement:
        :meth:`storage.sqlite.SqliteDriver.store_move`) and is
        committed (fsynced: ``synchronous = FULL``) before this returns. The JSON is encoded here, on the
        event loop, so the thread only writes.

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
        if (
            isinstance(self._driver, SqliteDriver)
            and len(actions) <= 1
            and result is None
            and not replace_log
            and seated_users is None
        ):  # a move: one statement (see storage.sqlite)
            engine = (
                None
                if engine_snapshot is None
                else (engine_snapshot.version, engine_snapshot.digest, engine_snapshot.snapshot)
            )
            await self._driver.store_move(
                self._write_deadline(), row, actions[0] if actions else None, engine
            )
            return
        seats = None if seated_users is None else sorted({int(user) for user in seated_users})
        await self._transact(_save_table, row, actions, result, replace_log, seats, engine_snapshot)

    async def delete_table(self, table_id: str) -> None:
        """Forget a closed table (its result, if any, stays in the leaderboard); its action log, seats,
        engine snapshot, table message and live DMs go with it (``ON DELETE CASCADE``)."""
        await self._transact(_execute, "DELETE FROM live_tables WHERE table_id = ?", (table_id,))

    async def load_table_logs(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[StoredTableLog]:
        """Every live table with its action log and engine snapshot, oldest table first (with
        ``guild_filter``, only those of the servers it accepts), as a restart reads thousands of them: the
        actions come as plain tuples grouped on the database thread (a :class:`StoredAction` per action,
        built on the event loop, would take seconds for the few hundred thousand actions of 1,000 long
        games)."""
        wanted = None
        if guild_filter is not None:  # the filter runs here, on the event loop
            guilds = await self._run(_table_guilds)
            wanted = {table_id for table_id, guild_id in guilds if guild_filter(int(guild_id))}
        rows, logs, engines = await self._run(_load_table_logs, wanted)
        return [
            StoredTableLog(
                table_id, int(guild_id), json.loads(snapshot), logs.get(table_id, []), engines.get(table_id)
            )
            for table_id, guild_id, snapshot in rows
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
        """One live table with its action log and engine snapshot, or ``None`` if it is not stored."""
        found = await self._run(_load_table, table_id)
        if found is None:
            return None
        row, action_rows, engine = found
        actions = [StoredAction(p, seat, code, bool(t)) for p, seat, code, t in action_rows]
        return StoredTable(row[0], row[1], row[2], row[3], json.loads(row[4]), actions, engine)

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

    async def _guild_flag(self, guild_id: int, column: str, default: bool) -> bool:
        """A server's yes/no setting ``column`` of ``guild_settings`` (one of :data:`GUILD_FLAGS`),
        ``default`` where it set none."""
        assert column in GUILD_FLAGS, column  # a column name, never a value, goes into the SQL
        rows = await self._run(
            _fetch_all, f"SELECT {column} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return default if not rows or rows[0][0] is None else bool(rows[0][0])

    async def _set_guild_flag(self, guild_id: int, column: str, value: bool | None) -> None:
        """Set a server's yes/no setting ``column`` (``None``: back to its default)."""
        assert column in GUILD_FLAGS, column
        await self._transact(
            _execute,
            f"INSERT INTO guild_settings (guild_id, {column}) VALUES (?, ?)"
            f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}",
            (guild_id, None if value is None else int(value)),
        )

    async def guild_table_threads(self, guild_id: int) -> bool:
        """Whether ``/play`` opens new tables of this server in a thread of the channel (default no)."""
        return await self._guild_flag(guild_id, "table_threads", False)

    async def set_guild_table_threads(self, guild_id: int, threads: bool | None) -> None:
        """Set whether new tables open in a thread (``None``: the default, no)."""
        await self._set_guild_flag(guild_id, "table_threads", threads)

    async def guild_hints_in_rated(self, guild_id: int) -> bool:
        """Whether this server's tables offer the coach's hints in games whose results are rated, each
        player's count of hints shown on the scoreboard (default no; ``V008__hints_in_rated.sql``)."""
        return await self._guild_flag(guild_id, "hints_in_rated", False)

    async def set_guild_hints_in_rated(self, guild_id: int, hints: bool | None) -> None:
        """Set whether hints are offered in rated games too (``None``: the default, no)."""
        await self._set_guild_flag(guild_id, "hints_in_rated", hints)

    async def guild_table_limits(self, guild_id: int) -> tuple[int | None, int | None, int | None]:
        """The server's table limits, in the order of :data:`TABLE_LIMITS`: open lobbies per member,
        tables, tables with no person seated (each a count, 0 for no limit, ``None`` where it set none)."""
        columns = ", ".join(TABLE_LIMITS)
        rows = await self._run(
            _fetch_all, f"SELECT {columns} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if not rows:
            return None, None, None
        lobbies, tables, ai_tables = (None if value is None else int(value) for value in rows[0])
        return lobbies, tables, ai_tables

    async def set_guild_table_limit(self, guild_id: int, column: str, limit: int | None) -> None:
        """Set the server's table limit ``column`` (one of :data:`TABLE_LIMITS`) to ``limit`` (a count, 0
        for no limit; ``None``: back to the bot's default).

        Raises
        ------
        ValueError
            If ``column`` is not one of :data:`TABLE_LIMITS`.
        """
        if column not in TABLE_LIMITS:  # a column name, never a value, goes into the SQL
            raise ValueError(f"no table limit {column!r}")
        await self._transact(
            _execute,
            f"INSERT INTO guild_settings (guild_id, {column}) VALUES (?, ?)"
            f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}",
            (guild_id, limit),
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
            await self._transact(rewrite_version)
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
        assert isinstance(self._driver, SqliteDriver)
        await self._driver.backup(partial)
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


# -- work functions: what runs on the database thread(s) (plain sqlite3 or psycopg, no asyncio) -------


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
    engine: StoredEngineSnapshot | None = None,
) -> None:
    if replace_log:
        connection.execute("DELETE FROM live_table_actions WHERE table_id = ?", (row[0],))
        connection.execute("DELETE FROM live_table_engine_snapshots WHERE table_id = ?", (row[0],))
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
    if engine is not None:
        connection.execute(
            "INSERT INTO live_table_engine_snapshots (table_id, version, digest, snapshot)"
            " VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET"
            " version = excluded.version, digest = excluded.digest, snapshot = excluded.snapshot",
            (row[0], engine.version, engine.digest, engine.snapshot),
        )
    if result is not None:
        _insert_result(connection, result)


def _engine_snapshot(row: tuple) -> StoredEngineSnapshot:
    """A ``live_table_engine_snapshots`` row ``(version, digest, snapshot)``."""
    return StoredEngineSnapshot(int(row[0]), str(row[1]), str(row[2]))


def _load_table_logs(
    connection: sqlite3.Connection, wanted: set[str] | None
) -> tuple[list[tuple], dict[str, list[tuple[int, str, bool]]], dict[str, StoredEngineSnapshot]]:
    """The live tables' ``(table_id, guild_id, snapshot)``, oldest first, each one's log as ``(seat, code,
    timed_out)`` in order, and their engine snapshots by table id: all of them, or those of ``wanted``."""
    rows = connection.execute(
        f"SELECT table_id, guild_id, snapshot FROM live_tables ORDER BY {live_order(connection)}"
    ).fetchall()
    if wanted is not None:
        rows = [row for row in rows if row[0] in wanted]
    logs: dict[str, list[tuple[int, str, bool]]] = {}
    for table_id, seat, code, timed_out in connection.execute(
        "SELECT table_id, seat, code, timed_out FROM live_table_actions ORDER BY table_id, position"
    ).fetchall():
        if wanted is None or table_id in wanted:
            logs.setdefault(table_id, []).append((seat, code, bool(timed_out)))
    engines = {
        table_id: _engine_snapshot(rest)
        for table_id, *rest in connection.execute(
            "SELECT table_id, version, digest, snapshot FROM live_table_engine_snapshots"
        ).fetchall()
        if wanted is None or table_id in wanted
    }
    return rows, logs, engines


def live_order(connection: sqlite3.Connection) -> str:
    """The column that orders live tables as they were first stored (SQLite's rowid; PostgreSQL's seq)."""
    return "seq" if dialect_of(connection) == POSTGRESQL else "rowid"


def _table_guilds(connection: sqlite3.Connection) -> list[tuple]:
    """``(table_id, guild_id)`` of every live table, oldest first."""
    return connection.execute(
        f"SELECT table_id, guild_id FROM live_tables ORDER BY {live_order(connection)}"
    ).fetchall()


def _load_table(
    connection: sqlite3.Connection, table_id: str
) -> tuple[tuple, list[tuple], StoredEngineSnapshot | None] | None:
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
    engine = connection.execute(
        "SELECT version, digest, snapshot FROM live_table_engine_snapshots WHERE table_id = ?", (table_id,)
    ).fetchone()
    return row, action_rows, None if engine is None else _engine_snapshot(engine)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")
