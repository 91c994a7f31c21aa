"""Turn clocks on APScheduler without churn: one job per table, moved along by each move, and a clock that
fires when nothing is due keeps waiting for the deadline instead of playing anything."""

from __future__ import annotations

from datetime import timedelta

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from cogs.tables.clocks import TableClocks
from cogs.tables.registry import TableRegistry
from cogs.tables.session import Phase, TableSession, TableSettings
from tests.tables.toy_game import PickAndCall

HOST, BOB = 1, 2


class NoMessages:
    """Stands in for the table messages: counts the refreshes asked for."""

    def __init__(self) -> None:
        self.refreshed = 0
        self.followed: list[set[int]] = []

    def refresh(self, session: TableSession) -> None:
        self.refreshed += 1


def running_game(registry: TableRegistry) -> TableSession:
    session = TableSession("clock123", 10, 20, PickAndCall(), TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    session.start(HOST, 1, discord.utils.utcnow())
    registry.register(session)
    return session


def clocks_for(registry: TableRegistry, messages: NoMessages) -> tuple[AsyncIOScheduler, TableClocks]:
    scheduler = AsyncIOScheduler()
    scheduler.start(paused=True)
    clocks = TableClocks(scheduler, registry, messages, lobby_idle_seconds=900)  # type: ignore[arg-type]

    async def persist(session: TableSession) -> None:
        pass

    clocks.persist = persist
    clocks.after_move = lambda session, before: messages.followed.append(before)
    return scheduler, clocks


async def test_rearming_moves_the_one_job_of_the_table() -> None:
    registry, messages = TableRegistry(), NoMessages()
    scheduler, clocks = clocks_for(registry, messages)
    session = running_game(registry)
    clocks.arm_turn(session)
    job = scheduler.get_job("turn:clock123")
    later = session.deadline + timedelta(seconds=40)
    session.deadline = later
    clocks.arm_turn(session)
    assert scheduler.get_jobs() == [job] and scheduler.get_job("turn:clock123") is job
    assert job.next_run_time == later
    clocks.disarm_all(session)
    assert scheduler.get_jobs() == []
    scheduler.shutdown(wait=False)


async def test_a_clock_firing_before_any_deadline_plays_nothing_and_keeps_waiting() -> None:
    registry, messages = TableRegistry(), NoMessages()
    scheduler, clocks = clocks_for(registry, messages)
    session = running_game(registry)
    version = session.state.version
    await clocks.turn_ran_out(session.table_id)  # fired 30 seconds early
    assert session.state.version == version and session.phase is Phase.PLAYING
    assert messages.refreshed == 0 and messages.followed == []
    assert scheduler.get_job("turn:clock123").next_run_time == session.deadline
    scheduler.shutdown(wait=False)


async def test_a_clock_that_ran_out_plays_the_defaults_and_follows_the_move() -> None:
    registry, messages = TableRegistry(), NoMessages()
    scheduler, clocks = clocks_for(registry, messages)
    session = running_game(registry)
    session.seat_deadlines = {seat: discord.utils.utcnow() for seat in session.seat_deadlines}
    await clocks.turn_ran_out(session.table_id)
    assert session.state.picks == {0: 1, 1: 1}  # both seats' default pick
    assert messages.followed == [{HOST, BOB}] and messages.refreshed == 1
    scheduler.shutdown(wait=False)
