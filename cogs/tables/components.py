"""Every table component press, through discord.py's dynamic items: a press on any table button or menu
(the game's actions and their pages, the lobby's, the seat buttons, "My hand", on the table message, a
private view or a DM) reaches a :class:`~cogs.tables.press_handler.PressHandler` by custom_id alone
(:mod:`cogs.tables.custom_ids`), and every press gets exactly one answer.

Buttons keep working on any message, however old, and after a restart; a press is answered even when its
table is gone. The renderer draws components as JSON (:mod:`cogs.tables.render`): discord.py keeps no view
for them.

How: two ``discord.ui.DynamicItem`` classes, one per custom_id template, :class:`TableButton`
(``ids.TEMPLATE``) and :class:`TableSelect` (``ids.SELECT_TEMPLATE``: the action menus and the lobby's
option menus), bound to one bot's handler and gate by :func:`table_items` and registered by the tables cog
(``bot.add_dynamic_items``). discord.py (2.7, ``ui/view.py``: ``ViewStore.dispatch_dynamic_items``,
``schedule_dynamic_item_call``) dispatches a press to one when its custom_id matches the template whole and
a component of the pressed type with that custom_id is on the pressed message: it rebuilds the message's
whole view (``View.from_message``, a ``LayoutView`` for a Components V2 message), finds the pressed item in
it (in an action row, a container or a section's accessory), makes the dynamic item with
``from_custom_id`` (wrapping that item), asks its ``interaction_check`` (the :class:`PressGate`: not while
the bot stops, which answers "restarting"; not a DM about another process's table, which is relayed there;
else the press's database writes get their deadline) and calls its callback, which hands the press on
(:func:`hand_on`): a button as its parsed custom_id, an action menu's choice as that action's button, a
lobby menu as the option it sets.

The fallback: for a custom_id that is not on the pressed message (forged, or from another version of the
bot) discord.py calls no item, and the player would see "This interaction failed". The cog's
``on_interaction`` calls :func:`answer_unclaimed` for every component press: it applies discord.py's test
(:func:`claimed`) and answers exactly the presses no item takes, as the table press their custom_id names
if it names one with a known verb, else "not one of mine", nothing changed, once the gate let it through.
So a press is answered by an item's callback or by the fallback, never by both and never by neither.

A press relayed from another process (:mod:`cogs.tables.relayed_press`) is handed on by :func:`hand_on` as
the item or the fallback that took it there would have.

What this costs per press (discord.py rebuilds the pressed message's view each time):
``bench/component_routing.py``, figures in ``docs/performance.md``, "Routing a press".
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Collection
from typing import Any, ClassVar, Protocol

import discord

from cogs.tables import custom_ids as ids
from cogs.tables.press_handler import PressHandler

NOT_MINE = "That button is not one of mine: nothing happened."
_BUTTON = re.compile(ids.TEMPLATE)
_SELECT = re.compile(ids.SELECT_TEMPLATE)
_TEMPLATES = (_BUTTON, _SELECT)
"""The templates of the table's dynamic items (disjoint: a custom_id matches at most one)."""


class PressGate(Protocol):
    """Decides whether this process handles a table press now (the tables cog's ``DmRouting``)."""

    async def admit(self, interaction: discord.Interaction, *, claimed: bool = True) -> bool:
        """True if the press is handled here and now (its database writes then have their deadline, for
        the rest of the calling task); False once it was answered otherwise: "restarting" while the bot
        stops, or relayed to the process owning its table (``claimed``: whether a dynamic item took it)."""
        ...


class TableButton(discord.ui.DynamicItem[discord.ui.Item[Any]], template=ids.TEMPLATE):
    """A table button (``ct:<table>:<version>:<verb>``), as discord.py dispatches it; register the class
    :func:`table_items` binds to a handler, not this one.

    ``item`` is the pressed component as discord.py rebuilt it from the message; ``target`` its custom_id,
    parsed (any verb the template takes: the handler refuses one it does not know).
    """

    TEMPLATE: ClassVar[str] = ids.TEMPLATE
    handler: ClassVar[PressHandler]
    """The press handler of the bot the class is registered with (:func:`table_items`)."""
    gate: ClassVar[PressGate | None] = None
    """The gate every press passes first (:func:`table_items`; ``None``: none)."""

    def __init__(self, item: discord.ui.Item[Any], target: ids.TableCustomId) -> None:
        super().__init__(item)
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        """The pressed button ``item``, its custom_id parsed from the template's ``match``."""
        return cls(item, ids.TableCustomId(match["table"], int(match["version"]), match["verb"]))

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Whether the press is handled here and now (:meth:`PressGate.admit`); answered otherwise."""
        return self.gate is None or await self.gate.admit(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to the handler (:func:`hand_on`): a button as its custom_id (a menu with a button's
        custom_id, never drawn, as the press it names, or "not one of mine")."""
        await hand_on(self.handler, interaction)


class TableSelect(discord.ui.DynamicItem[discord.ui.Item[Any]], template=ids.SELECT_TEMPLATE):
    """A table select menu (``ct:<table>:<version>:s.<n>``, an action menu, or ``...:o.<field>``, a lobby
    option menu), as discord.py dispatches it; register the class :func:`table_items` binds to a handler,
    not this one. ``item`` is the pressed component as discord.py rebuilt it from the message."""

    TEMPLATE: ClassVar[str] = ids.SELECT_TEMPLATE
    handler: ClassVar[PressHandler]
    """The press handler of the bot the class is registered with (:func:`table_items`)."""
    gate: ClassVar[PressGate | None] = None
    """The gate every press passes first (:func:`table_items`; ``None``: none)."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableSelect:
        """The chosen menu ``item``."""
        return cls(item)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Whether the choice is handled here and now (:meth:`PressGate.admit`); answered otherwise."""
        return self.gate is None or await self.gate.admit(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the choice to the handler (:func:`hand_on`): a lobby option set, or a game action chosen (one
        value, an action code; a forged value is answered "not one of mine"). A button with a menu's
        custom_id (never drawn) is "not one of mine"."""
        await hand_on(self.handler, interaction)


def table_items(
    handler: PressHandler, gate: PressGate | None = None
) -> tuple[type[TableButton], type[TableSelect]]:
    """The dynamic item classes that hand one bot's table presses to ``handler`` once ``gate`` let them
    through (``None``: every press, for a client with nothing to refuse, as in tests and benchmarks):
    :class:`TableButton` and :class:`TableSelect`, each subclassed with ``handler`` and ``gate`` as its
    class attributes (one bot's classes never see another's). Register them with
    ``bot.add_dynamic_items(*items)``, remove them with ``bot.remove_dynamic_items(*items)``."""
    bound = {"handler": handler, "gate": gate}
    button = type(TableButton.__name__, (TableButton,), dict(bound), template=TableButton.TEMPLATE)
    select = type(TableSelect.__name__, (TableSelect,), dict(bound), template=TableSelect.TEMPLATE)
    return button, select


async def hand_on(handler: PressHandler, interaction: discord.Interaction, *, claimed: bool = True) -> None:
    """Hand the table component press ``interaction`` to ``handler``, as the dynamic item its custom_id
    and component type make (``claimed``: one took it) or, when none took it, as the fallback: a button of
    the button template as its parsed custom_id, a menu of the menu template as its choice, anything else
    as the press its custom_id names (or "not one of mine")."""
    data = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    is_button = data.get("component_type") == discord.ComponentType.button.value
    button = _BUTTON.fullmatch(custom_id) if claimed and is_button else None
    if button is not None:
        target = ids.TableCustomId(button["table"], int(button["version"]), button["verb"])
        await handler.on_table_button(interaction, target)
    elif claimed and not is_button and _SELECT.fullmatch(custom_id):
        values = [str(value) for value in data.get("values", [])]
        await _route_select(handler, interaction, custom_id, values)
    else:
        await _answer_as_named(handler, interaction)


async def answer_unclaimed(
    handler: PressHandler,
    interaction: discord.Interaction,
    others: Collection[str] = (),
    gate: PressGate | None = None,
) -> None:
    """Answer the component press ``interaction`` if none of the table's dynamic items takes it
    (:func:`claimed`) and its custom_id starts with none of ``others`` (the prefixes of components another
    cog answers: replay buttons, "How to play", ...), once ``gate`` let it through (``None``: no gate).

    Such a press is handled as the table press its custom_id names, if it names one with a known verb (a
    custom_id no longer on the message, or from another version of the bot); anything else is answered "not
    one of mine", nothing changed.
    """
    data = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if custom_id.startswith(tuple(others)) or claimed(interaction):
        return
    if gate is None or await gate.admit(interaction, claimed=False):
        await _answer_as_named(handler, interaction)


def claimed(interaction: discord.Interaction) -> bool:
    """True if discord.py dispatches the component press ``interaction`` to one of the table's dynamic items
    (registered: :func:`table_items`): its custom_id matches one of their templates whole and the pressed
    message has a component of the pressed type with that custom_id, where ``View.from_message`` finds it
    (in an action row, a container, a section's accessory). discord.py's own test, on the message's
    components rather than on a view rebuilt from them."""
    data = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not any(template.fullmatch(custom_id) for template in _TEMPLATES):
        return False
    return is_on_message(interaction.message, custom_id, data.get("component_type"))


async def _answer_as_named(handler: PressHandler, interaction: discord.Interaction) -> None:
    """The press as the table press its custom_id names, if any (a known verb); else "not one of mine"."""
    target = ids.TableCustomId.parse(str((interaction.data or {}).get("custom_id", "")))
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


def is_on_message(message: discord.Message | None, custom_id: str, component_type: object) -> bool:
    """True if a component of type ``component_type`` with ``custom_id`` is on ``message`` (in an action
    row, at the top, in a Components V2 container or as a section's accessory)."""
    if message is None:
        return False
    components = list(message.components)
    while components:
        component = components.pop()
        if getattr(component, "custom_id", None) == custom_id and component.type.value == component_type:
            return True
        components.extend(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            components.append(accessory)
    return False


async def answer_not_mine(
    interaction: discord.Interaction,
    prefix: str,
    template: re.Pattern[str],
    admit: Callable[[discord.Interaction], Awaitable[bool]],
) -> None:
    """Answer a button press whose custom_id starts with ``prefix`` that no dynamic item of ``template``
    takes (forged, or no longer on its message: discord.py's own test, :func:`is_on_message`) with "not one
    of mine", nothing changed, once ``admit`` (the bot's gate) lets it through. Any other interaction is
    left alone: another cog's, or one the dynamic item takes."""
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    if not custom_id.startswith(prefix):
        return
    button = discord.ComponentType.button.value
    if template.fullmatch(custom_id) and is_on_message(interaction.message, custom_id, button):
        return  # the dynamic item takes it
    if await admit(interaction) and not interaction.response.is_done():
        await interaction.response.send_message(NOT_MINE, ephemeral=True)
