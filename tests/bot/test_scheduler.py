"""``bot/scheduler.py``: a turn clock moved to later costs no wake-up, and every job still runs on time.
Also checks the two APScheduler internals it reads (``_eventloop``, ``_timeout``), so an upgrade that
changes them fails here."""

from __future__ import annotations

import asyncio
import inspect
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.scheduler import TableScheduler


def test_the_asyncio_scheduler_keeps_its_loop_and_timer_where_the_table_scheduler_reads_them() -> None:
    assert "self._timeout = self._eventloop.call_later(" in inspect.getsource(AsyncIOScheduler._start_timer)
    assert "self._eventloop = asyncio.get_running_loop()" in inspect.getsource(AsyncIOScheduler.start)
    assert AsyncIOScheduler._timeout is None


async def test_a_job_moved_later_wakes_nothing_and_one_moved_earlier_does() -> None:
    scheduler = TableScheduler(timezone="UTC")
    scheduler.start()
    wakeups: list[int] = []
    process = scheduler._process_jobs

    def counted() -> float | None:
        wakeups.append(1)
        return process()

    scheduler._process_jobs = counted  # type: ignore[method-assign]
    now = datetime.now(timezone.utc)

    async def nothing() -> None:
        pass

    job = scheduler.add_job(nothing, "date", run_date=now + timedelta(hours=1), id="turn:x")
    await asyncio.sleep(0.05)
    armed = len(wakeups)
    assert armed >= 1  # the new job armed the timer
    for minutes in (61, 62, 63):
        job.modify(next_run_time=now + timedelta(minutes=minutes))
    await asyncio.sleep(0.05)
    assert len(wakeups) == armed and job.next_run_time == now + timedelta(minutes=63)
    job.modify(next_run_time=now + timedelta(minutes=30))  # earlier than the timer: wakes
    await asyncio.sleep(0.05)
    assert len(wakeups) == armed + 1
    scheduler.shutdown(wait=False)


async def test_moved_jobs_still_run_when_due_and_not_before() -> None:
    scheduler = TableScheduler(timezone="UTC")
    scheduler.start()
    ran: list[tuple[str, float]] = []
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def record(name: str) -> None:
        ran.append((name, loop.time() - started))

    now = datetime.now(timezone.utc)
    later = scheduler.add_job(record, "date", run_date=now + timedelta(seconds=0.2), args=("later",))
    sooner = scheduler.add_job(record, "date", run_date=now + timedelta(seconds=0.6), args=("sooner",))
    await asyncio.sleep(0.05)
    later.modify(next_run_time=now + timedelta(seconds=0.5))  # moved past its own timer: no wake-up
    sooner.modify(next_run_time=now + timedelta(seconds=0.3))  # moved earlier: wakes
    await asyncio.sleep(0.9)
    assert [name for name, _ in ran] == ["sooner", "later"]
    assert ran[0][1] >= 0.28 and ran[1][1] >= 0.48
    scheduler.shutdown(wait=False)
