"""The one router of every table component: :func:`route` hands a press on any table button or menu (the
game's actions and their pages, the lobby's, the seat buttons, "My hand", on the table message, a private
view or a DM) to a :class:`~cogs.tables.press_handler.PressHandler`, by custom_id alone
(:mod:`cogs.tables.custom_ids`), and answers those that are not one of the tables'.

Buttons keep working on any message, however old, and after a restart; a press is answered even when its
table is gone. The renderer draws components as JSON (:mod:`cogs.tables.render`): discord.py keeps no view
and dispatches nothing for them.

Why not discord.py's ``DynamicItem`` (a registered item class per custom_id template, which discord.py
dispatches itself): on every press discord.py would start a task, rebuild the pressed message's whole view
(``View.from_message``: one ``discord.ui`` item per component, each menu's 25 options copied), find the
pressed item in it and make the dynamic item, only to call its callback: about twice the CPU of
:func:`route` from ``on_interaction`` (``bench/component_routing.py``; the figures in
``docs/performance.md``, "Routing a press"). And a ``DynamicItem`` only runs for a custom_id
that is on the pressed message: a forged or stale one would get no answer at all (the player sees "This
interaction failed"), where the tables answer every press.
"""

from __future__ import annotations

import re
from collections.abc import Collection

import discord

from cogs.tables import custom_ids as ids
from cogs.tables.press_handler import PressHandler

NOT_MINE = "That button is not one of mine: nothing happened."
_BUTTON = re.compile(ids.TEMPLATE)
_SELECT = re.compile(ids.SELECT_TEMPLATE)


async def route(
    handler: PressHandler, interaction: discord.Interaction, others: Collection[str] = ()
) -> None:
    """Route the component press ``interaction``, unless its custom_id starts with one of ``others`` (the
    prefixes of components another cog answers: replay buttons, "How to play", ...).

    A table component on the message pressed goes to ``handler``: a button as its parsed custom_id, an
    action menu's choice as that action's button, a lobby menu as the option it sets. A custom_id that is
    not on the message (forged, or from another version of the bot) is still handled as the table press it
    names, if it names one with a known verb; anything else is answered "not one of mine", nothing changed.
    """
    data = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if custom_id.startswith(tuple(others)):
        return
    component_type = data.get("component_type")
    if _is_on_message(interaction.message, custom_id, component_type):
        if component_type == discord.ComponentType.button.value:
            match = _BUTTON.fullmatch(custom_id)
            if match is not None:
                target = ids.TableCustomId(match["table"], int(match["version"]), match["verb"])
                await handler.on_table_button(interaction, target)
                return
        elif _SELECT.fullmatch(custom_id) is not None:
            values = [str(value) for value in data.get("values", [])]
            await _route_select(handler, interaction, custom_id, values)
            return
    target = ids.TableCustomId.parse(custom_id)
    if target is not None:
        await handler.on_table_button(interaction, target)
    elif not interaction.response.is_done():
        await interaction.response.send_message(NOT_MINE, ephemeral=True)


async def _route_select(
    handler: PressHandler, interaction: discord.Interaction, custom_id: str, values: list[str]
) -> None:
    """A choice in a table's select menu: a lobby option set, or a game action chosen (one value, an action
    code; a forged value is refused)."""
    option = ids.parse_option_select(custom_id)
    if option is not None:
        await handler.on_option_select(interaction, option[0], option[1], values)
        return
    target = ids.parse_select(custom_id, values[0]) if len(values) == 1 else None
    if target is None:
        await interaction.response.send_message(NOT_MINE, ephemeral=True)
    else:
        await handler.on_table_button(interaction, target)


def _is_on_message(message: discord.Message | None, custom_id: str, component_type: object) -> bool:
    """True if a component of type ``component_type`` with ``custom_id`` is on ``message`` (in an action
    row, at the top or in a Components V2 container)."""
    if message is None:
        return False
    components = list(message.components)
    while components:
        component = components.pop()
        if getattr(component, "custom_id", None) == custom_id and component.type.value == component_type:
            return True
        components.extend(getattr(component, "children", ()))
    return False
