"""What a table component needs from the runtime: the :class:`PressHandler` protocol.

The table components (:mod:`cogs.tables.components`: discord.py's dynamic items and the fallback for the
presses they do not take) hand every press to a ``PressHandler`` and know nothing else of the runtime, so
no module of the tables imports the cog (see :mod:`cogs.tables.presses` for the implementation).
"""

from __future__ import annotations

from typing import Protocol

import discord

from cogs.tables.custom_ids import TableCustomId


class PressHandler(Protocol):
    """Receives the presses of table components."""

    async def on_table_button(self, interaction: discord.Interaction, target: TableCustomId) -> None:
        """A table button was pressed, or an action chosen in a select menu (``target`` names it)."""

    async def on_option_select(
        self, interaction: discord.Interaction, table_id: str, field: str, values: list[str]
    ) -> None:
        """The host chose ``values`` in the lobby menu of option ``field`` of table ``table_id``."""
