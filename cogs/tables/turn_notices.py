"""Slow mode's "your turn" DM: at a table on the slow clock (:mod:`cogs.tables.time_control`), each player
the game starts waiting for is told by DM, with their deadline and a link to the table.

Players who asked for their hand by DM get it with "It is your turn." already (:mod:`cogs.tables.
after_move`), so they get no second DM. A DM Discord does not deliver (closed DMs, an outage) is only
logged: it changes nothing at the table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from cogs.tables import ai_seats
from cogs.tables.direct_messages import send_dm
from cogs.tables.session import Phase, TableSession
from cogs.tables.tasks import Supervisor
from cogs.tables.time_control import SLOW

log = logging.getLogger(__name__)


def turn_notice(session: TableSession, user_id: int, jump_url: str) -> str:
    """The words of the "your turn" DM to ``user_id`` (seated, waited for)."""
    seat = session.seat_of(user_id)
    deadline = session.seat_deadlines.get(seat) if seat is not None else None
    until = "" if deadline is None else f" You have until <t:{int(deadline.timestamp())}:f>."
    return f"⏳ It is your turn at the **{session.rules.display_name}** table.{until} {jump_url}"


def users_to_notify(session: TableSession, before: set[int]) -> list[int]:
    """Who gets a "your turn" DM after a change: on a slow table, each user the game now waits for who
    could not act before (``before``), has not asked for their hand by DM, and whose seat no AI plays."""
    if session.phase is not Phase.PLAYING or session.settings.time_control.kind != SLOW:
        return []
    return [
        user
        for user in session.users_to_act()
        if user not in before
        and user not in session.dm_wanted
        and not ai_seats.ai_plays(session, session.players.index(user))  # an AI seat, away, or left
    ]


class TurnNotices:
    """Sends slow mode's "your turn" DMs in the background (never awaited by a press)."""

    def __init__(self, client: discord.Client, tasks: Supervisor, jump_url: Callable[[TableSession], str]):
        self.client = client
        self.tasks = tasks
        self.jump_url = jump_url

    def __call__(self, session: TableSession, before: set[int]) -> None:
        """Follow a change of ``session`` (``before``: who could act before it)."""
        for user_id in users_to_notify(session, before):
            text = turn_notice(session, user_id, self.jump_url(session))
            what = f"turn notice of table {session.table_id}"
            self.tasks.spawn(self._send(session.table_id, user_id, text), what)

    async def _send(self, table_id: str, user_id: int, text: str) -> None:
        why_not = await send_dm(self.client, user_id, content=text)
        if why_not is not None:
            log.info("The turn notice of table %s to %s was not delivered: %s", table_id, user_id, why_not)
