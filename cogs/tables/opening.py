"""``/play``: a new table from a slash command. The checks (a server channel, a game the bot knows, the
bot's permissions in the channel, the turn length, a thread where one is asked for, one table per
channel, the server's table limits: :mod:`cogs.tables.table_limits`), the lobby with its AI seats at
their level, and the table opened by the runtime: posted as the command's answer, or in a new thread of
the channel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.tables import render, server_defaults, threads
from cogs.tables.table_limits import Opening, OpeningLimits
from cogs.tables.table_message import TableMessages, missing_permissions
from cogs.tables.table_text import TABLE_LINK, masked_link
from engine import GAMES, get_rules
from engine.ai.registry import NORMAL
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


@dataclass(frozen=True)
class Seating:
    """Who sits at a new lobby: its host (``host_id``, shown as ``host_name``), the members ``others``
    seated beside them in that order (``(user id, name)``), and ``bots`` AI seats at ``level``."""

    host_id: int
    host_name: str
    others: tuple[tuple[int, str], ...] = ()
    bots: int = 0
    level: str = NORMAL


async def turn_seconds_of(host: Host, guild_id: int, asked: int | None) -> int:
    """The seconds per decision of a new table of the server: ``asked``, else the server's default, else
    the bot's."""
    seconds = asked if asked is not None else await host.db.guild_turn_seconds(guild_id)
    return host.settings.default_turn_seconds if seconds is None else seconds


def holding(held: Opening, new_lobby: Callable[[int], TableSession]) -> Callable[[int], TableSession]:
    """``new_lobby`` noting each lobby it makes as the one ``held`` holds the place of."""

    def held_lobby(channel_id: int) -> TableSession:
        lobby = new_lobby(channel_id)
        held.table_id = lobby.table_id
        return lobby

    return held_lobby


async def rating_settings(host: Host, guild_id: int) -> tuple[bool, bool]:
    """``(rated, in_rated)`` of a new table of the server: whether games with AI players count, and
    whether hints are on in rated games too."""
    rated = await host.db.guild_counts_ai_games(guild_id)
    return rated, rated and await host.db.guild_hints_in_rated(guild_id)


def lobby_maker(
    host: Host,
    runtime: TableRuntime,
    guild_id: int,
    request: TableRequest,
    seconds: int,
    rated: bool,
    in_rated: bool,
    seating: Seating,
) -> Callable[[int], TableSession]:
    """``new_lobby(channel_id)``: the lobby of ``request`` (``seconds`` per decision) in ``channel_id``,
    ``seating`` seated, a fresh table id each call: the one way a new lobby is made (``/play`` and the
    queues).

    ``new_lobby`` raises :class:`TableError` if the seats do not fit the game (words for the player)."""

    def new_lobby(channel_id: int) -> TableSession:
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
            seating.host_id,
            seating.host_name,
        )
        for user_id, name in seating.others:
            lobby.join(user_id, name)
        allow_hints(lobby, rated=rated, in_rated=in_rated)
        seat_bots(lobby, seating.bots, seating.level)
        return TableSession(lobby)

    return new_lobby


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
    seconds = await turn_seconds_of(host, interaction.guild_id, request.turn_seconds)
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
    rated, in_rated = await rating_settings(host, interaction.guild_id)
    guild_id, host_id = interaction.guild_id, interaction.user.id
    seating = Seating(host_id, interaction.user.display_name, bots=request.bots, level=request.level)
    new_lobby = lobby_maker(host, runtime, guild_id, request, seconds, rated, in_rated, seating)

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
            name = session.rules.display_name
            held_lobby = holding(held, new_lobby)
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
