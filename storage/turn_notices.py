"""The turn notices on Discord, as stored (``V011__turn_notices.sql``): each "it is your turn" line or DM
the bot posted and has not deleted yet, so that a process that was killed leaves none behind. A row is
written just before the notice goes out (no message id yet), given its message id once Discord answers,
and removed once the notice is deleted. The methods :class:`storage.Database` gets from
:class:`TurnNoticeRows`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

_T = TypeVar("_T")


@dataclass(frozen=True)
class StoredTurnNotice:
    """One turn notice as stored: its row's ``notice_id``; the table's server ``guild_id`` and
    ``table_id``; the player told, ``user_id``; the game's ``version`` (actions applied) when it was
    posted; ``since_id``, a Discord snowflake from shortly before it was posted (where to look for it in
    the channel's history when its id never came back); its ``channel_id`` (the table's channel or thread,
    or the player's DM channel; ``None`` for a DM whose channel was not known yet) and ``message_id``
    (``None`` while on its way: the process may have died before Discord's answer was stored)."""

    notice_id: int
    guild_id: int
    table_id: str
    user_id: int
    version: int
    since_id: int
    channel_id: int | None
    message_id: int | None


class TurnNoticeRows:
    """The turn notices not deleted yet (see the module)."""

    if TYPE_CHECKING:

        async def _run(self, work: Callable[..., _T], *args: Any) -> _T: ...

        async def _transact(self, work: Callable[..., _T], *args: Any) -> _T: ...

    async def add_turn_notice(
        self, guild_id: int, table_id: str, user_id: int, version: int, since_id: int, channel_id: int | None
    ) -> int:
        """Store a notice about to be posted to ``channel_id`` (``None``: the player's DM channel, not
        known yet), without its message id; returns its ``notice_id``."""
        rows = await self._transact(
            _fetch,
            "INSERT INTO turn_notices (guild_id, table_id, user_id, version, since_id, channel_id)"
            " VALUES (?, ?, ?, ?, ?, ?) RETURNING notice_id",
            (guild_id, table_id, user_id, version, since_id, channel_id),
        )
        return int(rows[0][0])

    async def set_turn_notice_message(self, notice_id: int, channel_id: int, message_id: int) -> None:
        """The notice ``notice_id`` was posted: store where (a DM's channel is known only now)."""
        await self._transact(
            _write,
            "UPDATE turn_notices SET channel_id = ?, message_id = ? WHERE notice_id = ?",
            (channel_id, message_id, notice_id),
        )

    async def remove_turn_notice(self, notice_id: int) -> None:
        """Forget the notice ``notice_id`` (deleted, gone, or never posted); one already removed is no
        matter."""
        await self._transact(_write, "DELETE FROM turn_notices WHERE notice_id = ?", (notice_id,))

    async def turn_notices(self) -> list[StoredTurnNotice]:
        """Every stored notice, in the order they were stored."""
        rows = await self._run(
            _fetch,
            "SELECT notice_id, guild_id, table_id, user_id, version, since_id, channel_id, message_id"
            " FROM turn_notices ORDER BY notice_id",
            (),
        )
        return [
            StoredTurnNotice(
                int(notice_id),
                int(guild_id),
                str(table_id),
                int(user_id),
                int(version),
                int(since_id),
                None if channel_id is None else int(channel_id),
                None if message_id is None else int(message_id),
            )
            for notice_id, guild_id, table_id, user_id, version, since_id, channel_id, message_id in rows
        ]


def _fetch(connection: Any, sql: str, parameters: tuple) -> list[tuple]:
    return connection.execute(sql, parameters).fetchall()


def _write(connection: Any, sql: str, parameters: tuple) -> None:
    connection.execute(sql, parameters)
