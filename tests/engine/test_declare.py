"""Minimize: Declare rules, each test citing the passage of shared/seeds/001_faa9b8d9abeda876.txt (the
MINIMIZE™ manual) or the seeds README it checks, or the ruling of docs/rules/declare.md it shows."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, replay
from engine.declare import (
    DECLARE,
    DECLARE_NOW_CODE,
    DRAW,
    FULL_DECK,
    NO_CARD,
    NO_PICK_CODE,
    POWER_CARDS,
    THROW_GROUP,
    Declare,
    DeclareAction,
    DeclareNow,
    DeclareOptions,
    DeclareState,
    Discover,
    Draw,
    MinimizeDeclare,
    NoCard,
    NoPick,
    Phase,
    Take,
    ThrowBack,
    ThrowCards,
    card_points,
    card_text,
    classify,
    format_points,
    hand_quarters,
    legal_throws,
    throw_back_fits,
    throw_description,
)
from engine.declare.scoring import Settlement, next_starter, round_scores, settle
from tests.engine.conftest import MAX_STEPS, cards_as_text, games_in_play, seats_with_actions

DECLARE_GAME = MinimizeDeclare()
CODE = re.compile(r"[A-Za-z0-9_.,+\-]{1,40}")


def codes(state: DeclareState, seat: int) -> list[str]:
    return [action.code for action in state.legal_actions(seat)]


def action(state: DeclareState, seat: int, code: str):
    return next(legal for legal in state.legal_actions(seat) if legal.code == code)


def table(state: DeclareState, seat: int | None = None) -> dict[str, str]:
    return {field.name: cards_as_text(field.value) for field in state.view(seat).table}


def private(state: DeclareState, seat: int) -> dict[str, str]:
    return {field.name: cards_as_text(field.value) for field in state.view(seat).private}


def two_players(hand0, hand1, draw=(), **kwargs) -> DeclareState:
    """Seat 1 deals, so seat 0 (the dealer's left) starts."""
    return DeclareState.scripted([hand0, hand1], draw, dealer=1, **kwargs)


# -- "Cards and Value" and "Setup" ------------------------------------------------------------------


def test_the_deck_is_the_108_ivak_cards() -> None:
    """Seeds README: 1-12 in four colours, two of each, 4 Jokers, 2 of each of the 4 power cards."""
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 108
    assert sum(1 for card in counts if card[0] in "123456789ABC") == 48
    assert all(counts[card] == 2 for card in counts if card != "jk")
    assert counts["jk"] == 4
    assert all(counts[power] == 2 for power in POWER_CARDS)


def test_card_values_face_value_jokers_and_power_cards_zero() -> None:
    """ "a point value which is equal to the face value … The Power Cards and the Jokers are worth zero"."""
    assert [card_points(card) for card in ("1r", "9y", "Ag", "Cb", "jk", "hv", "dn", "np", "dv")] == [
        1,
        9,
        10,
        12,
        0,
        0,
        0,
        0,
        0,
    ]
    assert [card_text(card) for card in ("5r", "Ay", "Bg", "Cb", "jk", "hv")] == [
        "5♥",
        "10★",
        "11♣",
        "12♦",
        "Joker",
        "My Half Value",
    ]


@pytest.mark.parametrize("players", range(2, 11))
def test_seven_cards_each_and_the_rest_face_down(players: int) -> None:
    """ "Every player starts with seven cards … The rest of the cards are placed in a Draw Pile"."""
    state = DECLARE_GAME.new_game(players, seed=players)
    assert all(len(state.hand(seat)) == 7 for seat in range(players))
    assert len(state.draw_pile) == 108 - 7 * players
    assert state.discard_pile == () and state.previous_throw == ()
    assert all(line.summary.startswith("7 cards") for line in state.view(None).seats)


@pytest.mark.parametrize("players", [1, 11])
def test_player_count_outside_2_to_10_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 10 players"):
        DECLARE_GAME.new_game(players, seed=1)


def test_the_dealers_left_plays_first() -> None:
    """ "The person next to the dealer plays the 1st turn"; ruling 4: the first dealer is drawn by seed."""
    dealers = set()
    for seed in range(30):
        state = DECLARE_GAME.new_game(5, seed=seed)
        dealers.add(state.dealer)
        assert state.seats_to_act() == ((state.dealer + 1) % 5,)
    assert len(dealers) > 2


def test_same_seed_same_deal() -> None:
    first, again, other = (DECLARE_GAME.new_game(4, seed=s) for s in (3, 3, 4))
    assert [first.hand(s) for s in range(4)] == [again.hand(s) for s in range(4)]
    assert first.draw_pile == again.draw_pile
    assert [first.hand(s) for s in range(4)] != [other.hand(s) for s in range(4)]


# -- "A player can throw either" ------------------------------------------------------------------


def test_any_one_card_including_a_joker_but_no_power_card() -> None:
    """ "Any one card"; ruling 6: power cards are played only for their effect, never as a throw."""
    throws = {throw.code for throw in legal_throws(("3r", "jk", "hv", "dn", "np", "dv"))}
    assert throws == {"t3r", "tjk"}
    assert classify(["dv"]) is None and classify(["5r", "5y", "np"]) is None
    assert classify(["4r", "hv", "6r"]) is None


def test_sets_of_two_or_more_of_a_rank_the_thrower_orders_three_or_more() -> None:
    """ "One set of two or more cards of the same rank"; ruling 9: any 2+ of them; a pair is laid ♥ ★ ♣ ♦,
    a set of three or more in any order of its ends (the rest between them in colour order)."""
    throws = {throw.code: throw for throw in legal_throws(("5r", "5g", "5y"))}
    sets = sorted(code for code, throw in throws.items() if throw.kind == "set")
    triples = ["t5g5r5y", "t5g5y5r", "t5r5g5y", "t5r5y5g", "t5y5g5r", "t5y5r5g"]
    assert sets == sorted(["t5r5g", "t5r5y", "t5y5g", *triples])
    assert throw_description(throws["t5y5r5g"]) == "set of 3 · sheds 15 points · ends 5★ and 5♣"
    assert classify(["5g", "5r"]) == "set"  # any order is a set; the menu offers the colour order
    four = [t.cards for t in legal_throws(("5r", "5g", "5y", "5b")) if len(t.cards) == 4]
    assert len(four) == 12 and ("5r", "5y", "5g", "5b") in four  # the colour order, stored before, stays
    assert {(cards[0], cards[-1]) for cards in four} == {
        (a, b) for a in "5r 5g 5y 5b".split() for b in "5r 5g 5y 5b".split() if a != b
    }
    equal = [t.cards for t in legal_throws(("5r", "5r", "5y")) if len(t.cards) == 3]
    assert sorted(equal) == [("5r", "5r", "5y"), ("5r", "5y", "5r"), ("5y", "5r", "5r")]


def test_the_thrower_orders_a_set_so_choosing_the_ends_the_next_player_may_pick() -> None:
    """ "If the last player threw several cards, only the first or last card of the set or sequence can be
    picked up": the thrower of a set of three decides which two those are (ruling 9)."""
    state = two_players(["7r", "7y", "7g", "Cb"], ["9y", "2b"], draw=["1g", "1y"])
    offered = [a.code for a in state.legal_actions(0) if a.code.startswith("t7")]
    assert {"t7r7y7g", "t7y7r7g", "t7r7g7y"} <= set(offered)
    state.apply(0, "t7y7r7g")
    state.apply(0, DRAW)
    state.apply(1, "t9y")
    assert codes(state, 1) == [DRAW, "take7y", "take7g"]


def test_jokers_are_not_part_of_sets() -> None:
    """Ruling 7: "The Joker can be used in a sequence", a set is "of the same rank"."""
    assert classify(["5r", "jk"]) is None
    assert classify(["jk", "jk"]) is None
    assert all(throw.kind != "set" for throw in legal_throws(("5r", "jk", "jk")))


def test_pure_sequence_of_three_impure_needs_four() -> None:
    """ "three (minimum) or more consecutive cards of a single colour" (pure), "four (minimum) or more
    consecutive cards of different colours" (impure)."""
    assert classify(["4r", "5r", "6r"]) == "pure"
    assert classify(["4r", "5y", "6r"]) is None
    assert classify(["4r", "5y", "6g", "7y"]) == "impure"
    assert classify(["4r", "5r", "6r", "7r"]) == "pure"
    assert classify(["4r", "5r"]) is None


def test_sequences_go_up_in_order_without_wrapping() -> None:
    """ "the cards must be thrown in sequential order - for example 2-3-4-5, not 3-5-4-2"; ruling 8."""
    assert classify(["2r", "3r", "4r", "5r"]) == "pure"
    assert classify(["3r", "5r", "4r", "2r"]) is None
    assert classify(["5r", "4r", "3r"]) is None
    assert classify(["Br", "Cr", "1r"]) is None
    assert classify(["Ar", "Br", "Cr", "jk"]) is None  # no 13 for the Joker to stand for


def test_a_joker_stands_in_for_any_card_at_each_position() -> None:
    """ "The Joker can be used in a sequence as a substitute for any card"; "You could throw 8-9-Joker
    either in that order or as Joker-8-9" (ruling 8: pure when the number cards share a colour)."""
    sequences = {t.code for t in legal_throws(("8r", "9r", "jk")) if t.kind in ("pure", "impure")}
    assert sequences == {"t8r9rjk", "tjk8r9r"}
    sequences = {t.code for t in legal_throws(("5r", "6r", "8r", "jk")) if t.kind == "pure"}
    assert {"t5r6rjk8r", "tjk5r6r", "t5r6rjk", "t6rjk8r"} <= sequences
    assert classify(["4r", "jk", "6y", "7r"]) == "impure"
    assert classify(["4r", "jk", "6r"]) == "pure"


def test_a_sequence_needs_a_number_card() -> None:
    """Ruling 8: Jokers alone stand for nothing."""
    assert classify(["jk", "jk", "jk"]) is None
    assert [t.code for t in legal_throws(("jk", "jk", "jk"))] == ["tjk"]


def test_only_one_combination_a_turn() -> None:
    """ "If you are holding for example 3-5-5-5-9-9 you can throw either the fives or the nines but not
    both"."""
    state = two_players(["3r", "5r", "5y", "5g", "9r", "9b"], ["1r"])
    legal = codes(state, 0)
    assert "t5r5y5g" in legal and "t9r9b" in legal
    assert all(not (("5" in code) and ("9" in code)) for code in legal)
    assert classify(["5r", "5y", "9r", "9b"]) is None


def test_throws_are_labelled_with_cards_and_points_shed() -> None:
    """The Discord design: legal throws only, in a select menu, label the cards, describe points shed."""
    state = two_players(["5r", "6r", "8r", "jk", "Cb"], ["1r"])
    throw = action(state, 0, "t5r6rjk8r")
    assert throw.label == "5♥ 6♥ Joker 8♥"
    assert throw.description == "pure sequence of 4 · sheds 19 points"
    assert throw.secret and throw.group == THROW_GROUP  # every throw in one list, whatever its kind
    assert action(state, 0, "tCb").group == THROW_GROUP
    assert state.legal_actions(0)[0].code == "t5r6rjk8r"  # most points shed first


# -- "you always discard before you pick up" and what can be picked ----------------------------------


def test_throw_first_then_pick() -> None:
    """ "Note: That you always discard before you pick up.\""""
    state = two_players(["5r", "9y"], ["1r"], draw=["3g"])
    with pytest.raises(IllegalAction, match="Throw first"):
        state.apply(0, DRAW)
    state.apply(0, "t9y")
    with pytest.raises(IllegalAction, match="now pick a card"):
        state.apply(0, "t5r")
    state.apply(0, DRAW)
    assert state.hand(0) == ("3g", "5r")
    assert state.seats_to_act() == (1,)


def test_first_turn_of_a_round_can_only_draw() -> None:
    """ "The person next to the dealer plays the 1st turn in the Discard Pile": nothing to take yet."""
    state = two_players(["5r", "9y"], ["1r"])
    state.apply(0, "t9y")
    assert codes(state, 0) == [DRAW]


def test_pick_the_first_or_last_of_the_previous_throw_not_the_middle() -> None:
    """ "if the previous player threw the sequence 4-5-6, you could pick up the 4 or the 6 but not the 5\""""
    state = two_players(["4r", "5r", "6r", "Cb"], ["9y", "2b"], draw=["1g", "1y"])
    state.apply(0, "t4r5r6r")
    state.apply(0, DRAW)
    assert "may take 4♥ or 6♥" in table(state)["Last throw (take after yours)"]
    state.apply(1, "t9y")
    assert codes(state, 1) == [DRAW, "take4r", "take6r"]
    assert [action(state, 1, code).label for code in codes(state, 1)] == [
        "Draw from the pile",
        "Take 4♥",
        "Take 6♥",
    ]
    state.apply(1, "take6r")
    assert state.hand(1) == ("2b", "6r")
    assert state.discard_pile == ("4r", "5r")  # the rest of that throw is buried
    assert state.previous_throw == ("9y",)


def test_joker_end_of_a_sequence_can_be_picked() -> None:
    """ "If the previous player throws the sequence Joker-8-9-10 … you could pick up either the Joker or
    the 10 but not 8 or 9\""""
    state = two_players(["jk", "8b", "9b", "Ab", "1r"], ["Cy", "2b"], draw=["1g", "1y"])
    state.apply(0, "tjk8b9bAb")
    state.apply(0, DRAW)
    state.apply(1, "tCy")
    assert codes(state, 1) == [DRAW, "takejk", "takeAb"]


def test_a_single_card_or_identical_ends_offer_one_take() -> None:
    state = two_players(["5r", "5r", "1y"], ["Cy", "2b"], draw=["1g", "1y"])
    state.apply(0, "t5r5r")
    state.apply(0, DRAW)
    state.apply(1, "tCy")
    assert codes(state, 1) == [DRAW, "take5r"]


def test_play_goes_clockwise_from_the_starter() -> None:
    """ "game play usually follows a clockwise direction" (seat order)."""
    state = DeclareState.scripted([["9r"], ["9y"], ["9g"]], draw=["1r", "1y", "1g"], dealer=0)
    order = []
    for _ in range(3):
        (seat,) = state.seats_to_act()
        order.append(seat)
        state.apply(seat, codes(state, seat)[0])
        state.apply(seat, DRAW)
    assert order == [1, 2, 0]


# -- declaring --------------------------------------------------------------------------------------


def test_declare_only_with_seven_or_less_at_the_start_of_a_turn() -> None:
    """Seeds README: declare with 7 points or less; "uses their turn to call for end the play"."""
    high = two_players(["5r", "3y"], ["1r"], draw=["1g"])
    assert DECLARE not in codes(high, 0)
    with pytest.raises(IllegalAction, match="7 points or less"):
        high.apply(0, DECLARE)
    low = two_players(["5r", "2y"], ["9r"], draw=["1g"])
    declare = action(low, 0, DECLARE)
    assert declare.secret and declare.group == "" and declare.label == "Declare (7 points)"
    assert low.public_actions() == ()  # the table never learns that a hand holds 7 or less (ruling 21)
    low.apply(0, "t5r")
    assert DECLARE not in codes(low, 0)  # not after throwing


def test_half_value_halves_once_and_twice() -> None:
    """ "holding cards with point value equal to 10 also holds a 'My Half Value' Card then his point value
    will be taken as 5 points. In case he/she has 2 of such cards then point total will be 2.5 points\""""
    assert hand_quarters(["Ar"]) == 40
    assert hand_quarters(["Ar", "hv"]) == 20
    assert hand_quarters(["Ar", "hv", "hv"]) == 10
    assert format_points(10) == "2.5"
    assert format_points(7) == "1.75"


def test_half_value_lets_you_declare_above_seven() -> None:
    """ "This card can also be used to 'Declare' if the player holds cards with point value of greater than
    7 along with 'My Half Value' Card(s)"."""
    state = two_players(["Cr", "hv"], ["9r"])
    assert DECLARE in codes(state, 0)
    assert "12 halved once = {b:6} points" in private(state, 0)["Your hand counts"]


def test_half_value_is_never_thrown() -> None:
    """ "'My Half Value' card is not to be thrown"."""
    state = two_players(["Cr", "hv"], ["9r"])
    assert all("hv" not in code for code in codes(state, 0))


def test_a_successful_caller_scores_zero_the_others_their_hands() -> None:
    """ "If the 'caller' succeeded … the caller scores 0 points, and the other players score however many
    points they have in their hands\""""
    state = DeclareState.scripted([["3r"], ["Cb", "jk"], ["Ay", "hv"], ["5g"]], dealer=3)
    state.apply(0, DECLARE)
    assert [state.total(seat) for seat in range(4)] == [0, 12, 5, 5]
    assert state.round_number == 2


def test_a_failed_caller_scores_25_lower_zero_higher_their_hands() -> None:
    """ "the caller scores 25 penalty points, the player(s) having higher number of points in hand than the
    'caller' score whatever they had … while the player(s) having lower … score 0 points"; ruling 19: the
    penalty replaces the caller's hand."""
    state = DeclareState.scripted([["6r"], ["2b"], ["Cy"]], dealer=2)
    state.apply(0, DECLARE)
    assert [state.total(seat) for seat in range(3)] == [25, 0, 12]


def test_an_equal_total_beats_the_caller_and_scores_zero() -> None:
    """ "If any other player has the same number of points or fewer" the caller fails; ruling 2: the tied
    player scores 0 like those below."""
    state = DeclareState.scripted([["6r"], ["6b"], ["2y", "4g"], ["7y"]], dealer=3)
    state.apply(0, DECLARE)
    assert [state.total(seat) for seat in range(4)] == [25, 0, 0, 7]


def test_fractional_totals_score_as_halves() -> None:
    state = DeclareState.scripted([["1r"], ["7b", "hv"]], dealer=1)
    state.apply(0, DECLARE)
    assert state.total(1) == 3.5
    assert "3.5" in state.view(None).seats[1].summary


def test_lowest_hand_starts_the_next_round() -> None:
    """ "The player with the lowest card point total for that round starts the next round\""""
    state = DeclareState.scripted([["6r"], ["Cb"], ["2y"], ["9g"]], dealer=3)
    state.apply(0, DECLARE)
    assert state.seats_to_act() == (2,)


def test_ties_for_lowest_go_to_the_first_clockwise_from_the_callers_left() -> None:
    """ "the first of them, counting clockwise starting to the left of the caller" (ruling 3: the caller
    counts last)."""
    state = DeclareState.scripted([["3r"], ["9b"], ["3y"], ["9g"], ["3g"]], draw=["Cr"], dealer=0)
    state.apply(1, "t9b")  # seat 1 (dealer's left) throws and draws
    state.apply(1, DRAW)
    state.apply(2, DECLARE)  # seat 2 calls with 3; seats 4 and 0 tie with 3
    assert state.seats_to_act() == (4,)
    tied_with_caller = DeclareState.scripted([["3r"], ["3b"], ["9g"]], dealer=2)
    tied_with_caller.apply(0, DECLARE)  # seat 0 calls with 3, seat 1 ties: seat 1 is first from its left
    assert tied_with_caller.seats_to_act() == (1,)


def test_the_deal_passes_clockwise_and_each_round_is_dealt_afresh() -> None:
    """Ruling 4."""
    state = DeclareState.scripted([["3r"], ["9b"], ["Cg"]], dealer=2)
    state.apply(0, DECLARE)
    assert state.dealer == 0
    assert all(len(state.hand(seat)) == 7 for seat in range(3))
    assert len(state.draw_pile) == 108 - 21 and state.previous_throw == () and state.direction == 1


def test_exactly_100_is_reduced_to_50() -> None:
    """ "with a score of 75 points you might well call with 7 points in your hand hoping to lose and score
    25 for penalty taking your score to exactly 100 points" (and "exactly 100, it is reduced to 50")."""
    state = DeclareState.scripted([["7r"], ["1b"], ["9g"]], dealer=2, totals=[75, 10, 20])
    state.apply(0, DECLARE)
    assert [state.total(seat) for seat in range(3)] == [50, 10, 29]


def test_over_100_is_out_and_dealt_no_more_cards() -> None:
    """ "Any player who has more than 100 points is eliminated … continues with the remaining players\""""
    state = DeclareState.scripted([["1r"], ["Cb"], ["9g"]], dealer=2, totals=[0, 95, 10])
    state.apply(0, DECLARE)
    assert not state.alive(1) and state.alive(0) and state.alive(2)
    assert state.hand(1) == ()
    assert "out in round 1" in state.view(None).seats[1].summary
    assert codes(state, 1) == []
    seen = []
    for _ in range(4):
        (seat,) = state.seats_to_act()
        seen.append(seat)
        best = state.default_action(seat)
        state.apply(seat, best)
        if state.seats_to_act() == (seat,):
            state.apply(seat, state.default_action(seat))
    assert 1 not in seen


def test_the_last_survivor_wins() -> None:
    """ "until only one survives"; ruling 18 for the order of the others."""
    state = DeclareState.scripted([["1r"], ["Cb"], ["9g"]], dealer=2, totals=[0, 95, 99], seed=3)
    state.apply(0, DECLARE)
    assert state.is_terminal() and state.seats_to_act() == ()
    standings = state.standings()
    assert [s.rank for s in standings] == [1, 2, 3]  # both out in round 1: the lower total ranks first
    assert [s.points for s in standings] == [0, 107, 108]
    assert standings[0].detail == "last one standing"
    assert "game over" in state.view(None).title


def test_someone_always_survives_a_round() -> None:
    """Ruling 18: a successful caller scores 0, and so does whoever beats a failed caller, so a round
    never puts everyone out: the game ends with exactly one survivor."""
    state = DeclareState.scripted([["6r"], ["Cb"]], dealer=1, totals=[99.5, 95])
    state.apply(0, DECLARE)  # the caller keeps 99.5; seat 1 goes to 107
    assert state.is_terminal() and [s.rank for s in state.standings()] == [1, 2]
    assert state.standings()[0].points == 99.5
    failed = DeclareState.scripted([["7r"], ["7b"]], dealer=1, totals=[90, 99])
    failed.apply(0, DECLARE)  # the caller goes to 115; the tied seat 1 scores 0 and survives
    assert failed.is_terminal() and [s.rank for s in failed.standings()] == [2, 1]


def test_i_declare_now_right_after_completing_a_turn() -> None:
    """ "'I Declare Now' is thrown in the Discard Pile right after a player has completed their turn …
    allows the player to 'Declare' right after … without waiting for his/her next turn"; ruling 10: out of
    turn until the next player acts, secret, 7 or less still needed."""
    state = two_players(["9r", "1b", "dn"], ["Cy", "Ab"], draw=["2g", "1y"])
    assert DECLARE_NOW_CODE not in codes(state, 0)  # not before the turn is complete
    state.apply(0, "t9r")
    assert DECLARE_NOW_CODE not in codes(state, 0)
    state.apply(0, DRAW)
    assert state.seats_to_act() == (1,)  # the game does not wait for it
    now = action(state, 0, DECLARE_NOW_CODE)
    assert now.secret and now.label == "I Declare Now (3 points)"
    assert now not in state.public_actions()
    state.apply(0, DECLARE_NOW_CODE)
    assert [state.total(seat) for seat in range(2)] == [0, 22]
    assert "dn" in state.discard_pile or state.round_number == 2


def test_i_declare_now_closes_when_the_next_player_acts() -> None:
    state = two_players(["9r", "1b", "dn"], ["Cy", "Ab"], draw=["2g", "1y"])
    state.apply(0, "t9r")
    state.apply(0, DRAW)
    state.apply(1, "tCy")
    assert codes(state, 0) == []
    with pytest.raises(IllegalAction):
        state.apply(0, DECLARE_NOW_CODE)


def test_i_declare_now_needs_seven_or_less() -> None:
    state = two_players(["9r", "8b", "dn"], ["Cy", "Ab"], draw=["2g"])
    state.apply(0, "t9r")
    state.apply(0, DRAW)
    assert codes(state, 0) == []


def test_i_dont_pick() -> None:
    """ "'I Don't Pick' Card is thrown … after the player has thrown … to skip picking up a card\""""
    state = two_players(["9r", "2b", "np"], ["Cy"], draw=["2g"])
    assert NO_PICK_CODE not in codes(state, 0)  # only in place of the pick
    state.apply(0, "t9r")
    nopick = action(state, 0, NO_PICK_CODE)
    assert nopick.secret and nopick not in state.public_actions()
    state.apply(0, NO_PICK_CODE)
    assert state.hand(0) == ("2b",)
    assert state.seats_to_act() == (1,)
    assert "np" in state.discard_pile and state.previous_throw == ("9r",)  # the power card is not pickable


def test_i_discover_now_takes_any_number_card_from_the_discard_pile() -> None:
    """ "allows the player to pick any card placed anywhere in the Discard Pile … You cannot pick a Joker or
    any other Power Card"; ruling 11: not the cards you threw this turn."""
    state = two_players(["4r", "5r", "6r", "jk", "9g"], ["Cy", "np", "dv", "3b"], draw=["2g", "1y", "8y"])
    state.apply(0, "tjk4r5r6r")  # seat 0 throws Joker 4 5 6
    state.apply(0, DRAW)
    state.apply(1, "tCy")
    state.apply(1, NO_PICK_CODE)  # the power card goes on the pile
    state.apply(0, "t9g")  # the middle 5♥ and 4♥ are buried in the pile; 12★ is the last throw
    state.apply(0, DRAW)
    state.apply(1, "t3b")
    discover = [code for code in codes(state, 1) if code.startswith("disc")]
    assert discover == ["disc4r", "disc5r", "disc6r", "disc9g", "discCy"]  # no Joker, power card or 3♦
    menu = action(state, 1, "disc5r")
    assert menu.secret and menu.group.startswith("Play I Discover Now")
    state.apply(1, "disc5r")
    assert state.hand(1) == ("5r",)
    assert "dv" in state.discard_pile and "5r" not in state.discard_pile


def test_i_discover_now_not_offered_without_a_number_card() -> None:
    state = two_players(["9r", "dv"], ["Cy"], draw=["2g"])
    state.apply(0, "t9r")
    assert codes(state, 0) == [DRAW]


def test_a_player_who_cannot_throw_must_declare() -> None:
    """Ruling 5: only power cards (or no card) left: the hand counts 0, declaring is the only move."""
    state = two_players(["hv", "np"], ["Cy"])
    assert codes(state, 0) == [DECLARE]
    assert state.default_action(0) == DECLARE
    emptied = two_players(["9r", "np"], ["Cy", "Ab"], draw=["1g"])
    emptied.apply(0, "t9r")
    emptied.apply(0, NO_PICK_CODE)
    emptied.apply(1, "tCy")
    emptied.apply(1, DRAW)
    assert emptied.hand(0) == () and codes(emptied, 0) == [DECLARE]


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out() -> None:
    """ "If the drawing deck is empty and no one has yet ended the play, all the cards of the Discard pile
    except for the last player's discard are shuffled" (ruling 15: both live throws stay)."""
    stripped = {"discard": ["3r", "3y", "np"], "full_deck": False}
    state = two_players(["9r", "8b", "1r"], ["Cy", "Ab", "2g"], ["4g"], **stripped)
    state.apply(0, "t9r")
    state.apply(0, DRAW)
    assert state.draw_pile == ()
    state.apply(1, "tCy")
    assert sorted(state.draw_pile) == ["3r", "3y", "np"] and state.discard_pile == ()
    assert state.previous_throw == ("9r",) and state.throw_this_turn == ("Cy",)
    assert codes(state, 1) == [DRAW, "take9r"]


def test_no_card_to_pick_ends_the_turn() -> None:
    """Ruling 16 (never happens with the full deck; shown on a stripped table)."""
    state = two_players(["9r", "8b"], ["Cy", "Ab"], full_deck=False)
    state.apply(0, "t9r")
    assert codes(state, 0) == [NO_CARD]
    state.apply(0, NO_CARD)
    assert state.hand(0) == ("8b",) and state.seats_to_act() == (1,)


# -- the quick throw-back (the Note, additional rule 1) -----------------------------------------------


def test_quick_throw_back_of_a_matching_single() -> None:
    """ "if you throw a 10 and you pick a 10 then you could throw the same on the 10 you just threw";
    ruling 12: out of turn, secret, until the next player acts; the card joins the throw."""
    state = two_players(["Ar", "2b"], ["Cy", "5g"], draw=["Ag", "1y"])
    state.apply(0, "tAr")
    state.apply(0, DRAW)
    back = action(state, 0, "tbAg")
    assert back.secret and "10♣" in back.label
    assert state.seats_to_act() == (1,) and back not in state.public_actions()
    state.apply(0, "tbAg")
    assert state.hand(0) == ("2b",)
    assert state.previous_throw == ("Ar", "Ag")
    assert codes(state, 0) == []
    state.apply(1, "tCy")
    assert codes(state, 1) == [DRAW, "takeAr", "takeAg"]


def test_quick_throw_back_onto_a_set_and_either_end_of_a_sequence() -> None:
    """ "a match to the single card discarded …, the set discarded or the sequence discarded"."""
    assert throw_back_fits(["5r", "5y"], "5b") == 1
    assert throw_back_fits(["5r", "5y"], "6b") is None
    assert throw_back_fits(["4r", "5r", "6r"], "3g") == 0
    assert throw_back_fits(["4r", "5r", "6r"], "7r") == 1
    assert throw_back_fits(["jk", "8r", "9r"], "6r") == 0  # the Joker stands for 7
    assert throw_back_fits(["Ar", "Br", "Cr"], "9r") == 0
    state = two_players(["4r", "5r", "6r", "2b"], ["Cy", "5g"], draw=["3g", "1y"])
    state.apply(0, "t4r5r6r")
    state.apply(0, DRAW)
    state.apply(0, "tb3g")
    assert state.previous_throw == ("3g", "4r", "5r", "6r")


def test_no_throw_back_for_jokers_or_non_matching_or_taken_cards() -> None:
    """Ruling 13, and "if a player chooses to pick a card from the draw pile"."""
    assert throw_back_fits(["jk"], "jk") is None
    assert throw_back_fits(["5r"], "jk") is None
    state = two_players(["Ar", "2b"], ["Cy", "5g"], draw=["Bg"])
    state.apply(0, "tAr")
    state.apply(0, DRAW)
    assert codes(state, 0) == []
    taken = two_players(["Ar", "Ay", "1r"], ["Ag", "5g", "6r"], draw=["1g", "1b"])
    taken.apply(0, "tAr")
    taken.apply(0, DRAW)
    taken.apply(1, "tAg")
    taken.apply(1, "takeAr")  # a matching card taken from the discard pile cannot be thrown back
    assert codes(taken, 1) == []


def test_quick_throw_back_is_off_when_the_option_is_off() -> None:
    state = two_players(["Ar", "2b"], ["Cy"], draw=["Ag"], options={"quick_throw_back": False})
    state.apply(0, "tAr")
    state.apply(0, DRAW)
    assert codes(state, 0) == []


def test_quick_throw_back_closes_when_the_next_player_acts() -> None:
    """ "but before the next player has discarded his own cards\""""
    state = two_players(["Ar", "2b"], ["Cy", "5g"], draw=["Ag", "1y"])
    state.apply(0, "tAr")
    state.apply(0, DRAW)
    state.apply(1, "tCy")
    assert codes(state, 0) == []
    assert "You drew" not in private(state, 1)
    assert private(state, 0)["You drew"] == "10♣"


# -- additional rules 2 and 3 ---------------------------------------------------------------------


def test_a_triplet_skips_the_next_player() -> None:
    """Additional rule 2: "If a player throws 3 cards of the same number … the next player would miss
    his/her chance"; ruling 14: exactly three, the player after picks from the triplet."""
    hands = [["7r", "7y", "7g", "1b"], ["Cy"], ["Cg", "2y"]]
    state = DeclareState.scripted(hands, draw=["1y", "1g"], dealer=2, options={"triplet_skips": True})
    state.apply(0, "t7r7y7g")
    state.apply(0, DRAW)
    assert state.seats_to_act() == (2,)
    state.apply(2, "tCg")
    assert codes(state, 2) == [DRAW, "take7r", "take7g"]


def test_a_set_of_four_or_the_option_off_does_not_skip() -> None:
    hands = [["7r", "7y", "7g", "7b"], ["Cy"], ["Cg"]]
    four = DeclareState.scripted(hands, draw=["1y"], dealer=2, options={"triplet_skips": True})
    four.apply(0, "t7r7y7g7b")
    four.apply(0, DRAW)
    assert four.seats_to_act() == (1,)
    off = DeclareState.scripted(hands, draw=["1y"], dealer=2)
    off.apply(0, "t7r7y7g")
    off.apply(0, DRAW)
    assert off.seats_to_act() == (1,)


def test_a_triplet_with_two_players_gives_the_thrower_another_turn() -> None:
    state = two_players(["7r", "7y", "7g", "1b"], ["Cy"], draw=["1y"], options={"triplet_skips": True})
    state.apply(0, "t7r7y7g")
    state.apply(0, DRAW)
    assert state.seats_to_act() == (0,)


def test_a_pure_sequence_of_three_reverses_play() -> None:
    """Additional rule 3: "If a player throws a pure sequence only of 3 cards, then the playing order gets
    reversed\""""
    hands = [["Cr"], ["4r", "5r", "6r", "1b"], ["Cg"], ["Cb"]]
    state = DeclareState.scripted(hands, draw=["1y", "1g"], dealer=0, options={"pure_three_reverses": True})
    state.apply(1, "t4r5r6r")
    state.apply(1, DRAW)
    assert state.seats_to_act() == (0,) and state.direction == -1
    assert table(state)["Play goes"] == "anticlockwise ↺"
    state.apply(0, "tCr")
    state.apply(0, DRAW)
    assert state.seats_to_act() == (3,)


def test_each_round_starts_clockwise_again() -> None:
    """Ruling 23: a reversal lasts until the next reversal or the end of the round."""
    hands = [["1r"], ["4r", "5r", "6r", "1b"], ["Cg"]]
    state = DeclareState.scripted(hands, draw=["Cy"], dealer=0, options={"pure_three_reverses": True})
    state.apply(1, "t4r5r6r")
    state.apply(1, DRAW)
    assert state.direction == -1
    state.apply(0, DECLARE)
    assert state.direction == 1 and table(state)["Play goes"] == "clockwise ↻"


def test_only_a_pure_three_reverses() -> None:
    options = {"pure_three_reverses": True}
    impure = DeclareState.scripted(
        [["Cr"], ["4r", "5y", "6r", "7r"], ["Cg"]], draw=["1y"], dealer=0, options=options
    )
    impure.apply(1, "t4r5y6r7r")
    impure.apply(1, DRAW)
    assert impure.seats_to_act() == (2,)
    off = DeclareState.scripted([["Cr"], ["4r", "5r", "6r"], ["Cg"]], draw=["1y"], dealer=0)
    off.apply(1, "t4r5r6r")
    off.apply(1, DRAW)
    assert off.seats_to_act() == (2,)


def test_options_are_bools_with_defaults_and_descriptions() -> None:
    """The lobby turns each field into a select menu: every field has a default and a description."""
    assert DeclareOptions() == DeclareOptions(
        quick_throw_back=True, triplet_skips=False, pure_three_reverses=False
    )
    for name, field in DeclareOptions.model_fields.items():
        assert field.annotation is bool and field.description, name
    with pytest.raises(ValueError):
        DECLARE_GAME.new_game(3, seed=1, options={"jokers_wild": True})


# -- the throw decision offers every throw ---------------------------------------------------------


def test_a_huge_throw_decision_offers_every_throw_in_one_group() -> None:
    """Ruling 24: every legal throw in one list, most points shed first; the Discord renderer pages it.
    This hand has 117 legal throws, the most found (test_worst_case_hand_search)."""
    hand = ["6b", "7b", "8b", "9b", "jk", "jk", "jk"]
    throws = legal_throws(tuple(hand))
    assert len(throws) == 117
    state = two_players(hand, ["Cy"])
    top = state.legal_actions(0)
    assert len(top) == 117 and all(a.secret and a.group == THROW_GROUP for a in top)
    assert [a.code for a in top] == [throw.code for throw in throws]
    sheds = [int(a.description.rsplit("sheds ", 1)[1].split()[0]) for a in top]
    assert sheds == sorted(sheds, reverse=True) and sheds[0] == 30
    assert state.default_action(0) == "t6b7b8b9b"  # the throw shedding most (6♦ 7♦ 8♦ 9♦)
    assert all(not code.startswith("f") for code in codes(state, 0))  # no family step any more
    window = DeclareState.scripted([["Ar", "2b"], hand], draw=["Ag"], dealer=1)
    window.apply(0, "tAr")
    window.apply(0, DRAW)
    assert codes(window, 0) == ["tbAg"]  # the previous player's throw-back stays open until a throw
    window.apply(1, "t6b7b8b9b")
    assert codes(window, 0) == []
    everything = next(code for code in codes(state, 0) if len(code) == 15)  # all seven cards
    state.apply(0, everything)
    assert len(state.hand(0)) == 0


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 4), st.lists(st.sampled_from(range(96)), min_size=1, max_size=7, unique=True))
def test_every_throw_decision_offers_each_legal_throw_once(jokers: int, indices: list[int]) -> None:
    """Hands of up to 7 cards with 0-4 Jokers: one group holding each legal throw once, most points first,
    codes and texts short enough for Discord."""
    numbers = [card for card in FULL_DECK if card[0] in "123456789ABC"]
    hand = (["jk"] * jokers + [numbers[index] for index in indices])[:7]
    state = two_players(hand, [])
    legal = state.legal_actions(0)
    throws = [a for a in legal if a.code != DECLARE]
    assert [a.code for a in throws] == [throw.code for throw in legal_throws(state.hand(0))]
    assert len({a.code for a in throws}) == len(throws) >= 1
    assert {a.group for a in throws} == {THROW_GROUP}
    points = [throw.points for throw in legal_throws(state.hand(0))]
    assert points == sorted(points, reverse=True)
    for legal_action in legal:
        assert CODE.fullmatch(legal_action.code)
        assert len(legal_action.label) <= 80 and len(legal_action.description) <= 100
        assert len(legal_action.group) <= 150


def test_worst_case_hand_search() -> None:
    """A quick hill-climb over 7-card hands: no hand found has more than 117 throws."""
    rng = random.Random(7)
    deck = [card for card in FULL_DECK if card not in POWER_CARDS]
    worst = 0
    for _ in range(12):
        hand = rng.sample(deck, 7)
        for _ in range(60):
            trial = list(hand)
            pool = list(deck)
            for card in trial:
                pool.remove(card)
            trial[rng.randrange(7)] = rng.choice(pool)
            if len(legal_throws(tuple(sorted(trial)))) >= len(legal_throws(tuple(sorted(hand)))):
                hand = trial
        throws = legal_throws(tuple(sorted(hand)))
        worst = max(worst, len(throws))
    assert worst <= 117


# -- timeouts, views and leaks --------------------------------------------------------------------


def test_default_actions() -> None:
    """Ruling 17: shed the most points, never declare by default; draw rather than play a power card."""
    state = two_players(["3r", "4r", "5r", "Cb", "1y", "np"], ["Cy"], draw=["2g"])
    assert state.default_action(0) == "tCb"
    state.apply(0, "tCb")
    assert state.default_action(0) == DRAW
    low = two_players(["3r", "1y"], ["Cy"])
    assert DECLARE in codes(low, 0) and low.default_action(0) == "t3r"
    with pytest.raises(IllegalAction):
        low.default_action(1)


def test_public_view_shows_the_table() -> None:
    """Pickable ends, hand sizes, running totals, closest to 100, round number and the last round."""
    state = DeclareState.scripted([["3r"], ["9b"], ["Cg"]], dealer=2, totals=[10, 80, 40])
    state.apply(0, DECLARE)
    public = state.view(None)
    assert public.title == "Minimize: Declare · round 2"
    fields = table(state)
    assert fields["Round 1 result"].startswith("📣 declared 3 points and won: scores 0")
    assert fields["Closest to 100"] == "89 points (⚠)"
    lines = [line.summary for line in public.seats]
    assert lines[0].startswith("7 cards · {b:10} pts")
    assert "📣 R1: held 3 → +0" in lines[0]
    assert lines[1].endswith("R1: +9 · ⚠")  # the score is the hand held: "held" is not repeated
    assert "dealer" in lines[0]
    assert public.private == () and public.legal_actions == ()


def test_events_name_no_hidden_card() -> None:
    """Events go to everyone: a draw never names the card, which only the drawer's private view shows."""
    state = two_players(["9r", "1b"], ["Cy"], draw=["Ag"])
    state.apply(0, "t9r")
    events = state.apply(0, DRAW)
    assert all("10" not in event.text for event in events)
    assert private(state, 0)["You drew"] == "10♣"


def test_round_scoring_on_hand_built_totals() -> None:
    """ "If any other player has the same number of points or fewer points than the caller, the caller
    scores 25 penalty points" (others at or below a beaten caller score 0, ruling 2); "exactly 100 … 50",
    "more than 100 points is eliminated"; the lowest hand starts, ties to the first left of the caller
    (ruling 3). Quarter points throughout; ``None`` for a seat already out."""
    assert round_scores([12, 40, None, 8], caller=0) == (True, (100, 40, 0, 0))
    assert round_scores([12, 40, None, 16], caller=0) == (False, (0, 40, 0, 16))
    assert settle(396) == (396, Settlement.KEPT)
    assert settle(400) == (200, Settlement.BACK_TO_50)
    assert settle(404) == (404, Settlement.OUT)
    assert next_starter([12, 40, None, 12], caller=0, survivors={0, 1, 3}) == 3
    assert next_starter([12, 40, None, 12], caller=3, survivors={0, 1, 3}) == 0


def test_declare_reveals_every_hand_in_the_log() -> None:
    """ "all players immediately reveal their cards\""""
    state = DeclareState.scripted([["3r"], ["9b", "hv"]], dealer=1)
    events = state.apply(0, DECLARE)
    texts = {event.seat: cards_as_text(event.text) for event in events[1:3]}
    assert texts[0].startswith("shows 3♥ = 3: +0")
    assert texts[1].startswith("shows 9♦ My Half Value = 4.5: +4.5")


@pytest.mark.parametrize(
    ("seat", "code", "message"),
    [(1, DRAW, "not your turn"), (0, "steal", "not allowed"), (5, DECLARE, "not seated"), (0, "t9b", "not")],
)
def test_illegal_actions_change_nothing(seat: int, code: str, message: str) -> None:
    state = two_players(["9r", "1b"], ["Cy"], draw=["Ag"])
    before = (state.view(0), state.view(1), state.view(None), state.version)
    with pytest.raises(IllegalAction, match=message):
        state.apply(seat, code)
    assert (state.view(0), state.view(1), state.view(None), state.version) == before


def test_scripted_deal_validation() -> None:
    with pytest.raises(ValueError):
        DeclareState.scripted([["9r"]])
    with pytest.raises(ValueError):
        DeclareState.scripted([["zz"], ["1r"]])
    with pytest.raises(ValueError):
        DeclareState.scripted([["jk", "jk", "jk"], ["jk", "jk"]])
    with pytest.raises(ValueError):
        DeclareState.scripted([["1r"] * 8, ["2r"]])


def test_replay_rebuilds_the_same_game() -> None:
    state = DECLARE_GAME.new_game(4, seed=11)
    while not state.is_terminal():
        (seat,) = state.seats_to_act()
        state.apply(seat, state.default_action(seat))
        assert state.version < MAX_STEPS
    again = replay(DECLARE_GAME, 4, 11, None, state.history)
    assert again.standings() == state.standings()
    assert again.view(None) == state.view(None)


# -- properties over random play --------------------------------------------------------------------


ALL_RULES = {"quick_throw_back": True, "triplet_skips": True, "pure_three_reverses": True}


def games_with_all_rules(*, finish: bool = False):
    """Like ``games_in_play`` but with all three additional rules on (skips and reversals too)."""
    return games_in_play(DECLARE_GAME, finish=finish, options=ALL_RULES)


def _all_cards(state: DeclareState) -> list[str]:
    hands = [card for seat in range(state.num_seats) for card in state.hand(seat)]
    piles = state.draw_pile + state.discard_pile + state.previous_throw + state.throw_this_turn
    return hands + list(piles)


@settings(max_examples=25, deadline=None)
@given(st.one_of(games_in_play(DECLARE_GAME, finish=True), games_with_all_rules(finish=True)))
def test_random_games_end_and_replay_exactly(game) -> None:
    rules, state = game
    assert state.is_terminal() and state.seats_to_act() == ()
    assert all(not state.legal_actions(seat) for seat in range(state.num_seats))
    standings = state.standings()
    assert [s.seat for s in standings] == list(range(state.num_seats))
    assert min(s.rank for s in standings) == 1
    assert sum(1 for seat in range(state.num_seats) if state.alive(seat)) == 1
    again = replay(rules, state.num_seats, state.seed, state.options, state.history)
    assert again.options == state.options and again.standings() == standings
    assert again.view(None) == state.view(None)


@settings(max_examples=60, deadline=None)
@given(st.one_of(games_in_play(DECLARE_GAME), games_with_all_rules()), st.text(max_size=12))
def test_random_play_keeps_the_contract(game, junk: str) -> None:
    """Cards conserved, hands ≤ 7, totals in quarter points, every seat to act can act, a default move is
    legal, codes and texts fit Discord, illegal actions change nothing."""
    _, state = game
    assert Counter(_all_cards(state)) == Counter(FULL_DECK)
    assert all(len(state.hand(seat)) <= 7 for seat in range(state.num_seats))
    for seat in state.seats_to_act():
        legal = state.legal_actions(seat)
        assert 1 <= len(legal)
        assert state.default_action(seat) in {a.code for a in legal}
        if state.phase is Phase.THROW and seat in state.seats_to_act():  # every legal throw is offered
            throws = [a.code for a in legal if a.group == THROW_GROUP]
            assert throws == [throw.code for throw in legal_throws(state.hand(seat))]
    for seat in range(state.num_seats):
        view = state.view(seat)
        assert view.legal_actions == state.legal_actions(seat)
        assert len(view.table) + len(view.private) <= 25
        for field in view.table + view.private:
            assert len(field.name) <= 256 and len(field.value) <= 1024
        for legal_action in view.legal_actions:
            assert CODE.fullmatch(legal_action.code) and len(legal_action.label) <= 80
    before = [state.view(seat) for seat in range(state.num_seats)], state.view(None), state.version
    allowed = {a.code for seat in seats_with_actions(state) for a in state.legal_actions(seat)}
    for seat in range(-1, state.num_seats + 1):
        if junk in allowed:
            continue
        with pytest.raises(IllegalAction):
            state.apply(seat, junk)
    assert ([state.view(seat) for seat in range(state.num_seats)], state.view(None), state.version) == before


def test_a_random_game_is_fast_and_ends() -> None:
    """Random play for 2 to 10 players ends well within the step limit."""
    for players in range(2, 11):
        state = DECLARE_GAME.new_game(players, seed=players * 7)
        picker = random.Random(players)
        steps = 0
        while not state.is_terminal():
            seat = picker.choice(seats_with_actions(state))
            legal = state.legal_actions(seat)
            state.apply(seat, picker.choice(legal).code)
            steps += 1
            assert steps < MAX_STEPS


# -- typed actions, refusals and older logs -------------------------------------------------------------


def test_actions_parse_and_format_the_stored_codes() -> None:
    """The typed actions keep the codes of every stored game: parse(format()) is the identity."""
    examples = {
        "declare": Declare(),
        "declarenow": DeclareNow(),
        "draw": Draw(),
        "nopick": NoPick(),
        "nocard": NoCard(),
        "t5r6rjk8r": ThrowCards(("5r", "6r", "jk", "8r")),
        "tCb": ThrowCards(("Cb",)),
        "take5r": Take("5r"),
        "takejk": Take("jk"),
        "disc9g": Discover("9g"),
        "tbAg": ThrowBack("Ag"),
    }
    for code, typed in examples.items():
        assert DeclareAction.parse(code) == typed and typed.format() == code == str(typed)
    assert Take.parse("take5r") == Take("5r")
    for junk in ("", "t", "t5", "tzz", "take", "takezz", "disc", "tb", "f1", "f4", "fback", "steal", "Draw"):
        with pytest.raises(ValueError):
            DeclareAction.parse(junk)
    with pytest.raises(ValueError):
        Take.parse("draw")  # a subclass parses only its own codes


def _probe_actions(state: DeclareState, seat: int, rng: random.Random) -> list[DeclareAction]:
    """Actions of every kind, most of them illegal now: every card for the card actions, and throws of
    random cards from the seat's hand (legal or not) and from the whole deck."""
    cards = sorted(set(FULL_DECK))
    probes: list[DeclareAction] = [Declare(), DeclareNow(), Draw(), NoPick(), NoCard()]
    probes += [kind(card) for card in cards for kind in (Take, Discover, ThrowBack)]
    hand = list(state.hand(seat))
    for _ in range(12):
        source = hand if hand and rng.random() < 0.7 else cards
        probes.append(ThrowCards(tuple(rng.sample(source, rng.randint(1, min(4, len(source)))))))
    return probes


@settings(max_examples=60, deadline=None)
@given(st.one_of(games_in_play(DECLARE_GAME), games_with_all_rules()), st.randoms(use_true_random=False))
def test_check_agrees_with_legal_actions(game, rng: random.Random) -> None:
    """``check`` passes exactly the listed actions, refuses every other with words, and ``apply`` refuses
    with the same words."""
    _, state = game
    for seat in range(state.num_seats):
        listed = {legal.code for legal in state.legal_actions(seat)}
        for code in listed:
            assert state.check(seat, DeclareAction.parse(code)) is None, code
        for probe in _probe_actions(state, seat, rng):
            words = state.check(seat, probe)
            assert (words is None) == (probe.format() in listed), (probe, words)
            if words is not None and not state.is_terminal():
                with pytest.raises(IllegalAction) as refused:
                    state.apply(seat, probe.format())
                assert str(refused.value) == words


def test_refusals_say_why() -> None:
    """The check that refuses gives the words: a few of them."""
    state = two_players(["9r", "1b", "np"], ["Cy", "Ab"], draw=["2g"])
    assert state.check(0, Take("9r")) == "Throw first, then pick: you always discard before you pick up."
    assert state.check(0, ThrowCards(("Cy",))) == "You do not hold those cards."
    assert state.check(0, ThrowCards(("1b", "9r"))).startswith("That is not a throw")
    assert state.check(1, ThrowCards(("Cy",))) == "It is not your turn."
    assert state.check(0, ThrowBack("2g")).startswith("That is played only right after your own turn")
    state.apply(0, "t9r")
    assert state.check(0, Discover("9r")) == "You hold no I Discover Now card."
    assert state.check(0, NoCard()) == "There is a card to pick: draw one or take one."
    assert state.check(0, Declare()).startswith("You declare at the start of your turn, before throwing")


# An action log stored by the engine that still split big throw decisions into a "family" step: a game
# of two players, seed 2114, played by timeouts, where seat 0 is dealt 6♥ 7★ 8♣ 9♣ 10★ and two Jokers
# (more than 96 throws) and chose the family "sequence of 3", went back, chose "sequence of 5" and threw.
# Recorded once with the old engine (`git show 29886ac:engine/declare.py`, before typed actions), to the first
# declare; the old engine's results after it are recorded below the log.
OLD_LOG_WITH_FAMILY_STEPS = """
1:t2g3b4b5y 1:draw 0:f3 0:fback 0:f5 0:t6r7y8g9gAy 0:draw 1:tBb 1:draw 0:t5b 0:draw 1:t9r 1:draw 0:tjk
0:draw 1:t8b 1:draw 0:tBg 0:draw 1:t7b 1:draw 0:tAy 0:draw 1:t5r 1:draw 0:tjk 0:draw 1:t9y 1:draw 0:tCr
0:draw 1:t1g2b3r4g 1:draw 0:t1r 0:draw 1:t5b 1:draw 0:t7y 0:draw 1:tBg 1:draw 0:t4r 0:draw 1:t8r 1:draw
0:t6y 0:draw 1:tjk 1:draw 0:t2y 0:draw 1:declare
"""
OLD_TOTALS = [5, 0]
OLD_HANDS_IN_ROUND_2 = [
    ("1r", "6g", "6b", "7g", "9g", "Ab", "Cr"),
    ("2g", "2b", "4y", "5r", "7r", "9r", "Ag"),
]


def _log(text: str) -> list[tuple[int, str]]:
    return [(int(seat), code) for seat, code in (entry.split(":") for entry in text.split())]


def test_an_old_log_with_family_steps_replays_to_the_same_game() -> None:
    """``upgrade_log`` drops the family steps (``f1`` .. ``f7``, ``fback``), which changed nothing but the
    list a player saw, so a game stored by the old engine replays to the game it was."""
    old_log = _log(OLD_LOG_WITH_FAMILY_STEPS)
    family_steps = [(seat, code) for seat, code in old_log if code in ("f3", "fback", "f5")]
    assert len(family_steps) == 3
    without = [entry for entry in old_log if entry not in family_steps]
    assert DECLARE_GAME.upgrade_log(old_log) == without
    assert DECLARE_GAME.upgrade_log(without) == without  # idempotent: a current log stays as it is
    fresh = DECLARE_GAME.new_game(2, 2114)
    for seat, code in old_log[:2]:
        fresh.apply(seat, code)
    assert len(legal_throws(fresh.hand(0))) > 96  # the hand that used to be split into families
    with pytest.raises(IllegalAction):
        fresh.apply(0, "f3")  # the old codes are not moves any more: only upgrade_log lets the log replay
    assert fresh.default_action(0) == "t6r7y8g9gAy"  # the throw the old engine's timeout chose
    old = replay(DECLARE_GAME, 2, 2114, None, old_log)
    new = replay(DECLARE_GAME, 2, 2114, None, without)
    assert old.history == new.history == without
    assert [old.view(seat) for seat in (None, 0, 1)] == [new.view(seat) for seat in (None, 0, 1)]
    assert [old.total(seat) for seat in (0, 1)] == OLD_TOTALS
    assert old.round_number == 2 and [old.hand(seat) for seat in (0, 1)] == OLD_HANDS_IN_ROUND_2
    assert old.seats_to_act() == (1,)


# -- resampling what a seat has not seen --------------------------------------------------------------


def test_resampling_keeps_what_the_table_saw() -> None:
    """``resample_hidden`` redraws hands and the draw pile but keeps a card everyone saw taken in the
    taker's hand, the viewer's own hand, and every size."""
    state = DeclareState.scripted([["4r", "5r", "6r", "Cb"], ["9y", "2b", "3g"], ["Ay", "1g"]], dealer=2)
    state.apply(0, "t4r5r6r")
    state.apply(0, DRAW)
    state.apply(1, "t9y")
    state.apply(1, "take6r")  # the table saw 6♥ go into seat 1's hand
    rng = random.Random(5)
    seen_changes = 0
    for _ in range(20):
        other = state.resample_hidden(2, rng)
        assert other.hand(2) == state.hand(2)
        assert "6r" in other.hand(1)
        assert [len(other.hand(seat)) for seat in range(3)] == [len(state.hand(seat)) for seat in range(3)]
        assert len(other.draw_pile) == len(state.draw_pile)
        assert Counter(_all_cards(other)) == Counter(_all_cards(state))
        assert other.view(2) == state.view(2) and other.history == state.history
        seen_changes += other.hand(0) != state.hand(0) or other.draw_pile != state.draw_pile
    assert seen_changes >= 15
