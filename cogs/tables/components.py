"""The component classes of every table: a button and a select menu whose custom_ids name table, version
and verb, and the stopped view that holds them.

They are :class:`discord.ui.DynamicItem` s, so presses are routed by custom_id alone: buttons keep working on
any message, however old, and a press is answered even when the table is gone. The classes the renderer
draws route nowhere; :func:`routed_to` makes the subclasses the bot registers, which hand every press to a
:class:`~cogs.tables.press_handler.PressHandler`.
"""

from __future__ import annotations

import re
from typing import ClassVar

import discord

from cogs.tables import custom_ids as ids
from cogs.tables.press_handler import PressHandler

NOT_RUNNING = "The tables are not running right now."


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.TEMPLATE):
    """A table button. ``target`` is its parsed custom_id."""

    handler: ClassVar[PressHandler | None] = None

    def __init__(
        self,
        target: ids.TableCustomId,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=str(target), row=row, disabled=disabled)
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> "TableButton":
        target = ids.TableCustomId(match["table"], int(match["version"]), match["verb"])
        return cls(target, label=item.label or "…", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.handler is None:
            await interaction.response.send_message(NOT_RUNNING, ephemeral=True)
            return
        await self.handler.on_table_button(interaction, self.target)


class TableSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.SELECT_TEMPLATE):
    """A select menu of game actions (cards in hand, grid positions): each option's value is an action
    code, and choosing one is the same as pressing that action's button. A lobby option menu
    (``o.<field>``) sets a game option instead."""

    handler: ClassVar[PressHandler | None] = None

    def __init__(
        self,
        custom_id: str,
        *,
        placeholder: str = "Choose…",
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="…")],
                row=row,
                min_values=min_values,
                max_values=max_values,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> "TableSelect":
        return cls(
            item.custom_id or "",
            placeholder=item.placeholder or "Choose…",
            options=list(item.options),
            min_values=item.min_values,
            max_values=item.max_values,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        custom_id = self.item.custom_id or ""
        option = ids.parse_option_select(custom_id)
        target = ids.parse_select(custom_id, values[0]) if len(values) == 1 else None
        if self.handler is None:
            await interaction.response.send_message(NOT_RUNNING, ephemeral=True)
        elif option is not None:
            await self.handler.on_option_select(interaction, option[0], option[1], list(values))
        elif target is None:
            await interaction.response.send_message(
                "That choice is not one of mine: nothing happened.", ephemeral=True
            )
        else:
            await self.handler.on_table_button(interaction, target)


def routed_to(handler: PressHandler) -> tuple[type[TableButton], type[TableSelect]]:
    """The button and select classes to register with ``bot.add_dynamic_items``: they hand every press
    to ``handler`` (one pair per running cog, so two bots in one process never share a handler)."""

    class RoutedButton(TableButton, template=ids.TEMPLATE):
        pass

    class RoutedSelect(TableSelect, template=ids.SELECT_TEMPLATE):
        pass

    RoutedButton.handler = handler
    RoutedSelect.handler = handler
    return RoutedButton, RoutedSelect


class TableView(discord.ui.View):
    """The components of a table message: a rendering only, holding no state.

    Presses reach :class:`TableButton` by custom_id (registered once with ``bot.add_dynamic_items``), so
    discord.py need not keep the view. It is stopped from birth: discord.py stores no finished view, and
    so starts none of the 15-minute timeout tasks it would give every ephemeral view it stores.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()
