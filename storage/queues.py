"""The queues that find partners, as stored (``V013__queues.sql``): each member waiting for a game in a
channel (one row per member and server: joining another queue replaces it), each channel's "Looking for a
game" message, and the server's ``queue_ai_after`` setting (minutes a queue waits before AI players fill a
table; ``None``: never). The methods :class:`storage.Database` gets from :class:`QueueRows`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

_T = TypeVar("_T")


@dataclass(frozen=True)
class StoredQueuePlayer:
    """One member waiting, as stored: the server ``guild_id``, the member ``user_id``, the channel
    ``channel_id`` whose queue they joined, the game's key ``game``, the table size ``players`` they asked
    for, their display ``name`` when they joined, and ``since``, when they joined (UTC)."""

    guild_id: int
    user_id: int
    channel_id: int
    game: str
    players: int
    name: str
    since: datetime


@dataclass(frozen=True)
class StoredQueueBoard:
    """A channel's "Looking for a game" message: ``channel_id``, its server ``guild_id``, ``message_id``."""

    channel_id: int
    guild_id: int
    message_id: int


class QueueRows:
    """The queues' rows (see the module)."""

    if TYPE_CHECKING:

        async def _run(self, work: Callable[..., _T], *args: Any) -> _T: ...

        async def _transact(self, work: Callable[..., _T], *args: Any) -> _T: ...

    async def put_queue_player(self, player: StoredQueuePlayer) -> None:
        """Store ``player`` waiting, replacing the queue they waited in on that server, if any."""
        await self._transact(
            _write,
            "INSERT INTO queue_players (guild_id, user_id, channel_id, game, players, name, since)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, game = excluded.game, players = excluded.players,"
            " name = excluded.name, since = excluded.since",
            (
                player.guild_id,
                player.user_id,
                player.channel_id,
                player.game,
                player.players,
                player.name,
                _text(player.since),
            ),
        )

    async def remove_queue_players(self, guild_id: int, user_ids: Iterable[int]) -> None:
        """Take the members ``user_ids`` out of the server's queues, in one transaction (a member not
        waiting is no matter)."""
        await self._transact(_remove, guild_id, sorted(set(user_ids)))

    async def queue_players(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[StoredQueuePlayer]:
        """Every member waiting (with ``guild_filter``, on the servers it accepts), longest waiting first."""
        rows = await self._run(
            _fetch,
            "SELECT guild_id, user_id, channel_id, game, players, name, since FROM queue_players"
            " ORDER BY since, user_id",
            (),
        )
        found = [
            StoredQueuePlayer(
                int(guild), int(user), int(channel), str(game), int(players), str(name), _moment(since)
            )
            for guild, user, channel, game, players, name, since in rows
        ]
        return [row for row in found if guild_filter is None or guild_filter(row.guild_id)]

    async def set_queue_board(self, channel_id: int, guild_id: int, message_id: int) -> None:
        """Store ``message_id`` as the "Looking for a game" message of ``channel_id``, replacing any."""
        await self._transact(
            _write,
            "INSERT INTO queue_boards (channel_id, guild_id, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id,"
            " message_id = excluded.message_id",
            (channel_id, guild_id, message_id),
        )

    async def remove_queue_board(self, channel_id: int) -> None:
        """Forget the "Looking for a game" message of ``channel_id`` (deleted); none stored is no matter."""
        await self._transact(_write, "DELETE FROM queue_boards WHERE channel_id = ?", (channel_id,))

    async def queue_boards(self, guild_filter: Callable[[int], bool] | None = None) -> list[StoredQueueBoard]:
        """Every channel's "Looking for a game" message (with ``guild_filter``, of the servers it accepts)."""
        rows = await self._run(
            _fetch, "SELECT channel_id, guild_id, message_id FROM queue_boards ORDER BY channel_id", ()
        )
        found = [StoredQueueBoard(int(channel), int(guild), int(message)) for channel, guild, message in rows]
        return [row for row in found if guild_filter is None or guild_filter(row.guild_id)]

    async def guild_queue_ai_after(self, guild_id: int) -> int | None:
        """Minutes the server's queues wait before AI players fill a table, or ``None`` (never, the
        default)."""
        rows = await self._run(
            _fetch, "SELECT queue_ai_after FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def set_guild_queue_ai_after(self, guild_id: int, minutes: int | None) -> None:
        """Set the minutes the server's queues wait before AI players fill a table (``None``: never)."""
        await self._transact(
            _write,
            "INSERT INTO guild_settings (guild_id, queue_ai_after) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET queue_ai_after = excluded.queue_ai_after",
            (guild_id, minutes),
        )


def _text(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat()


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _fetch(connection: Any, sql: str, parameters: tuple) -> list[tuple]:
    return connection.execute(sql, parameters).fetchall()


def _write(connection: Any, sql: str, parameters: tuple) -> None:
    connection.execute(sql, parameters)


def _remove(connection: Any, guild_id: int, user_ids: list[int]) -> None:
    for user_id in user_ids:
        connection.execute(
            "DELETE FROM queue_players WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
