"""The backlog of move presses (:class:`cogs.tables.late_presses.Backlog`) as the AI seats see it: they wait
while a person's press waits for its turn."""

from __future__ import annotations

import asyncio

from cogs.tables import late_presses


async def test_the_ai_seats_wait_while_a_move_press_waits_for_its_turn() -> None:
    """``presses_handled`` (the AI seats' ``presses_first`` in the bot) returns at once with no press
    waiting, and waits while one waits for its turn among those being worked on."""

    class Watched:
        working = False

    backlog = late_presses.Backlog(at_once=1)
    await asyncio.wait_for(backlog.presses_handled(), 1)  # nobody waits: at once
    first, second = Watched(), Watched()
    await backlog._take_turn(first)  # the one turn
    waiting = asyncio.ensure_future(backlog._take_turn(second))
    handled = asyncio.ensure_future(backlog.presses_handled())
    for _ in range(10):
        await asyncio.sleep(0)
    assert backlog.waiting == 1 and not handled.done()
    backlog._end_turn(first, answered=True)  # the second press takes the turn: none waits any more
    await asyncio.wait_for(waiting, 1)
    await asyncio.wait_for(handled, 1)
    assert second.working
