"""Tables in the database: persisting each change (before anyone sees it), bringing every table back at
start (read at once, each game replayed when first needed: :meth:`TableStore.load_waiting`,
:meth:`TableStore.restore`), and the finished game as the leaderboard stores it.

A table is stored as its :class:`~engine.tables.snapshot.TableSnapshot`, its action log and, for a game
that has them, an engine snapshot written with the save that reaches every
:data:`~engine.tables.snapshot.ENGINE_SNAPSHOT_EVERY` actions (a restart rebuilds the game from it and the
actions after it); storage itself (SQL, transactions) is :mod:`storage`'s. Where the table is shown on
Discord is not stored here: that is the Discord layer's (:mod:`storage.table_messages`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from engine.lobby import is_ai
from engine.tables.registry import TableRegistry, WaitingTable
from engine.tables.session import TableError, TablePhase, TableSession
from engine.tables.snapshot import (
    ENGINE_SNAPSHOT_EVERY,
    engine_snapshot_of,
    restore,
    snapshot_of,
)
from engine.tables.table import Table, TableQuestions
from storage import (
    Database,
    GameResult,
    SeatResult,
    StoredAction,
    StoredEngineSnapshot,
    error_line,
    is_locked,
    is_unreachable,
)

log = logging.getLogger(__name__)

UNRESTORED = "This table could not be restored after a restart."
DATABASE_AWAY = "The database is not answering, so that did not happen. Please try again in a moment."
"""The answer to a change that could not be stored because the database (a PostgreSQL server) is away."""
DATABASE_BUSY = "The database is busy, so that did not happen. Please try again in a moment."
"""The answer to a change that could not be stored because another program held the database's lock."""


def game_result(session: TableQuestions) -> GameResult:
    """The finished game as the leaderboard stores it."""
    assert session.state is not None and session.started_at is not None and session.finished_at is not None
    return GameResult(
        table_id=session.table_id,
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        game=session.rules.key,
        options=session.state.options.model_dump(),
        seed=session.state.seed,
        actions=list(session.state.history),
        started_at=session.started_at,
        finished_at=session.finished_at,
        seats=[
            SeatResult(
                seat=standing.seat,
                user_id=session.players[standing.seat],
                display_name=session.name_of_seat(standing.seat),
                points=standing.points,
                rank=standing.rank,
                is_ai=is_ai(session.players[standing.seat]),  # an AI seat (a leaver's seat stays theirs)
            )
            for standing in session.standings()
        ],
    )


class TableStore:
    """Stores the live tables; ``shutting_down()`` tells a refused save at shutdown from a real failure.

    A move's new table (:func:`engine.tables.step.step`) is stored before it becomes the live table, so a
    save that fails leaves nothing to undo: a change a player was told did not happen is never in the
    table, and never stored later.

    Who sits at each table is stored with it (:meth:`storage.Database.tables_of_user` finds a user's tables
    from any process), written only when it changed since this store last wrote it, so a move writes nothing
    more.
    """

    def __init__(
        self,
        db: Database,
        registry: TableRegistry,
        shutting_down: Callable[[], bool],
    ) -> None:
        self.db = db
        self.registry = registry
        self.shutting_down = shutting_down
        self._seated: dict[str, frozenset[int]] = {}  # table id -> the human users last stored as seated

    async def persist(self, session: TableSession, new: Table | None = None) -> None:
        """Store the live table ``session`` as ``new`` (a move's table, not yet live; ``None``: as it is), in
        one transaction: its snapshot, the actions ``new`` has that the live table had not stored, its engine
        snapshot when these reach a multiple of :data:`~engine.tables.snapshot.ENGINE_SNAPSHOT_EVERY` actions
        (games that have one) and, once the game is over, its result (exactly once). Call it under the
        table's lock. A closed table is deleted instead.

        Raises
        ------
        TableError
            If the database refused: ``new`` must not become the table (the move did not happen), and the
            player is asked to try again.
        """
        previous = session.value
        table = previous if new is None else new
        if table.phase is TablePhase.CLOSED:
            await self.delete(session)
            return
        result = game_result(table) if table.result_saved and not previous.result_saved else None
        snapshot = snapshot_of(table, result_saved=table.result_saved or result is not None)
        stored = 0 if previous.stored_log_outdated else previous.saved_actions
        new_actions = [StoredAction(*action) for action in table.actions_since(stored)]
        seated = frozenset(user for user in table.seated_users() if not is_ai(user))
        seats_changed = self._seated.get(table.table_id) != seated
        engine = self._engine_snapshot(table, stored)
        try:
            await self.db.save_table(
                session.table_id,
                session.guild_id,
                session.channel_id,
                session.rules.key,
                snapshot.to_json(),
                new_actions,
                result,
                replace_log=previous.stored_log_outdated,
                seated_users=sorted(seated) if seats_changed else None,
                engine_snapshot=engine,
            )
        except Exception as error:
            if self.shutting_down():  # the table stays as last stored
                log.warning("Table %s was not saved: the bot is shutting down", session.table_id)
                raise TableError("I am restarting: please try again in a moment.") from None
            if is_unreachable(error):  # the server is away: no bug, no traceback
                log.warning(
                    "Table %s not saved: the database is not answering (%s)",
                    session.table_id,
                    error_line(error),
                )
            elif is_locked(error):  # another program holds the write lock: no bug, no traceback
                log.warning("Table %s not saved: the database is locked by another program", session.table_id)
            else:
                log.exception("Could not save table %s: the change did not happen", session.table_id)
            if is_unreachable(error):
                raise TableError(DATABASE_AWAY) from None
            raise TableError(
                DATABASE_BUSY
                if is_locked(error)
                else "I could not save that just now, so it did not happen. Please try again."
            ) from None
        if seats_changed:
            self._seated[session.table_id] = seated

    @staticmethod
    def _engine_snapshot(session: Table, stored: int) -> StoredEngineSnapshot | None:
        """The engine snapshot to store with this save: when the actions it stores reach a multiple of
        :data:`~engine.tables.snapshot.ENGINE_SNAPSHOT_EVERY` (else ``None``, and for games without one).
        One that cannot be taken (a bug) is logged and left out: it must never stop a move. ``stored``: how
        many actions the database held before."""
        state = session.state
        if state is None or state.version // ENGINE_SNAPSHOT_EVERY <= stored // ENGINE_SNAPSHOT_EVERY:
            return None
        try:
            return engine_snapshot_of(session)
        except Exception:
            log.exception(
                "Could not take the engine snapshot of table %s: saved without it", session.table_id
            )
            return None

    async def save_quietly(self, session: TableSession) -> None:
        """Save the table as it is, not for a move (its log upgraded at restore), under the table's lock."""
        async with session.lock:
            if self.registry.is_live(session):
                with contextlib.suppress(TableError):
                    await self.persist(session)

    async def delete(self, session: TableSession) -> None:
        """Delete a closed table (a failure is logged: the table is gone from memory anyway)."""
        self._seated.pop(session.table_id, None)
        try:
            await self.db.delete_table(session.table_id)
        except Exception:
            log.exception("Could not delete the closed table %s from the database", session.table_id)

    async def load_waiting(self, owns_guild: Callable[[int], bool] | None = None) -> list[WaitingTable]:
        """Every stored table (with ``owns_guild``, those of the guilds it accepts: this process's, when
        other processes share the database), read but not replayed (:meth:`restore` does that). One whose
        snapshot does not read stays stored but closed (a press on it is told so)."""
        waiting = []
        for stored in await self.db.load_table_logs(owns_guild):
            try:
                waiting.append(WaitingTable.of(stored.snapshot, stored.actions, stored.engine_snapshot))
            except Exception:
                log.exception("Could not read table %s: it stays stored but closed", stored.table_id)
                self.registry.gone[stored.table_id] = UNRESTORED
        return waiting

    def restore(self, table: WaitingTable) -> TableSession | None:
        """Rebuild a table read by :meth:`load_waiting` (from its engine snapshot and the actions after it,
        or from its seed and whole log: :func:`~engine.tables.snapshot.restore`), and register it. One that
        does not replay stays stored but closed (``None``; a press on it is told so). A log written by an
        older engine (``stored_log_outdated``) is stored upgraded at the table's next save. Who sits at it
        is taken as stored (it was stored with the snapshot), so its next move stores nothing more: on
        SQLite one statement, which a restart's background replay does not hold up for long."""
        try:
            session = restore(table.snapshot(), table.actions, table.engine)
        except Exception:
            log.exception("Could not restore table %s: it stays stored but closed", table.table_id)
            self.registry.gone[table.table_id] = UNRESTORED
            return None
        self._seated[session.table_id] = frozenset(user for user in session.seated_users() if not is_ai(user))
        self.registry.register(session)
        return session
