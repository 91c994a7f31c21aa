"""The tables extension: lobbies, games and scoreboards in channels (``/play``, ``/hand``, buttons).
It may import the table runtime (engine.tables), the games, storage and discord.py; never bot.

The cog registers the table components itself (routed to its own press handler) when it loads, and
removes them when it unloads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cogs.host import Host


async def setup(bot: "Host") -> None:
    """Load the tables cog, and the queues' and game nights' cogs beside it (they share the tables'
    parts)."""
    from cogs.nights.night_cog import NightsCog
    from cogs.tables.cog import TablesCog
    from cogs.tables.queue_cog import QueueCog

    tables = TablesCog(bot)
    await bot.add_cog(tables)
    await bot.add_cog(QueueCog(bot, tables))
    await bot.add_cog(NightsCog(bot, tables))
