"""A press the bot cannot answer at once is acknowledged in time and answered after: a deferred update
within Discord's 3 seconds, then an edit of the message pressed (or an ephemeral followup for a refusal),
each move stored once. The wait is made real by holding the table's lock, as a burst of moves would."""

from __future__ import annotations

import asyncio

import pytest

from cogs.tables import late_presses
from tests.e2e.conftest import World, session_of, sqlite_only

pytestmark = sqlite_only  # the answer path is the same on PostgreSQL


@pytest.fixture
def quick_acknowledgement(monkeypatch: pytest.MonkeyPatch) -> None:
    """Presses are acknowledged 0.2 s after they arrive if their answer has not begun."""
    monkeypatch.setattr(late_presses, "ACKNOWLEDGE_AFTER_SECONDS", 0.2)


async def test_a_move_kept_waiting_is_acknowledged_then_shown_on_the_table(
    world: World, quick_acknowledgement: None
) -> None:
    table = await world.open_table()
    (actor,) = world.users_to_act(table)
    session = session_of(world)
    version = session.state.version
    late_before = late_presses.LATE.late
    async with session.lock:  # the table is busy: the press waits for it, until it is acknowledged
        pressing = asyncio.create_task(world.press(actor, table, "No thanks"))
        await world.server.wait_for(lambda: late_presses.LATE.late > late_before, timeout=10)
    result = await pressing
    assert result.ok and result.response_type == 6, result  # acknowledged, nothing shown yet
    await world.server.wait_for(lambda: f"move {version + 2}" in world.message(table.id).text(), timeout=5)
    assert session_of(world).state.version == version + 1  # the move, once
    assert late_presses.LATE.late == late_before + 1
    assert world.server.violations == []


async def test_a_refusal_kept_waiting_comes_as_a_private_followup(
    world: World, quick_acknowledgement: None
) -> None:
    table = await world.open_table()
    (actor,) = world.users_to_act(table)
    waiting = next(world.players[name] for name in ("alice", "bob", "carol") if world.players[name] != actor)
    session = session_of(world)
    version = session.state.version
    late_before = late_presses.LATE.late
    async with session.lock:
        pressing = asyncio.create_task(world.press(waiting, table, "No thanks"))
        await world.server.wait_for(lambda: late_presses.LATE.late > late_before, timeout=10)
    result = await pressing
    assert result.ok and result.response_type == 6, result
    await world.server.wait_for(lambda: result.followups, timeout=5)
    (refusal,) = result.followups
    assert refusal.ephemeral_for == waiting.id and "not your turn" in refusal.text().lower(), refusal.text()
    assert session_of(world).state.version == version  # nothing changed
    assert world.server.violations == []


async def test_a_move_answered_at_once_costs_one_request_and_is_not_acknowledged_apart(world: World) -> None:
    table = await world.open_table()
    (actor,) = world.users_to_act(table)
    late_before = late_presses.LATE.late
    result = await world.press(actor, table, "No thanks")
    assert result.ok and result.response_type == 7, result  # the table itself, in the one answer
    assert late_presses.LATE.late == late_before
    await asyncio.sleep(late_presses.ACKNOWLEDGE_AFTER_SECONDS + 0.2)  # no deferral fires after the answer
    assert late_presses.LATE.late == late_before and world.server.violations == []
