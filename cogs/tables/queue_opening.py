"""The table a queue fills, opened the way ``/play`` opens one in a thread: the same lobby
(:func:`cogs.tables.opening.lobby_maker`), the same server limits (a queue's table counts as any table:
:meth:`cogs.tables.table_limits.OpeningLimits.hold`), the same thread
(:func:`cogs.tables.threads.table_in_thread`).

The table opens in its lobby, every matched member seated, the longest waiting as its host, AI seats
beside them where the queue waited past the server's ``queue_ai_after``: the host presses **Start** (and
may set the game's options first), as at any table. The thread then mentions the seated members, so each
learns their table is ready.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs.names import shown_name
from cogs.tables import opening, threads
from cogs.tables.table_limits import OpeningLimits
from cogs.tables.table_message import TableMessages, missing_permissions
from engine import GAMES
from engine.ai.registry import NORMAL
from engine.matching import Match
from engine.tables.queues import Opened
from engine.tables.runtime import TableRuntime
from engine.tables.session import TableError

if TYPE_CHECKING:
    from cogs.host import Host


class QueueOpener:
    """Opens the tables the queues fill (:data:`engine.tables.queues.Opener`)."""

    def __init__(
        self, host: Host, runtime: TableRuntime, messages: TableMessages, limits: OpeningLimits
    ) -> None:
        self.host = host
        self.runtime = runtime
        self.messages = messages
        self.limits = limits

    async def __call__(self, guild_id: int, channel_id: int, game: str, match: Match) -> Opened | str:
        """Open ``match``'s table of ``game`` in a new thread of ``channel_id``: :class:`Opened` once open,
        else why not (words for the members)."""
        channel = self.host.get_channel(channel_id)  # type: ignore[attr-defined]
        if not isinstance(channel, discord.TextChannel):
            return "This channel is gone, or is no text channel."
        me = channel.guild.me
        if me is not None:
            permissions = channel.permissions_for(me)
            missing = missing_permissions(permissions) + threads.missing_thread_permissions(permissions)
            if missing:
                return (
                    f"I am missing the **{', '.join(missing)}** permission here. A server admin can grant it "
                    "in the channel's settings (Permissions)."
                )
        rules = GAMES[game]
        first, *others = match.seated
        seating = opening.Seating(
            first.user_id, first.name, tuple((m.user_id, m.name) for m in others), match.bots, NORMAL
        )
        request = opening.TableRequest(game, None, "fixed", match.bots, NORMAL, True)
        seconds = await opening.turn_seconds_of(self.host, guild_id, None)
        rated, in_rated = await opening.rating_settings(self.host, guild_id)
        new_lobby = opening.lobby_maker(
            self.host, self.runtime, guild_id, request, seconds, rated, in_rated, seating
        )
        server_limits = await self.limits.limits(guild_id)
        with self.limits.hold(server_limits, guild_id, first.user_id) as held:
            if held.refusal is not None:
                return held.refusal
            name = threads.thread_name(rules.display_name, first.name)
            try:
                thread, _ = await threads.table_in_thread(
                    channel, name, opening.holding(held, new_lobby), self.runtime, self.messages
                )
            except threads.ThreadNotStarted as error:
                return f"Discord did not let me start a thread: {error}"
            except TableError:
                return opening.NOT_SAVED
        mentions = " ".join(f"<@{member.user_id}>" for member in match.seated)
        ai = " AI players fill the empty seats." if match.bots else ""
        try:
            await thread.send(
                f"{mentions}: the queue found your {rules.display_name} table.{ai} "
                f"**{shown_name(first.name)}** hosts: press **Start** when you are ready.",
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(member.user_id) for member in match.seated],
                    everyone=False,
                    roles=False,
                ),
            )
        except discord.HTTPException:  # the table is open all the same; its thread shows it
            pass
        return Opened(thread.id)
