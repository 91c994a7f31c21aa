"""What the cogs need of the bot that loads them (``bot.bot.CardTableBot`` provides it), named here so that
no cog imports ``bot``, the layer above them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import discord
    from apscheduler.schedulers.base import BaseScheduler
    from discord.ext import commands

    from storage import Database


class HostSettings(Protocol):
    """The bot's settings the cogs read (``bot.settings.Settings``; seconds unless the name says)."""

    default_turn_seconds: int
    min_turn_seconds: int
    max_turn_seconds: int
    idle_after_timeouts: int
    rematch_seconds: int
    lobby_idle_seconds: int
    ai_pause_seconds: float
    press_burst: float
    presses_per_second: float
    time_bank_seconds: int
    time_bank_increment_seconds: int
    time_bank_cap_seconds: int
    slow_turn_hours: int
    table_message_max_age_seconds: int
    table_edits_per_channel: int
    table_watched_seconds: float
    table_unwatched_redraw_seconds: float
    queue_minute_seconds: float

    @property
    def holds_every_shard(self) -> bool:
        """False if other processes hold some of the bot's shards (``SHARD_IDS``)."""
        ...


class HostRelay(Protocol):
    """The bot's relay of DM interactions to the process owning their table (only with ``SHARD_IDS``)."""

    router: Any
    """Who handles the presses relayed to this process (the tables cog's ``DmRouting``, which is what
    ``bot.interaction_relay.DmRouter`` asks for), or ``None`` while the tables cog is not loaded."""

    async def relay(self, press: dict[str, Any], guild_id: int, interaction: discord.Interaction) -> None:
        """Relay the acknowledged DM interaction ``interaction``, described as ``press``
        (``cogs.tables.relayed_press.describe``), to the process owning guild ``guild_id``; return once it
        answered, or once ``interaction`` was told that process is restarting."""
        ...


class Host(Protocol):
    """The bot the cogs are loaded into: discord.py's ``commands.AutoShardedBot`` (the parts that need a
    ``discord.Client`` are given it as one) with the bot's settings, database and scheduler.

    ``component_prefixes`` holds the ``custom_id`` prefixes of the components a cog other than the tables'
    answers (e.g. "rp:"), which the tables cog leaves to it.
    """

    settings: HostSettings
    scheduler: BaseScheduler
    relay: HostRelay | None
    component_prefixes: set[str]

    @property
    def db(self) -> Database:
        """The open database."""
        ...

    def owns_guild(self, guild_id: int) -> bool:
        """True if this process holds the shard of guild ``guild_id`` (always, without ``SHARD_IDS``)."""
        ...

    async def admit(self, interaction: discord.Interaction) -> bool:
        """The gate in front of every interaction the cogs handle, called first in its own task: False once
        it was answered "restarting" (the bot is stopping; an autocomplete gets no answer); True if it is to
        be handled, its database writes then waiting at most until the press's deadline."""
        ...

    def is_closed(self) -> bool: ...

    async def wait_until_ready(self) -> None: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...
