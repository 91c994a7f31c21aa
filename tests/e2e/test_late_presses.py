"""Presses and :mod:`cogs.tables.late_presses`: a press answered at once is its one response, and the late
acknowledgement never fires after it; a press the backlog predicts would be answered too late is
acknowledged with a deferred update before its move is committed, and its answer then edits the message
pressed."""

from __future__ import annotations

import asyncio
import importlib
from types import ModuleType

import pytest

from tests.e2e import reading
from tests.e2e.conftest import World, logged_moves, sqlite_only

pytestmark = sqlite_only  # the answer path is the same on PostgreSQL


def bots_late_presses() -> ModuleType:
    """The running bot's :mod:`cogs.tables.late_presses`: a bot that stops unloads its extensions (discord.py
    forgets their modules), so each bot loads the module, and its counts, afresh."""
    return importlib.import_module("cogs.tables.late_presses")


async def test_a_move_answered_at_once_costs_one_request_and_is_not_acknowledged_apart(world: World) -> None:
    table = await world.open_table()
    (actor,) = world.users_to_act(table)
    late_presses = bots_late_presses()
    late_before = late_presses.BACKLOG.late
    result = await world.press(actor, table, "No thanks")
    assert result.ok and result.response_type == 7, result  # the table itself, in the one answer
    assert late_presses.BACKLOG.late == late_before
    await asyncio.sleep(late_presses.ACKNOWLEDGE_AFTER_SECONDS + 0.2)  # no deferral fires after the answer
    assert late_presses.BACKLOG.late == late_before and world.server.violations == []


async def test_a_press_the_backlog_predicts_late_is_acknowledged_at_once_and_its_answer_edits_the_message(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await world.open_table()
    (actor,) = world.users_to_act(table)
    moves_before = logged_moves(world)
    late_presses = bots_late_presses()
    footer_before = reading.footer(world.message(table.id))
    # The bot's estimate says every press takes 10 s to answer: whatever the machine's load, this press is
    # predicted late on arrival, so it is acknowledged before its move is committed.
    monkeypatch.setattr(late_presses.BACKLOG, "seconds_per_press", 10.0)
    on_arrival = late_presses.BACKLOG.on_arrival
    requests_before = len(world.server.request_log)

    result = await world.press(actor, table, "No thanks")

    assert result.ok and result.response_type == 6, result  # a deferred update, in time
    assert late_presses.BACKLOG.on_arrival == on_arrival + 1
    await world.server.wait_for(
        lambda: reading.footer(world.message(table.id)) != footer_before, timeout=10
    )  # the answer came after, as an edit of the message pressed
    shown = world.message(table.id)
    assert world.turn_owner(shown) is not None and world.turn_owner(shown) != actor, shown.text()
    assert logged_moves(world) == moves_before + 1  # the move stored once
    requests = list(world.server.request_log)[requests_before:]
    callbacks = [path for _, path, status in requests if path.endswith("/callback") and status < 300]
    edits = [path for method, path, _ in requests if method == "PATCH" and path.endswith("/@original")]
    assert len(callbacks) == 1 and len(edits) == 1, requests  # the acknowledgement, then the answer
    assert world.server.violations == []
