"""How the Discord layer shows what the runtime did: :class:`DiscordPresenter`, the
:class:`~engine.tables.outcome.Presenter` of the bot. Everything here runs in the background, never
awaited by a move: the table message's edits, live private views, DMs of a player's view, slow mode's
"your turn" notices, the one notice to a player an AI took over, a closed table's last message and its
thread archived.

A DM Discord does not deliver (closed DMs, an outage) is only logged: it changes nothing at the table.
"""

from __future__ import annotations

import logging

import discord

from cogs.tables import render
from cogs.tables.direct_messages import send_dm
from cogs.tables.private_views import PrivateViews
from cogs.tables.table_message import TableMessages
from cogs.tables.threads import TableThreads
from engine.tables.outcome import Outcome, TurnDM
from engine.tables.session import TableSession
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)


def turn_dm_intro(table: TableSession, dm: TurnDM) -> str:
    """The words above a player's private view sent by DM (:class:`~engine.tables.outcome.TurnDM`)."""
    if dm.reason == "started":
        return "The game has started. Your hand:"
    where = f"at the {table.rules.display_name} table in <#{table.channel_id}>"
    if dm.reason == "turn":
        return f"It is your turn {where}: choose your move below."
    return f"You can act now {where}, if you wish."


def turn_notice(table: TableSession, user_id: int, jump_url: str) -> str:
    """The words of slow mode's "your turn" DM to ``user_id`` (seated, waited for)."""
    seat = table.seat_of(user_id)
    deadline = table.seat_deadlines.get(seat) if seat is not None else None
    until = "" if deadline is None else f" You have until <t:{int(deadline.timestamp())}:f>."
    return f"⏳ It is your turn at the **{table.rules.display_name}** table.{until} {jump_url}"


class DiscordPresenter:
    """Shows the outcomes of every table's moves in Discord (see the module)."""

    def __init__(
        self,
        client: discord.Client,
        tasks: Supervisor,
        messages: TableMessages,
        private_views: PrivateViews,
        threads: TableThreads,
    ) -> None:
        self.client = client
        self.tasks = tasks
        self.messages = messages
        self.private_views = private_views
        self.threads = threads

    def show(self, outcome: Outcome) -> None:
        """Show a committed move (see :meth:`engine.tables.outcome.Presenter.show`)."""
        table = outcome.table
        if outcome.closed is not None or outcome.scoreboard_ended:
            if not outcome.answered and outcome.closed is not None:
                self.messages.refresh(table, render.closed_message(table, outcome.closed))
            elif not outcome.answered and outcome.rematch:
                self.messages.refresh(table, render.final_scoreboard(table))
            # Else the window ran out with nobody choosing: the scoreboard stays as it is (it says until
            # when "Play again" was open), with no edit of its own; a late press on it takes its buttons.
            self.messages.release(table)
            self.threads.table_closed(table)
            return
        if not outcome.answered:
            self.messages.refresh(table)
        self.private_views.refresh(table)
        for dm in outcome.turn_dms:
            self.private_views.dm_turn_later(table, dm.user_id, turn_dm_intro(table, dm))
        for user_id in outcome.turn_notices:
            text = turn_notice(table, user_id, self.messages.jump_url(table))
            self.tasks.spawn(
                self._notify(table.table_id, user_id, text), f"turn notice of table {table.table_id}"
            )
        for user_id in outcome.newly_away:
            self.tasks.spawn(self._tell_away(table, user_id), f"away DM for table {table.table_id}")

    def forget(self, table: TableSession) -> None:
        """The table is gone: stop following its private views."""
        self.private_views.forget(table)

    async def post_table(self, table: TableSession, intro: str) -> int | None:
        """Post ``table``'s lobby in its channel with ``intro`` above it; returns the message id.

        Raises
        ------
        discord.HTTPException
            If Discord refused.
        """
        drawn = render.lobby_message(table).with_content(intro)
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        return (await channel.send(**drawn.send_kwargs())).id

    async def notice(self, table: TableSession, text: str) -> None:
        """Say ``text`` in the table's channel (a refusal is logged)."""
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(text)
        except discord.HTTPException as error:
            log.info("Could not tell channel %s: %s", table.channel_id, error)

    async def _notify(self, table_id: str, user_id: int, text: str) -> None:
        why_not = await send_dm(self.client, user_id, content=text)
        if why_not is not None:
            log.info("The turn notice of table %s to %s was not delivered: %s", table_id, user_id, why_not)

    async def _tell_away(self, table: TableSession, user_id: int) -> None:
        """Tell a player who asked for DMs that an AI took over their seat, with an "I'm back" button."""
        await send_dm(self.client, user_id, **render.away_message(table, user_id).send_kwargs())
