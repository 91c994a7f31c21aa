"""Table message edits paced (:mod:`cogs.tables.edit_pacing`) through the sandbox and the real discord.py
client: a table whose only person left plays on with its AI seats (one move in 0.1 s,
:data:`engine.tables.ai_turns.UNATTENDED_PAUSE_SECONDS`), and its message gets at most five plain edits in
any five seconds; unwatched, it is redrawn far less often than it moves, and its last message shows the
end; and twenty such tables leave a person's table its press answered and its edits landing, drawing
together no more than their shared budget.

The figures counted are the requests the sandbox received (edits of each table message, as its message
listener saw them), not timings; the one clock read is the arrival time of each edit, and each bound holds
the more surely the slower the machine (a loaded machine moves and edits less, never more)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from cogs.tables.edit_pacing import CHANNEL_EDITS, CHANNEL_WINDOW_SECONDS, UNATTENDED_BURST
from tests.e2e import reading
from tests.e2e.conftest import TO_ACT, World, stored


class EditTimes:
    """When the sandbox received each edit of the messages followed (monotonic seconds), by message id."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.times: dict[int, list[float]] = {}
        world.server.add_message_listener(self._noted)

    def follow(self, message_id: int) -> None:
        self.times.setdefault(message_id, [])

    def _noted(self, kind: str, message: Any) -> None:
        if kind == "edit" and message.id in self.times:
            self.times[message.id].append(time.monotonic())

    def close(self) -> None:
        self.world.server.remove_message_listener(self._noted)


def most_in_a_window(times: list[float], seconds: float) -> int:
    """The most of ``times`` within any ``seconds`` (a window that opens at one of them)."""
    return max((sum(1 for t in times if start <= t < start + seconds) for start in times), default=0)


async def open_and_leave(world: World, host: Any, channel: Any, game: str = "foist") -> Any:
    """``host`` opens a ``game`` table with AI seats in ``channel``, starts it and leaves the game: the AIs
    play every seat. Returns the table message."""
    opened = await world.server.run_command(host, channel, "play", game=game, bots=2)
    assert opened.ok and not opened.ephemeral, opened
    table = opened.message
    assert (await world.press(host, world.server.message(table.id), "Start")).ok
    hand = await world.press(host, world.server.message(table.id), "My hand")
    assert hand.ok and hand.ephemeral, hand
    asked = await world.press(host, hand.message, "Leave game")
    left = await world.press(host, asked.message, "Yes, leave the game")
    assert left.ok, left
    return world.server.message(table.id)


def ended(world: World, table: Any) -> bool:
    return "final scores" in reading.title(world.server.message(table.id))


def moves_played(world: World) -> list[int]:
    """How many moves each finished game holds."""
    games = stored(world.database_url, "SELECT actions FROM games")
    return [len(json.loads(actions)) for (actions,) in games]


DISCORD_PACE = {"table_edits_per_channel": CHANNEL_EDITS}
"""Discord's limit of edits per channel, which the other end-to-end tests leave out (see
``tests/e2e/conftest.py`` ``MACHINE_SPEED``)."""


@pytest.mark.bot_settings(**DISCORD_PACE)
async def test_a_table_nobody_plays_at_gets_at_most_five_edits_in_any_five_seconds(world: World) -> None:
    alice = world.players["alice"]
    edits = EditTimes(world)
    table = await open_and_leave(world, alice, world.channel)
    edits.follow(table.id)  # from here on, no press: every edit of the message is a plain edit
    await world.server.wait_for(lambda: ended(world, table), timeout=120)
    edits.close()
    times = edits.times[table.id]
    (moves,) = moves_played(world)
    assert most_in_a_window(times, CHANNEL_WINDOW_SECONDS) <= CHANNEL_EDITS, times
    assert len(times) < moves  # the AIs moved faster than the message was edited: the pacing held it back
    assert not [w for w in world.server.rate_limit_warnings if "message edits" in w]
    assert world.server.violations == []


@pytest.mark.bot_settings(**DISCORD_PACE, table_watched_seconds=0.2, table_unwatched_redraw_seconds=5)
async def test_an_unwatched_table_is_redrawn_far_less_often_than_it_moves_and_shows_its_end(
    world: World,
) -> None:
    alice = world.players["alice"]
    edits = EditTimes(world)
    table = await open_and_leave(world, alice, world.channel, game="minimisere")
    edits.follow(table.id)
    await world.server.wait_for(lambda: ended(world, table), timeout=180)
    edits.close()
    (moves,) = moves_played(world)
    redraws = len(edits.times[table.id])
    assert redraws * 5 <= moves, (redraws, moves)  # one redraw in 5 s, against about ten moves a second
    final = world.server.message(table.id)
    assert "final scores" in reading.title(final) and final.buttons(), final.text()
    assert "🤖" in final.text()
    assert world.server.violations == []


@pytest.mark.bot_settings(**DISCORD_PACE)
async def test_a_person_s_table_plays_on_beside_twenty_tables_nobody_plays_at(world: World) -> None:
    """The twenty tables (one per channel, each left by its only person) draw their edits from one shared
    budget: over the test, no more than that budget's edits a second, while alice's presses are answered
    and her table message's edits land."""
    alice = world.players["alice"]
    pacing = world.bot.get_cog("Tables").messages.pacing
    rate = pacing.unattended.rate
    busy = []
    for number in range(20):
        channel = world.guild.add_channel(f"busy-{number}")
        host = world.guild.add_member(f"host-{number}")
        busy.append(await open_and_leave(world, host, channel, game="minimisere"))
    edits = EditTimes(world)
    for table in busy:
        edits.follow(table.id)
    began = time.monotonic()
    mine = await world.open_table("alice", seated=(), bots=2)
    rng, hands = random.Random(5), {}
    pressed = 0
    while pressed < 5 and not ended(world, mine):
        current = world.message(mine.id)
        if any(found["name"] == alice.name for found in TO_ACT.finditer(current.text())):
            result = await world.act_somehow(alice, current, rng, hands)
            assert result is None or result.ok, result
            pressed += result is not None
        else:
            shown = current.text()
            await world.server.wait_for(lambda was=shown: world.message(mine.id).text() != was, timeout=30)
    elapsed = time.monotonic() - began
    edits.close()
    assert pressed == 5 or ended(world, mine)
    busy_edits = sum(len(times) for times in edits.times.values())
    # The bucket's size, its rate over the test, and one edit per table on its way when the count began.
    assert busy_edits <= UNATTENDED_BURST + rate * elapsed + len(busy), (busy_edits, elapsed)
    # Their busiest second: the bucket's size and a second's rate, a second more for edits late on their way;
    # well within Discord's 50 requests a second, which leaves the rest to the tables people play at.
    busiest = most_in_a_window(sorted(t for times in edits.times.values() for t in times), 1.0)
    assert busiest <= UNATTENDED_BURST + 2 * rate < 50, busiest
    assert world.server.violations == []
