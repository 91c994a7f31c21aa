"""How the Discord layer shows what the runtime did: :class:`DiscordPresenter`, the
:class:`~engine.tables.outcome.Presenter` of the bot. Everything here runs in the background, never
awaited by a move: the table message's edits, live private views, each DM player's one live DM, the
turn lines (:mod:`cogs.tables.turn_alerts`), the one notice to a player an AI took over, a closed table's
last message and its thread archived.

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
from cogs.tables.turn_alerts import TurnAlerts
from engine.tables.outcome import Outcome
from engine.tables.session import TableSession
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)


class DiscordPresenter:
    """Shows the outcomes of every table's moves in Discord (see the module)."""

    def __init__(
        self,
        client: discord.Client,
        tasks: Supervisor,
        messages: TableMessages,
        private_views: PrivateViews,
        threads: TableThreads,
        turn_alerts: TurnAlerts,
    ) -> None:
        self.client = client
        self.tasks = tasks
        self.messages = messages
        self.private_views = private_views
        self.threads = threads
        self.turn_alerts = turn_alerts

    def show(self, outcome: Outcome) -> None:
        """Show a committed move (see :meth:`engine.tables.outcome.Presenter.show`)."""
        table = outcome.table
        self.turn_alerts.show(outcome)
        self.private_views.refresh_dms(table)
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
        for user_id in outcome.newly_away:
            self.tasks.spawn(self._tell_away(table, user_id), f"away DM for table {table.table_id}")

    def forget(self, table: TableSession) -> None:
        """The table is gone: stop following its private views."""
        self.private_views.forget(table)

    async def post_table(self, table: TableSession, intro: str) -> None:
        """Post ``table``'s lobby in its channel with ``intro`` above it, as its table message.

        Raises
        ------
        discord.HTTPException
            If Discord refused.
        """
        drawn = render.lobby_message(table).with_content(intro)
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        self.messages.note_posted(table, (await channel.send(**drawn.send_kwargs())).id)

    async def notice(self, table: TableSession, text: str) -> None:
        """Say ``text`` in the table's channel (a refusal is logged)."""
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.send(text)
        except discord.HTTPException as error:
            log.info("Could not tell channel %s: %s", table.channel_id, error)

    async def _tell_away(self, table: TableSession, user_id: int) -> None:
        """Tell a player who asked for DMs that an AI took over their seat, with an "I'm back" button."""
        await send_dm(self.client, user_id, **render.away_message(table, user_id).send_kwargs())
