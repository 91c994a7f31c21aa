"""Opening a table: the one flow shared by ``/play`` and "Play again" (a rematch lobby).

A new lobby is registered (its channel is taken at once, so two ``/play`` cannot both open), stored,
posted, and its idle clock armed. If it cannot be stored nothing is posted; if it cannot be posted it is
forgotten and deleted, so the channel never stays blocked by a table nobody can see.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

from cogs.tables import ai_seats, render
from cogs.tables.clocks import TableClocks
from cogs.tables.registry import TableRegistry
from cogs.tables.session import TableError, TableSession, TableSettings
from cogs.tables.store import TableStore
from cogs.tables.table_message import TableMessages
from cogs.tables.time_control import TimeControl
from engine.lobby import Lobby

log = logging.getLogger(__name__)

NOT_OPENED = "This table could not be opened."

Post = Callable[[discord.Embed, discord.ui.View], Awaitable[int | None]]
"""Posts a new lobby message and returns its id (``None`` if Discord did not say)."""


class TableOpener:
    """Opens lobbies."""

    def __init__(
        self,
        client: discord.Client,
        registry: TableRegistry,
        store: TableStore,
        clocks: TableClocks,
        messages: TableMessages,
    ) -> None:
        self.client = client
        self.registry = registry
        self.store = store
        self.clocks = clocks
        self.messages = messages

    async def open(self, session: TableSession, post: Post) -> None:
        """Register, store and post the new lobby ``session``, then arm its idle clock.

        Raises
        ------
        TableError
            If it could not be stored (nothing was posted).
        BaseException
            Whatever ``post`` raised (the table is forgotten and deleted first).
        """
        embed, view = render.lobby_message(session)
        self.registry.register(session)
        try:
            await self.store.persist(session)
        except TableError:
            self.registry.forget(session, NOT_OPENED)
            raise
        try:
            message_id = await post(embed, view)
        except BaseException:
            self.registry.forget(session, NOT_OPENED)
            await self.store.delete(session)
            raise
        # Known at once, so a press on the new message (which may arrive before this coroutine resumes)
        # is answered with the table; storing the id waits for the lock.
        self.messages.note_posted(session, message_id)
        async with session.lock:
            with contextlib.suppress(TableError):
                await self.store.persist(session)
        self.clocks.arm_lobby(session)

    async def open_rematch(self, finished: TableSession, lobby: Lobby) -> None:
        """Seat those who chose "Play again" at a new lobby in the finished table's channel (unless another
        table opened there meanwhile), with the finished game's AI players while there is room."""
        channel = self.client.get_partial_messageable(finished.channel_id, guild_id=finished.guild_id)
        if self.registry.channel_table(finished.channel_id) is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.send(
                    "A new table is already open in this channel, so no rematch table was opened."
                )
            return
        rematch = TableSession(
            self.registry.new_table_id(),
            finished.guild_id,
            finished.channel_id,
            finished.rules,
            finished.settings,
            lobby.host_id,
            finished.names[lobby.host_id],
            players=list(lobby.players),
            names={user: finished.names[user] for user in lobby.players},
            dm_wanted=finished.dm_wanted & set(lobby.players),
        )
        ai_seats.seat_again(rematch, ai_seats.ai_seats_of(finished.players))  # the AIs play again too

        async def post(embed: discord.Embed, view: discord.ui.View) -> int:
            return (await channel.send(content="Playing again:", embed=embed, view=view)).id

        try:
            await self.open(rematch, post)
        except TableError:
            return
        except discord.HTTPException as error:
            log.warning("Could not open the rematch table in channel %s: %s", finished.channel_id, error)

    @staticmethod
    def table_settings(
        turn_seconds: int,
        idle_turn_seconds: int,
        idle_after_timeouts: int,
        rematch_seconds: int,
        time_control: TimeControl | None = None,
    ) -> TableSettings:
        """The timing rules of a new table (an idle player's turns are never longer than anyone's), on
        ``time_control``'s clock (default: a fixed clock)."""
        return TableSettings(
            turn_seconds=turn_seconds,
            idle_turn_seconds=min(turn_seconds, idle_turn_seconds),
            idle_after_timeouts=idle_after_timeouts,
            rematch_seconds=rematch_seconds,
            time_control=time_control or TimeControl(),
        )
