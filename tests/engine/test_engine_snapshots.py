"""Engine snapshots (:meth:`engine.core.GameState.engine_snapshot`): a Minimize: Declare, Deluxe Memory,
MINIMIZE, TOKENIZE or ERADICIZE game written as JSON and rebuilt at a random point of random legal play is
the same game: the same fields, and from there on, playing the same actions, the same views for every seat,
legal actions, events, history, standings, resampled hidden information, future random draws and
snapshots. A snapshot of another format, shape or game is refused."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GameRules, GameState, get_rules
from engine.core import SNAPSHOT_FORMAT
from tests.engine.conftest import games_in_play, seats_with_actions

SNAPSHOT_GAMES = ("declare", "memory", "minimize", "tokenize", "eradicize")


def fields(state: GameState) -> dict[str, Any]:
    """Every field of ``state``, comparable: a generator as its state, a counter with its order (a card
    given up takes the first matching source), without the cache of legal actions (worked out again)."""
    found: dict[str, Any] = {}
    for name, value in vars(state).items():
        if name == "_offered":
            continue
        if isinstance(value, random.Random):
            value = value.getstate()
        elif isinstance(value, list) and value and isinstance(value[0], Counter):
            value = [list(counter.items()) for counter in value]
        found[name] = value
    return found


def rebuilt(state: GameState) -> GameState:
    """``state`` through its snapshot as the database holds it (JSON text) and back."""
    data = json.loads(json.dumps(state.engine_snapshot()))
    return type(state).from_engine_snapshot(data, list(state.history))


def same_play(one: GameState, other: GameState) -> None:
    """What ``one`` and ``other`` show and offer now is the same."""
    assert one.history == other.history and one.version == other.version
    assert one.seats_to_act() == other.seats_to_act() and one.is_terminal() == other.is_terminal()
    for seat in [None, *range(one.num_seats)]:
        assert one.view(seat) == other.view(seat)
    for seat in range(one.num_seats):
        assert one.legal_actions(seat) == other.legal_actions(seat)
    assert one.public_actions() == other.public_actions()
    if one.is_terminal():
        assert one.standings() == other.standings()


def same_resampling(one: GameState, other: GameState, seed: int) -> None:
    for viewer in [None, *range(one.num_seats)]:
        mine = one.resample_hidden(viewer, random.Random(seed))
        theirs = other.resample_hidden(viewer, random.Random(seed))
        assert fields(mine) == fields(theirs)


def any_options(rules: GameRules) -> st.SearchStrategy[dict[str, Any]]:
    """Any options of ``rules``' game: each yes/no option either way, each choice among its values."""
    return st.fixed_dictionaries(
        {
            name: st.booleans() if field.annotation is bool else st.sampled_from(get_args(field.annotation))
            for name, field in rules.options_model.model_fields.items()
        }
    )


@pytest.mark.parametrize("key", SNAPSHOT_GAMES)
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_a_game_rebuilt_from_its_snapshot_plays_on_exactly_as_the_original(key: str, data) -> None:
    rules = get_rules(key)
    options = data.draw(any_options(rules))
    _, state = data.draw(games_in_play(rules, options=options))
    picker = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(0, 400))):  # any point of a game: late ones too (piles run out)
        if state.is_terminal():
            break
        seat = picker.choice(seats_with_actions(state))
        state.apply(seat, picker.choice(state.legal_actions(seat)).code)
    snapshot = state.engine_snapshot()
    assert snapshot is not None and snapshot["format"] == SNAPSHOT_FORMAT
    copy = rebuilt(state)
    assert type(copy) is type(state) and fields(copy) == fields(state)
    assert copy.engine_snapshot() == json.loads(json.dumps(snapshot))
    resample_seed = data.draw(st.integers(0, 2**32))
    same_resampling(state, copy, resample_seed)
    for step in range(60):  # every field after every action; every tenth, what it shows and offers, its
        assert fields(copy) == fields(state)  # snapshot, and a snapshot taken there read back
        if step % 10 == 0:
            same_play(state, copy)
            assert copy.engine_snapshot() == state.engine_snapshot()
            assert fields(rebuilt(state)) == fields(state)
        if state.is_terminal():
            break
        seat = picker.choice(seats_with_actions(state))
        code = picker.choice(state.legal_actions(seat)).code
        assert state.apply(seat, code) == copy.apply(seat, code)
    same_play(state, copy)
    assert fields(copy) == fields(state) and copy.engine_snapshot() == state.engine_snapshot()
    same_resampling(state, copy, resample_seed)


@pytest.mark.parametrize("key", SNAPSHOT_GAMES)
def test_a_snapshot_of_another_format_or_shape_is_refused(key: str) -> None:
    state = get_rules(key).new_game(3, 5)
    snapshot = state.engine_snapshot()
    assert snapshot is not None
    with pytest.raises(ValueError, match="format"):
        type(state).from_engine_snapshot({**snapshot, "format": SNAPSHOT_FORMAT + 1}, [])
    with pytest.raises(KeyError):
        type(state).from_engine_snapshot({"format": SNAPSHOT_FORMAT, "num_seats": 3, "seed": 5}, [])
    for other in SNAPSHOT_GAMES:
        if other != key:
            theirs = get_rules(other).new_game(3, 5).engine_snapshot()
            with pytest.raises((ValueError, KeyError, TypeError)):
                type(state).from_engine_snapshot(theirs, [])


def test_games_without_a_snapshot_say_so_and_are_replayed() -> None:
    state = get_rules("foist").new_game(3, 5)
    assert state.engine_snapshot() is None
    with pytest.raises(NotImplementedError):
        type(state).from_engine_snapshot({}, [])
