"""How players' turns find them, as stored: each player's choice per server (a mention in the channel, a
DM, or nothing) and a server's switch for its tables' mentions (``V007__turn_alerts.sql``). The methods
:class:`storage.Database` gets from :class:`TurnAlertSettings`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

_T = TypeVar("_T")


class TurnAlertSettings:
    """Players' turn alert choices per server, and the servers' switch for mentions."""

    if TYPE_CHECKING:

        async def _run(self, work: Callable[..., _T], *args: Any) -> _T: ...

        async def _transact(self, work: Callable[..., _T], *args: Any) -> _T: ...

        async def _guild_flag(self, guild_id: int, column: str, default: bool) -> bool: ...

        async def _set_guild_flag(self, guild_id: int, column: str, value: bool | None) -> None: ...

    async def turn_alert_mode(self, guild_id: int, user_id: int) -> str | None:
        """The player's choice for their turns at this server's tables (``"channel"``, ``"dm"``,
        ``"off"``), or ``None`` if they chose none."""
        rows = await self._run(
            _fetch,
            "SELECT mode FROM turn_alert_choices WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return str(rows[0][0]) if rows else None

    async def set_turn_alert_mode(self, guild_id: int, user_id: int, mode: str) -> None:
        """Store the player's choice for their turns at this server's tables."""
        await self._transact(
            _write,
            "INSERT INTO turn_alert_choices (guild_id, user_id, mode) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET mode = excluded.mode",
            (guild_id, user_id, mode),
        )

    async def guild_turn_mentions(self, guild_id: int) -> bool:
        """Whether this server's tables mention a player whose turn it is in the channel (default yes)."""
        return await self._guild_flag(guild_id, "turn_mentions", True)

    async def set_guild_turn_mentions(self, guild_id: int, mentions: bool | None) -> None:
        """Set whether this server's tables mention players in the channel (``None``: the default, yes)."""
        await self._set_guild_flag(guild_id, "turn_mentions", mentions)


def _fetch(connection: Any, sql: str, parameters: tuple) -> list[tuple]:
    return connection.execute(sql, parameters).fetchall()


def _write(connection: Any, sql: str, parameters: tuple) -> None:
    connection.execute(sql, parameters)
