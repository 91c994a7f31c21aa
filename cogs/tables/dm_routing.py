"""Which table an interaction from a DM is about, for a bot sharded over processes
(:class:`bot.interaction_relay.InteractionRelay` relays it to the table's process).

A button or menu on a DM'd hand view names its table in its custom_id (``ct:<table>:...``); a ``/hand``
typed in a DM is about the table where the user plays: one of this process's first (as
:meth:`~engine.tables.registry.TableRegistry.table_of_player` picks it), else one of another process's, from
the database's seats of live tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cogs.tables import custom_ids as ids
from engine.tables.registry import TableRegistry
from storage import Database

if TYPE_CHECKING:
    from cogs.host import Host

APPLICATION_COMMAND, COMPONENT = 2, 3  # Discord's interaction types
HAND_COMMAND = "hand"


class DmRouting:
    """The tables cog's answer to "whose table is this DM interaction about?" (a
    :class:`bot.interaction_relay.DmRouter`).

    Parameters
    ----------
    registry:
        This process's live tables.
    db:
        The database the processes share.
    owns_guild:
        ``owns_guild(guild_id)``: True if the guild is this process's (``CardTableBot.owns_guild``).
    """

    def __init__(self, registry: TableRegistry, db: Database, owns_guild: Callable[[int], bool]) -> None:
        self.registry = registry
        self.db = db
        self.owns_guild = owns_guild

    @staticmethod
    def table_named(data: dict[str, Any]) -> str | None:
        """The table id a component interaction's custom_id names (``ct:<table>:...``), else ``None``."""
        if data.get("type") != COMPONENT:
            return None
        custom_id = str((data.get("data") or {}).get("custom_id", ""))
        if not custom_id.startswith(ids.PREFIX):
            return None
        return custom_id.split(":", 2)[1] or None

    @staticmethod
    def hand_user(data: dict[str, Any]) -> int | None:
        """The user of a ``/hand`` command interaction, else ``None``."""
        if data.get("type") != APPLICATION_COMMAND or (data.get("data") or {}).get("name") != HAND_COMMAND:
            return None
        user = data.get("user") or (data.get("member") or {}).get("user") or {}
        return int(user["id"]) if "id" in user else None

    def is_here(self, data: dict[str, Any]) -> bool:
        """True if the interaction is for this process: about one of its live tables, or about no table
        (anything but a table component or ``/hand``). Reads memory only."""
        table_id = self.table_named(data)
        if table_id is not None:
            return self.registry.get(table_id) is not None
        user_id = self.hand_user(data)
        if user_id is not None:
            return self.registry.table_of_player(user_id, None) is not None
        return True

    async def guild_of(self, data: dict[str, Any]) -> int | None:
        """The guild of the live table the interaction is about, from the database: the table its custom_id
        names, or for ``/hand`` the first table of the user's in another process's guild; ``None`` if
        there is none (then this process answers it, e.g. "this table no longer exists")."""
        table_id = self.table_named(data)
        if table_id is not None:
            return await self.db.table_guild(table_id)
        user_id = self.hand_user(data)
        if user_id is None:
            return None
        for _table_id, guild_id, _channel_id in await self.db.tables_of_user(user_id):
            if not self.owns_guild(guild_id):
                return guild_id
        return None


def attach(bot: Host, registry: TableRegistry) -> None:
    """Let the bot's interaction relay (if it has one: with ``SHARD_IDS``) ask the tables where DM
    interactions belong."""
    if bot.relay is not None:
        bot.relay.router = DmRouting(registry, bot.db, bot.owns_guild)


def detach(bot: Host) -> None:
    """The tables are unloading: DM interactions are no longer routed by them."""
    if bot.relay is not None:
        bot.relay.router = None
