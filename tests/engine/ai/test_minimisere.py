"""Minimisère's AI player: it makes every decision of the game (the card, the Lot bid with four to six
players, the Joker's decree with three) legally and to the end, decides only from what its seat may see
(the honesty properties), never changes the state it is given, and plays well; also the
engine's canonical resample and fast copy that it relies on."""

from __future__ import annotations

import random

import pytest

from engine.ai.core import RandomPlayer, win_share
from engine.ai.registry import ai_player, greedy_player
from engine.minimisere import (
    JOKER_LOSES,
    JOKER_WINS,
    LOT,
    SCORE_TABLES,
    Minimisere,
    MinimisereAction,
    MinimisereState,
)
from engine.minimisere.ai import MinimiserePlayer, distinct_actions, evaluate, player_for, rate_totals

RULES = Minimisere()
SMALL = MinimiserePlayer(rollouts=12, min_worlds=3, max_worlds=4)


def play_randomly(state: MinimisereState, picker: random.Random, steps: int) -> MinimisereState:
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.seats_to_act()[0]
        state.apply(seat, picker.choice(state.legal_actions(seat)).code)
    return state


def positions(count: int, seats: int = 3, longest: int = 60) -> list[MinimisereState]:
    """Mid-game states from seeded random legal play (each a different game and length)."""
    found = []
    for seed in range(count):
        picker = random.Random(seed)
        state = play_randomly(RULES.new_game(seats, seed), picker, picker.randrange(0, longest))
        if not state.is_terminal():
            found.append(state)
    return found


def all_views(state: MinimisereState) -> list:
    return [state.view(seat) for seat in [None, *range(state.num_seats)]]


def hidden(state: MinimisereState) -> tuple:
    return tuple(state.hand(seat) for seat in range(state.num_seats)), state.set_aside()


def same_world(one: MinimisereState, two: MinimisereState, steps: int = 80) -> bool:
    """Every view and hand equal, now and after the same random moves (into the next deals too)."""
    picker = random.Random(11)
    for _ in range(steps):
        if all_views(one) != all_views(two) or hidden(one) != hidden(two):
            return False
        if one.is_terminal():
            return two.is_terminal()
        seat = one.seats_to_act()[0]
        code = picker.choice(one.legal_actions(seat)).code
        one.apply(seat, code)
        two.apply(seat, code)
    return True


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_resample_is_canonical_it_depends_only_on_what_the_viewer_has_seen(seats: int) -> None:
    for state in positions(6, seats):
        for viewer in [None, *range(seats)]:
            direct = state.resample_hidden(viewer, random.Random(7))
            again = state.resample_hidden(viewer, random.Random(3)).resample_hidden(viewer, random.Random(7))
            assert same_world(direct, again, steps=25)


def test_resample_redeals_the_other_hands_and_keeps_the_viewers_view() -> None:
    state = positions(1, 4, longest=3)[0]
    worlds = [state.resample_hidden(0, random.Random(k)) for k in range(20)]
    assert len({hidden(world) for world in worlds}) > 1
    assert all(world.view(0) == state.view(0) and world.hand(0) == state.hand(0) for world in worlds)


def test_copy_is_exact_and_independent_future_deals_included() -> None:
    for state in positions(8, 4):
        before = (all_views(state), hidden(state), list(state.history))
        twin = state.copy()
        assert (all_views(twin), hidden(twin), twin.history) == before
        assert same_world(twin.copy(), state.copy(), steps=60)  # the same future deals
        play_randomly(twin, random.Random(5), 200)
        assert (all_views(state), hidden(state), state.history) == before


def test_the_ai_chooses_only_from_what_its_seat_may_see() -> None:
    """Resampling what the seat cannot see (the other hands, the card set aside, later deals)
    leaves the AI's choice unchanged."""
    checked = 0
    for seats in (3, 4):
        for state in positions(25, seats):
            seat = state.seats_to_act()[0]
            for k, j in [(1, 2), (5, 9)]:
                world = state.resample_hidden(seat, random.Random(j))
                assert SMALL.choose(state, seat, random.Random(k)) == SMALL.choose(
                    world, seat, random.Random(k)
                )
                checked += 1
    assert checked >= 80


def test_the_ai_does_not_change_the_state() -> None:
    for seats in (3, 5):
        for state in positions(10, seats):
            seat = state.seats_to_act()[0]
            before = (all_views(state), hidden(state), list(state.history))
            SMALL.choose(state, seat, random.Random(1))
            assert (all_views(state), hidden(state), state.history) == before


def test_the_ai_bids_the_lot_with_a_hand_that_wins_every_trick() -> None:
    """Five players: Joker and four Aces win all five tricks, worth 10 with the Lot and 0 without."""
    hands = [
        ["KS", "QS", "JS", "10S", "2S"],
        ["JK", "AS", "AH", "AC", "AD"],
        ["KH", "QH", "JH", "10H", "2H"],
        ["KC", "QC", "JC", "10C", "2C"],
        ["KD", "QD", "JD", "10D", "2D"],
    ]
    state = MinimisereState.scripted(5, [hands], dealer=0)
    player = MinimiserePlayer()
    assert player.choose(state, 1, random.Random(1)) == LOT  # "Bid the Lot…": the step of choosing its card
    state.apply(1, LOT)
    assert player.choose(state, 1, random.Random(1)).endswith("+" + LOT)


def test_the_ai_does_not_bid_the_lot_with_an_ordinary_hand() -> None:
    for state in positions(12, 5, longest=1):
        seat = state.seats_to_act()[0]
        if any(action.code.endswith(LOT) for action in state.legal_actions(seat)):
            assert not MinimiserePlayer().choose(state, seat, random.Random(2)).endswith(LOT)


def test_three_players_the_ai_decrees_the_joker_on_the_last_trick_to_its_best_score() -> None:
    """On the last trick with only the Joker left, third to play: win it when one more trick scores more
    (3 -> 4 tricks: 3 -> 8 points), lose it when it scores less (0 tricks: 7 points; 6 -> 7 tricks: 0)."""
    table = SCORE_TABLES[3]
    found = 0
    for seed in range(400):
        picker = random.Random(seed)
        state = RULES.new_game(3, seed, {"target": 39})
        while not state.is_terminal() and state.deal_number == 1:
            seat = state.seats_to_act()[0]
            codes = {action.code for action in state.legal_actions(seat)}
            if codes == {JOKER_WINS, JOKER_LOSES}:
                won = state.tricks_won()[seat]
                if table[won + 1] != table[won]:
                    best = JOKER_WINS if table[won + 1] > table[won] else JOKER_LOSES
                    assert MinimiserePlayer().choose(state, seat, random.Random(seed)) == best
                    found += 1
                break
            state.apply(seat, picker.choice(sorted(codes)))
        if found >= 6:
            break
    assert found >= 6


def test_equal_cards_are_searched_once() -> None:
    actions = [MinimisereAction.parse(code) for code in ("AS", "KS", "10S", "AH", "JK")]
    # QS, JS still unseen: AS and KS are equal; 10S is not; AH and the Joker stand alone.
    assert distinct_actions(actions, {"QS", "JS", "KH"}, []) == [0, 2, 3, 4]
    # The QS in the trick in progress lies between KS and 10S; AS and KS are still equal.
    assert distinct_actions(actions, {"JS"}, ["QS"]) == [0, 2, 3, 4]
    assert distinct_actions(actions, set(), []) == [0, 3, 4]


def test_rate_totals_prefers_winning_and_a_bigger_lead() -> None:
    assert rate_totals([26, 20, 12], 0, ends=True) == 1.0
    assert rate_totals([20, 26, 12], 0, ends=True) == 0.0
    assert rate_totals([26, 26, 12], 0, ends=True) == 0.5
    assert rate_totals([20, 12, 12], 0, ends=False) > rate_totals([12, 12, 12], 0, ends=False)
    assert rate_totals([12, 12, 12], 0, ends=False) > rate_totals([12, 20, 12], 0, ends=False)


def test_evaluate_counts_sure_winners_and_the_greedy_player_beats_random_players() -> None:
    shares = []
    for seed in range(60):  # 60 games: wins against random players are a share, 9 games were luck
        players = {
            seat: greedy_player("minimisere") if seat == seed % 3 else RandomPlayer() for seat in range(3)
        }
        state = play(RULES.new_game(3, seed, {"target": 15}), players, random.Random(seed))
        shares.append(win_share(state, seed % 3))
        assert evaluate(state, seed % 3) == state.scores()[seed % 3] - max(
            score for other, score in enumerate(state.scores()) if other != seed % 3
        )
    assert sum(shares) >= 24  # at least 40% where the fair share is 33%


def play(state: MinimisereState, players: dict, rng: random.Random) -> MinimisereState:
    steps = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, players[seat].choose(state, seat, rng))  # raises IllegalAction on a bad move
        steps += 1
        assert steps < 5000
    return state


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_ai_seats_in_every_position_make_every_decision_to_the_end(seats: int) -> None:
    options = {"target": 15}
    for seed in range(seats):
        mixed = {seat: SMALL if seat == seed % seats else RandomPlayer() for seat in range(seats)}
        play(RULES.new_game(seats, seed, options), mixed, random.Random(seed))
    state = play(
        RULES.new_game(seats, 99, options), {seat: SMALL for seat in range(seats)}, random.Random(99)
    )
    assert state.is_terminal()


def test_three_players_ending_by_deals_and_a_higher_target_are_played_to_the_end() -> None:
    for options in ({"end_by": "deals", "deals": 3}, {"target": 31}):
        play(RULES.new_game(3, 4, options), {seat: SMALL for seat in range(3)}, random.Random(4))


def test_the_ai_beats_random_players() -> None:
    shares = []
    for seed in range(12):
        players = {seat: SMALL if seat == seed % 3 else RandomPlayer() for seat in range(3)}
        state = play(RULES.new_game(3, seed, {"target": 15}), players, random.Random(seed))
        shares.append(win_share(state, seed % 3))
    assert sum(shares) >= 7


def test_the_registry_seats_this_ai() -> None:
    assert isinstance(ai_player("minimisere"), MinimiserePlayer)
    assert isinstance(player_for("minimisere"), MinimiserePlayer)
    with pytest.raises(ValueError):
        SMALL.choose(RULES.new_game(3, 1), (RULES.new_game(3, 1).seats_to_act()[0] + 1) % 3, random.Random(1))
