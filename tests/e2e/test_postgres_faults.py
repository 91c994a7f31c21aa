"""A game on PostgreSQL while the server misbehaves, through the sandbox with the real discord.py client:
the bot's connections cut (``pg_terminate_backend``), the server restarted (``pg_ctl restart -m fast``),
then stopped and started again. Every press is answered within Discord's 3 seconds (the sandbox's
deadline): a move, or while the server is away "the database is not answering"; the bot's pool recovers by
itself and the game plays on to its end without a restart; every acknowledged move is stored, none that was
refused, and the result once. (The outage here is short; ``bench/postgres_outage.py`` holds the server away
for 10 seconds.)"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from tests.e2e import reading
from tests.e2e.conftest import CARD_UP, World, logged_moves, play_to_the_end
from tests.e2e.stored_rows import stored
from tests.postgres_server import ThrowawayPostgres

pytestmark = pytest.mark.backends("postgresql")

AWAY = "database is not answering"


class LoopLag:
    """The longest the bot's event loop (the test's own) was late to wake a 20 ms sleep, in seconds: a
    loop blocked by a database wait would show here (printed, not asserted: no timing assertions)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.task = asyncio.ensure_future(self._watch())

    async def _watch(self) -> None:
        while True:
            began = time.monotonic()
            await asyncio.sleep(0.02)
            self.worst = max(self.worst, time.monotonic() - began - 0.02)

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


async def press_a_move(world: World, table: Any, rng: random.Random) -> Any:
    """The player whose turn it is presses Take or No thanks (Take when out of tokens); the answer."""
    current = world.message(table.id)
    actor = world.turn_owner(current)
    assert actor is not None, current.text()
    card_up = CARD_UP.search(current.text())
    assert card_up is not None, current.text()
    result = await world.press(actor, current, "No thanks" if rng.random() < 0.6 else "Take")
    if result.ephemeral and "no tokens left" in result.message.text():
        result = await world.press(actor, current, "Take")
    assert result.ok, result  # answered within the sandbox's 3 seconds, whatever the database does
    return result


def is_move(result: Any) -> bool:
    return result.response_type == 7 and not result.ephemeral


async def test_a_game_survives_postgresql_cut_restarted_and_away(
    world: World, postgres_server: ThrowawayPostgres
) -> None:
    rng = random.Random(21)
    lag = LoopLag()
    table = await world.open_table()
    base, acknowledged = logged_moves(world), 0

    async def moves(count: int) -> None:
        nonlocal acknowledged
        for _ in range(count):
            result = await press_a_move(world, table, rng)
            assert is_move(result), result.message.text() if result.message else result
            acknowledged += 1

    await moves(2)
    # Every connection of the bot cut: the pool replaces them, no player notices.
    assert postgres_server.terminate_clients(world.database_url) >= 1
    await moves(2)
    # The server restarted: the same.
    await asyncio.to_thread(postgres_server.restart)
    await moves(2)

    # The server away: each press is told so, in time, and changes nothing.
    await asyncio.to_thread(postgres_server.halt)
    try:
        for _ in range(2):
            result = await press_a_move(world, table, rng)
            assert result.ephemeral and AWAY in result.message.text(), result.message.text()
    finally:
        await asyncio.to_thread(postgres_server.resume)
    # Back: within a few seconds a press is a move again, without a restart of the bot.
    for _ in range(40):
        result = await press_a_move(world, table, rng)
        if is_move(result):
            acknowledged += 1
            break
        assert AWAY in result.message.text(), result.message.text()
        await asyncio.sleep(0.25)
    else:
        raise AssertionError("the bot never reached the database again")
    assert logged_moves(world) == base + acknowledged  # every acknowledged move stored, no refused one

    final = await play_to_the_end(world, table, rng)
    assert "final scores" in reading.title(final)
    assert stored(world.database_url, "SELECT COUNT(*) FROM games") == [(1,)]
    await lag.stop()
    print(f"event loop: at most {lag.worst * 1000:.0f} ms late")
    assert world.server.violations == [], world.server.violations
