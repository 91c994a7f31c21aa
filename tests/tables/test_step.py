"""A table is a value and :func:`engine.tables.step.step` the one way to the next one: step never changes the
table it is given (over random play of every game, and when it refuses), a table refuses every change, the
effects step returns say what must follow, and nothing outside step makes or changes a table (read from the
source, and over a whole game through the runtime)."""

from __future__ import annotations

import ast
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from engine import GAMES, IllegalAction, get_rules
from engine.lobby import RematchChoice
from engine.tables import moves, step
from engine.tables.session import TableDraft, TableError, TablePhase, TableSession, TableSettings
from engine.tables.table import Table
from tests.tables.fakes import make_runtime

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
HOST, BOB, CAROL = 1, 2, 3
ROOT = Path(__file__).resolve().parents[2]


def lobby(game: str = "foist", people: tuple[int, ...] = (BOB, CAROL)) -> Table:
    draft = TableDraft("abcd1234", 10, 20, get_rules(game), TableSettings(30, 5, 2), HOST, "host")
    for user in people:
        draft.join(user, f"user{user}")
    return draft.freeze()


def stepped(table: Table, move: moves.Move, now: datetime = NOW) -> tuple[Table, tuple[step.Effect, ...]]:
    """Step, checking that the table given is exactly as it was."""
    before = table.fingerprint()
    new, effects = step.step(table, move, now)
    assert table.fingerprint() == before, f"{move} changed the table it was given"
    assert new is not table
    return new, effects


def kinds(effects: tuple[step.Effect, ...]) -> list[str]:
    return [type(effect).__name__ for effect in effects]


def test_a_table_refuses_every_change() -> None:
    table = lobby()
    with pytest.raises(AttributeError):
        table.phase = TablePhase.CLOSED  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del table.names
    with pytest.raises(TypeError):
        table.names[BOB] = "someone else"  # type: ignore[index]
    with pytest.raises(AttributeError):
        table.dm_wanted.add(BOB)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        table.lobby.join(99)  # its players are a tuple: a draft's lobby joins
    live = TableSession(table)
    with pytest.raises(AttributeError):
        live.phase = TablePhase.CLOSED  # type: ignore[misc]
    with pytest.raises(AttributeError):
        live.message_id = 5  # type: ignore[attr-defined]  # where it is shown is the Discord layer's
    assert live.value is table and not hasattr(live, "message_id")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_step_never_changes_the_table_it_is_given_over_random_play(game: str) -> None:
    rules = get_rules(game)
    people = tuple(range(2, 1 + rules.min_seats))
    table, effects = stepped(lobby(game, people), moves.Start(HOST, 11))
    assert table.phase is TablePhase.PLAYING
    assert kinds(effects) == ["Store", "DisarmLobbyClock", "ArmTurnClock", "PlayAITurns", "Show"]
    rng = random.Random(game)
    now = NOW
    for _ in range(400):
        if table.phase is not TablePhase.PLAYING:
            break
        now += timedelta(seconds=1)
        seat = rng.choice(table.state.seats_to_act())
        if rng.random() < 0.1:  # the clock runs out on every seat due
            table, effects = stepped(table, moves.TimeOut(), table.deadline)
            continue
        code = rng.choice(table.legal_actions(seat)).code
        table, effects = stepped(table, moves.Play(table.players[seat], table.state.version, code), now)
        assert effects[0] == step.Store() and isinstance(effects[-1], step.Show)
        for refused in (
            moves.Play(table.players[seat], table.state.version + 3, code),  # from a later turn: forged
            moves.Join(HOST, "host"),
        ):
            before = table.fingerprint()
            with pytest.raises(TableError):
                step.step(table, refused, now)
            assert table.fingerprint() == before
    if table.phase is TablePhase.SCOREBOARD:
        assert table.result_saved  # as it will be stored: with its result
        assert {"DisarmTurnClock", "FreeChannel", "ArmRematchClock"} <= set(kinds(effects))


def test_a_move_the_game_refuses_changes_nothing() -> None:
    table, _ = stepped(lobby(), moves.Start(HOST, 3))
    before = table.fingerprint()
    seat = table.state.seats_to_act()[0]
    with pytest.raises(IllegalAction):
        step.step(table, moves.Play(table.players[seat], table.state.version, "no-such-action"), NOW)
    assert table.fingerprint() == before


def test_the_effects_of_closing_and_of_the_end_of_a_scoreboard() -> None:
    closed, effects = stepped(lobby(), moves.Cancel(HOST))
    assert closed.phase is TablePhase.CLOSED
    assert effects == (step.Forget(step.TABLE_CLOSED), step.Show(effects[1].note, closed=effects[1].note))
    table, _ = stepped(lobby(), moves.Start(HOST, 3))
    while table.phase is TablePhase.PLAYING:
        seat = table.state.seats_to_act()[0]
        table, _ = stepped(table, moves.Play(table.players[seat], table.state.version, "take"))
    table, effects = stepped(table, moves.ChooseRematch(BOB, RematchChoice.PLAY_AGAIN))
    assert kinds(effects) == ["Store", "PlayAITurns", "Show"]
    table, effects = stepped(table, moves.RematchWindowClosed())
    assert kinds(effects) == ["Forget", "Show", "OpenRematch"]
    assert effects[-1].lobby.players == [BOB] and effects[1].rematch and effects[1].scoreboard_ended


def test_a_hint_counted_is_stored_and_nothing_else() -> None:
    draft = TableDraft("abcd1234", 10, 20, get_rules("foist"), TableSettings(30, 5, 2), HOST, "host")
    draft.hints = True
    table, _ = stepped(draft.freeze(), moves.AddAI(HOST))
    table, _ = stepped(table, moves.AddAI(HOST))
    table, _ = stepped(table, moves.Start(HOST, 3))
    counted, effects = stepped(table, moves.CountHint(HOST))
    assert effects == (step.Store(),) and counted.hint_counts == {HOST: 1}


def test_the_views_kept_of_a_table_share_one_scene() -> None:
    table, _ = stepped(lobby(), moves.Start(HOST, 3))
    public = table.view(None)
    assert public.scene is not None and table.view(None) is public  # computed once
    assert all(table.view(seat).scene is public.scene for seat in range(3))
    seat = table.state.seats_to_act()[0]
    after, _ = stepped(table, moves.Play(table.players[seat], table.state.version, "take"))
    assert after.view(1).scene != public.scene


# -- nothing outside step makes or changes a table ----------------------------------------------------------


def calls_in(path: Path, method: str) -> list[int]:
    tree = ast.parse(path.read_text())
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "gc")  # gc.freeze()
    ]


MAY_CALL = {
    "freeze": {"engine/tables/step.py", "engine/tables/session.py"},  # step; a new live table from a draft
    "draft": {"engine/tables/step.py"},
    "swap": {"engine/tables/runtime.py"},  # the commit makes a stored table the live one
}
"""Who may turn a draft into a table (``freeze``), a table into a draft (``draft``), and change which table
a live table is (``swap``), in the project's code."""


def test_nothing_in_the_project_but_step_makes_or_changes_a_table() -> None:
    found: dict[str, set[str]] = {method: set() for method in MAY_CALL}
    for package in ("engine", "cogs", "bot", "storage"):
        for path in (ROOT / package).rglob("*.py"):
            name = str(path.relative_to(ROOT))
            for method in MAY_CALL:
                if calls_in(path, method):
                    found[method].add(name)
            around_tables = name.startswith(("engine/tables/", "cogs/", "bot/", "storage/"))
            if around_tables and name not in ("engine/tables/table.py", "engine/tables/session.py"):
                text = path.read_text()
                assert "object.__setattr__" not in text and "__dict__" not in text, name  # no way around
    assert found == MAY_CALL


async def test_no_table_a_live_table_has_been_changes_over_a_whole_game_through_the_runtime() -> None:
    world = make_runtime()
    live = TableSession.new("tbl00001", 10, 20, get_rules("foist"), TableSettings(30, 30, 2), HOST, "host")
    await world.runtime.open(live, lambda: world.presenter.post_table(live, ""))
    seen = [(live.value, live.value.fingerprint())]
    await world.runtime.commit(live, moves.Join(BOB, "bob"))
    await world.runtime.commit(live, moves.Join(CAROL, "carol"))
    await world.runtime.commit(live, moves.Start(HOST, 5))
    seen.append((live.value, live.value.fingerprint()))
    while live.phase is TablePhase.PLAYING:
        seat = live.state.seats_to_act()[0]
        user = live.players[seat]
        await world.runtime.commit(live, moves.Play(user, live.state.version, "take"))
        seen.append((live.value, live.value.fingerprint()))
    assert live.phase is TablePhase.SCOREBOARD and len({id(value) for value, _ in seen}) == len(seen)
    assert all(value.fingerprint() == fingerprint for value, fingerprint in seen)
