"""Tables in threads: ``/play thread:true`` (or the server's ``/table defaults threads:true``) opens the
table in a new public thread of the channel, so one channel holds several tables at once; the thread is
archived once no table is left in it.

A thread is a channel of its own in Discord (its own id), so everything else — the registry's one table
per channel, the table message, clocks, DMs, rematches, restarts — works in it unchanged; only starting
and archiving the thread live here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import discord

from cogs.tables import render
from cogs.tables.table_message import TableMessages
from engine.tables.registry import TableRegistry
from engine.tables.runtime import TableRuntime
from engine.tables.session import TableError, TableSession
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)

THREAD_PERMISSIONS = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}
"""The permissions a table in a thread needs besides a channel table's (flag: the name Discord shows)."""
ARCHIVE_AFTER_MINUTES = 10080
"""Discord hides a thread after this long without activity; a week, so that no game outlives its thread."""


def missing_thread_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of the thread permissions ``permissions`` lack."""
    return [name for flag, name in THREAD_PERMISSIONS.items() if not getattr(permissions, flag)]


def thread_refusal(channel: object, permissions: discord.Permissions) -> str | None:
    """Why a table cannot open in a new thread of ``channel`` (words for the player), or ``None``."""
    if isinstance(channel, discord.Thread):
        return "This is a thread already: use `/play` without `thread` to open the table right here."
    if not isinstance(channel, discord.TextChannel):
        return "Tables open in threads of text channels only: use `/play` without `thread` here."
    missing = missing_thread_permissions(permissions)
    if missing:
        return (
            f"I can't open a table in a thread here: I am missing the **{', '.join(missing)}** permission. "
            "A server admin can grant it in the channel's settings (Permissions), or use "
            "`/play thread:false`."
        )
    return None


def thread_name(game: str, host: str) -> str:
    """The name of a new table's thread (Discord allows 1 to 100 characters)."""
    return f"{game} · {host}'s table"[:100]


async def start_thread(channel: discord.TextChannel, name: str) -> discord.Thread:
    """Start a public thread in ``channel``.

    Raises
    ------
    discord.HTTPException
        If Discord refused (a permission missing, the channel gone).
    """
    return await channel.create_thread(
        name=name, type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_AFTER_MINUTES
    )


class ThreadNotStarted(Exception):
    """Discord refused to start a table's thread; ``str(error)`` is Discord's words."""


async def table_in_thread(
    channel: discord.TextChannel,
    name: str,
    new_lobby: Callable[[int], TableSession],
    runtime: TableRuntime,
    messages: TableMessages,
) -> tuple[discord.Thread, TableSession]:
    """Start a thread ``name`` in ``channel`` and open the lobby ``new_lobby(thread_id)`` there (checked by
    the caller beforehand, so it does not refuse), its table message noted in ``messages``: the one way a
    table opens in a thread (``/play`` and the queues). Returns the thread and the lobby.

    Raises
    ------
    ThreadNotStarted
        Discord refused the thread (nothing was stored).
    TableError
        The table could not be stored or posted (the thread is archived again).
    """
    try:
        thread = await start_thread(channel, name)
    except discord.HTTPException as error:
        raise ThreadNotStarted(error.text) from None
    session = new_lobby(thread.id)

    async def post() -> None:
        messages.note_posted(session, (await thread.send(**render.lobby_message(session).send_kwargs())).id)

    try:
        await runtime.open(session, post)
    except (TableError, discord.HTTPException) as error:
        with contextlib.suppress(discord.HTTPException):
            await thread.edit(archived=True)
        raise TableError(str(error)) from None
    return thread, session


async def open_in_thread(
    interaction: discord.Interaction,
    game_name: str,
    new_lobby: Callable[[int], TableSession],
    runtime: TableRuntime,
    messages: TableMessages,
    not_saved: str,
) -> None:
    """Answer ``/play`` by starting a thread of its channel and opening a lobby of the game ``game_name``
    there (:func:`table_in_thread`); the answer points to the thread, or says what went wrong
    (``not_saved`` if the table could not be stored)."""
    await interaction.response.defer()  # two requests to Discord before the answer
    name = thread_name(game_name, interaction.user.display_name)
    try:
        thread, session = await table_in_thread(
            interaction.channel,  # type: ignore[arg-type]
            name,
            new_lobby,
            runtime,
            messages,
        )
    except ThreadNotStarted as error:
        await interaction.edit_original_response(content=f"Discord did not let me start a thread: {error}")
        return
    except TableError:
        await interaction.edit_original_response(content=not_saved)
        return
    await interaction.edit_original_response(
        content=f"🃏 A {session.rules.display_name} table is open in {thread.mention}: join it there."
    )


class TableThreads:
    """Archives a table's thread when the table is gone and no other table lives in it."""

    def __init__(
        self, client: discord.Client, registry: TableRegistry, messages: TableMessages, tasks: Supervisor
    ) -> None:
        self.client = client
        self.registry = registry
        self.messages = messages
        self.tasks = tasks

    def table_closed(self, session: TableSession) -> None:
        """``session`` closed (or its scoreboard ended): archive its channel in the background if it is a
        thread with no table left, once the table message's last edit is done."""
        self.tasks.spawn(self._archive(session), f"archive of the thread of table {session.table_id}")

    async def _archive(self, session: TableSession) -> None:
        await self.messages.edits_done(session)
        await asyncio.sleep(0)  # a rematch lobby registered by the same close is seen below
        if self.registry.has_table_in(session.channel_id):
            return
        channel = self.client.get_channel(session.channel_id)
        if channel is None:  # not cached (an archived thread, or after a restart): ask Discord
            try:
                channel = await self.client.fetch_channel(session.channel_id)
            except discord.HTTPException:
                return
        if isinstance(channel, discord.Thread) and not channel.archived:
            with contextlib.suppress(discord.HTTPException):
                await channel.edit(archived=True)
                log.info("Archived the thread %s of table %s", channel.id, session.table_id)
