"""The component classes of every table: a button and a select menu whose custom_ids name table, version
and verb, the stopped view that holds them, and :func:`route`, which hands a press to a
:class:`~cogs.tables.press_handler.PressHandler`.

Presses are routed by custom_id alone (the bot's ``on_interaction`` calls :func:`route`): buttons keep
working on any message, however old, and a press is answered even when the table is gone. The classes
the renderer draws are plain discord.py items that only carry their custom_id; discord.py keeps no view
of theirs and dispatches nothing to them.
"""

from __future__ import annotations

import re

import discord

from cogs.tables import custom_ids as ids
from cogs.tables.press_handler import PressHandler

NOT_RUNNING = "The tables are not running right now."
_BUTTON = re.compile(ids.TEMPLATE)
_SELECT = re.compile(ids.SELECT_TEMPLATE)


async def route(handler: PressHandler | None, interaction: discord.Interaction) -> bool:
    """Hand a component press on a table component to ``handler``; False if the press's custom_id is not
    one of the components of the message pressed on (a forged or stale custom_id: the caller answers it).

    This does what discord.py's own dispatch of a registered :class:`~discord.ui.DynamicItem` would do
    (match the custom_id among the message's components, then call the item's callback), without
    rebuilding the message's whole view (``View.from_message``) and one item per component on every
    press: the bot routes presses here from ``on_interaction`` and registers no dynamic items.
    """
    data = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    component_type = data.get("component_type")
    if not _is_on_message(interaction.message, custom_id, component_type):
        return False
    if component_type == discord.ComponentType.button.value:
        match = _BUTTON.fullmatch(custom_id)
        if match is None:
            return False
        if handler is None:
            await interaction.response.send_message(NOT_RUNNING, ephemeral=True)
            return True
        target = ids.TableCustomId(match["table"], int(match["version"]), match["verb"])
        await handler.on_table_button(interaction, target)
        return True
    if _SELECT.fullmatch(custom_id) is None:
        return False
    values = [str(value) for value in data.get("values", [])]
    option = ids.parse_option_select(custom_id)
    target = ids.parse_select(custom_id, values[0]) if len(values) == 1 else None
    if handler is None:
        await interaction.response.send_message(NOT_RUNNING, ephemeral=True)
    elif option is not None:
        await handler.on_option_select(interaction, option[0], option[1], values)
    elif target is None:
        await interaction.response.send_message(
            "That choice is not one of mine: nothing happened.", ephemeral=True
        )
    else:
        await handler.on_table_button(interaction, target)
    return True


def _is_on_message(message: discord.Message | None, custom_id: str, component_type: object) -> bool:
    """True if a component of type ``component_type`` with ``custom_id`` is on ``message``."""
    if message is None:
        return False
    for row in message.components:
        for component in getattr(row, "children", [row]):
            if getattr(component, "custom_id", None) == custom_id and component.type.value == component_type:
                return True
    return False
