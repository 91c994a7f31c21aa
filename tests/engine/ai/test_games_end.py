"""Every game ends: all-AI games of every game at its smallest and largest player count end
within the game's bound on moves (``GameRules.max_moves``, stated in each rules doc under ``docs/rules/``),
played as ``bench/games_end.py`` plays them (the runtime's decision generators); the benchmark plays
thousands, this a sample. And the Minimize: Declare table that once looped (three players, seed 35)."""

from __future__ import annotations

import random

import pytest

from engine.ai.registry import ai_player
from engine.declare import DeclareState
from engine.declare.ai import DRAG_END, DeclarePlayer
from engine.registry import GAMES
from engine.tables.ai_turns import decision_rng

SAMPLE = {"eradicize": 2, "minimize": 2, "declare": 5, "minimisere": 5}
"""Seeds per count for the games whose games take longest (about 2-4 s a game at 8 players for MINIMIZE and
ERADICIZE, 1 s for Declare at 10); 10 for the rest. The benchmark plays 2,000 and 200 a count
(``docs/performance.md``, "Every game ends"): this sample keeps the suite's time in check."""


def moves_to_end(game_key: str, seats: int, seed: int, rng: random.Random | None = None) -> int:
    """Moves the all-AI game takes (stopped one past the bound); one ``rng`` for every decision if given,
    else the runtime's generator per decision."""
    rules = GAMES[game_key]
    state = rules.new_game(seats, seed)
    ai = ai_player(game_key)
    moves = 0
    while not state.is_terminal() and moves <= rules.max_moves:
        seat = state.seats_to_act()[0]
        state.apply(seat, ai.choose(state, seat, rng or decision_rng(seed, state.version, seat)))
        moves += 1
    return moves


@pytest.mark.parametrize(
    ("game_key", "seats"),
    [(key, count) for key, rules in GAMES.items() for count in (rules.min_seats, rules.max_seats)],
)
def test_all_ai_games_end_within_the_bound(game_key: str, seats: int) -> None:
    bound = GAMES[game_key].max_moves
    assert isinstance(bound, int)  # every game the bot hosts states its bound
    for seed in range(SAMPLE.get(game_key, 10)):
        assert moves_to_end(game_key, seats, seed) <= bound, f"{game_key} at {seats}, seed {seed}"


@pytest.mark.parametrize(("seats", "seed"), [(3, 35), (3, 211), (3, 221), (4, 68)])
def test_the_declare_tables_that_looped_end(seats: int, seed: int) -> None:
    """With one generator for every decision these tables once ran past 3,000 moves: at three players,
    seed 35, the seats passed a 4 and a 5 round for ever (nobody at 7 or less); at seeds 211 and 221 and at
    four players, seed 68, every hand was known and tied with another, so no call could succeed."""
    assert moves_to_end("declare", seats, seed, random.Random(seed)) <= GAMES["declare"].max_moves


def _tied_known_hands(earlier_throws: int) -> DeclareState:
    """Two seats, each holding a lone 1 the other has seen, seat 0 to play; the history holds
    ``earlier_throws`` more throws of this deal."""
    state = DeclareState.scripted([["1r", "1y", "np"], ["9g"]], dealer=1)
    state.apply(0, "t1y")
    state.apply(0, "nopick")
    state.apply(1, "t9g")
    state.apply(1, "take1y")
    state.history[:0] = [(1, "t5g")] * earlier_throws
    assert state.hand(0) == ("1r",) and state.known_cards(1) == ("1y",)
    return state


def test_a_tie_fails_the_call_until_the_round_has_dragged_on() -> None:
    """A tie fails the call (ruling 2), so with both hands at 1 point and known the chance reads 0 and it
    does not declare early in a deal; once the round has lasted ``DRAG_END`` rounds of turns it declares."""
    ai = DeclarePlayer(samples=8)
    assert ai._declare_chance(_tied_known_hands(0), 0, random.Random(0)) == 0.0
    assert ai.choose(_tied_known_hands(0), 0, random.Random(0)) != "declare"
    assert ai.choose(_tied_known_hands(2 * DRAG_END), 0, random.Random(0)) == "declare"


def test_the_threshold_falls_to_zero_as_the_round_drags_on() -> None:
    ai = DeclarePlayer(declare_at=0.9)
    assert ai._threshold(0) == ai._threshold(10) == 0.9
    assert ai._threshold(15) == pytest.approx(0.45)
    assert ai._threshold(DRAG_END) == ai._threshold(DRAG_END + 5) == 0.0


def test_a_dragging_round_is_played_with_draws() -> None:
    """Past ``DRAG_END`` rounds of turns the pick is a draw, even where a low card could be taken."""
    state = DeclareState.scripted([["Cb", "Bg"], ["1y", "9g"], ["2y", "8g"]], dealer=1)
    state.apply(2, "t2y")
    state.apply(2, "draw")
    state.apply(0, "tCb")
    assert DeclarePlayer(samples=4).choose(state, 0, random.Random(0)) == "take2y"
    state.history.extend([(1, "t9g")] * (3 * DRAG_END))
    assert DeclarePlayer(samples=4).choose(state, 0, random.Random(0)) == "draw"
