"""The gate in front of every table press (:class:`LimitedPresses`, the
:class:`~cogs.tables.press_handler.PressHandler` the table components are given): a member pressing far
faster than a person can is answered :data:`cogs.press_limits.TOO_FAST` and the press goes no further
(:mod:`cogs.press_limits`), and the last person leaving a running game is refused while the server has
as many games with no person seated as it allows (:mod:`cogs.tables.table_limits`). Every other press
goes on to the table's handler unchanged."""

from __future__ import annotations

import discord

from cogs.press_limits import TOO_FAST, PressLimits
from cogs.tables import custom_ids as ids
from cogs.tables.press_handler import PressHandler
from cogs.tables.presses import reply
from cogs.tables.table_limits import OpeningLimits
from engine.tables.registry import TableRegistry


class LimitedPresses:
    """A :class:`~cogs.tables.press_handler.PressHandler` that checks each press, then hands it to
    ``handler``."""

    def __init__(
        self, handler: PressHandler, presses: PressLimits, limits: OpeningLimits, registry: TableRegistry
    ) -> None:
        self.handler = handler
        self.presses = presses
        self.limits = limits
        self.registry = registry

    async def on_table_button(self, interaction: discord.Interaction, target: ids.TableCustomId) -> None:
        """A table press: refused if too fast, or if it would leave one game too many with no person."""
        kind = "dm" if target.verb == ids.DM else "press"
        if not self.presses.allow(interaction.user.id, kind):
            await reply(interaction, TOO_FAST)
            return
        if target.verb == ids.LEAVE_SURE:
            session = self.registry.get(target.table_id)
            if session is not None:
                limits = await self.limits.limits(session.guild_id)
                refusal = self.limits.leaving_refusal(limits, session, interaction.user.id)
                if refusal is not None:
                    await reply(interaction, refusal)
                    return
        await self.handler.on_table_button(interaction, target)

    async def on_option_select(
        self, interaction: discord.Interaction, table_id: str, field: str, values: list[str]
    ) -> None:
        """A lobby option chosen: refused if too fast."""
        if not self.presses.allow(interaction.user.id):
            await reply(interaction, TOO_FAST)
            return
        await self.handler.on_option_select(interaction, table_id, field, values)
