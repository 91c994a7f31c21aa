"""Turn clocks on APScheduler without churn: one job per table, moved along by each move, and a clock that
fires when nothing is due keeps waiting for the deadline instead of playing anything."""

from __future__ import annotations

from datetime import timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from engine.tables import moves
from engine.tables.clocks import TableClocks, utcnow
from engine.tables.registry import TableRegistry
from engine.tables.session import TableDraft, TablePhase, TableSession, TableSettings
from tests.tables.fakes import World, make_runtime
from tests.tables.toy_game import PickAndCall

HOST, BOB = 1, 2


async def no_job(table_id: str) -> None:
    raise AssertionError("no clock runs out in this test")


def running_game(registry: TableRegistry) -> TableSession:
    draft = TableDraft("clock123", 10, 20, PickAndCall(), TableSettings(30, 5, 2), HOST, "host")
    draft.join(BOB, "bob")
    draft.start(HOST, 1, utcnow())
    session = TableSession(draft)
    registry.register(session)
    return session


async def test_rearming_moves_the_one_job_of_the_table() -> None:
    scheduler = AsyncIOScheduler()
    scheduler.start(paused=True)
    clocks = TableClocks(
        scheduler, turn_ran_out=no_job, lobby_ran_out=no_job, rematch_ran_out=no_job, lobby_idle_seconds=900
    )
    session = running_game(TableRegistry())
    clocks.arm_turn(session)
    job = scheduler.get_job("turn:clock123")
    later = session.deadline + timedelta(seconds=40)
    clocks.arm_turn(session, later)
    assert scheduler.get_jobs() == [job] and scheduler.get_job("turn:clock123") is job
    assert job.next_run_time == later
    clocks.disarm_all(session)
    assert scheduler.get_jobs() == []
    scheduler.shutdown(wait=False)


async def started_game(world: World) -> TableSession:
    """A PickAndCall game of HOST and BOB, opened and started through the runtime."""
    table = TableSession.new("clock123", 10, 20, PickAndCall(), TableSettings(30, 5, 2), HOST, "host")
    await world.runtime.open(table, lambda: world.presenter.post_table(table, ""))
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.Start(HOST, 1))
    return table


async def test_a_clock_firing_before_any_deadline_plays_nothing_and_keeps_waiting() -> None:
    world = make_runtime()
    session = await started_game(world)
    version, shown = session.state.version, len(world.presenter.shown)
    job = world.scheduler.get_job("turn:clock123")
    assert job.next_run_time == session.deadline == world.clock.now + timedelta(seconds=30)
    await world.runtime.clocks.turn_ran_out(session.table_id)  # fired 30 seconds early
    assert session.state.version == version and session.phase is TablePhase.PLAYING
    assert len(world.presenter.shown) == shown  # nothing to show
    assert world.scheduler.get_job("turn:clock123").next_run_time == session.deadline


async def test_a_clock_that_ran_out_plays_the_defaults_and_follows_the_move() -> None:
    world = make_runtime()
    session = await started_game(world)
    world.clock.advance(29)
    assert await world.scheduler.run_due(world.clock.now) == []
    world.clock.advance(1)
    assert await world.scheduler.run_due(world.clock.now) == ["turn:clock123"]
    assert session.state.picks == {0: 1, 1: 1}  # both seats' default pick
    timed_out = world.presenter.shown[-1]
    assert isinstance(timed_out.move, moves.TimeOut) and timed_out.before == {HOST, BOB}
    assert not timed_out.answered  # nobody pressed: the presenter redraws the table
    assert world.db.logged[-1] == len(session.state.history)  # stored before it was shown
