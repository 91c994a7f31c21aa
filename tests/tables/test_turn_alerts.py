"""Who the runtime says must be told of a new turn (:attr:`Outcome.turn_alerts`), on the fakes of
:mod:`tests.tables.fakes`: everyone a simultaneous decision newly waits for, once; nobody still waited for
from before; never an AI seat; and a player's choice for one table, kept through a restart."""

from __future__ import annotations

import pytest

from engine import get_rules
from engine.tables import moves
from engine.tables.session import BY_DM, NOT_TOLD, TableError, TableSession, TableSettings
from engine.tables.store import TableStore
from tests.tables.fakes import make_runtime
from tests.tables.toy_game import PickAndCall

HOST, BOB, OUTSIDER = 101, 102, 103


async def test_a_new_turn_is_told_to_each_person_the_game_newly_waits_for_and_never_to_an_ai() -> None:
    world = make_runtime(ai_pause_seconds=3600)  # the AI acts only when the test says
    table = TableSession.new("tbl00001", 10, 20, PickAndCall(), TableSettings(30, 30, 2), HOST, "host")
    await world.runtime.open(table, lambda: world.presenter.post_table(table, ""))
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.AddAI(HOST))
    (ai,) = [user for user in table.lobby.players if user < 0]
    started = await world.runtime.commit(table, moves.Start(HOST, 3))
    assert set(table.users_to_act()) == {HOST, BOB, ai}  # all pick at once
    assert started.turn_alerts == (HOST, BOB)  # each person once, the AI seat never
    host_picked = await world.runtime.commit(table, moves.Play(HOST, table.state.version, "pick.4"))
    assert host_picked.turn_alerts == ()  # BOB was waited for already: no second line
    bob_picked = await world.runtime.commit(table, moves.Play(BOB, table.state.version, "pick.9"))
    assert bob_picked.turn_alerts == ()
    assert await world.runtime.ai_turns.play_once(table, table.players.index(ai)) == "played"
    ai_picked = world.presenter.shown[-1]
    assert table.users_to_act() == [HOST] and ai_picked.turn_alerts == (HOST,)  # his turn to call, anew
    shouted = await world.runtime.commit(table, moves.Play(BOB, table.state.version, "shout"))
    assert shouted.turn_alerts == ()  # an action the game does not wait for is no turn
    world.runtime.tasks.cancel_all()


async def test_a_choice_for_one_table_is_checked_stored_and_kept_through_a_restart() -> None:
    world = make_runtime(ai_pause_seconds=3600)
    table = TableSession.new("tbl00002", 10, 20, get_rules("foist"), TableSettings(30, 30, 2), HOST, "host")
    await world.runtime.open(table, lambda: world.presenter.post_table(table, ""))
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.AddAI(HOST))
    chose = await world.runtime.commit(table, moves.ChooseAlerts(BOB, NOT_TOLD))
    assert chose.turn_alerts == () and table.alert_modes == {BOB: NOT_TOLD}
    with pytest.raises(TableError, match="not playing"):
        await world.runtime.commit(table, moves.ChooseAlerts(OUTSIDER, BY_DM))
    with pytest.raises(TableError, match="not a way"):
        await world.runtime.commit(table, moves.ChooseAlerts(HOST, "shout"))
    await world.runtime.commit(table, moves.Start(HOST, 3))
    await world.runtime.commit(table, moves.ChooseAlerts(HOST, BY_DM))
    world.runtime.tasks.cancel_all()
    again = make_runtime(ai_pause_seconds=3600)
    again.runtime.store = TableStore(world.db, again.runtime.registry, shutting_down=lambda: False)
    assert await again.runtime.restore() == 1
    restored = again.runtime.registry.get(table.table_id)
    assert restored is not None
    assert restored.alert_modes == {BOB: NOT_TOLD, HOST: BY_DM}
