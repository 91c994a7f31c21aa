"""A press answered at once is its one response: the late acknowledgement of
:mod:`cogs.tables.late_presses` never fires after it."""

from __future__ import annotations

import asyncio

from cogs.tables import late_presses
from tests.e2e.conftest import World, sqlite_only

pytestmark = sqlite_only  # the answer path is the same on PostgreSQL


async def test_a_move_answered_at_once_costs_one_request_and_is_not_acknowledged_apart(world: World) -> None:
    table = await world.open_table()
    (actor,) = world.users_to_act(table)
    late_before = late_presses.LATE.late
    result = await world.press(actor, table, "No thanks")
    assert result.ok and result.response_type == 7, result  # the table itself, in the one answer
    assert late_presses.LATE.late == late_before
    await asyncio.sleep(late_presses.ACKNOWLEDGE_AFTER_SECONDS + 0.2)  # no deferral fires after the answer
    assert late_presses.LATE.late == late_before and world.server.violations == []
