"""Every level of every game's AI decides only from what its seat may see, by construction: a
player is handed an :class:`~engine.ai.core.InformationSet`, never the state, and its decision is the same
whichever world the seat's information came from (the hidden parts resampled). Random seeds and moments
of the game, drawn by hypothesis; legal moves only. The coach's hint is the hard AI's legal move, with a
reason, from the seat's view alone. That every level's games end: ``bench/games_end.py
--level``."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ai.coach import hint_for
from engine.ai.core import InformationSet, RandomPlayer
from engine.ai.registry import AI_MODULES, LEVELS, ai_player
from engine.registry import GAMES


def moment(game_key: str, seed: int, moves: int) -> tuple:
    """A game of ``game_key`` at three seats dealt from ``seed`` after up to ``moves`` random legal moves,
    and the first seat it waits for (``None`` if it ended)."""
    state = GAMES[game_key].new_game(3, seed)
    walker, rng = RandomPlayer(), random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            return state, None
        seat = state.seats_to_act()[0]
        state.apply(seat, walker.choose(state, seat, rng))
    return state, (None if state.is_terminal() else state.seats_to_act()[0])


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_key", sorted(AI_MODULES))
@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 40), other=st.integers(0, 10_000))
def test_a_decision_is_legal_and_the_same_when_what_the_seat_cannot_see_is_resampled(
    game_key: str, level: str, seed: int, moves: int, other: int
) -> None:
    state, seat = moment(game_key, seed, moves)
    if seat is None:
        return
    ai = ai_player(game_key, level)
    seen = InformationSet.of(state, seat)
    assert seen.world is not state and seen.view == state.view(seat) and seen.history == tuple(state.history)
    code = ai.choose(state, seat, random.Random(seed))
    assert code in {action.code for action in state.legal_actions(seat)}
    world = state.resample_hidden(seat, random.Random(other))
    assert ai.choose(world, seat, random.Random(seed)) == code


@pytest.mark.parametrize("game_key", sorted(AI_MODULES))
def test_the_coach_s_hint_is_the_hard_ai_s_legal_move_with_a_reason_from_the_seat_s_view(
    game_key: str,
) -> None:
    state, seat = moment(game_key, 11, 5)
    assert seat is not None
    given_hint = hint_for(game_key, state, seat)
    assert given_hint.code in {action.code for action in state.legal_actions(seat)}
    assert given_hint.reason.startswith("{b:") and len(given_hint.reason) > 10
    assert hint_for(game_key, state.resample_hidden(seat, random.Random(1)), seat) == given_hint
