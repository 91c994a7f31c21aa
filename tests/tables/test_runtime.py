"""The table runtime on its own (:class:`engine.tables.runtime.TableRuntime`), without Discord, a database or
real time (the stand-ins of :mod:`tests.tables.fakes`): a table's whole life goes through its one commit,
from the lobby to the scoreboard and a rematch; what the runtime schedules and hands the presenter; a
failed store that undoes a move; clocks running out; a restart."""

from __future__ import annotations

import ast
import asyncio
import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import Event, IllegalAction, get_rules
from engine.lobby import RematchChoice
from engine.tables import moves
from engine.tables import runtime as runtime_module
from engine.tables.ai_turns import UNATTENDED_PAUSE_SECONDS
from engine.tables.clocks import WAITING_JOB
from engine.tables.session import TableError, TablePhase, TableSession, TableSettings
from engine.tables.snapshot import ENGINE_SNAPSHOT_EVERY, TableSnapshot, log_digest, restore
from tests.tables.fakes import World, make_runtime
from tests.tables.toy_game import PickAndCall

HOST, BOB, CAROL = 101, 102, 103
ROOT = Path(__file__).resolve().parents[2]


async def opened(world: World, rules=None, table_id: str = "tbl00001") -> TableSession:
    table = TableSession.new(table_id, 10, 20, rules or PickAndCall(), TableSettings(30, 30, 2), HOST, "host")
    await world.runtime.open(table, lambda: world.presenter.post_table(table, ""))
    return table


async def play_out(world: World, table: TableSession) -> None:
    """Both people play the toy game to its end, each move through the commit."""
    while table.phase is TablePhase.PLAYING:
        seat = table.state.seats_to_act()[0]
        code = table.state.default_action(seat)
        await world.runtime.commit(table, moves.Play(table.players[seat], table.state.version, code))


async def test_a_table_lives_from_lobby_to_scoreboard_to_rematch_through_one_commit() -> None:
    world = make_runtime()
    table = await opened(world)
    assert world.runtime.registry.channel_table(20) is table and world.presenter.message_ids[table.table_id]
    assert "lobby:tbl00001" in world.scheduler.jobs  # the idle lobby's clock
    joined = await world.runtime.commit(table, moves.Join(BOB, "bob"))
    assert joined.note == "You joined the table." and world.presenter.shown == [joined]
    started = await world.runtime.commit(table, moves.Start(HOST, 7))
    assert table.phase is TablePhase.PLAYING and "lobby:tbl00001" not in world.scheduler.jobs
    assert world.scheduler.jobs["turn:tbl00001"].next_run_time == table.deadline
    assert started.before == frozenset()
    await play_out(world, table)
    assert table.phase is TablePhase.SCOREBOARD
    assert [result.table_id for result in world.db.results] == ["tbl00001"]  # stored once, with the move
    assert world.runtime.registry.channel_table(20) is None  # a new /play may open meanwhile
    assert "turn:tbl00001" not in world.scheduler.jobs and "rematch:tbl00001" in world.scheduler.jobs
    await world.runtime.commit(table, moves.ChooseRematch(HOST, RematchChoice.PLAY_AGAIN))
    ended = await world.runtime.commit(table, moves.ChooseRematch(BOB, RematchChoice.PLAY_AGAIN))
    assert ended.scoreboard_ended and ended.rematch
    assert world.runtime.registry.get("tbl00001") is None and "tbl00001" not in world.db.tables
    rematch = world.runtime.registry.channel_table(20)
    assert rematch is not None and list(rematch.lobby.players) == [HOST, BOB]
    assert world.presenter.posted[-1] == (rematch.table_id, "Playing again:")
    assert rematch.table_id in world.db.tables


async def test_every_move_is_stored_before_it_is_shown_and_a_failed_store_undoes_it() -> None:
    world = make_runtime()
    table = await opened(world)
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.Start(HOST, 7))
    version, shown = table.state.version, len(world.presenter.shown)
    world.db.failing = True
    with pytest.raises(TableError, match="could not save"):
        await world.runtime.commit(table, moves.Play(HOST, version, "pick.3"))
    assert table.state.version == version and 0 not in table.state.picks  # back as stored
    assert len(world.presenter.shown) == shown  # nothing shown, nobody answered
    world.db.failing = False
    played = await world.runtime.commit(table, moves.Play(HOST, version, "pick.3"))
    assert table.state.picks == {0: 3} and world.db.logged[-1] == 1 and played.answered is False


async def test_the_answer_runs_after_the_store_with_the_lock_released_and_refusals_change_nothing() -> None:
    world = make_runtime()
    table = await opened(world)
    answered = []

    async def answer(outcome) -> None:
        assert not table.lock.locked() and world.db.tables[table.table_id]  # stored; no move held up
        answered.append(outcome.note)

    await world.runtime.commit(table, moves.Join(BOB, "bob"), answer)
    assert answered == ["You joined the table."] and world.presenter.shown[-1].answered
    with pytest.raises(TableError, match="already"):
        await world.runtime.commit(table, moves.Join(BOB, "bob"), answer)
    with pytest.raises(TableError, match="Only the host"):
        await world.runtime.commit(table, moves.Start(BOB, 7))
    await world.runtime.commit(table, moves.Start(HOST, 7))
    with pytest.raises(IllegalAction):
        await world.runtime.commit(table, moves.Play(HOST, table.state.version, "call"))
    with pytest.raises(TableError, match="earlier turn"):
        await world.runtime.commit(table, moves.Play(HOST, table.state.version + 5, "pick.1"))
    assert answered == ["You joined the table."] and table.state.version == 0


async def test_the_turn_clock_plays_the_defaults_and_an_away_player_is_taken_over_and_told() -> None:
    world = make_runtime()
    table = await opened(world, get_rules("foist"))
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.AddAI(HOST))
    await world.runtime.commit(table, moves.WantDMs(BOB, True))
    await world.runtime.commit(table, moves.Start(HOST, 11))
    bob = table.seat_of(BOB)
    for _ in range(200):  # BOB never plays; the host and the AI do
        if table.phase is not TablePhase.PLAYING or bob in table.idle_seats:
            break
        (seat,) = table.state.seats_to_act()
        if seat == bob:
            world.clock.now = table.deadline
            assert await world.scheduler.run_due(world.clock.now) == [f"turn:{table.table_id}"]
        elif table.players[seat] == HOST:
            code = table.state.default_action(seat)
            await world.runtime.commit(table, moves.Play(HOST, table.state.version, code))
        else:
            assert await world.runtime.ai_turns.play_once(table, seat) == "played"
    assert bob in table.idle_seats and table.timeouts_in_row[bob] == 2
    told = [outcome for outcome in world.presenter.shown if outcome.newly_away]
    assert [outcome.newly_away for outcome in told] == [(BOB,)]  # told once, by DM: BOB asked for DMs
    assert any(BOB in o.turn_alerts for o in world.presenter.shown)  # told of his turns before he was away
    came_back = await world.runtime.commit(table, moves.ComeBack(BOB))
    assert bob not in table.idle_seats and came_back.note.startswith("Welcome back")


async def test_an_idle_lobby_closes_by_its_clock_and_the_table_is_deleted() -> None:
    world = make_runtime(lobby_idle_seconds=600)
    table = await opened(world)
    world.clock.advance(599)
    assert await world.scheduler.run_due(world.clock.now) == []
    world.clock.advance(1)
    await world.scheduler.run_due(world.clock.now)
    closed = world.presenter.shown[-1]
    assert closed.closed == "Nobody started the game for 10 minutes, so the table closed."
    assert world.runtime.registry.get(table.table_id) is None and table.table_id not in world.db.tables
    assert world.presenter.forgotten == [table.table_id] and world.scheduler.jobs == {}
    with pytest.raises(moves.Unchanged, match="closed"):  # a late press on it changes nothing
        await world.runtime.commit(table, moves.Join(BOB, "bob"))


async def test_a_leaver_is_played_by_an_ai_to_the_end_and_a_restart_brings_the_table_back() -> None:
    world = make_runtime()
    table = await opened(world, get_rules("foist"))
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.AddAI(HOST))
    await world.runtime.commit(table, moves.Start(HOST, 5))
    await world.runtime.commit(table, moves.LeaveGame(BOB))
    again = make_runtime()
    again.db = world.db
    from engine.tables.store import TableStore

    again.runtime.store = TableStore(world.db, again.runtime.registry, shutting_down=lambda: False)
    assert await again.runtime.restore() == 1
    restored = again.runtime.registry.get(table.table_id)
    assert restored is not None
    assert restored.state.history == table.state.history and restored.left_seats == table.left_seats
    # Its table message is the Discord layer's, stored apart (tests/storage/test_table_messages.py).
    assert '"message_id"' not in world.db.tables[table.table_id][3]
    assert "turn:" + table.table_id in again.scheduler.jobs
    while restored.phase is TablePhase.PLAYING:
        (seat,) = restored.state.seats_to_act()
        if restored.players[seat] == HOST:
            code = restored.state.default_action(seat)
            await again.runtime.commit(restored, moves.Play(HOST, restored.state.version, code))
        else:
            assert await again.runtime.ai_turns.play_once(restored, seat) == "played"
    assert restored.phase is TablePhase.SCOREBOARD
    assert [r.table_id for r in world.db.results] == [table.table_id]


TABLE_CHANGES = {"act", "time_out", "join", "leave", "cancel", "start", "choose_rematch", "set_option"}
"""The methods of a table (:class:`TableSession`) that change its game or lobby."""
SEAT_CHANGES = {"come_back", "leave_game", "add_ai", "remove_ai", "seat_bots", "choose", "choose_clock"}
"""The functions of :mod:`engine.tables.ai_seats` and :mod:`engine.tables.lobby_options` that change a
table."""


def _changes(path: Path) -> list[str]:
    """The calls in ``path`` that change a table: a table method on a name that holds a table, or a seat or
    option function of the runtime."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = node.func.value
        name = receiver.id if isinstance(receiver, ast.Name) else ""
        if (node.func.attr in TABLE_CHANGES and name in {"session", "table", "finished", "rematch"}) or (
            node.func.attr in SEAT_CHANGES and name in {"ai_seats", "lobby_options"}
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}.{node.func.attr}(")
    return found


def test_no_second_place_applies_a_move() -> None:
    """Only :mod:`engine.tables.moves` changes a table's game or lobby (with the seat and option rules it
    calls); the Discord layer and the rest of the runtime go through the commit."""
    moves_module = ROOT / "engine/tables/moves.py"
    assert _changes(moves_module)  # the check sees the calls where they are
    rules = {moves_module, ROOT / "engine/tables/ai_seats.py", ROOT / "engine/tables/lobby_options.py"}
    paths = [*ROOT.joinpath("cogs").rglob("*.py"), *ROOT.joinpath("engine/tables").rglob("*.py")]
    paths += [*ROOT.joinpath("bot").rglob("*.py")]
    offenders = [call for path in paths if path not in rules for call in _changes(path)]
    assert offenders == []


class ShortPickAndCall(PickAndCall):
    """The toy game with a bound of four moves on its length."""

    max_moves = 4


async def test_a_game_past_its_bound_on_moves_ends_with_no_result_and_says_why() -> None:
    world = make_runtime()
    table = await opened(world, ShortPickAndCall())
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.Start(HOST, 7))
    for code, user in (("pick.1", HOST), ("pick.2", BOB), ("tap", HOST), ("tap", HOST)):
        await world.runtime.commit(table, moves.Play(user, table.state.version, code))
    assert table.phase is TablePhase.PLAYING and table.state.version == 4  # at the bound: plays on
    ended = await world.runtime.commit(table, moves.Play(HOST, 4, "tap"))
    assert ended.closed is not None and "no result" in ended.closed and "past 4 moves" in ended.closed
    assert world.runtime.registry.get(table.table_id) is None and table.table_id not in world.db.tables
    assert world.db.results == []  # no rating changes


async def test_ais_alone_at_a_table_still_pause_between_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once nobody can come back, the AIs finish the game with a short pause before each move (not the
    table's pause for people, and never none), so such a table never takes the database's whole write rate."""
    pauses: list[float] = []
    sleep = asyncio.sleep

    async def recorded(seconds: float) -> None:
        pauses.append(seconds)
        await sleep(0)

    world = make_runtime(ai_pause_seconds=3600)
    table = await opened(world, get_rules("foist"))
    await world.runtime.commit(table, moves.AddAI(HOST))
    await world.runtime.commit(table, moves.AddAI(HOST))
    await world.runtime.commit(table, moves.Start(HOST, 3))
    monkeypatch.setattr(asyncio, "sleep", recorded)
    await world.runtime.commit(table, moves.LeaveGame(HOST))
    await world.runtime.ai_turns.running[table.table_id]
    assert table.phase is TablePhase.SCOREBOARD
    unattended = world.runtime.ai_turns.unattended_pause_seconds
    assert 0 < unattended and pauses and set(pauses) == {unattended}
    assert 0 < UNATTENDED_PAUSE_SECONDS < 1  # what the bot runs with


async def test_after_a_restart_each_game_is_replayed_when_first_needed_exactly_as_at_once() -> None:
    """A restart reads the stored tables without replaying their games (but a lobby's, which has none):
    a turn clock that ran out while the bot was down fires on a table not replayed yet, a press finds its
    table replayed on demand, ``/hand`` in a DM finds the player's table, and the background pass replays
    the rest, an AI whose turn was pending first, which then plays. Each table replayed lazily equals the
    same stored table replayed at once."""
    before = make_runtime(ai_pause_seconds=3600)  # the AI's turn stays pending until the restart
    foist = get_rules("foist")
    tables = {}
    named = (("clock", "tblclk01", 22), ("ai", "tblai001", 21), ("press", "tblprs01", 23))
    for name, table_id, channel in named:  # started 5 s apart: only the first one's clock runs out
        before.clock.advance(5)
        table = TableSession.new(table_id, 10, channel, foist, TableSettings(30, 30, 2), HOST, "host")
        await before.runtime.open(table, lambda t=table: before.presenter.post_table(t, ""))
        await before.runtime.commit(table, moves.Join(BOB, "bob"))
        await before.runtime.commit(table, moves.AddAI(HOST))
        await before.runtime.commit(table, moves.Start(HOST, 11))
        while name == "ai" and table.players[table.state.seats_to_act()[0]] > 0:  # people play to the AI
            (seat,) = table.state.seats_to_act()
            code = table.state.default_action(seat)
            await before.runtime.commit(table, moves.Play(table.players[seat], table.state.version, code))
        tables[name] = table
    lobby = await opened(before, foist, table_id="tblloby1")
    before.runtime.tasks.cancel_all()
    ai_seat = tables["ai"].state.seats_to_act()[0]
    assert tables["ai"].players[ai_seat] < 0

    after = make_runtime(db=before.db, now=tables["clock"].deadline)  # down until the first deadline
    assert await after.runtime.restore() == 4
    registry = after.runtime.registry
    assert set(registry.waiting) == {"tblai001", "tblclk01", "tblprs01"}
    assert set(registry.tables) == {lobby.table_id} and "lobby:tblloby1" in after.scheduler.jobs
    # The clocks are armed from the stored deadlines as one job at the earliest, nothing replayed.
    assert after.scheduler.jobs[WAITING_JOB].next_run_time == tables["clock"].deadline

    eager = {name: stored_again(before, table.table_id) for name, table in tables.items()}
    await after.scheduler.run_due(after.clock.now)  # every clock due runs out, each table replayed for it
    timed_out = registry.tables["tblclk01"]
    assert timed_out.state.version == eager["clock"].state.version + 1 and timed_out.timed_out_positions
    assert "tblprs01" not in registry.tables and "tblclk01" not in registry.waiting
    assert after.scheduler.jobs[WAITING_JOB].next_run_time == tables["ai"].deadline  # the next one

    pressed = registry.get("tblprs01")  # a press on a table not replayed yet
    assert pressed is not None and "tblprs01" not in registry.waiting
    same_table(pressed, eager["press"])
    (seat,) = pressed.state.seats_to_act()
    code = pressed.state.default_action(seat)
    move = moves.Play(pressed.players[seat], pressed.state.version, code)
    played = await after.runtime.commit(pressed, move)
    assert played.move.code == code and len(after.db.actions["tblprs01"]) == len(pressed.state.history)

    assert registry.table_of_player(HOST, None) is not None  # /hand in a DM replays the player's tables
    assert registry.waiting == {}
    same_table(registry.tables["tblai001"], eager["ai"])
    assert {"turn:tblai001", "turn:tblprs01"} <= set(after.scheduler.jobs)  # replayed: their own clocks

    shown: list[str] = []
    await after.runtime.finish_restoring(lambda table: shown.append(table.table_id))  # the AI plays on
    assert sorted(shown) == sorted([lobby.table_id, *(t.table_id for t in tables.values())])
    ai_table = registry.tables["tblai001"]
    while ai_table.state.version == eager["ai"].state.version:
        await asyncio.sleep(0.001)
    assert ai_table.state.history[-1][0] == ai_seat
    after.runtime.tasks.cancel_all()


def stored_again(world: World, table_id: str) -> TableSession:
    """The table as stored in ``world``'s database, replayed at once from its whole log (no engine
    snapshot)."""
    snapshot, actions = stored_parts(world, table_id)
    return restore(snapshot, actions)


def stored_parts(world: World, table_id: str) -> tuple[TableSnapshot, list[tuple[int, str, bool]]]:
    """The table's snapshot and action log as stored in ``world``'s database."""
    guild_id, channel_id, game, text = world.db.tables[table_id]
    actions = [(action.seat, action.code, action.timed_out) for action in world.db.actions[table_id]]
    return TableSnapshot.from_stored(json.loads(text)), actions


def same_table(table: TableSession, expected: TableSession) -> None:
    """``table`` is ``expected``: the same game (its whole state, where the game has engine snapshots),
    last log lines, clocks, seat versions, time banks and what is stored of it."""
    assert table.state.history == expected.state.history
    assert table.state.engine_snapshot() == expected.state.engine_snapshot()
    assert (list(table.events), list(table.log_events)) == (list(expected.events), list(expected.log_events))
    assert (table.timed_out_positions, table.saved_actions, table.stored_log_outdated) == (
        expected.timed_out_positions,
        expected.saved_actions,
        expected.stored_log_outdated,
    )
    assert table.state.seats_to_act() == expected.state.seats_to_act()
    for seat in [None, *range(len(table.players))]:
        assert table.view(seat) == expected.view(seat)
    assert (table.seat_deadlines, table.deadline, table.clock_names) == (
        expected.seat_deadlines,
        expected.deadline,
        expected.clock_names,
    )
    assert (table.seat_versions, table.banks, table.idle_seats) == (
        expected.seat_versions,
        expected.banks,
        expected.idle_seats,
    )


async def long_game(world: World, key: str, table_id: str = "tbllong1", seed: int = 3) -> TableSession:
    """Three people play ``key`` past its first engine snapshot (to 66 actions, each through the commit),
    one of them running out of time just before the snapshot (so the last log lines it stores hold it, and
    the two actions after it do not push them out)."""
    table = TableSession.new(table_id, 10, 24, get_rules(key), TableSettings(30, 30, 2), HOST, "host")
    await world.runtime.open(table, lambda: world.presenter.post_table(table, ""))
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.Join(CAROL, "carol"))
    await world.runtime.commit(table, moves.Start(HOST, seed))
    while table.state.version < ENGINE_SNAPSHOT_EVERY + 2:
        assert table.phase is TablePhase.PLAYING
        if table.state.version == ENGINE_SNAPSHOT_EVERY - 2:
            world.clock.now = table.deadline
            assert await world.scheduler.run_due(world.clock.now) == [f"turn:{table_id}"]
            continue
        seat = table.state.seats_to_act()[0]
        code = table.state.default_action(seat)
        await world.runtime.commit(table, moves.Play(table.players[seat], table.state.version, code))
    assert table.timed_out_positions == {ENGINE_SNAPSHOT_EVERY - 2}
    return table


TAMPERED = {
    "declare": ("totals_q", 0),
    "memory": ("tokens", 0),
    "minimize": ("turns_taken", 0),
    "tokenize": ("scores", 0),
    "eradicize": ("turns",),
}
"""Where in each game's engine snapshot a number lies that the two actions after it keep (so a change to it
shows): a field, and an index into it if it is a list."""


def tampered(snapshot: dict[str, Any], key: str) -> int:
    """The number at ``TAMPERED[key]`` in an engine snapshot."""
    found: Any = snapshot
    for step in TAMPERED[key]:
        found = found[step]
    return found


def tamper(snapshot: dict[str, Any], key: str) -> None:
    """Add one to the number at ``TAMPERED[key]`` in an engine snapshot."""
    *path, last = TAMPERED[key]
    found: Any = snapshot
    for step in path:
        found = found[step]
    found[last] += 1


@pytest.mark.parametrize("key", sorted(TAMPERED))
async def test_a_long_game_comes_back_from_its_engine_snapshot_as_if_replayed_whole(key: str) -> None:
    """The engine snapshot is written with the 64th action; a restart rebuilds the game from it and the
    two actions after it, equal to the whole log replayed; and it is that snapshot the game comes from (a
    change to it, with the log's digest, shows in the revived game). The table's last log lines come back
    too: the snapshot's, then the lines of the actions after it."""
    before = make_runtime()
    table = await long_game(before, key)
    before.runtime.tasks.cancel_all()
    engine = before.db.engines[table.table_id]
    assert engine.version == ENGINE_SNAPSHOT_EVERY < table.state.version
    whole = stored_again(before, table.table_id)
    same_table(whole, table)

    after = make_runtime(db=before.db, now=before.clock.now)
    assert await after.runtime.restore() == 1
    revived = after.runtime.registry.get(table.table_id)
    assert revived is not None
    same_table(revived, whole)
    assert Event(revived.state.history[ENGINE_SNAPSHOT_EVERY - 2][0], "ran out of time.") in revived.events
    for seat in range(3):  # and it plays on alike
        assert revived.state.legal_actions(seat) == whole.state.legal_actions(seat)

    data = json.loads(engine.snapshot)
    tamper(data["state"], key)
    before.db.engines[table.table_id] = replace(engine, snapshot=json.dumps(data))
    again = make_runtime(db=before.db, now=before.clock.now)
    await again.runtime.restore()
    changed = again.runtime.registry.get(table.table_id)
    assert changed is not None and changed.state.history == whole.state.history
    assert tampered(changed.state.engine_snapshot(), key) == tampered(whole.state.engine_snapshot(), key) + 1


async def test_an_engine_snapshot_that_does_not_match_its_log_or_does_not_read_is_ignored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A snapshot taken of another log (its digest differs), past the end of the log, of another game, or
    unreadable: the table is replayed from its whole log, and the mismatch is logged."""
    world = make_runtime()
    table = await long_game(world, "declare")
    elsewhere = make_runtime()
    other = await long_game(elsewhere, "declare", table_id="tbllong2", seed=4)
    world.runtime.tasks.cancel_all()
    elsewhere.runtime.tasks.cancel_all()
    snapshot, log = stored_parts(world, table.table_id)
    whole = restore(snapshot, log)
    engine = world.db.engines[table.table_id]
    assert restore(snapshot, log, engine).state.engine_snapshot() == whole.state.engine_snapshot()
    flipped = [(seat, code, not timed_out) for seat, code, timed_out in log]  # the same moves, other clocks
    wrong = {
        "does not match": [
            replace(engine, digest=log_digest(flipped[: engine.version])),
            replace(engine, version=len(log) + 1, digest=log_digest(log)),
        ],
        "does not read": [
            replace(engine, snapshot="{"),
            replace(elsewhere.db.engines[other.table_id], digest=engine.digest),  # another game's
        ],
    }
    for words, snapshots in wrong.items():
        for bad in snapshots:
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="engine.tables.snapshot"):
                same_table(restore(snapshot, log, bad), whole)
            assert [r.getMessage() for r in caplog.records if words in r.getMessage()] != [], words


async def test_the_background_replay_gives_way_to_a_move_being_committed(monkeypatch) -> None:
    """After each slice the background pass waits until no move is being committed: a press takes several
    turns of the event loop, and a slice between each would hold it up for many slices."""
    monkeypatch.setattr(runtime_module, "RESTORE_SLICE_SECONDS", 0.0)  # every table its own slice
    monkeypatch.setattr(runtime_module, "GIVE_WAY_SECONDS", 60.0)  # the move, not the limit, ends the wait
    before = make_runtime()
    foist = get_rules("foist")
    for n in range(4):
        table = TableSession.new(f"tblgw{n:03d}", 10, 30 + n, foist, TableSettings(30, 30, 2), HOST, "host")
        await before.runtime.open(table, lambda t=table: before.presenter.post_table(t, ""))
        await before.runtime.commit(table, moves.Join(BOB, "bob"))
        await before.runtime.commit(table, moves.Join(BOB + 1, "carol"))
        await before.runtime.commit(table, moves.Start(HOST, 11))
    after = make_runtime(db=before.db)
    assert await after.runtime.restore() == 4
    registry = after.runtime.registry
    pressed = registry.get("tblgw000")  # replayed for the press
    assert pressed is not None and len(registry.waiting) == 3
    (seat,) = pressed.state.seats_to_act()
    move = moves.Play(pressed.players[seat], pressed.state.version, pressed.state.default_action(seat))
    answering = asyncio.Event()
    answered = asyncio.Event()

    async def answer(outcome) -> None:  # the press's answer, under the table's lock: held until released
        answering.set()
        await answered.wait()

    press = asyncio.ensure_future(after.runtime.commit(pressed, move, answer))
    await answering.wait()
    replay = asyncio.ensure_future(after.runtime.finish_restoring(lambda table: None))
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(registry.waiting) == 2  # one slice, then it waits for the move
    answered.set()
    await asyncio.wait_for(asyncio.gather(press, replay), 5)
    assert registry.waiting == {} and pressed.state.version == len(pressed.state.history)
    after.runtime.tasks.cancel_all()


async def test_what_the_discord_layer_notes_while_a_move_is_being_stored_is_kept() -> None:
    """The table message's id and a live DM are the Discord layer's, kept apart from the table (never on it,
    never in its snapshot: a move cannot lose them). Who wants DMs is the table's: "DM me my hand" pressed
    while a move is on its way to the database is a move, committed after the first."""
    world = make_runtime()
    table = await opened(world)
    await world.runtime.commit(table, moves.Join(BOB, "bob"))
    await world.runtime.commit(table, moves.Start(HOST, 7))
    gate, storing = asyncio.Event(), asyncio.Event()
    save_table = world.db.save_table

    async def slow_save(*args, **kwargs):
        storing.set()
        await gate.wait()
        return await save_table(*args, **kwargs)

    world.db.save_table = slow_save
    seat = table.state.seats_to_act()[0]
    code = table.state.default_action(seat)
    move = asyncio.ensure_future(
        world.runtime.commit(table, moves.Play(table.players[seat], table.state.version, code))
    )
    await storing.wait()
    with pytest.raises(AttributeError):
        table.message_id = 999  # type: ignore[attr-defined]
    wants = asyncio.ensure_future(world.runtime.commit(table, moves.WantDMs(BOB, True)))
    await asyncio.sleep(0)
    assert not wants.done() and BOB not in table.dm_wanted  # it waits for the move being stored
    gate.set()
    await asyncio.gather(move, wants)
    assert table.state.version == 1  # the move happened
    assert BOB in table.dm_wanted
    snapshot = json.loads(world.db.tables[table.table_id][3])
    assert BOB in snapshot["dm_wanted"] and not {"message_id", "live_dms"} & set(snapshot)
