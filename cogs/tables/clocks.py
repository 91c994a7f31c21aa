"""The clocks of the tables on APScheduler: the turn clock of a game, the idle lobby's and the "Play
again" window's; arming, disarming, and what happens when each runs out.

Each table has at most one job per kind (``turn:<table>``, ``lobby:<table>``, ``rematch:<table>``). A
re-arm moves the job that is there (``Job.modify``) instead of removing and adding one, so a move costs
no job churn and no log line. A turn job that fires reads the table's stored deadlines, so a clock that
fires late or early does only what is due: the table (:meth:`TableSession.time_out`) plays the default of
each seat whose own clock has run out, and nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from apscheduler.schedulers.base import BaseScheduler

from cogs.tables.registry import TableRegistry
from cogs.tables.session import Phase, TableError, TableSession
from cogs.tables.table_message import TableMessages, now

log = logging.getLogger(__name__)

SAVE_RETRY_SECONDS = 5
JOB_INSTANCES = 3  # a run that waits for the table's lock must not make the next one be skipped


class TableClocks:
    """Arms and disarms the clocks of every table, and handles them when they run out.

    The handlers need the rest of the runtime, passed in as functions so this module imports none of it:
    ``persist(session)`` stores a change (raises :class:`TableError` if it could not), ``after_move(session,
    before)`` follows a move, ``close(session, reason)`` closes a lobby, ``end_rematch(session)`` ends a
    scoreboard.
    """

    def __init__(
        self,
        scheduler: BaseScheduler,
        registry: TableRegistry,
        messages: TableMessages,
        *,
        lobby_idle_seconds: float,
    ) -> None:
        self.scheduler = scheduler
        self.registry = registry
        self.messages = messages
        self.lobby_idle_seconds = lobby_idle_seconds
        self.persist: Callable[[TableSession], Awaitable[None]] | None = None
        self.after_move: Callable[[TableSession, set[int]], None] | None = None
        self.close: Callable[[TableSession, str], Awaitable[None]] | None = None
        self.end_rematch: Callable[[TableSession], Awaitable[None]] | None = None

    # -- arming ----------------------------------------------------------------------------------------

    def _arm(self, job_id: str, when: datetime, job: Callable[..., Awaitable[None]], table_id: str) -> None:
        existing = self.scheduler.get_job(job_id)
        if existing is None:
            self.scheduler.add_job(
                job,
                "date",
                run_date=when,
                id=job_id,
                args=(table_id,),
                misfire_grace_time=None,
                max_instances=JOB_INSTANCES,
            )
        elif existing.next_run_time != when:
            existing.modify(next_run_time=when)

    def _disarm(self, job_id: str) -> None:
        if self.scheduler.get_job(job_id) is not None:
            self.scheduler.remove_job(job_id)

    def arm_turn(self, session: TableSession) -> None:
        """Arm (or move) the turn clock to the table's earliest deadline."""
        assert session.deadline is not None
        self._arm(f"turn:{session.table_id}", session.deadline, self.turn_ran_out, session.table_id)

    def disarm_turn(self, session: TableSession) -> None:
        """Stop the turn clock (the game is over)."""
        self._disarm(f"turn:{session.table_id}")

    def arm_lobby(self, session: TableSession) -> None:
        """(Re)start the idle lobby's clock: it closes the lobby if nobody starts the game."""
        when = now() + timedelta(seconds=self.lobby_idle_seconds)
        self._arm(f"lobby:{session.table_id}", when, self.lobby_ran_out, session.table_id)

    def disarm_lobby(self, session: TableSession) -> None:
        """Stop the idle lobby's clock (the game started)."""
        self._disarm(f"lobby:{session.table_id}")

    def arm_rematch(self, session: TableSession) -> None:
        """Open the "Play again" window, from when the game finished (at once if that is long past)."""
        when = max(now(), session.rematch_closes_at() or now())
        self._arm(f"rematch:{session.table_id}", when, self.rematch_ran_out, session.table_id)

    def rearm(self, session: TableSession) -> None:
        """Arm the clock of a table's phase (after a restart: a deadline that passed fires at once)."""
        if session.phase is Phase.LOBBY:
            self.arm_lobby(session)
        elif session.phase is Phase.PLAYING and session.deadline is not None:
            self.arm_turn(session)
        elif session.phase is Phase.SCOREBOARD:
            self.arm_rematch(session)

    def disarm_all(self, session: TableSession) -> None:
        """Stop every clock of a table (it closed)."""
        for kind in ("turn", "lobby", "rematch"):
            self._disarm(f"{kind}:{session.table_id}")

    # -- running out -----------------------------------------------------------------------------------

    async def turn_ran_out(self, table_id: str) -> None:
        """A turn clock ran out: play the default of each seat whose clock has run out."""
        session = self.registry.get(table_id)
        if session is None:
            return
        assert self.persist is not None and self.after_move is not None
        async with session.lock:
            if session.phase is not Phase.PLAYING or session.state is None:
                return
            before = set(session.users_with_actions())
            events = session.time_out(session.state.version, now())
            if not events:  # fired early, or the deadline moved: keep the clock on the deadline
                if session.deadline is not None:
                    self.arm_turn(session)
                return
            try:
                await self.persist(session)
            except TableError:  # not saved, so undone: try again shortly
                retry = now() + timedelta(seconds=SAVE_RETRY_SECONDS)
                self._arm(f"turn:{table_id}", retry, self.turn_ran_out, table_id)
                return
            self.after_move(session, before)
            self.messages.refresh(session)

    async def lobby_ran_out(self, table_id: str) -> None:
        """Nobody started the game in time: close the lobby."""
        session = self.registry.get(table_id)
        if session is None:
            return
        assert self.close is not None
        async with session.lock:
            if session.phase is Phase.LOBBY:
                minutes = max(1, round(self.lobby_idle_seconds / 60))
                await self.close(
                    session, f"Nobody started the game for {minutes} minutes, so the table closed."
                )

    async def rematch_ran_out(self, table_id: str) -> None:
        """The "Play again" window closed: end the scoreboard."""
        session = self.registry.get(table_id)
        if session is None or session.phase is not Phase.SCOREBOARD:
            return
        assert self.end_rematch is not None
        async with session.lock:
            if session.phase is Phase.SCOREBOARD:
                await self.end_rematch(session)
