"""Foist's AI player: it plays only legal moves and always finishes, decides only from what its seat may see
(the honesty properties), never changes the state it is given, and plays well; also the
engine's canonical resample and fast copy that it relies on."""

from __future__ import annotations

import random

import pytest

from engine.ai.core import RandomPlayer, win_share
from engine.ai.registry import ai_player, greedy_player
from engine.foist import PAY, TAKE, Foist, FoistState, card_points, marginal_cost
from engine.foist.ai import FoistPlayer, evaluate, player_for, public_tokens

RULES = Foist()
SMALL = FoistPlayer(worlds=4)


def positions(count: int, seats: int = 3, seed0: int = 0) -> list[FoistState]:
    """Mid-game states from seeded random legal play (each a different game and length)."""
    found = []
    for seed in range(seed0, seed0 + count):
        state = RULES.new_game(seats, seed)
        picker = random.Random(seed)
        for _ in range(picker.randrange(0, 50)):
            if state.is_terminal():
                break
            seat = state.seats_to_act()[0]
            state.apply(seat, picker.choice(state.legal_actions(seat)).code)
        if not state.is_terminal():
            found.append(state)
    return found


def all_views(state: FoistState) -> list:
    return [state.view(seat) for seat in [None, *range(state.num_seats)]]


def same_world(one: FoistState, two: FoistState, steps: int = 25) -> bool:
    """Every seat's view equal, the hidden facts equal, and the same after the same random moves."""
    picker = random.Random(11)
    for _ in range(steps):
        if all_views(one) != all_views(two):
            return False
        if one.draw_pile() != two.draw_pile() or one.removed() != two.removed():
            return False
        seats = range(one.num_seats)
        if [one.tokens(seat) for seat in seats] != [two.tokens(seat) for seat in seats]:
            return False
        if one.is_terminal():
            return two.is_terminal()
        seat = one.seats_to_act()[0]
        code = picker.choice(one.legal_actions(seat)).code
        one.apply(seat, code)
        two.apply(seat, code)
    return True


@pytest.mark.parametrize("seats", [3, 5, 7])
def test_resample_is_canonical_it_depends_only_on_what_the_viewer_has_seen(seats: int) -> None:
    for state in positions(8, seats):
        for viewer in [None, *range(seats)]:
            direct = state.resample_hidden(viewer, random.Random(7))
            again = state.resample_hidden(viewer, random.Random(3)).resample_hidden(viewer, random.Random(7))
            assert same_world(direct, again)


def test_resample_redraws_the_pile_order_and_the_other_seats_tokens() -> None:
    """Canonical is not constant: different generators give different worlds, keeping the viewer's view."""
    state = positions(1)[0]
    worlds = [state.resample_hidden(0, random.Random(k)) for k in range(20)]
    assert len({world.draw_pile() for world in worlds}) > 1
    assert len({tuple(world.tokens(seat) for seat in (1, 2)) for world in worlds}) > 1
    assert all(world.view(0) == state.view(0) for world in worlds)


def test_copy_is_exact_and_independent() -> None:
    for state in positions(10, 4):
        before = (all_views(state), state.draw_pile(), state.removed(), list(state.history))
        twin = state.copy()
        assert (all_views(twin), twin.draw_pile(), twin.removed(), twin.history) == before
        picker = random.Random(5)
        while not twin.is_terminal():
            seat = twin.seats_to_act()[0]
            twin.apply(seat, picker.choice(twin.legal_actions(seat)).code)
        assert (all_views(state), state.draw_pile(), state.removed(), state.history) == before


def test_public_tokens_count_every_seat_from_the_log_of_payments() -> None:
    for state in positions(15, 5):
        assert public_tokens(state) == [state.tokens(seat) for seat in range(state.num_seats)]


def test_public_tokens_keep_the_public_total_for_a_scripted_deal() -> None:
    state = FoistState.scripted(3, [20, 21, 22], tokens=[0, 5, 7])
    counted = public_tokens(state)
    assert sum(counted) == 12 and min(counted) >= 0


def test_marginal_cost_is_the_change_in_card_points() -> None:
    picker = random.Random(2)
    for _ in range(300):
        cards = set(picker.sample(range(3, 36), picker.randrange(0, 12)))
        card = picker.choice([c for c in range(3, 36) if c not in cards])
        assert marginal_cost(cards, card) == card_points(sorted(cards | {card})) - card_points(sorted(cards))


def test_the_ai_chooses_only_from_what_its_seat_may_see() -> None:
    """Resampling what the seat cannot see (pile order, removed cards, others' tokens) leaves
    the AI's choice unchanged."""
    checked, searched, chosen = 0, 0, set()
    for state in positions(40, 3):
        seat = state.seats_to_act()[0]
        searched += state.tokens(seat) > 0 and state.tokens_on_card < 10
        for k, j in [(1, 2), (5, 9)]:
            world = state.resample_hidden(seat, random.Random(j))
            choice = SMALL.choose(state, seat, random.Random(k))
            assert choice == SMALL.choose(world, seat, random.Random(k))
            chosen.add(choice)
            checked += 1
    assert checked >= 60 and searched >= 20 and chosen == {TAKE, PAY}


def test_the_ai_does_not_change_the_state() -> None:
    for state in positions(15, 4):
        seat = state.seats_to_act()[0]
        before = (all_views(state), list(state.history), state.draw_pile(), state.removed())
        before_tokens = [state.tokens(other) for other in range(state.num_seats)]
        SMALL.choose(state, seat, random.Random(1))
        assert (all_views(state), state.history, state.draw_pile(), state.removed()) == before
        assert [state.tokens(other) for other in range(state.num_seats)] == before_tokens


def test_the_ai_takes_when_it_has_no_tokens_and_takes_a_card_that_joins_its_series() -> None:
    broke = FoistState.scripted(3, [30, 31], tokens=[0, 11, 11])
    assert SMALL.choose(broke, 0, random.Random(1)) == TAKE
    joining = FoistState.scripted(3, [20, 22, 21, 30])
    joining.apply(0, TAKE)  # seat 0 holds 20
    joining.apply(0, PAY)  # 22 passes on
    joining.apply(1, PAY)
    joining.apply(2, PAY)
    joining.apply(0, TAKE)  # seat 0 holds 20 and 22; 21 is up and joins them (-22 points)
    assert joining.card_up == 21
    assert SMALL.choose(joining, 0, random.Random(1)) == TAKE


def test_the_ai_refuses_a_costly_card_while_it_has_tokens() -> None:
    state = FoistState.scripted(3, [33, 3, 4, 5, 6, 7, 8, 9])
    assert FoistPlayer(worlds=16).choose(state, 0, random.Random(1)) == PAY


def test_the_ai_raises_for_a_seat_without_a_decision() -> None:
    state = RULES.new_game(3, 1)
    idle = next(seat for seat in range(3) if seat not in state.seats_to_act())
    with pytest.raises(ValueError):
        SMALL.choose(state, idle, random.Random(1))


def play(state: FoistState, players: dict, rng: random.Random) -> FoistState:
    steps = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, players[seat].choose(state, seat, rng))  # raises IllegalAction on a bad move
        steps += 1
        assert steps < 2000
    return state


@pytest.mark.parametrize("seats", [3, 4, 5, 6, 7])
def test_ai_seats_in_every_position_play_legal_moves_to_the_end(seats: int) -> None:
    for seed in range(seats):
        mixed = {seat: SMALL if seat == seed % seats else RandomPlayer() for seat in range(seats)}
        play(RULES.new_game(seats, seed), mixed, random.Random(seed))
    play(RULES.new_game(seats, 99), {seat: SMALL for seat in range(seats)}, random.Random(99))


def test_the_ai_beats_random_players() -> None:
    shares = []
    for seed in range(12):
        players = {seat: SMALL if seat == seed % 3 else RandomPlayer() for seat in range(3)}
        shares.append(win_share(play(RULES.new_game(3, seed), players, random.Random(seed)), seed % 3))
    assert sum(shares) >= 9


def test_evaluate_prefers_a_lower_score_and_the_greedy_player_takes_a_paid_for_card() -> None:
    state = FoistState.scripted(3, [20, 3, 30])
    took = state.copy()
    took.apply(0, TAKE)
    paid = state.copy()
    paid.apply(0, PAY)
    assert evaluate(paid, 0) > evaluate(took, 0)  # 20 points for one token: pay
    assert greedy_player("foist").choose(state, 0, random.Random(1)) == PAY
    state.apply(0, TAKE)  # 20; now 3 is up
    for seat in (0, 1, 2):
        state.apply(seat, PAY)
    assert state.tokens_on_card == 3
    assert greedy_player("foist").choose(state, 0, random.Random(1)) == TAKE  # 3 points for 3 tokens


def test_the_registry_seats_this_ai() -> None:
    assert isinstance(ai_player("foist"), FoistPlayer)
    assert isinstance(player_for("foist"), FoistPlayer)
