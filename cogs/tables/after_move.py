"""What follows every change of a running game (a press, a timeout, the start): the turn clock moves to
the new deadline, players who asked for DMs get their view when they may act (on a slow clock everyone
to act gets a "your turn" DM), live private views are redrawn, and when the game is over its channel is
freed and the "Play again" window opens.

The move itself is already stored (:mod:`cogs.tables.store`); showing the table is the caller's (its
press's answer, or :mod:`cogs.tables.table_message`).
"""

from __future__ import annotations

from collections.abc import Callable

from cogs.tables import ai_seats
from cogs.tables.clocks import TableClocks
from cogs.tables.private_views import PrivateViews
from cogs.tables.registry import TableRegistry
from cogs.tables.session import Phase, TableSession


class AfterMove:
    """Follows the changes of every running game."""

    def __init__(
        self,
        registry: TableRegistry,
        clocks: TableClocks,
        private_views: PrivateViews,
        turn_notices: Callable[[TableSession, set[int]], None] | None = None,
    ) -> None:
        self.registry = registry
        self.clocks = clocks
        self.private_views = private_views
        self.turn_notices = turn_notices  # slow mode's "your turn" DMs (cogs.tables.turn_notices)
        # Called last after every change: the AI seats' turns, the notice of a player taken over.
        self.followers: list[Callable[[TableSession], None]] = []

    def __call__(self, session: TableSession, before: set[int]) -> None:
        """Follow a change; ``before`` are the users who could act before it (empty: the game started)."""
        if session.phase is Phase.PLAYING:
            self.clocks.arm_turn(session)
            self._send_dms(session, before)
            if self.turn_notices is not None:
                self.turn_notices(session, before)
        self.private_views.refresh(session)
        if session.phase is Phase.SCOREBOARD:
            self.clocks.disarm_turn(session)
            self.registry.free_channel(session)  # a new /play may open while the scoreboard shows
            self.clocks.arm_rematch(session)
        for follow in self.followers:
            follow(session)

    def _send_dms(self, session: TableSession, before: set[int]) -> None:
        """DM the players who asked for it and may act now but could not before; at the start, everyone
        who asked gets their hand."""
        waited_for = set(session.users_to_act())
        with_actions = session.users_with_actions()
        for user_id in with_actions:
            seat = session.seat_of(user_id)
            wanted = user_id in session.dm_wanted and user_id not in before
            if wanted and seat is not None and not ai_seats.ai_plays(session, seat):  # not away, not left
                where = f"at the {session.rules.display_name} table in <#{session.channel_id}>"
                intro = (
                    f"It is your turn {where}: choose your move below."
                    if user_id in waited_for
                    else f"You can act now {where}, if you wish."
                )
                self.private_views.dm_turn_later(session, user_id, intro)
        if not before:  # the game just started
            for user_id in session.players:
                if user_id in session.dm_wanted and user_id not in with_actions:
                    self.private_views.dm_turn_later(session, user_id, "The game has started. Your hand:")
