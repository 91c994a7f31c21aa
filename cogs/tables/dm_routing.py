"""The gate in front of every table interaction, and the DM interactions of a bot sharded over processes.

:meth:`DmRouting.admit` is what each table press and ``/hand`` pass first (the table components'
``interaction_check``, the fallback for the presses no component takes, the ``/hand`` command): the bot's
own gate (``Host.admit``: "restarting" while it stops, else the press's database write deadline), then,
with ``SHARD_IDS``, the relay. Discord delivers every DM interaction to shard 0's process; one about a
table of a guild another process owns is acknowledged here at once (``interaction.response.defer()``: a
deferred update for a component, a deferred ephemeral "thinking" answer for ``/hand``) and relayed to that
process as a plain description (:func:`cogs.tables.relayed_press.describe`, through the bot's relay,
``bot/interaction_relay.py``), which answers it through the interaction's token. Nothing else of this
process handles it.

Which table a DM interaction is about: a button or menu on a DM'd hand view names its table in its
custom_id (``ct:<table>:...``); a ``/hand`` typed in a DM is about the table where the user plays: one of
this process's first (as :meth:`~engine.tables.registry.TableRegistry.table_of_player` picks it), else one
of another process's, from the database's seats of live tables.

:meth:`DmRouting.run` is the other side: a press another process relayed here, handled as this process's
own (the table components' :func:`~cogs.tables.components.hand_on`, or ``/hand``) with a
:class:`~cogs.tables.relayed_press.RelayedInteraction`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord

from cogs.tables import custom_ids as ids
from cogs.tables.components import hand_on
from cogs.tables.press_handler import PressHandler
from cogs.tables.relayed_press import RelayedInteraction, describe
from engine.tables.registry import TableRegistry

if TYPE_CHECKING:
    from cogs.host import Host

log = logging.getLogger(__name__)

HAND_COMMAND = "hand"

ShowHand = Callable[[discord.Interaction, bool], Awaitable[None]]
"""``/hand``'s work, past the gate: ``show_hand(interaction, dm)``."""


class DmRouting:
    """The tables' gate (a :class:`~cogs.tables.components.PressGate`) and their answer to "whose table is
    this DM interaction about?".

    Parameters
    ----------
    host:
        The bot: its gate (``admit``), its relay (``None`` unless sharded over processes), its database and
        which guilds it owns.
    registry:
        This process's live tables.
    handler:
        Where the table components' presses go (the cog's gate of press limits, then the presses).
    show_hand:
        ``/hand``'s work for an interaction past the gate.
    """

    def __init__(
        self, host: Host, registry: TableRegistry, handler: PressHandler, show_hand: ShowHand
    ) -> None:
        self.host = host
        self.registry = registry
        self.handler = handler
        self.show_hand = show_hand

    # -- the gate ------------------------------------------------------------------------------------

    async def admit(self, interaction: discord.Interaction, *, claimed: bool = True) -> bool:
        """True if this process handles ``interaction`` now (its database writes then wait at most until
        the press's deadline); False once it was answered otherwise: "restarting" while the bot stops, or
        relayed to the process owning its table (:meth:`relayed`; ``claimed``: whether one of the table's
        dynamic items took the press)."""
        if not await self.host.admit(interaction):
            return False
        return not await self.relayed(interaction, claimed=claimed)

    async def relayed(self, interaction: discord.Interaction, *, claimed: bool = True) -> bool:
        """Relay ``interaction`` if it comes from a DM and is about a table of a guild another process owns
        (only with ``SHARD_IDS``): acknowledge it, hand its description to the bot's relay and return True
        once the relay is done with it (answered by the owner, or told the owner is restarting). False: the
        interaction is this process's to handle (no relay, from a server, about one of its tables, or about
        no table at all)."""
        relay = self.host.relay
        if relay is None or interaction.guild_id is not None or self.is_here(interaction):
            return False
        try:
            guild_id = await self.guild_of(interaction)
        except Exception:
            log.exception("Could not look up the table of a DM interaction: handling it here")
            return False
        if guild_id is None or self.host.owns_guild(guild_id):
            return False
        try:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as error:  # too late, or Discord is away: nothing can answer it
            log.warning("Could not acknowledge a DM interaction to relay: %s", error)
            return True
        await relay.relay(describe(interaction, claimed=claimed), guild_id, interaction)
        return True

    @staticmethod
    def table_named(interaction: discord.Interaction) -> str | None:
        """The table id a component interaction's custom_id names (``ct:<table>:...``), else ``None``."""
        if interaction.type is not discord.InteractionType.component:
            return None
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not custom_id.startswith(ids.PREFIX):
            return None
        return custom_id.split(":", 2)[1] or None

    @staticmethod
    def is_hand(interaction: discord.Interaction) -> bool:
        """True for a ``/hand`` command interaction."""
        data = interaction.data or {}
        return (
            interaction.type is discord.InteractionType.application_command
            and data.get("name") == HAND_COMMAND
        )

    def is_here(self, interaction: discord.Interaction) -> bool:
        """True if the interaction is for this process: about one of its live tables, or about no table
        (anything but a table component or ``/hand``). Reads memory only."""
        table_id = self.table_named(interaction)
        if table_id is not None:
            return self.registry.get(table_id) is not None
        if self.is_hand(interaction):
            return self.registry.table_of_player(interaction.user.id, None) is not None
        return True

    async def guild_of(self, interaction: discord.Interaction) -> int | None:
        """The guild of the live table the interaction is about, from the database: the table its custom_id
        names, or for ``/hand`` the first table of the user's in another process's guild; ``None`` if
        there is none (then this process answers it, e.g. "this table no longer exists")."""
        table_id = self.table_named(interaction)
        if table_id is not None:
            return await self.host.db.table_guild(table_id)
        if not self.is_hand(interaction):
            return None
        for _table_id, guild_id, _channel_id in await self.host.db.tables_of_user(interaction.user.id):
            if not self.host.owns_guild(guild_id):
                return guild_id
        return None

    # -- presses relayed here ------------------------------------------------------------------------

    async def run(self, press: dict[str, Any], answered: asyncio.Event) -> None:
        """Handle the press another process relayed here (``press``: its
        :func:`~cogs.tables.relayed_press.describe`) as this process's own, answering it through its token;
        ``answered`` is set once the answer reached Discord. A description this process cannot read is
        logged and left unanswered (its sender then answers it)."""
        try:
            interaction = RelayedInteraction.of(press, cast(discord.Client, self.host), answered)
        except (KeyError, TypeError, ValueError):
            log.exception("Could not read a relayed interaction")
            return
        as_interaction = cast(discord.Interaction, interaction)  # it has what the press handling reads
        if interaction.type is discord.InteractionType.component:
            await hand_on(self.handler, as_interaction, claimed=bool(press.get("claimed", True)))
        elif self.is_hand(as_interaction):
            options = {
                option.get("name"): option.get("value") for option in interaction.data.get("options", [])
            }
            await self.show_hand(as_interaction, bool(options.get("dm", False)))


def attach(bot: Host, routing: DmRouting) -> None:
    """Let the bot's interaction relay (if it has one: with ``SHARD_IDS``) hand the presses relayed to this
    process to the tables."""
    if bot.relay is not None:
        bot.relay.router = routing


def detach(bot: Host) -> None:
    """The tables are unloading: presses relayed to this process are no longer taken."""
    if bot.relay is not None:
        bot.relay.router = None
