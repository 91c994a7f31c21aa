"""The Minimize: Declare AI (engine/declare/ai.py) and the engine parts it relies on: legal play at
2 to 10 seats in every seat, honesty (its choice depends only on what its seat may see), a canonical
resample, no mutation, an independent copy, and the decisions of a turn (throw, pick, declare, power cards,
throw-back)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai.core import GreedyPlayer, RandomPlayer
from engine.declare import DECLARE, DRAW, FULL_DECK, DeclareState, MinimizeDeclare
from engine.declare.ai import (
    DeclarePlayer,
    DeclareSearchPlayer,
    evaluate,
    hand_worth,
    hard_player_for,
    last_throws,
    likelihood,
    player_for,
)
from engine.declare.cards import card_points

RULES = MinimizeDeclare()
FAST = DeclarePlayer(samples=6)


def play_game(
    state: DeclareState, players: dict[int, object], rng: random.Random, limit: int = 20_000
) -> int:
    """Play to the end; seats not in ``players`` play randomly. Returns the number of actions."""
    steps = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        code = players.get(seat, RandomPlayer()).choose(state, seat, rng)
        assert code in {action.code for action in state.legal_actions(seat)}
        state.apply(seat, code)
        steps += 1
        assert steps < limit, "the game did not end"
    return steps


def positions(seed: int, seats: int = 3, count: int = 10, options: dict | None = None) -> list[DeclareState]:
    """Mid-game states from random legal play (optional throw-backs included), for property tests."""
    state = RULES.new_game(seats, seed, options)
    picker = random.Random(seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        movers = [seat for seat in range(seats) if state.legal_actions(seat)]
        seat = picker.choice(movers)
        state.apply(seat, picker.choice(state.legal_actions(seat)).code)
        if picker.random() < 0.05 and not state.is_terminal():
            found.append(state.copy())
    return found


def views(state: DeclareState) -> list:
    return [state.view(seat) for seat in [None, *range(state.num_seats)]]


def all_cards(state: DeclareState) -> Counter:
    cards = Counter(state.draw_pile)
    cards.update(state.discard_pile)
    cards.update(state.previous_throw)
    cards.update(state.throw_this_turn)
    for seat in range(state.num_seats):
        cards.update(state.hand(seat))
    return cards


@pytest.mark.parametrize("seats", [2, 3, 5, 10])
def test_ai_tables_end_with_legal_moves_in_every_seat(seats: int) -> None:
    """An all-AI table and one AI among random players, in several seats, play legal moves and end."""
    options = {"triplet_skips": seats == 5, "pure_three_reverses": seats == 10}
    state = RULES.new_game(seats, seats, options)
    play_game(state, dict.fromkeys(range(seats), FAST), random.Random(seats))
    for seat in sorted({0, seats // 2, seats - 1}):
        state = RULES.new_game(seats, 50 + seat, options)
        play_game(state, {seat: FAST}, random.Random(seat))


def test_the_ai_beats_random_players() -> None:
    wins = 0
    for seed in range(8):
        state = RULES.new_game(3, seed)
        play_game(state, {seed % 3: FAST}, random.Random(seed))
        wins += next(s.rank for s in state.standings() if s.seat == seed % 3) == 1
    assert wins >= 7


def test_the_choice_depends_only_on_what_the_seat_may_see() -> None:
    """Honesty: redrawing what the seat cannot see (other hands, the draw pile, future shuffles) leaves
    the AI's choice unchanged, the Monte Carlo declare included."""
    ai = DeclarePlayer(samples=8, declare_at=0.5)
    checked = 0
    for seed in range(8):
        for state in positions(seed, 2 + seed % 4):
            seat = state.seats_to_act()[0]
            expected = ai.choose(state, seat, random.Random(seed))
            for j in range(3):
                world = state.resample_hidden(seat, random.Random(j))
                assert ai.choose(world, seat, random.Random(seed)) == expected
            checked += 1
    assert checked >= 40


def test_the_honesty_check_catches_a_player_that_peeks() -> None:
    """The property above has teeth: a player that reads the next seat's hand changes its choice when
    what it cannot see is redrawn."""

    def peek_code(state: DeclareState, seat: int) -> str:
        codes = [action.code for action in state.legal_actions(seat)]
        neighbour = state.hand((seat + 1) % state.num_seats)
        return codes[sum(map(ord, "".join(neighbour))) % len(codes)]

    caught = 0
    for seed in range(4):
        for state in positions(seed, 3):
            seat = state.seats_to_act()[0]
            world = state.resample_hidden(seat, random.Random(1))
            caught += peek_code(state, seat) != peek_code(world, seat)
    assert caught >= 5


def test_resampling_is_canonical() -> None:
    """A resample depends only on what the seat has seen and the generator: resampling a resample gives the
    same world as resampling the true state, now and after the same moves (reshuffles included)."""
    compared = 0
    for seed in range(6):
        for state in positions(seed, 2 + seed % 3, count=6):
            for viewer in (state.seats_to_act()[0], None):
                one = state.resample_hidden(viewer, random.Random(7))
                two = state.resample_hidden(viewer, random.Random(3)).resample_hidden(
                    viewer, random.Random(7)
                )
                assert views(one) == views(two)
                assert [one.hand(s) for s in range(one.num_seats)] == [
                    two.hand(s) for s in range(two.num_seats)
                ]
                assert one.draw_pile == two.draw_pile
                assert all_cards(one) == all_cards(state) == Counter(FULL_DECK)
                picker = random.Random(seed)
                for _ in range(30):
                    if one.is_terminal():
                        break
                    actor = one.seats_to_act()[0]
                    code = picker.choice(one.legal_actions(actor)).code
                    one.apply(actor, code)
                    two.apply(actor, code)
                assert views(one) == views(two)
                compared += 1
    assert compared >= 20


def test_a_reshuffled_draw_pile_is_redrawn_from_the_discards_it_was_made_of() -> None:
    """After the discard pile became the draw pile, a resample's draw pile holds only cards that discard
    pile gave it."""
    found = 0
    for seed in range(60):
        state = RULES.new_game(10, seed)
        picker = random.Random(seed)
        while not state.is_terminal() and found < 3:
            before = list(state.discard_pile)
            seat = state.seats_to_act()[0]
            rounds = state.round_number
            state.apply(seat, picker.choice(state.legal_actions(seat)).code)
            if state.round_number == rounds and before and not state.discard_pile and state.draw_pile:
                for viewer in (seat, None):
                    world = state.resample_hidden(viewer, random.Random(seed))
                    assert not Counter(world.draw_pile) - Counter(before)
                    assert len(world.draw_pile) == len(state.draw_pile)
                found += 1
        if found >= 3:
            break
    assert found >= 3


def test_resampling_the_unseen_keeps_every_hand_and_view_and_redraws_only_the_draw_pile() -> None:
    """The benchmark's perfect-information world (``resample_unseen``): every hand and every view stay, the
    draw pile keeps its cards in a new order, and the future deals differ; the state is not changed."""
    reordered = redealt = 0
    for seed in range(4):
        for state in positions(seed, 3 + seed % 2, count=5):
            before = (views(state), state.draw_pile)
            world = state.resample_unseen(random.Random(seed))
            assert (views(state), state.draw_pile) == before
            seats = range(state.num_seats)
            assert [world.hand(seat) for seat in seats] == [state.hand(seat) for seat in seats]
            assert [world.known_cards(seat) for seat in seats] == [state.known_cards(seat) for seat in seats]
            assert views(world) == views(state)
            assert Counter(world.draw_pile) == Counter(state.draw_pile)
            assert all_cards(world) == all_cards(state) == Counter(FULL_DECK)
            reordered += world.draw_pile != state.draw_pile
            dealt = state.round_number
            for game in (world, state):
                while not game.is_terminal() and game.round_number == dealt:
                    seat = game.seats_to_act()[0]
                    codes = {action.code for action in game.legal_actions(seat)}
                    game.apply(seat, DECLARE if DECLARE in codes else game.default_action(seat))
            if not (world.is_terminal() or state.is_terminal()):
                redealt += [world.hand(seat) for seat in seats] != [state.hand(seat) for seat in seats]
    assert reordered >= 15 and redealt >= 5


def test_choosing_changes_nothing() -> None:
    ai = DeclarePlayer(samples=4, declare_at=0.3)
    for state in positions(4, 4):
        seat = state.seats_to_act()[0]
        before = (list(state.history), views(state), state.draw_pile)
        ai.choose(state, seat, random.Random(0))
        evaluate(state, seat)
        assert (list(state.history), views(state), state.draw_pile) == before


def test_copy_is_exact_and_independent() -> None:
    for state in positions(9, 3):
        copied = state.copy()
        assert views(copied) == views(state) and copied.draw_pile == state.draw_pile
        before = (views(state), state.draw_pile, list(state.history))
        for _ in range(20):
            if copied.is_terminal():
                break
            seat = copied.seats_to_act()[0]
            copied.apply(seat, copied.legal_actions(seat)[-1].code)
        assert (views(state), state.draw_pile, list(state.history)) == before


def test_known_cards_are_the_cards_taken_in_view_of_all() -> None:
    state = DeclareState.scripted([["4r", "Cb"], ["9y", "2b"], ["Ay", "1g"]], dealer=2)
    state.apply(0, "tCb")
    state.apply(0, DRAW)
    state.apply(1, "t9y")
    state.apply(1, "takeCb")
    assert state.known_cards(1) == ("Cb",) and state.known_cards(0) == ()
    state.apply(2, "tAy")
    state.apply(2, DRAW)
    state.apply(0, "t4r")
    state.apply(0, DRAW)
    state.apply(1, "tCb")
    assert state.known_cards(1) == ()


def test_the_throw_sheds_a_pair_and_the_pick_takes_a_low_card() -> None:
    ai = DeclarePlayer(samples=4)
    state = DeclareState.scripted([["Cb", "Cr", "1r", "5y"], ["1y", "9g"], ["Ay", "8g"]], dealer=2)
    assert ai.choose(state, 0, random.Random(0)) == "tCrCb"
    state = DeclareState.scripted([["Cb", "Bg"], ["1y", "9g"], ["2y", "8g"]], dealer=1)
    state.apply(2, "t2y")  # seat 2 throws a 2: seat 0 may take it
    state.apply(2, DRAW)
    state.apply(0, "tCb")
    assert ai.choose(state, 0, random.Random(0)) == "take2y"


def test_declares_when_safe_and_not_when_beaten() -> None:
    """With 1 point against big hands it declares; with 7 points against one-card hands it plays on."""
    ai = DeclarePlayer(samples=12)
    state = DeclareState.scripted([["1r"], ["Cy", "Cg", "Bb", "Ab"], ["Cr", "Br", "9g", "8y"]], dealer=2)
    assert ai.choose(state, 0, random.Random(0)) == "declare"
    state = DeclareState.scripted([["4r", "3y"], ["1y"], ["2g"]], dealer=2)
    assert ai.choose(state, 0, random.Random(0)) != "declare"


def test_power_cards_and_the_throw_back() -> None:
    """I Don't Pick is played when every card to pick is high; a matching drawn card is thrown back."""
    ai = DeclarePlayer(samples=4)
    state = DeclareState.scripted([["Cb", "np", "1r"], ["Cy", "9g"], ["Cr", "8g"]], dealer=1)
    state.apply(2, "tCr")
    state.apply(2, DRAW)
    state.apply(0, "tCb")
    assert ai.choose(state, 0, random.Random(0)) == "nopick"
    state = DeclareState.scripted([["Ar", "2b"], ["Cy", "5g"], ["9y", "8g"]], draw=["Ag", "1y"], dealer=2)
    state.apply(0, "tAr")
    state.apply(0, DRAW)
    assert ai.choose(state, 0, random.Random(0)) == "tbAg"


def test_hand_worth_prefers_low_hands_and_combinations() -> None:
    assert hand_worth(["1r", "2y"]) < hand_worth(["9r", "Ay"])
    assert hand_worth(["9r", "9y"]) < hand_worth(["9r", "8g"])
    assert hand_worth(["Cr", "hv"]) == hand_worth(["Cr"]) / 2


def test_greedy_with_this_evaluation_beats_random() -> None:
    greedy = GreedyPlayer(evaluate)
    wins = 0
    for seed in range(6):
        state = RULES.new_game(3, seed)
        play_game(state, {seed % 3: greedy}, random.Random(seed))
        wins += next(s.rank for s in state.standings() if s.seat == seed % 3) == 1
    assert wins >= 4


def test_player_for_gives_the_table_ai() -> None:
    assert isinstance(player_for("declare"), DeclarePlayer)


def test_the_hard_search_declares_a_sure_win_and_holds_a_sure_loss() -> None:
    """The hard level on scripted deals: with 1 point against two hands of seven unseen cards it
    declares; with 7 points when the next seat holds only the 1♣ it took in view of all (a call that must
    fail), it throws instead; the same choices when what seat 0 cannot see is redrawn."""
    hard = hard_player_for("declare")
    state = DeclareState.scripted(
        [["1r"], ["Cr", "Cy", "Bg", "Ab", "9r", "8y", "7g"], ["Cg", "Cb", "Br", "Ay", "9g", "8b", "7r"]],
        dealer=2,
    )
    assert hard.choose(state, 0, random.Random(0)) == DECLARE
    assert hard.choose(state.resample_hidden(0, random.Random(5)), 0, random.Random(0)) == DECLARE
    state = DeclareState.scripted(
        [["1g", "3r", "4y"], ["Cr", "Cy"], ["Cg", "Bb", "5r"]], draw=["jk", "9b", "8b"], dealer=2
    )
    for seat, code in [(0, "t1g"), (0, DRAW), (1, "tCrCy"), (1, "take1g"), (2, "tCg"), (2, DRAW)]:
        state.apply(seat, code)
    assert state.hand(0) == ("3r", "4y", "jk") and state.known_cards(1) == ("1g",) == state.hand(1)
    code = hard.choose(state, 0, random.Random(0))
    assert code != DECLARE and code in {action.code for action in state.legal_actions(0)}
    assert hard.choose(state.resample_hidden(0, random.Random(5)), 0, random.Random(0)) == code


def test_the_hard_level_credits_a_hand_more_for_its_next_throw_than_the_normal_player() -> None:
    """The hard level's throws and picks weigh a hand's best next throw at ``HARD_KEEP_WEIGHT`` (0.75), the
    normal player's at 0.5 (``docs/rules/declare.md``, "Levels").
    Seed 7, three seats, after seat 2 threw its Q and drew: seat 0 holds 1 3 3 3 5 6 Q. The normal player
    throws the Q (12 points now, the three 3s next); the hard level throws the three 3s and keeps the Q
    to throw next (a hand worth less at 0.75). Both are legal; seat 0 may not declare (33 points)."""
    state, rng = RULES.new_game(3, 7), random.Random(7)
    for seat, code in [(2, "tCg"), (2, DRAW)]:
        state.apply(seat, code)
    assert state.hand(0) == ("1g", "3r", "3y", "3b", "5r", "6g", "Cg")
    assert DeclarePlayer().choose(state, 0, rng) == "tCg"
    hard = hard_player_for("declare")
    assert hard.choose(state, 0, random.Random(0)) == "t3r3y3b"
    assert hard.choose(state.resample_hidden(0, random.Random(5)), 0, random.Random(0)) == "t3r3y3b"


def test_the_hard_search_depends_only_on_what_the_seat_may_see() -> None:
    """At the decisions where a seat may declare (those the hard level searches) in a game of normal
    players, the hard level's choice is legal and the same when what the seat cannot see is redrawn."""
    hard = DeclareSearchPlayer(worlds=12, rollouts=4)
    state, rng = RULES.new_game(3, 4), random.Random(4)
    checked = declared = 0
    while not state.is_terminal() and checked < 8:
        seat = state.seats_to_act()[0]
        codes = {action.code for action in state.legal_actions(seat)}
        if DECLARE in codes:
            code = hard.choose(state, seat, random.Random(checked))
            assert code in codes
            world = state.resample_hidden(seat, random.Random(99))
            assert hard.choose(world, seat, random.Random(checked)) == code
            checked += 1
            declared += code == DECLARE
        state.apply(seat, FAST.choose(state, seat, rng))
    assert checked == 8 and 0 < declared < 8


def test_opponent_inference_weighs_down_worlds_with_cards_above_a_seat_s_last_throw() -> None:
    """``likelihood``: after a seat threw a single 2 and took a known card (no draw), the worlds that deal it
    an unseen card above 2 weigh less than those that do not; a seat that has not thrown tells nothing."""
    state = DeclareState.scripted(
        [["Cr", "5y", "9g"], ["2y", "Bb", "jk"], ["7g", "8b", "3r"]], dealer=2, seed=3
    )
    for seat, code in [(0, "tCr"), (0, DRAW), (1, "t2y"), (1, "takeCr")]:
        state.apply(seat, code)
    evidence = last_throws(state, 2)
    assert evidence == {0: (12, True), 1: (2, False)}
    low, high = [], []
    for number in range(60):
        world = state.resample_hidden(2, random.Random(number))
        unseen = [card for card in world.hand(1) if card != "Cr"]
        (high if any(card_points(card) > 2 for card in unseen) else low).append(likelihood(world, evidence))
    assert low and high and min(low) > max(high)
