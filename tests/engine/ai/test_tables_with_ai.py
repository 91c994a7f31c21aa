"""Every game with AI seats (the registry's players, as tables seat them) makes only legal moves and always
ends, over random seeds, seat counts and one human-like random seat among the AIs; and an AI's decision is
the same for the same state, seat and generator (the runtime seeds it from the table's seed, the state's
version and the seat, so a replayed game decides alike)."""

from __future__ import annotations

import random

import pytest

from engine.ai.core import RandomPlayer
from engine.ai.registry import ai_player
from engine.registry import GAMES

MAX_MOVES = 20_000


def play_out(key: str, seed: int, seats: int, human_seat: int | None) -> tuple[int, list[tuple[int, str]]]:
    """Play a game to its end: the AI in every seat but ``human_seat`` (a random player). Every move goes
    through ``apply``, which refuses an illegal one. Returns the moves played and the log."""
    rules = GAMES[key]
    state = rules.new_game(seats, seed, {})
    ai, person = ai_player(key), RandomPlayer()
    for moves in range(MAX_MOVES):
        if state.is_terminal():
            return moves, list(state.history)
        seat = state.seats_to_act()[0]
        player = person if seat == human_seat else ai
        code = player.choose(state.copy(), seat, random.Random(f"ai:{seed}:{state.version}:{seat}"))
        assert code in {action.code for action in state.legal_actions(seat)}, (key, seed, code)
        state.apply(seat, code)
    raise AssertionError(f"{key} seed {seed} did not end in {MAX_MOVES} moves")


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("seed", range(3))  # the real AIs think up to 100 ms a move: few, whole games
def test_a_table_with_ai_seats_plays_legally_to_the_end(key: str, seed: int) -> None:
    rules = GAMES[key]
    rng = random.Random(seed)
    seats = rng.randint(rules.min_seats, min(rules.max_seats, 6))
    human_seat = rng.choice([None, *range(seats)])
    moves, _ = play_out(key, seed, seats, human_seat)
    assert moves > 0
    state = rules.new_game(seats, seed, {})
    assert not state.is_terminal()


def test_a_game_of_ais_is_determined_by_its_seed() -> None:
    assert play_out("foist", 11, 3, None) == play_out("foist", 11, 3, None)
