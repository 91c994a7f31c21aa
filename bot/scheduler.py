"""The bot's APScheduler: an ``AsyncIOScheduler`` that does not wake up for a job moved to later.

Every move of every game moves its table's turn clock (``Job.modify(next_run_time=...)``, see
:mod:`engine.tables.clocks`), almost always to later. APScheduler answers each modification with a full
wake-up: a hop through ``loop.call_soon_threadsafe`` (a write to the loop's self-pipe and one more turn of
the loop), a scan of the job store and a new timer, a noticeable part of a press's CPU. A
wake-up is only needed when a job may now be due before the scheduler's timer fires. So
:class:`TableScheduler` skips it when a job is moved to a time no earlier than its armed timer: that
timer fires as planned, finds nothing due (the job moved) and re-arms for the earliest job, as any
wake-up would. Every other change wakes the scheduler as usual.

This reads two attributes of APScheduler 3's ``AsyncIOScheduler`` that are not public: ``_eventloop``
(the loop it runs on) and ``_timeout`` (the ``asyncio.TimerHandle`` of its next wake-up, set by
``_start_timer``); ``tests/bot/test_scheduler.py`` fails if either changes.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from typing import Any

from apscheduler.job import Job
from apscheduler.schedulers.asyncio import AsyncIOScheduler


class TableScheduler(AsyncIOScheduler):
    """An ``AsyncIOScheduler`` whose ``modify_job`` moving a job to later does not wake it up."""

    _quiet = False

    def modify_job(self, job_id: str, jobstore: str | None = None, **changes: Any) -> Job:
        when = changes.get("next_run_time")
        if set(changes) == {"next_run_time"} and isinstance(when, datetime) and self._wakes_by(when):
            self._quiet = True
            try:
                return super().modify_job(job_id, jobstore, **changes)
            finally:
                self._quiet = False
        return super().modify_job(job_id, jobstore, **changes)

    def wakeup(self) -> None:
        if not self._quiet:
            super().wakeup()

    def _wakes_by(self, when: datetime) -> bool:
        """True if the scheduler's timer is armed and fires no later than ``when`` (an aware datetime);
        only known on the scheduler's own loop."""
        timer = self._timeout
        loop = self._eventloop
        if timer is None or timer.cancelled() or loop is None or when.tzinfo is None:
            return False
        try:
            if asyncio.get_running_loop() is not loop:
                return False
        except RuntimeError:
            return False
        fires_at = datetime.now(timezone.utc) + timedelta(seconds=timer.when() - loop.time())
        return fires_at <= when
