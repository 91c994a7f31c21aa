"""The SQLite database: opening it, migrating it, writing game results and reading leaderboards.

Migrations are the numbered files ``storage/migrations/V<NNN>__<name>.sql``; the applied version is
SQLite's ``PRAGMA user_version``. Each pending migration runs in one transaction together with the
version bump, so a crash leaves the database at the old or the new version, never between.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

import aiosqlite

_MIGRATION_NAME = re.compile(r"^V(?P<version>\d{3})__\w+\.sql$")


def database_path(database_url: str) -> Path:
    """The file path of a ``sqlite:///relative.db`` or ``sqlite:////absolute.db`` URL.

    Raises
    ------
    ValueError
        If the URL is not a ``sqlite:///`` URL with a file path.
    """
    prefix = "sqlite:///"
    if not database_url.startswith(prefix) or len(database_url) == len(prefix):
        raise ValueError("must look like sqlite:///data/cardtable.db (relative) or sqlite:////abs/path.db")
    return Path(database_url[len(prefix) :])


def _migrations() -> list[tuple[int, str, str]]:
    """``(version, file name, SQL)`` of every migration file, in version order."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match["version"]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [version for version, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3, ... without gaps, found {versions}")
    return found


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game: who sat there, their points and rank (1 = won)."""

    seat: int
    user_id: int
    display_name: str
    points: int | float
    rank: int


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


class Database:
    """The bot's SQLite database over one aiosqlite connection.

    Use :meth:`open` to create one; it applies pending migrations.
    """

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        # One connection serves every coroutine: a transaction spans several awaits, so two must never
        # interleave on it (two games finishing at once would otherwise nest BEGINs and lose a result).
        self._transaction_lock = asyncio.Lock()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error, one at a time."""
        async with self._transaction_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                # A failed COMMIT (disk full, I/O error) must not leave the connection inside a
                # transaction, or every later write fails; after some failures there is nothing to undo.
                with contextlib.suppress(sqlite3.Error):
                    await self._db.execute("ROLLBACK")
                raise

    @classmethod
    async def open(cls, path: Path | str) -> "Database":
        """Open (creating folders and file if needed) and migrate the database at ``path``.

        Raises
        ------
        RuntimeError
            If the database's version is newer than this code knows (a downgrade).
        aiosqlite.Error
            If the file cannot be opened or a migration fails (the failed migration is rolled back).
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        database = cls(connection, path)
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA busy_timeout = 5000")
            await connection.execute("PRAGMA synchronous = FULL")  # a committed move survives power loss
            await database._migrate()
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        """Close the connection, after any transaction under way has finished."""
        async with self._transaction_lock:
            await self._db.close()

    async def schema_version(self) -> int:
        """The applied migration version (``PRAGMA user_version``)."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            (version,) = await cursor.fetchone()
        return int(version)

    async def _migrate(self) -> None:
        current = await self.schema_version()
        migrations = _migrations()
        if current > len(migrations):
            raise RuntimeError(
                f"the database is at version {current}, newer than this bot's {len(migrations)}"
            )
        for version, _name, sql in migrations[current:]:
            # executescript would commit on its own; run the statements in one explicit transaction.
            async with self._transaction() as db:
                for statement in _split_statements(sql):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {int(version)}")

    async def record_result(self, result: GameResult) -> bool:
        """Store a finished game and its seats in one transaction.

        Returns
        -------
        bool
            ``True`` if stored now, ``False`` if this table's result was already stored (nothing changes).
        """
        async with self._transaction() as db:
            return await self._insert_result(db, result)

    async def _insert_result(self, db: aiosqlite.Connection, result: GameResult) -> bool:
        cursor = await db.execute(
            "INSERT INTO games (table_id, guild_id, channel_id, game, options, seed, actions,"
            " started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id) DO NOTHING",
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
        )
        if cursor.rowcount == 0:
            return False
        await db.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, display_name, points, rank)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (cursor.lastrowid, seat.seat, seat.user_id, seat.display_name, seat.points, seat.rank)
                for seat in result.seats
            ],
        )
        return True

    # -- live tables -----------------------------------------------------------------------------

    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        game: str,
        snapshot: dict,
        new_actions: Sequence[StoredAction] = (),
        result: GameResult | None = None,
    ) -> None:
        """Store a live table's new snapshot, the actions appended since the last save, and (when the game
        just ended) its result, all in one transaction: after a crash the table is as it was before or
        after the move, never between, and a result is stored exactly once.

        Raises
        ------
        sqlite3.IntegrityError
            If an action's position is already stored (the log would fork); nothing is written.
        aiosqlite.Error
            On any other database failure; nothing is written.
        """
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO live_tables (table_id, guild_id, channel_id, game, snapshot, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
                " snapshot = excluded.snapshot, updated_at = excluded.updated_at",
                (
                    table_id,
                    guild_id,
                    channel_id,
                    game,
                    json.dumps(snapshot),
                    _iso(datetime.now(timezone.utc)),
                ),
            )
            await db.executemany(
                "INSERT INTO live_table_actions (table_id, position, seat, code, timed_out)"
                " VALUES (?, ?, ?, ?, ?)",
                [(table_id, a.position, a.seat, a.code, int(a.timed_out)) for a in new_actions],
            )
            if result is not None:
                await self._insert_result(db, result)

    async def delete_table(self, table_id: str) -> None:
        """Forget a closed table (its result, if any, stays in the leaderboard)."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM live_tables WHERE table_id = ?", (table_id,))

    async def load_tables(self) -> list[StoredTable]:
        """Every live table with its action log, oldest table first."""
        async with self._db.execute(
            "SELECT table_id, guild_id, channel_id, game, snapshot FROM live_tables ORDER BY rowid"
        ) as cursor:
            rows = await cursor.fetchall()
        async with self._db.execute(
            "SELECT table_id, position, seat, code, timed_out FROM live_table_actions"
            " ORDER BY table_id, position"
        ) as cursor:
            action_rows = await cursor.fetchall()
        actions: dict[str, list[StoredAction]] = {}
        for table_id, position, seat, code, timed_out in action_rows:
            actions.setdefault(table_id, []).append(StoredAction(position, seat, code, bool(timed_out)))
        return [
            StoredTable(table_id, guild_id, channel_id, game, json.loads(snapshot), actions.get(table_id, []))
            for table_id, guild_id, channel_id, game, snapshot in rows
        ]

    async def load_table(self, table_id: str) -> StoredTable | None:
        """One live table with its action log, or ``None`` if it is not stored."""
        async with self._db.execute(
            "SELECT table_id, guild_id, channel_id, game, snapshot FROM live_tables WHERE table_id = ?",
            (table_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            "SELECT position, seat, code, timed_out FROM live_table_actions"
            " WHERE table_id = ? ORDER BY position",
            (table_id,),
        ) as cursor:
            actions = [StoredAction(p, seat, code, bool(t)) for p, seat, code, t in await cursor.fetchall()]
        return StoredTable(row[0], row[1], row[2], row[3], json.loads(row[4]), actions)

    # -- server settings -------------------------------------------------------------------------

    async def guild_turn_seconds(self, guild_id: int) -> int | None:
        """The server's default turn length in seconds, or ``None`` if its admins set none."""
        async with self._db.execute(
            "SELECT turn_seconds FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None or row[0] is None else int(row[0])

    async def set_guild_turn_seconds(self, guild_id: int, seconds: int | None) -> None:
        """Set (or with ``None`` clear) the server's default turn length in seconds."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_seconds) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds",
                (guild_id, seconds),
            )

    # -- health and backups ----------------------------------------------------------------------

    async def integrity_problems(self) -> list[str]:
        """What ``PRAGMA integrity_check`` finds wrong (empty if the file is sound). Damage bad enough to
        stop the check itself ("database disk image is malformed") is reported the same way."""
        try:
            async with self._db.execute("PRAGMA integrity_check") as cursor:
                rows = [str(row[0]) for row in await cursor.fetchall()]
        except sqlite3.DatabaseError as error:
            return [str(error)]
        return [] if rows == ["ok"] else rows

    async def backup_to(self, target: Path) -> None:
        """Write a consistent copy of the whole database to ``target`` (SQLite's online backup), through a
        temporary file renamed into place, so a half-written backup never has the final name."""
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        async with aiosqlite.connect(partial) as copy:
            await self._db.backup(copy)
        partial.replace(target)

    async def result_count(self, table_id: str) -> int:
        """How many results are stored for ``table_id`` (0 or 1)."""
        async with self._db.execute("SELECT COUNT(*) FROM games WHERE table_id = ?", (table_id,)) as cursor:
            (count,) = await cursor.fetchone()
        return int(count)

    async def leaderboard(
        self, guild_id: int, game: str | None = None, limit: int = 10
    ) -> list[LeaderboardRow]:
        """This server's top players: most wins, then best win rate, then most games.

        Parameters
        ----------
        guild_id:
            The server.
        game:
            An engine key to count only that game, or ``None`` for all games.
        limit:
            At most this many rows.
        """
        async with self._db.execute(
            """
            SELECT s.user_id,
                   (SELECT s2.display_name FROM game_seats s2 JOIN games g2 ON g2.id = s2.game_id
                     WHERE s2.user_id = s.user_id AND g2.guild_id = :guild
                     ORDER BY g2.finished_at DESC LIMIT 1) AS display_name,
                   COUNT(*) AS played,
                   SUM(s.rank = 1) AS wins
              FROM game_seats s JOIN games g ON g.id = s.game_id
             WHERE g.guild_id = :guild AND (:game IS NULL OR g.game = :game)
             GROUP BY s.user_id
             ORDER BY wins DESC, CAST(wins AS REAL) / played DESC, played DESC, s.user_id
             LIMIT :limit
            """,
            {"guild": guild_id, "game": game, "limit": limit},
        ) as cursor:
            rows = await cursor.fetchall()
        return [LeaderboardRow(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _split_statements(sql: str) -> list[str]:
    """Statements of a migration file (split at ``;`` ending a line; migrations hold no triggers)."""
    without_comments = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [statement.strip() for statement in without_comments.split(";") if statement.strip()]
