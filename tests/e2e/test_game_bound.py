"""A table past its game's bound on moves (``GameRules.max_moves``) ends through the sandbox as a player sees
it: the table message says why, no result is stored, the table is gone."""

from __future__ import annotations

import pytest

from engine.foist import Foist
from tests.e2e.conftest import World, stored

BOUND = 2


async def test_a_table_past_its_bound_on_moves_ends_with_no_result(
    world: World, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(Foist, "max_moves", BOUND)  # Foist's real bound is 500: a short game for the test
    table = await world.open_table(game="foist")
    for _ in range(BOUND + 1):
        current = world.message(table.id)
        actor = world.turn_owner(current)
        assert actor is not None, current.text()
        pressed = await world.press(actor, current, "No thanks")
        if pressed.ephemeral:  # no token left to pay with: take the card
            print("EPHEMERAL", pressed.message.text())
            pressed = await world.press(actor, world.message(table.id), "Take")
        assert pressed.ok and not pressed.ephemeral, pressed
    ended = world.message(table.id)
    assert f"went past {BOUND} moves" in ended.text() and "no result" in ended.text(), ended.text()
    assert ended.buttons() == [] or all(b.get("label") != "My hand" for b in ended.buttons())
    assert stored(world.database_url, "SELECT COUNT(*) FROM games") == [(0,)]
    assert stored(world.database_url, "SELECT COUNT(*) FROM live_tables") == [(0,)]
