"""The Frazzled Wool AI players (MINIMIZE, TOKENIZE, ERADICIZE): legal, ending, honest, pure.

Honesty: every player decides on a world drawn with ``resample_hidden`` for its seat, and that resample is
canonical (it depends only on what the seat has seen and on the generator). The properties here prove
both: resampling a state gives the same world as resampling a resample, and resampling what the seat
cannot see leaves the AI's choice unchanged.
"""

from __future__ import annotations

import random

import pytest

from engine.ai.core import RandomPlayer
from engine.ai.registry import ai_player, greedy_player
from engine.core import GameState
from engine.frazzled import Phase
from engine.frazzled import ai as frazzled
from engine.frazzled.ai_eradicize import EradicizePlayer
from engine.frazzled.ai_minimize import MinimizePlayer
from engine.frazzled.ai_tokenize import TokenizePlayer
from engine.registry import GAMES

KEYS = ("minimize", "tokenize", "eradicize")
MAX_STEPS = 20_000


def small_ai(key: str):
    """The game's AI with a small search budget, to keep the tests quick."""
    if key == "minimize":
        return MinimizePlayer(samples=3)
    if key == "tokenize":
        return TokenizePlayer(samples=2)
    return EradicizePlayer(worlds=2, depth=10)


def random_step(state: GameState, rng: random.Random) -> None:
    """One random legal move by a random seat that may act (out-of-turn sets included)."""
    seats = [seat for seat in range(state.num_seats) if state.legal_actions(seat)]
    seat = rng.choice(seats)
    state.apply(seat, rng.choice(state.legal_actions(seat)).code)


def positions(key: str, count: int, *, seats: int = 3, max_moves: int = 160):
    """``count`` mid-game states of ``key`` reached by seeded random legal play."""
    found = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = GAMES[key].new_game(seats + seed % 2, seed)
        for _ in range(rng.randrange(max_moves)):
            if state.is_terminal():
                break
            random_step(state, rng)
        if not state.is_terminal():
            found.append(state)
        seed += 1
    return found


def views(state: GameState) -> list:
    return [state.view(seat) for seat in range(state.num_seats)]


def play(state: GameState, players: dict, rng: random.Random) -> int:
    """Play to the end, each seat to act asking its player; return the number of moves."""
    steps = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        code = players[seat].choose(state, seat, rng)
        assert code in [action.code for action in state.legal_actions(seat)]
        state.apply(seat, code)
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
    return steps


# -- the players ---------------------------------------------------------------------------------------


def test_player_for_gives_each_game_its_own_player_and_refuses_other_keys() -> None:
    assert isinstance(frazzled.player_for("minimize"), MinimizePlayer)
    assert isinstance(frazzled.player_for("tokenize"), TokenizePlayer)
    assert isinstance(frazzled.player_for("eradicize"), EradicizePlayer)
    assert isinstance(ai_player("tokenize"), TokenizePlayer)
    with pytest.raises(KeyError):
        frazzled.player_for("foist")


@pytest.mark.parametrize("key", KEYS)
def test_ai_in_every_seat_against_random_players_plays_legal_moves_to_the_end(key: str) -> None:
    for seats in (3, 4):
        for ai_seat in range(seats):
            seed = 10 * seats + ai_seat
            state = GAMES[key].new_game(seats, seed)
            players = {seat: RandomPlayer() for seat in range(seats)}
            players[ai_seat] = small_ai(key)
            play(state, players, random.Random(seed))
            assert state.standings()


@pytest.mark.parametrize("key", KEYS)
def test_all_ai_tables_end(key: str) -> None:
    for seed, seats in ((1, 3), (2, 5)):
        state = GAMES[key].new_game(seats, seed)
        ai = small_ai(key)
        play(state, dict.fromkeys(range(seats), ai), random.Random(seed))
        assert len(state.standings()) == seats


@pytest.mark.parametrize("key", KEYS)
def test_ai_beats_random_players_more_often_than_its_fair_share(key: str) -> None:
    """A small sample (the benchmark measures it properly): 12 games at 3 seats, fair share 4 wins."""
    wins = 0.0
    for seed in range(12):
        state = GAMES[key].new_game(3, seed)
        players = {seat: RandomPlayer() for seat in range(3)}
        players[seed % 3] = small_ai(key)
        play(state, players, random.Random(seed))
        winners = [standing.seat for standing in state.standings() if standing.rank == 1]
        wins += (seed % 3 in winners) / len(winners)
    assert wins >= 7


# -- honesty -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_resample_hidden_is_canonical(key: str) -> None:
    """Resampling a resample gives the same world as resampling the original with the same generator:
    every seat's view is the same, and stays the same through the same moves."""
    for state in positions(key, 8):
        for seat in range(state.num_seats):
            once = state.resample_hidden(seat, random.Random(7))
            twice = state.resample_hidden(seat, random.Random(3)).resample_hidden(seat, random.Random(7))
            moves = random.Random(seat)
            for _ in range(30):
                assert views(once) == views(twice)
                if once.is_terminal():
                    break
                playable = [other for other in range(once.num_seats) if once.legal_actions(other)]
                mover = moves.choice(playable)
                code = moves.choice(once.legal_actions(mover)).code
                once.apply(mover, code)
                twice.apply(mover, code)


@pytest.mark.parametrize("key", KEYS)
def test_resampling_what_the_seat_cannot_see_leaves_the_ai_choice_unchanged(key: str) -> None:
    ai = small_ai(key)
    checked = 0
    for state in positions(key, 25):
        for seat in state.seats_to_act():
            for k, j in ((1, 2), (5, 9)):
                mine = ai.choose(state, seat, random.Random(k))
                other = ai.choose(state.resample_hidden(seat, random.Random(j)), seat, random.Random(k))
                assert mine == other
                checked += 1
    assert checked >= 50


@pytest.mark.parametrize("key", KEYS)
def test_choose_does_not_change_the_state(key: str) -> None:
    ai = small_ai(key)
    for state in positions(key, 15):
        seat = state.seats_to_act()[0]
        before = (list(state.history), views(state), state.public_actions())
        ai.choose(state, seat, random.Random(0))
        assert (list(state.history), views(state), state.public_actions()) == before


# -- the fast copy -----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_copy_is_exact_and_independent(key: str) -> None:
    """A copy shows the same views and plays on exactly like the original (its generator too: fan
    shuffles and reshuffles agree), and moves on the copy leave the original as it was."""
    for state in positions(key, 10):
        before = (list(state.history), views(state))
        twin = state.copy()
        original = state.copy()
        moves = random.Random(len(state.history))
        for _ in range(60):
            if twin.is_terminal():
                break
            playable = [seat for seat in range(twin.num_seats) if twin.legal_actions(seat)]
            mover = moves.choice(playable)
            code = moves.choice(twin.legal_actions(mover)).code
            twin.apply(mover, code)
            original.apply(mover, code)
            assert views(twin) == views(original)
        assert (list(state.history), views(state)) == before


# -- the evaluation --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_evaluation_ranks_the_winner_of_a_finished_game_highest(key: str) -> None:
    for seed in range(4):
        state = GAMES[key].new_game(3, seed)
        play(state, dict.fromkeys(range(3), RandomPlayer()), random.Random(seed))
        standings = state.standings()
        best = max(frazzled.evaluate(state, seat) for seat in range(3))
        for standing in standings:
            value = frazzled.evaluate(state, standing.seat)
            assert (value == best) == (standing.rank == 1)


def test_evaluate_refuses_another_game() -> None:
    with pytest.raises(TypeError):
        frazzled.evaluate(GAMES["foist"].new_game(3, 0), 0)


@pytest.mark.parametrize("key", KEYS)
def test_greedy_baseline_uses_the_game_evaluation_and_plays_legally(key: str) -> None:
    state = GAMES[key].new_game(3, 5)
    players = {0: greedy_player(key), 1: RandomPlayer(), 2: small_ai(key)}
    play(state, players, random.Random(5))
    assert state.is_terminal()


def eradicize_endgame_positions(count: int) -> list:
    """``count`` ERADICIZE states with the draw piles out and a choice of plays (where the AI searches),
    reached by seeded random legal play."""
    found = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = GAMES["eradicize"].new_game(3, seed)
        for _ in range(400):
            if state.is_terminal():
                break
            seat = state.seats_to_act()[0]
            plays = [code for code in (action.code for action in state.legal_actions(seat)) if code]
            endgame = state.phase is Phase.PLAY and not any(state.pile(index) for index in range(3))
            if endgame and len(plays) >= 2 and rng.random() < 0.2:
                found.append(state)
                break
            random_step(state, rng)
        seed += 1
    return found


def test_eradicize_endgame_search_is_honest_and_changes_nothing() -> None:
    """In the endgame the ERADICIZE AI searches sampled worlds: its choice is the same from any
    resample of what the seat cannot see, and the state is left as it was."""
    ai = EradicizePlayer(worlds=3, depth=8)
    for state in eradicize_endgame_positions(8):
        seat = state.seats_to_act()[0]
        before = (list(state.history), views(state), state.public_actions())
        for k, j in ((1, 2), (5, 9)):
            mine = ai.choose(state, seat, random.Random(k))
            assert mine in [action.code for action in state.legal_actions(seat)]
            other = ai.choose(state.resample_hidden(seat, random.Random(j)), seat, random.Random(k))
            assert mine == other
        assert (list(state.history), views(state), state.public_actions()) == before
