"""Where the Discord layer shows each live table, as stored (``V012__table_messages.sql``): the table's
public message (its id and when it was posted) and each DM player's one live DM of it, keyed by table id,
so that after a restart these messages are edited, not posted again. The rows go with their table (``ON
DELETE CASCADE`` from ``live_tables``); a write for a table no longer stored writes nothing. The methods
:class:`storage.Database` gets from :class:`TableMessageRows`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

_T = TypeVar("_T")


@dataclass(frozen=True)
class StoredTableMessages:
    """Where one live table is shown, as stored: ``table_id`` and its server ``guild_id``; ``message_id``,
    its public message (``None``: not posted, or deleted); ``posted_at``, when that message was posted (UTC;
    ``None``: unknown); ``dms``, each DM player's live DM of the table as ``(channel id, message id)`` by
    user id."""

    table_id: str
    guild_id: int
    message_id: int | None = None
    posted_at: datetime | None = None
    dms: dict[int, tuple[int, int]] = field(default_factory=dict)


class TableMessageRows:
    """The table messages and live DMs of the live tables (see the module)."""

    if TYPE_CHECKING:

        async def _run(self, work: Callable[..., _T], *args: Any) -> _T: ...

        async def _transact(self, work: Callable[..., _T], *args: Any) -> _T: ...

    async def save_table_messages(
        self,
        table_id: str,
        message_id: int | None,
        posted_at: datetime | None,
        dms: dict[int, tuple[int, int]],
    ) -> bool:
        """Store where the table ``table_id`` is shown now, replacing what was stored (one transaction):
        its message ``message_id`` posted at ``posted_at`` (UTC) and its live DMs ``dms`` (``(channel id,
        message id)`` by user id). Returns False, writing nothing, if the table is not stored (closed)."""
        return await self._transact(_save, table_id, message_id, _text(posted_at), sorted(dms.items()))

    async def table_messages(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[StoredTableMessages]:
        """Where every stored live table is shown (with ``guild_filter``, those of the servers it accepts),
        by table id; a table with nothing stored has no entry."""
        messages, dms = await self._run(_load)
        found: dict[str, StoredTableMessages] = {}
        for table_id, guild_id, message_id, posted_at in messages:
            found[table_id] = StoredTableMessages(
                str(table_id),
                int(guild_id),
                None if message_id is None else int(message_id),
                None if posted_at is None else datetime.fromisoformat(posted_at),
            )
        for table_id, guild_id, user_id, channel_id, message_id in dms:
            entry = found.get(table_id)
            if entry is None:
                entry = found[table_id] = StoredTableMessages(str(table_id), int(guild_id))
            entry.dms[int(user_id)] = (int(channel_id), int(message_id))
        return [
            entry
            for _, entry in sorted(found.items())
            if guild_filter is None or guild_filter(entry.guild_id)
        ]


def _text(moment: datetime | None) -> str | None:
    """``moment`` as stored: ISO-8601 in UTC (microseconds kept)."""
    return None if moment is None else moment.astimezone(timezone.utc).isoformat()


def _save(
    connection: Any,
    table_id: str,
    message_id: int | None,
    posted_at: str | None,
    dms: list[tuple[int, tuple[int, int]]],
) -> bool:
    if connection.execute("SELECT 1 FROM live_tables WHERE table_id = ?", (table_id,)).fetchone() is None:
        return False
    connection.execute(
        "INSERT INTO table_messages (table_id, message_id, posted_at) VALUES (?, ?, ?)"
        " ON CONFLICT (table_id) DO UPDATE SET"
        " message_id = excluded.message_id, posted_at = excluded.posted_at",
        (table_id, message_id, posted_at),
    )
    connection.execute("DELETE FROM table_dms WHERE table_id = ?", (table_id,))
    if dms:
        connection.executemany(
            "INSERT INTO table_dms (table_id, user_id, channel_id, message_id) VALUES (?, ?, ?, ?)",
            [(table_id, user, channel, message) for user, (channel, message) in dms],
        )
    return True


def _load(connection: Any) -> tuple[list[tuple], list[tuple]]:
    messages = connection.execute(
        "SELECT m.table_id, t.guild_id, m.message_id, m.posted_at"
        " FROM table_messages m JOIN live_tables t ON t.table_id = m.table_id"
    ).fetchall()
    dms = connection.execute(
        "SELECT d.table_id, t.guild_id, d.user_id, d.channel_id, d.message_id"
        " FROM table_dms d JOIN live_tables t ON t.table_id = d.table_id ORDER BY d.table_id, d.user_id"
    ).fetchall()
    return messages, dms
