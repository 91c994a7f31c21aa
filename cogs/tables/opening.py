"""``/play``: a new table from a slash command. The checks (a server channel, a game the bot knows, the
bot's permissions in the channel, the turn length, a thread where one is asked for, one table per
channel, the server's table limits: :mod:`cogs.tables.table_limits`), the lobby with its AI seats at
their level, and the table opened by the runtime: posted as the command's answer, or in a new thread of
the channel."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.tables import render, server_defaults, threads
from cogs.tables.table_limits import OpeningLimits
from cogs.tables.table_message import TableMessages, missing_permissions
from cogs.tables.table_text import TABLE_LINK, masked_link
from engine import GAMES, get_rules
from engine.tables.ai_seats import allow_hints, seat_bots
from engine.tables.runtime import ChannelTaken, TableRuntime
from engine.tables.session import TableError, TableSession, TableSettings
from engine.tables.table import TableDraft
from engine.tables.time_control import FIXED, KINDS, TimeControl

if TYPE_CHECKING:
    from cogs.host import Host

NOT_SAVED = "I could not save a new table just now, so none was opened. Please try again."


@dataclass(frozen=True)
class TableRequest:
    """What ``/play`` asked for: the game's key, the seconds per decision (``None``: the server's or the
    bot's default), the clock's kind ("fixed", "bank" or "slow"), how many AI seats and at which level,
    and whether to open in a new thread (``None``: the server's default)."""

    game: str
    turn_seconds: int | None
    clock: str
    bots: int
    level: str
    thread: bool | None


def already_open(existing: TableSession, messages: TableMessages) -> str:
    """The answer to a ``/play`` in a channel that has the table ``existing``, with a link to it."""
    game = existing.rules.display_name
    link = masked_link(TABLE_LINK, messages.jump_url(existing))
    return f"There is already a {game} table in this channel.\n{link}"


def time_control(settings, kind: str) -> TimeControl:
    """The clock of a new table: ``kind`` ("fixed", "bank" or "slow"; another is "fixed") with the bot's
    numbers (seconds)."""
    return TimeControl(
        bank_seconds=settings.time_bank_seconds,
        increment_seconds=settings.time_bank_increment_seconds,
        cap_seconds=settings.time_bank_cap_seconds,
        slow_seconds=settings.slow_turn_hours * 3600,
    ).with_kind(kind if kind in KINDS else FIXED)


async def open_table(
    interaction: discord.Interaction,
    request: TableRequest,
    *,
    host: Host,
    runtime: TableRuntime,
    messages: TableMessages,
    limits: OpeningLimits,
) -> None:
    """Open the table ``request`` asks for in the interaction's channel, or answer the interaction
    (ephemerally) why not; nothing is stored for a refused request (nor a thread started). ``limits``
    counts the server's tables against its limits."""
    if interaction.guild_id is None or interaction.channel_id is None:
        await interaction.response.send_message(
            "Tables are played in server channels: use `/play` in a channel of a server.", ephemeral=True
        )
        return
    if request.game not in GAMES:
        await interaction.response.send_message("I don't know that game.", ephemeral=True)
        return
    missing = missing_permissions(interaction.app_permissions)
    if missing:
        await interaction.response.send_message(
            f"I can't run a table in this channel: I am missing the **{', '.join(missing)}** "
            "permission here. A server admin can grant it in the channel's settings (Permissions).",
            ephemeral=True,
        )
        return
    turn_seconds = request.turn_seconds
    if turn_seconds is None:
        turn_seconds = await host.db.guild_turn_seconds(interaction.guild_id)
    seconds = host.settings.default_turn_seconds if turn_seconds is None else turn_seconds
    refusal = server_defaults.turn_length_refusal(host.settings, seconds)
    if refusal is not None:
        await interaction.response.send_message(refusal, ephemeral=True)
        return
    thread = request.thread
    if thread is None:  # the server's default, where it can apply (a thread holds no threads)
        in_thread = isinstance(interaction.channel, discord.Thread)
        thread = not in_thread and await host.db.guild_table_threads(interaction.guild_id)
    refusal = threads.thread_refusal(interaction.channel, interaction.app_permissions) if thread else None
    if refusal is not None:
        await interaction.response.send_message(refusal, ephemeral=True)
        return
    existing = None if thread else runtime.registry.channel_table(interaction.channel_id)
    if existing is not None:
        await interaction.response.send_message(already_open(existing, messages), ephemeral=True)
        return
    server_limits = await limits.limits(interaction.guild_id)
    rated = await host.db.guild_counts_ai_games(interaction.guild_id)
    in_rated = rated and await host.db.guild_hints_in_rated(interaction.guild_id)
    guild_id, host_id, host_name = interaction.guild_id, interaction.user.id, interaction.user.display_name

    def new_lobby(channel_id: int) -> TableSession:
        """The lobby asked for, in ``channel_id`` (raises :class:`TableError` if its AI seats do not fit)."""
        settings = TableSettings(
            turn_seconds=seconds,
            idle_turn_seconds=seconds,  # a player away is played by an AI: their clock is not shortened
            idle_after_timeouts=host.settings.idle_after_timeouts,
            rematch_seconds=host.settings.rematch_seconds,
            time_control=time_control(host.settings, request.clock),
        )
        lobby = TableDraft(
            runtime.registry.new_table_id(),
            guild_id,
            channel_id,
            get_rules(request.game),
            settings,
            host_id,
            host_name,
        )
        allow_hints(lobby, rated=rated, in_rated=in_rated)
        seat_bots(lobby, request.bots, request.level)
        return TableSession(lobby)

    try:
        session = new_lobby(interaction.channel_id)  # in a thread, checked here before the thread starts
    except TableError as refusal:
        await interaction.response.send_message(str(refusal), ephemeral=True)
        return

    with limits.hold(server_limits, guild_id, host_id) as held:  # from here to the registration
        if held.refusal is not None:
            await interaction.response.send_message(held.refusal, ephemeral=True)
            return
        held.table_id = session.table_id
        if thread:

            def held_lobby(channel_id: int) -> TableSession:
                lobby = new_lobby(channel_id)
                held.table_id = lobby.table_id
                return lobby

            name = session.rules.display_name
            await threads.open_in_thread(interaction, name, held_lobby, runtime, messages, NOT_SAVED)
            return
        await _open_here(interaction, session, runtime, messages)


async def _open_here(
    interaction: discord.Interaction, session: TableSession, runtime: TableRuntime, messages: TableMessages
) -> None:
    """Open the lobby ``session`` in the interaction's channel, posted as the command's answer."""

    async def post() -> None:
        lobby = render.lobby_message(session)
        sent = await interaction.response.send_message(**lobby.send_kwargs())
        messages.note_posted(session, sent.message_id)

    try:
        await runtime.open(session, post)
    except ChannelTaken as taken:  # another /play here opened meanwhile (while this one read its settings)
        await interaction.response.send_message(already_open(taken.table, messages), ephemeral=True)
    except TableError:
        await interaction.response.send_message(NOT_SAVED, ephemeral=True)
