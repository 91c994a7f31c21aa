"""The gate every interaction passes first (``CardTableBot.admit``, through discord.py's public
``interaction_check`` hooks and the cogs' component listeners), with the real bot and the sandbox.

While the bot stops (``bot.draining``) a slash command, a table button, a press no dynamic item takes and a
rules button are each answered "restarting", once, and nothing else handles them: no move is stored, the
table message does not change. Otherwise the press's handling (a table press, ``/hand``, the fallback's)
runs with the database write deadline set, ``PRESS_WRITE_SECONDS`` from the gate."""

from __future__ import annotations

import time
from typing import Any

from bot.press_deadline import PRESS_WRITE_SECONDS
from bot.shutdown import RESTARTING
from storage import press_write_deadline
from tests.e2e.conftest import World, logged_moves, sqlite_only

pytestmark = sqlite_only  # the gate does not read the database: one backend suffices


async def test_while_the_bot_stops_every_interaction_is_answered_restarting_once_and_nothing_changes(
    world: World,
) -> None:
    table = await world.open_table()
    moves, shown = logged_moves(world), world.message(table.id).text()
    actor = world.turn_owner(table)
    assert actor is not None
    world.bot.draining = True
    try:
        results = [
            await world.press(actor, table, "Take"),  # a table button: its dynamic item's check
            await world.server.run_command(actor, world.channel, "hand"),  # the command tree's check
            await world.server.run_command(actor, world.channel, "rules", game="foist"),
            await world.server.press(actor, table, "ct:zzzz9999:1:join", forged=True),  # the fallback's gate
            await world.server.press(actor, table, "rules:foist:0", forged=True),  # the rules cog's listener
        ]
    finally:
        world.bot.draining = False
    for result in results:
        assert result.ok and result.response_type == 4 and result.ephemeral, result
        assert result.message.text() == RESTARTING, result.message.text()
    assert logged_moves(world) == moves and world.message(table.id).text() == shown
    assert world.server.violations == []  # none answered twice
    again = await world.press(actor, table, "Take")  # handled as usual once the bot no longer stops
    assert again.ok and again.response_type == 7, again
    assert logged_moves(world) == moves + 1


async def test_a_press_is_handled_with_the_database_write_deadline_set(world: World) -> None:
    cog = world.bot.get_cog("Tables")
    deadlines: dict[str, float | None] = {}

    def recording(name: str, original: Any) -> Any:
        async def handle(interaction: Any, *args: Any) -> None:
            deadlines[name] = press_write_deadline.get()
            deadlines[f"{name} at"] = time.monotonic()
            await original(interaction, *args)

        return handle

    cog.presses.on_table_button = recording("press", cog.presses.on_table_button)
    cog.private_views.show = recording("hand", cog.private_views.show)
    table = await world.open_table()
    actor = world.turn_owner(table)
    assert actor is not None
    pressed = await world.press(actor, table, "Take")  # through the dynamic item
    assert pressed.ok and pressed.response_type == 7, pressed
    for name in ("press", "hand"):
        if name == "hand":
            hand = await world.server.run_command(actor, world.channel, "hand")  # through the command tree
            assert hand.ok and hand.ephemeral, hand
        deadline = deadlines[name]
        assert deadline is not None, name
        assert 0 < deadline - deadlines[f"{name} at"] <= PRESS_WRITE_SECONDS, name
    del deadlines["press"]
    forged = await world.server.press(actor, table, f"{table_custom_id(table)}:join", forged=True)
    assert forged.ok, forged  # through the fallback: not on the message, handled as the press it names
    assert deadlines["press"] is not None
    assert press_write_deadline.get() is None  # the test's own task never had one


def table_custom_id(table: Any) -> str:
    """``ct:<table>:<version>`` of the table message's buttons."""
    custom_id = next(b["custom_id"] for b in table.buttons() if b["custom_id"].startswith("ct:"))
    return ":".join(custom_id.split(":")[:3])
