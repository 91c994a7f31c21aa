"""``/turns``: a player chooses how their turns find them (a mention in the table's channel, a DM, or
nothing), for the table in this channel (stored with the table: it holds after a restart) or for every
table of this server (stored in the database). The tables cog declares the command; the work is here.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from cogs.tables.turn_alerts import AlertChoices
from engine.tables.moves import ChooseAlerts
from engine.tables.outcome import Outcome
from engine.tables.runtime import TableRuntime
from engine.tables.session import BY_DM, BY_MENTION, NOT_TOLD, TableError
from storage import DatabaseError

log = logging.getLogger(__name__)

THIS_TABLE, THIS_SERVER = "table", "server"
HOW_CHOICES = [
    app_commands.Choice(name="mention me in the table's channel", value=BY_MENTION),
    app_commands.Choice(name="send me a DM", value=BY_DM),
    app_commands.Choice(name="don't tell me", value=NOT_TOLD),
]
SCOPE_CHOICES = [
    app_commands.Choice(name="the table in this channel", value=THIS_TABLE),
    app_commands.Choice(name="every table of this server", value=THIS_SERVER),
]
SAID = {
    BY_MENTION: "a mention in the table's channel",
    BY_DM: "a DM",
    NOT_TOLD: "nothing: I will not tell you",
}
NOT_SAVED = "I could not save that just now: please try again."
MENTIONS_OFF = " This server's admins turned table mentions off, so I will not mention you here."


async def choose(
    runtime: TableRuntime,
    choices: AlertChoices,
    interaction: discord.Interaction,
    how: str,
    scope: str,
) -> None:
    """Store ``interaction.user``'s choice ``how`` (``"channel"``, ``"dm"``, ``"off"``) for the table in
    this channel or (``scope="server"``) every table of this server, and answer privately. Outside a
    server, at a table the user does not sit at, or with the database busy, nothing is stored and the
    answer says why."""
    guild_id, user_id = interaction.guild_id, interaction.user.id
    if guild_id is None or interaction.channel_id is None:
        await interaction.response.send_message("Use `/turns` in a channel of a server.", ephemeral=True)
        return
    off_here = how == BY_MENTION and not await choices.mentions_on(guild_id)
    said = f"Your turns{{where}} now find you by {SAID[how]}.{MENTIONS_OFF if off_here else ''}"
    if scope == THIS_SERVER:
        try:
            await choices.choose_for_server(guild_id, user_id, how)
        except DatabaseError as error:
            log.warning("Could not store a turn choice: %s", error)
            await interaction.response.send_message(
                "I could not save that just now: try again.", ephemeral=True
            )
            return
        where = " at this server's tables (where you did not choose for the table itself)"
        await interaction.response.send_message(said.format(where=where), ephemeral=True)
        return
    session = runtime.registry.table_of_player(user_id, interaction.channel_id)
    if session is None:
        await interaction.response.send_message(
            "You are not playing at a table in this channel: use `/turns` in its channel, or choose for "
            "every table of this server.",
            ephemeral=True,
        )
        return

    async def answer(outcome: Outcome) -> None:
        await interaction.response.send_message(said.format(where=" at this table"), ephemeral=True)

    try:
        await runtime.commit(session, ChooseAlerts(user_id, how), answer)
    except TableError as refusal:
        await interaction.response.send_message(str(refusal), ephemeral=True)
