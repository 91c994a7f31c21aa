"""Stored tables from the release before the table runtime left ``cogs/tables/`` come back after the
upgrade, and play on to the end.

``tests/data/release_tables.db`` is a SQLite database written by that release's own code (by
``tests/data/make_release_db.py``, whose docstring says which commit and how), holding live tables: a game
in the middle for each of the seven games (people and AI seats, turns that ran out, a time bank, a player
away, a player who left, options), a lobby with options and a finished game on its scoreboard with its
result stored. ``release_tables.json`` beside it says what each table held when it was stored; it is the
writer's record, not read back from the database, so a table that comes back different fails here.

Each test opens a copy of the file with today's :class:`storage.Database` (which applies any migration
written since) and restores the tables with today's table runtime.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from engine import GameState, get_rules, replay
from engine.tables import ai_seats, moves
from engine.tables.registry import TableRegistry
from engine.tables.session import TablePhase, TableSession
from engine.tables.snapshot import TableSnapshot, restore, upgraded_log
from engine.tables.store import TableStore
from storage import Database, StoredTable
from tests.tables.fakes import World, make_runtime

DATA = Path(__file__).resolve().parents[1] / "data"
RELEASE_DB = DATA / "release_tables.db"
RELEASE = json.loads((DATA / "release_tables.json").read_text())
TABLES: dict[str, dict[str, Any]] = RELEASE["tables"]
NAMES = [f"{table['game']}-{table['phase']}" for table in TABLES.values()]  # test ids: foist-playing, ...
MOST_MOVES = 20_000  # a game played at random ends long before (Declare, the longest, in ~1,500)


def restored(stored: StoredTable) -> tuple[TableSession, TableSnapshot]:
    """A stored table rebuilt from its snapshot and action log, with the snapshot it was read from."""
    snapshot = TableSnapshot.from_stored(stored.snapshot)
    log = [(action.seat, action.code, action.timed_out) for action in stored.actions]
    return restore(snapshot, log), snapshot


def table_store(db: Database) -> tuple[TableStore, TableRegistry]:
    """The store the bot brings tables back with at start, on ``db``, with its registry."""
    registry = TableRegistry()
    return TableStore(db, registry, lambda: False), registry


async def play_once(world: World, table: TableSession, seat: int, code: str) -> None:
    """``seat`` plays ``code`` through the runtime's one commit, as the bot would have it played: by its
    person, or by the AI that plays it. The runtime's own AI turns play the AI seats too, meanwhile: a move
    of the test's that one of them made first is stale and dropped (the loop goes on from the table)."""
    assert table.state is not None
    version = table.state.version
    if ai_seats.ai_plays(table, seat):
        with contextlib.suppress(moves.Unchanged):
            await world.runtime.commit(table, moves.AIPlay(seat, version, code, table.state))
    else:
        await world.runtime.commit(table, moves.Play(table.players[seat], version, code))


# -- the tests -------------------------------------------------------------------------------------------


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """Today's database on a copy of the release's file."""
    copy = tmp_path / "bot.db"
    shutil.copyfile(RELEASE_DB, copy)
    with closing(sqlite3.connect(copy)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (RELEASE["schema_version"],)
    database = await Database.open(copy)
    yield database
    await database.close()


def moment(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def replayed(table: dict[str, Any]) -> GameState:
    """The game of ``table`` as the engine deals it from the seed and plays the written log."""
    rules = get_rules(table["game"])
    return replay(
        rules, len(table["players"]), table["seed"], table["options"], [(s, c) for s, c, _ in table["log"]]
    )


def same_state(state: GameState, expected: GameState) -> None:
    assert state.history == expected.history
    assert state.options == expected.options
    assert state.seats_to_act() == expected.seats_to_act()
    assert state.is_terminal() == expected.is_terminal()
    for seat in [None, *range(state.num_seats)]:
        assert state.view(seat) == expected.view(seat)
        if seat is not None:
            assert state.legal_actions(seat) == expected.legal_actions(seat)


async def test_every_stored_table_comes_back_in_order(db: Database) -> None:
    stored = await db.load_table_logs()
    assert [table.table_id for table in stored] == list(TABLES)
    store, registry = table_store(db)
    sessions = [store.restore(table) for table in await store.load_waiting()]
    assert registry.gone == {}
    assert [session.table_id for session in sessions] == list(TABLES)
    assert all(
        registry.tables[table_id] is session for table_id, session in zip(TABLES, sessions, strict=True)
    )


@pytest.mark.parametrize("table_id", list(TABLES), ids=NAMES)
async def test_a_table_comes_back_as_it_was_written(db: Database, table_id: str) -> None:
    table = TABLES[table_id]
    stored = await db.load_table(table_id)
    assert stored is not None
    assert (stored.guild_id, stored.channel_id, stored.game) == (
        table["guild_id"],
        table["channel_id"],
        table["game"],
    )
    assert [[a.seat, a.code, a.timed_out] for a in stored.actions] == table["log"]
    session, snapshot = restored(stored)

    assert session.rules.key == table["game"] and session.phase.value == table["phase"]
    assert (session.guild_id, session.channel_id) == (table["guild_id"], table["channel_id"])
    assert session.host_id == table["host_id"]
    assert list(session.lobby.players) == table["lobby_players"] and list(session.players) == table["players"]
    assert [user for user in session.players or session.lobby.players if user < 0] == table["ai_seats"]
    assert session.names == {int(user): name for user, name in table["names"].items()}
    assert sorted(session.dm_wanted) == table["dm_wanted"]
    settings = session.settings
    assert {
        "turn_seconds": settings.turn_seconds,
        "idle_turn_seconds": settings.idle_turn_seconds,
        "idle_after_timeouts": settings.idle_after_timeouts,
        "rematch_seconds": settings.rematch_seconds,
        "time_control": asdict(settings.time_control),
    } == table["settings"]
    assert moment(session.started_at) == table["started_at"]
    assert moment(session.finished_at) == table["finished_at"]
    assert moment(session.deadline) == table["deadline"]
    assert {str(seat): moment(when) for seat, when in session.seat_deadlines.items()} == table[
        "seat_deadlines"
    ]
    assert list(session.seat_versions) == table["seat_versions"]
    assert [[bank.remaining, moment(bank.running_since)] for bank in session.banks] == table["banks"]
    assert {str(seat): count for seat, count in session.timeouts_in_row.items()} == table["timeouts_in_row"]
    assert sorted(session.idle_seats) == table["idle_seats"]
    assert sorted(session.left_seats) == table["left_seats"]
    rematch = session.rematch
    assert (
        None
        if rematch is None
        else {
            "players": list(rematch.players),
            "host_id": rematch.host_id,
            "choices": {str(user): choice.value for user, choice in rematch.choices.items()},
        }
    ) == table["rematch"]
    assert session.result_saved == table["result_saved"]
    # Its table message, moved out of the snapshot by the upgrade (V012) into the Discord layer's rows.
    assert not {"message_id", "message_posted_at", "live_dms"} & set(stored.snapshot)
    (shown,) = [entry for entry in await db.table_messages() if entry.table_id == table_id]
    assert shown.message_id == table["message_id"]
    assert moment(shown.posted_at) == table["message_posted_at"]
    # Today's engine reads the release's log as it is, but for what an engine's upgrade rewrites (Minimisère's
    # one-press Lot bids, now two moves): that log is stored upgraded at the table's next save.
    log = [(seat, code) for seat, code, _ in table["log"]]
    assert session.stored_log_outdated == (get_rules(table["game"]).upgrade_log(log) != log)

    state = session.state
    if table["seed"] is None:
        assert state is None and session.options == table["options"]
        return
    assert state is not None and state.seed == table["seed"]
    assert state.options.model_dump(mode="json") == table["options"]
    written = [(seat, code, timed_out) for seat, code, timed_out in table["log"]]
    assert [
        (seat, code, position in session.timed_out_positions)
        for position, (seat, code) in enumerate(state.history)
    ] == upgraded_log(get_rules(table["game"]), written)  # the log as written, as today's engine reads it
    same_state(state, replayed(table))
    assert list(state.seats_to_act()) == table["seats_to_act"]
    assert {
        str(seat): [a.code for a in state.legal_actions(seat)] for seat in range(state.num_seats)
    } == table["legal_actions"]
    standings = None if not state.is_terminal() else [[s.points, s.rank] for s in state.standings()]
    assert standings == table["standings"]


@pytest.mark.parametrize("table_id", list(TABLES), ids=NAMES)
async def test_a_table_plays_on_to_its_end_and_its_result_is_stored_once(db: Database, table_id: str) -> None:
    table = TABLES[table_id]
    rng = random.Random(table_id)
    now = datetime.fromisoformat(table["deadline"] or table["message_posted_at"])
    world = make_runtime(db=db, now=now)
    assert await world.runtime.restore() == len(TABLES)
    session = world.runtime.registry.get(table_id)  # its game replayed as it is first needed
    shown = {entry.table_id: entry.message_id for entry in await db.table_messages()}
    assert session is not None and shown[table_id] == table["message_id"]
    if session.phase is TablePhase.LOBBY:
        await world.runtime.commit(session, moves.Start(session.host_id, rng.getrandbits(63)))
        assert session.state is not None
        options = session.rules.options_model.model_validate(table["options"])
        assert session.state.options == options  # the options set in the lobby hold in the game
    elif session.phase is TablePhase.PLAYING:  # the bot was down past the deadline: the clock runs out now
        version = session.state.version
        assert f"turn:{table_id}" in await world.scheduler.run_due(now)  # every table due runs out
        assert session.state.version > version, "no clock ran out at the stored deadline"
    else:  # the release's finished game: its result was stored then
        assert await db.result_count(table_id) == 1
    for _ in range(MOST_MOVES):
        state = session.state
        if session.phase is not TablePhase.PLAYING:
            break
        assert state is not None
        seat = rng.choice(state.seats_to_act())
        world.clock.advance(3)
        await play_once(world, session, seat, rng.choice(state.legal_actions(seat)).code)
    assert session.phase is TablePhase.SCOREBOARD and session.state is not None and session.result_saved

    game_id = await db.finished_game_id(table["guild_id"], table_id)
    assert game_id is not None and await db.result_count(table_id) == 1
    game = await db.finished_game(table["guild_id"], game_id)
    assert game is not None
    assert game.game == table["game"] and game.seed == session.state.seed
    assert game.actions == session.state.history
    assert [seat.user_id for seat in game.seats] == list(session.players)
    assert [seat.is_ai for seat in game.seats] == [user < 0 for user in session.players]
    assert [[seat.points, seat.rank] for seat in game.seats] == [
        [s.points, s.rank] for s in session.standings()
    ]
    if table["standings"] is not None:  # the release's own finished game keeps the result it stored
        assert [[seat.points, seat.rank] for seat in game.seats] == table["standings"]

    await world.runtime.store.persist(session)  # a later save of the scoreboard stores no result again
    assert await db.result_count(table_id) == 1
    stored = await db.load_table(table_id)
    assert stored is not None
    again, _ = restored(stored)
    assert again.phase is TablePhase.SCOREBOARD and again.result_saved
    same_state(again.state, session.state)
