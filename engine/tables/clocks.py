"""The clocks of the tables on APScheduler: the turn clock of a game, the idle lobby's and the "Play
again" window's; arming and disarming them. What happens when one runs out is the runtime's
(:class:`~engine.tables.runtime.TableRuntime` commits a move for it), given here when the clocks are made.

Each table has at most one job per kind (``turn:<table>``, ``lobby:<table>``, ``rematch:<table>``). A
re-arm moves the job that is there (``Job.modify``) instead of removing and adding one, so a move costs
no job churn and no log line. A turn job that fires reads the table's stored deadlines, so a clock that
fires late or early does only what is due.
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.base import BaseScheduler

from engine.tables.registry import WaitingTable
from engine.tables.session import TablePhase, TableSession

WAITING_JOB = "waiting-tables"
"""The one job of the clocks of the tables not replayed yet (:meth:`TableClocks.arm_waiting`)."""
JOB_INSTANCES = 3  # a run that waits for the table's lock must not make the next one be skipped

RanOut = Callable[[str], Awaitable[None]]
"""What runs when a clock runs out, given the table id."""


def arm_date_job(
    scheduler: BaseScheduler,
    job_id: str,
    when: datetime,
    job: Callable[..., Awaitable[None]],
    args: tuple = (),
    *,
    max_instances: int = 1,
) -> None:
    """Arm the scheduler's one-off job ``job_id`` to run ``job(*args)`` at ``when`` (UTC), or move it there if
    it is armed already (a job already due at ``when`` is left as it is). A job whose time passed while the
    scheduler could not run it (a busy loop, a stop) still runs (no misfire grace)."""
    existing = scheduler.get_job(job_id)
    if existing is None:
        scheduler.add_job(
            job,
            "date",
            run_date=when,
            id=job_id,
            args=args,
            misfire_grace_time=None,
            max_instances=max_instances,
        )
    elif existing.next_run_time != when:
        existing.modify(next_run_time=when)


def utcnow() -> datetime:
    """The time now (UTC), the runtime's default clock."""
    return datetime.now(timezone.utc)


class TableClocks:
    """Arms and disarms the clocks of every table.

    Parameters
    ----------
    scheduler:
        The APScheduler that runs the jobs (started by the bot; paused or driven by hand in tests).
    turn_ran_out, lobby_ran_out, rematch_ran_out:
        What runs when a table's turn clock, idle-lobby clock or "Play again" window runs out (given the
        table id).
    lobby_idle_seconds:
        How long an untouched lobby stays open (seconds).
    still_waiting:
        ``still_waiting(table_id)``: True while a table restored at start is not replayed yet.
    now:
        The clock (UTC).
    """

    def __init__(
        self,
        scheduler: BaseScheduler,
        *,
        turn_ran_out: RanOut,
        lobby_ran_out: RanOut,
        rematch_ran_out: RanOut,
        lobby_idle_seconds: float,
        still_waiting: Callable[[str], bool] = lambda table_id: False,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.scheduler = scheduler
        self.still_waiting = still_waiting
        self._waiting: list[tuple[datetime, str, str]] = []  # heap of (when, kind, table id)
        self.turn_ran_out = turn_ran_out
        self.lobby_ran_out = lobby_ran_out
        self.rematch_ran_out = rematch_ran_out
        self.lobby_idle_seconds = lobby_idle_seconds
        self.now = now

    def _arm(self, job_id: str, when: datetime, job: RanOut, table_id: str) -> None:
        arm_date_job(self.scheduler, job_id, when, job, (table_id,), max_instances=JOB_INSTANCES)

    def _disarm(self, job_id: str) -> None:
        if self.scheduler.get_job(job_id) is not None:
            self.scheduler.remove_job(job_id)

    def arm_turn(self, session: TableSession, when: datetime | None = None) -> None:
        """Arm (or move) the turn clock to ``when`` (default: the table's earliest deadline)."""
        when = when or session.deadline
        assert when is not None
        self._arm(f"turn:{session.table_id}", when, self.turn_ran_out, session.table_id)

    def disarm_turn(self, session: TableSession) -> None:
        """Stop the turn clock (the game is over)."""
        self._disarm(f"turn:{session.table_id}")

    def arm_lobby(self, session: TableSession) -> None:
        """(Re)start the idle lobby's clock: it closes the lobby if nobody starts the game."""
        when = self.now() + timedelta(seconds=self.lobby_idle_seconds)
        self._arm(f"lobby:{session.table_id}", when, self.lobby_ran_out, session.table_id)

    def disarm_lobby(self, session: TableSession) -> None:
        """Stop the idle lobby's clock (the game started)."""
        self._disarm(f"lobby:{session.table_id}")

    def arm_rematch(self, session: TableSession) -> None:
        """Open the "Play again" window, from when the game finished (at once if that is long past)."""
        now = self.now()
        when = max(now, session.rematch_closes_at() or now)
        self._arm(f"rematch:{session.table_id}", when, self.rematch_ran_out, session.table_id)

    def arm_waiting(self, tables: Iterable[WaitingTable]) -> None:
        """Arm the clocks of tables whose games are not replayed yet (after a restart), from their stored
        deadlines (:attr:`WaitingTable.clock`), as ONE job at the earliest: thousands of jobs would cost
        APScheduler seconds at start. When it runs, each table due that is still waiting (``still_waiting``)
        runs out as its own clock would (which replays it), and the job moves on to the next deadline. A
        table replayed meanwhile has its own clock (:meth:`rearm`, the same deadline) and is skipped."""
        for table in tables:
            if table.clock is not None:
                kind, when = table.clock
                heapq.heappush(self._waiting, (when, kind, table.table_id))
        self._arm_waiting_job()

    def _arm_waiting_job(self) -> None:
        if not self._waiting:
            self._disarm(WAITING_JOB)
            return
        when = max(self.now(), self._waiting[0][0])
        arm_date_job(self.scheduler, WAITING_JOB, when, self._waiting_ran_out, max_instances=JOB_INSTANCES)

    async def _waiting_ran_out(self) -> None:
        now = self.now()
        due = []
        while self._waiting and self._waiting[0][0] <= now:
            _, kind, table_id = heapq.heappop(self._waiting)
            if self.still_waiting(table_id):
                due.append(self.turn_ran_out(table_id) if kind == "turn" else self.rematch_ran_out(table_id))
        self._arm_waiting_job()
        await asyncio.gather(*due)

    def rearm(self, session: TableSession) -> None:
        """Arm the clock of a table's phase (after a restart: a deadline that passed fires at once)."""
        if session.phase is TablePhase.LOBBY:
            self.arm_lobby(session)
        elif session.phase is TablePhase.PLAYING and session.deadline is not None:
            self.arm_turn(session)
        elif session.phase is TablePhase.SCOREBOARD:
            self.arm_rematch(session)

    def disarm_all(self, session: TableSession) -> None:
        """Stop every clock of a table (it closed)."""
        for kind in ("turn", "lobby", "rematch"):
            self._disarm(f"{kind}:{session.table_id}")

    def disarm_waiting(self) -> None:
        """Stop the clocks of the tables not replayed yet (the runtime stops)."""
        self._waiting.clear()
        self._disarm(WAITING_JOB)
