"""Idle takeover: a player whose clock ran out ``IDLE_AFTER_TIMEOUTS`` times in a row is away, and an AI
plays their seat (:meth:`~cogs.tables.session.TableSession.time_out` marks it, :mod:`cogs.tables.ai_turns`
plays it) until they press "I'm back" (on the table message, and in their private view).

They are told once: by DM if they asked for DMs, otherwise by their private view the next time they open
it (it says so while they are away, see :func:`cogs.tables.ai_seats.away_notice`).
"""

from __future__ import annotations

import discord

from cogs.tables import ai_seats
from cogs.tables import custom_ids as ids
from cogs.tables.components import TableButton, TableView
from cogs.tables.direct_messages import send_dm
from cogs.tables.session import Phase, TableError, TableSession
from cogs.tables.tasks import Supervisor
from engine import Event


def come_back(session: TableSession, user_id: int) -> None:
    """``user_id`` pressed "I'm back": their seat is theirs again (its clock counts afresh).

    Raises
    ------
    TableError
        The game is not running, ``user_id`` does not play at it, left it, or is not away.
    """
    seat = session.seat_of(user_id)
    if session.phase is not Phase.PLAYING or seat is None or seat in session.left_seats:
        raise TableError("You are not playing at this table.")
    if seat not in session.idle_seats:
        raise TableError("You are playing your seat already: nobody plays it for you.")
    session.idle_seats.discard(seat)
    session.timeouts_in_row[seat] = 0
    session.events.append(Event(seat, "is back."))


class IdleNotices:
    """Tells each player once that an AI took over their seat (by DM, if they asked for DMs).

    ``told`` holds, by table id, the seats told since they were last taken over; a table restored at start
    counts its players away as told (:meth:`restored`).
    """

    def __init__(self, client: discord.Client, tasks: Supervisor) -> None:
        self.client = client
        self.tasks = tasks
        self.told: dict[str, set[int]] = {}

    def restored(self, session: TableSession) -> None:
        """A table came back after a restart: its players away were told before."""
        self.told[session.table_id] = set(session.idle_seats)

    def forget(self, session: TableSession) -> None:
        """The table closed."""
        self.told.pop(session.table_id, None)

    def __call__(self, session: TableSession) -> None:
        """After a change: DM each player newly taken over who asked for DMs."""
        told = self.told.setdefault(session.table_id, set())
        told &= session.idle_seats  # a player back, then away again, is told again
        for seat in sorted(session.idle_seats - told):
            told.add(seat)
            user_id = session.players[seat]
            if user_id in session.dm_wanted and not ai_seats.is_ai(user_id):
                self.tasks.spawn(self._dm(session, user_id), f"away DM for table {session.table_id}")

    async def _dm(self, session: TableSession, user_id: int) -> None:
        view = TableView()
        view.add_item(
            TableButton(
                ids.TableCustomId(session.table_id, 0, ids.BACK),
                label="I'm back",
                style=discord.ButtonStyle.success,
            )
        )
        await send_dm(
            self.client,
            user_id,
            content=f"{ai_seats.away_notice(session, user_id)} ({session.rules.display_name} table "
            f"{session.table_id})",
            view=view,
        )
