"""The tables extension: lobbies, games and scoreboards in channels (``/play``, ``/hand``, buttons)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.bot import CardTableBot


async def setup(bot: "CardTableBot") -> None:
    """Load the cog and route every table button to it."""
    from cogs.tables.cog import TablesCog
    from cogs.tables.components import TableButton, TableSelect

    await bot.add_cog(TablesCog(bot))
    bot.add_dynamic_items(TableButton, TableSelect)


async def teardown(bot: "CardTableBot") -> None:
    """Stop routing table buttons when the extension unloads."""
    from cogs.tables.components import TableButton, TableSelect

    bot.remove_dynamic_items(TableButton, TableSelect)
