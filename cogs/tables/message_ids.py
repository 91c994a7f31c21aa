"""Where each table is shown on Discord, kept by table id beside the tables (never on them): the table's
public message (its id, and when it was posted, which says when it must move to a fresh one) and each DM
player's one live DM of it. :class:`TableMessageIds` is its one owner: loaded at start, before any table
is redrawn, and written through :mod:`storage.table_messages` as it changes, so that after a restart these
messages are edited, not posted again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from engine.tables.session import TablePhase, TableSession
from engine.tables.tasks import Supervisor
from storage import DatabaseError, StoredTableMessages

log = logging.getLogger(__name__)


class MessageRows(Protocol):
    """What :class:`TableMessageIds` needs of the database (:class:`storage.Database`)."""

    async def save_table_messages(
        self,
        table_id: str,
        message_id: int | None,
        posted_at: datetime | None,
        dms: dict[int, tuple[int, int]],
    ) -> bool: ...

    async def table_messages(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[StoredTableMessages]: ...


@dataclass
class Shown:
    """Where one table is shown: ``message_id``, its public message (``None``: not posted, or deleted);
    ``posted_at``, when that message was posted (UTC); ``dms``, each DM player's live DM of the table as
    ``(channel id, message id)`` by user id."""

    message_id: int | None = None
    posted_at: datetime | None = None
    dms: dict[int, tuple[int, int]] = field(default_factory=dict)


class TableMessageIds:
    """Where every table of this process is shown, by table id (see the module).

    A change is written in the background, one write at a time per table, each writing the table's entry as
    it is when the write begins, so the last write stores the latest entry however the changes interleave.
    A closed table's are not written (its rows went with it); a write that fails is logged, and the next
    change writes the whole entry again. ``db``: ``None`` keeps them in memory only (tests, benchmarks).
    """

    def __init__(self, db: MessageRows | None, tasks: Supervisor) -> None:
        self.db = db
        self.tasks = tasks
        self._shown: dict[str, Shown] = {}
        self._dirty: set[str] = set()  # tables whose entry changed since their last write began
        self._writing: set[str] = set()  # tables with a write under way

    async def load(self, owns_guild: Callable[[int], bool] | None = None) -> int:
        """Read what is stored of the live tables (with ``owns_guild``, those of the servers it accepts);
        returns how many tables have an entry. Call it before any table is shown."""
        if self.db is None:
            return 0
        for stored in await self.db.table_messages(owns_guild):
            self._shown[stored.table_id] = Shown(stored.message_id, stored.posted_at, dict(stored.dms))
        return len(self._shown)

    # -- reading ------------------------------------------------------------------------------------

    def message_id(self, table_id: str) -> int | None:
        """The id of the table's public message (``None``: not posted yet, or deleted)."""
        shown = self._shown.get(table_id)
        return None if shown is None else shown.message_id

    def posted_at(self, table_id: str) -> datetime | None:
        """When the table's public message was posted (UTC; ``None``: unknown)."""
        shown = self._shown.get(table_id)
        return None if shown is None else shown.posted_at

    def live_dm(self, table_id: str, user_id: int) -> tuple[int, int] | None:
        """``(channel id, message id)`` of the player's live DM of the table, if one is known."""
        shown = self._shown.get(table_id)
        return None if shown is None else shown.dms.get(user_id)

    # -- changes ------------------------------------------------------------------------------------

    def posted(self, session: TableSession, message_id: int | None, at: datetime) -> None:
        """The table was just posted as message ``message_id`` at ``at`` (UTC)."""
        shown = self._entry(session.table_id)
        shown.message_id, shown.posted_at = message_id, at
        self._changed(session)

    def message_gone(self, session: TableSession, message_id: int | None = None) -> bool:
        """The table's message was deleted (``message_id``: only if it is that one); returns whether it was
        the table's."""
        shown = self._shown.get(session.table_id)
        if shown is None or shown.message_id is None:
            return False
        if message_id is not None and shown.message_id != message_id:
            return False
        shown.message_id = None
        self._changed(session)
        return True

    def dm_sent(self, session: TableSession, user_id: int, channel_id: int, message_id: int) -> None:
        """The player's live DM of the table is now message ``message_id`` of DM channel ``channel_id``."""
        self._entry(session.table_id).dms[user_id] = (channel_id, message_id)
        self._changed(session)

    def dm_gone(self, session: TableSession, user_id: int) -> None:
        """The player's live DM of the table is gone (deleted, or their DMs refused)."""
        shown = self._shown.get(session.table_id)
        if shown is not None and shown.dms.pop(user_id, None) is not None:
            self._changed(session)

    def forget(self, table_id: str) -> None:
        """A closed table is shown no more: forget its entry (its rows went with the table)."""
        self._shown.pop(table_id, None)
        self._dirty.discard(table_id)

    def _entry(self, table_id: str) -> Shown:
        shown = self._shown.get(table_id)
        if shown is None:
            shown = self._shown[table_id] = Shown()
        return shown

    def _changed(self, session: TableSession) -> None:
        if self.db is None or session.phase is TablePhase.CLOSED:
            return
        self._dirty.add(session.table_id)
        if session.table_id not in self._writing:
            self._writing.add(session.table_id)
            self.tasks.spawn(self._write(session.table_id), f"message ids of table {session.table_id}")

    async def _write(self, table_id: str) -> None:
        assert self.db is not None
        try:
            while table_id in self._dirty:
                self._dirty.discard(table_id)
                shown = self._shown.get(table_id)
                if shown is None:  # forgotten meanwhile: closed
                    return
                try:
                    await self.db.save_table_messages(
                        table_id, shown.message_id, shown.posted_at, dict(shown.dms)
                    )
                except DatabaseError as error:  # the next change writes it all again
                    log.warning("Could not store the message ids of table %s: %s", table_id, error)
        finally:
            self._writing.discard(table_id)
