"""Minimisère rules, each test citing the passage of shared/seeds/003_f35f0b9afdf8689d.txt it checks, and
each ruling of docs/rules/minimisere.md (named "ruling N")."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine import IllegalAction, replay
from engine.minimisere import (
    BID_LOT,
    CANCEL_LOT,
    HAND_SIZES,
    JOKER,
    JOKER_LOSES,
    JOKER_WINS,
    LOT_GROUP,
    PLAY_GROUP,
    Decree,
    LotStep,
    Minimisere,
    MinimisereAction,
    MinimisereOptions,
    MinimisereState,
    Phase,
    build_pack,
    card_text,
    score_for_deal,
    suit_of,
    trick_winner,
)
from tests.engine.conftest import cards_as_text, games_in_play, seats_with_actions

RULES = Minimisere()
CODE = re.compile(r"^[A-Za-z0-9_.,+\-]{1,40}$")

# The score tables exactly as printed ("For winning... N tricks score P"), independent of the engine.
PRINTED_SCORES = {
    5: {1: 1, 2: 2, 0: 5, 3: 6, 4: 8, 5: 0},
    4: {1: 1, 2: 2, 3: 3, 0: 6, 4: 8, 5: 10, 6: 0},
    6: {1: 1, 2: 2, 3: 3, 0: 6, 4: 8, 5: 10, 6: 0},
    3: {1: 1, 2: 2, 3: 3, 0: 7, 4: 8, 5: 10, 6: 12, 7: 0},
}
PRINTED_LOT = {5: (10, 5), 4: (12, 6), 6: (12, 6)}


def play(state: MinimisereState, *codes: str) -> list:
    """Play ``codes`` in turn, each by the seat to act; return all events."""
    events = []
    for code in codes:
        (seat,) = state.seats_to_act()
        events.extend(state.apply(seat, code))
    return events


def play_out_deal(state: MinimisereState) -> None:
    """Play the deal in progress to its end with the timeout default."""
    deal = state.deal_number
    while not state.is_terminal() and state.deal_number == deal:
        (seat,) = state.seats_to_act()
        state.apply(seat, state.default_action(seat))


def all_codes(state: MinimisereState, seat: int) -> list[str]:
    return [action.code for action in state.legal_actions(seat)]


def codes(state: MinimisereState, seat: int) -> list[str]:
    """The card plays offered, without "Bid the Lot…"."""
    return [code for code in all_codes(state, seat) if code != BID_LOT]


def fields(view) -> dict[str, str]:
    return {field.name: cards_as_text(field.value) for field in (*view.table, *view.rules, *view.private)}


def rotate(hands: list[list[str]]) -> list[list[str]]:
    """Each seat gets the hand of the seat to its right (so the next dealer's left holds seat 0's hand)."""
    return [hands[(seat - 1) % len(hands)] for seat in range(len(hands))]


# A five-hand deal (dealer 4, seat 0 leads) that shows a led Deuce, a led Joker and a followed Deuce.
FIVE = [
    ["2H", "KS", "10C", "2D", "JK"],
    ["AH", "QS", "AC", "QD", "KD"],
    ["KH", "JS", "KC", "JD", "10D"],
    ["QH", "10S", "QC", "AD", "2C"],
    ["JH", "10H", "AS", "2S", "JC"],
]
FIVE_PLAY = [
    *("2H", "AH", "KH", "QH", "JH"),  # a led Deuce beats the Ace: seat 0
    *("JK", "QS", "JS", "10S", "AS"),  # a led Joker wins; the followers play as they please: seat 0
    *("KS", "AC", "KC", "QC", "2S"),  # the followed Deuce is lowest: seat 0
    *("10C", "KD", "JD", "2C", "JC"),  # highest club wins: seat 4
    *("10H", "2D", "QD", "10D", "AD"),  # seat 4 leads; nobody can follow hearts: seat 4
]

# A three-hand deal (dealer 2, seat 0 leads) where seat 0 holds every spade and seat 2 the Joker.
THREE = [
    ["AS", "KS", "QS", "JS", "10S", "AH", "KH"],
    ["AC", "KC", "QC", "JC", "10C", "QH", "JH"],
    ["JK", "AD", "KD", "QD", "JD", "10D", "10H"],
]
THREE_ALL_TO_SEAT_0 = [
    *("AS", "AC", JOKER_LOSES),
    *("KS", "KC", "AD"),
    *("QS", "QC", "KD"),
    *("JS", "JC", "QD"),
    *("10S", "10C", "JD"),
    *("AH", "QH", "10H"),
    *("KH", "JH", "10D"),
]

# Four hands (dealer 3, seat 0 leads): seat 0 holds the top five spades; the Joker is set aside.
FOUR = [
    ["AS", "KS", "QS", "JS", "10S", "10H"],
    ["AH", "KH", "QH", "JH", "2H", "2S"],
    ["AC", "KC", "QC", "JC", "10C", "2C"],
    ["AD", "KD", "QD", "JD", "10D", "2D"],
]
FOUR_NINES = [[card.replace("2", "9") for card in hand] for hand in FOUR]
FOUR_NINES[0][5] = "9H"
FOUR_NINES[1][4] = "10H"

# Six hands (dealer 5, seat 0 leads): seat 0 holds A K Q J 10 9 of spades.
SIX = [
    ["AS", "KS", "QS", "JS", "10S", "9S"],
    ["8S", "7S", "2S", "AH", "KH", "QH"],
    ["JH", "10H", "9H", "8H", "7H", "2H"],
    ["AC", "KC", "QC", "JC", "10C", "9C"],
    ["8C", "7C", "2C", "AD", "KD", "QD"],
    ["JD", "10D", "9D", "8D", "7D", "2D"],
]


def five(**kwargs) -> MinimisereState:
    return MinimisereState.scripted(5, [FIVE], dealer=4, **kwargs)


# -- "Cards": packs and deals by player count -------------------------------------------------------


def test_five_players_get_five_cards_each_from_a_25_card_pack_with_a_joker() -> None:
    """ "Deal five cards each from a 25-card pack consisting of A-K-Q-J-10-2 in each suit, plus one
    Joker." """
    state = RULES.new_game(5, seed=1)
    pack = build_pack(5)
    assert len(pack) == 25 and "JK" in pack
    assert {card[:-1] for card in pack if card != "JK"} == {"A", "K", "Q", "J", "10", "2"}
    assert all(len(state.hand(seat)) == 5 for seat in range(5))
    assert sorted(card for seat in range(5) for card in state.hand(seat)) == sorted(pack)


def test_four_players_get_six_each_from_the_25_card_pack_one_card_set_aside() -> None:
    """ "Deal six cards each from (if four play) a 25-card pack"; ruling 5: the 25th card is set aside."""
    state = RULES.new_game(4, seed=2)
    dealt = [card for seat in range(4) for card in state.hand(seat)]
    assert all(len(state.hand(seat)) == 6 for seat in range(4))
    assert len(state.set_aside()) == 1
    assert sorted(dealt + list(state.set_aside())) == sorted(build_pack(4))
    assert state.set_aside() != ("JK",)
    for viewer in (None, 0, 1, 2, 3):
        assert card_text(state.set_aside()[0]) not in str(state.view(viewer))


def test_six_players_use_a_36_card_pack_without_joker() -> None:
    """ "(if six play) a 36-card pack consisting of A-K-Q-J-10-9-8-7-2 in each suit and no Joker." """
    pack = build_pack(6)
    assert len(pack) == 36 and "JK" not in pack
    assert {card[:-1] for card in pack} == {"A", "K", "Q", "J", "10", "9", "8", "7", "2"}
    state = RULES.new_game(6, seed=3)
    assert all(len(state.hand(seat)) == 6 for seat in range(6))
    assert state.set_aside() == ()


def test_three_players_get_seven_each_from_a_21_card_pack() -> None:
    """ "Deal seven cards each from a 21-card pack consisting of A-K-Q-J-10 in each suit, plus one Joker." """
    pack = build_pack(3)
    assert len(pack) == 21 and "JK" in pack
    assert {card[:-1] for card in pack if card != "JK"} == {"A", "K", "Q", "J", "10"}
    state = RULES.new_game(3, seed=4)
    assert all(len(state.hand(seat)) == 7 for seat in range(3))
    assert state.set_aside() == ()


@pytest.mark.parametrize("players", [4, 5])
def test_nines_option_replaces_the_deuces(players: int) -> None:
    """ "You can replace the Deuce with a Nine if you prefer." """
    state = RULES.new_game(players, seed=5, options={"nines": True})
    cards = {card for seat in range(players) for card in state.hand(seat)} | set(state.set_aside())
    assert cards == set(build_pack(players, nines=True))
    assert {card[:-1] for card in cards if card != "JK"} == {"A", "K", "Q", "J", "10", "9"}
    assert "Nine" in fields(state.view(None))["Cards"]


@pytest.mark.parametrize("players", [3, 6])
def test_nines_option_does_not_change_the_three_or_six_player_pack(players: int) -> None:
    """Ruling 2: the option is offered only in the five- and four-hand texts."""
    assert build_pack(players, nines=True) == build_pack(players)
    with_option = RULES.new_game(players, seed=6, options={"nines": True})
    without = RULES.new_game(players, seed=6)
    assert [with_option.hand(s) for s in range(players)] == [without.hand(s) for s in range(players)]


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_outside_3_to_6_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="3 to 6 players"):
        RULES.new_game(players, seed=1)


def test_same_seed_same_deal_other_seed_differs() -> None:
    first, again, other = (RULES.new_game(5, seed=s) for s in (7, 7, 8))
    assert [first.hand(s) for s in range(5)] == [again.hand(s) for s in range(5)]
    assert [first.hand(s) for s in range(5)] != [other.hand(s) for s in range(5)]


def test_first_dealer_is_drawn_by_the_seed_and_dealers_left_leads() -> None:
    """Ruling 4, and "The player at dealer's left leads to the first trick"."""
    dealers = set()
    for seed in range(30):
        state = RULES.new_game(5, seed=seed)
        dealers.add(state.dealer)
        assert state.seats_to_act() == ((state.dealer + 1) % 5,)
    assert dealers == set(range(5))


def test_the_deal_passes_to_the_left() -> None:
    """ "The turn to deal passes to the left." """
    state = MinimisereState.scripted(5, [FIVE, rotate(FIVE)], dealer=4)
    play(state, *FIVE_PLAY)
    assert state.deal_number == 2
    assert state.dealer == 0
    assert state.seats_to_act() == (1,)
    assert set(state.hand(1)) == set(FIVE[0])


def test_scripted_deal_validation() -> None:
    with pytest.raises(ValueError):
        MinimisereState.scripted(5, [FIVE[:4]])
    with pytest.raises(ValueError):
        MinimisereState.scripted(5, [[FIVE[0], FIVE[0], FIVE[2], FIVE[3], FIVE[4]]])
    with pytest.raises(ValueError):
        MinimisereState.scripted(4, [FOUR_NINES])  # Nines without the option
    with pytest.raises(ValueError):
        MinimisereState.scripted(5, [FIVE], scores=[1, 2])


# -- "Play": follow suit, no trumps, the Deuce and the Joker -------------------------------------------


def test_the_five_hand_deal_and_its_score() -> None:
    """The whole scripted five-hand deal: 3 tricks score 6, 2 tricks 2, none 5."""
    state = five()
    events = play(state, *FIVE_PLAY)
    assert state.deal_number == 2
    assert state.scores() == (6, 5, 5, 5, 2)
    texts = [cards_as_text(event.text) for event in events]
    assert "won trick 1 with {b:2♥}" in texts
    assert any("scores +6 for 3 tricks" in text for text in texts)


def test_only_cards_that_follow_suit_are_offered() -> None:
    """ "You must follow suit if you can": seat 1's only heart is its one legal card."""
    state = five()
    play(state, "2H")
    assert codes(state, 1) == ["AH"]
    with pytest.raises(IllegalAction, match="You must follow suit: play a heart"):
        state.apply(1, "QS")


def test_every_follower_must_follow_the_suit_led() -> None:
    state = MinimisereState.scripted(5, [FIVE], dealer=0)  # seat 1 leads
    play(state, "AC")
    assert codes(state, 2) == ["KC"]
    play(state, "KC")
    assert codes(state, 3) == ["QC", "2C"]
    play(state, "QC")
    assert codes(state, 4) == ["JC"]
    play(state, "JC")
    assert codes(state, 0) == ["10C"]


def test_a_void_player_may_discard_the_joker() -> None:
    state = MinimisereState.scripted(5, [FIVE], dealer=3)  # seat 4 leads
    play(state, "AS")  # seat 4 leads a spade; seat 0 holds KS and must follow
    assert codes(state, 0) == ["KS"]
    play(state, "KS", "QS", "JS", "10S")  # seat 0 plays KS... ; seat 4's AS wins
    assert state.seats_to_act() == (4,)
    play(state, "2S")  # seat 4 leads its Deuce: it wins
    assert set(codes(state, 0)) == {"2H", "10C", "2D", "JK"}  # void in spades: anything, Joker too


def test_the_joker_cannot_be_played_when_able_to_follow() -> None:
    """The Joker belongs to no suit; "(You can only play it second or third if unable to follow suit)"."""
    state = MinimisereState.scripted(5, [FIVE], dealer=3)
    play(state, "JC")  # seat 4 leads clubs; seat 0 holds 10C and the Joker
    assert codes(state, 0) == ["10C"]


def test_the_highest_card_of_the_suit_led_wins_there_are_no_trumps() -> None:
    """ "There are no trumps, and the trick is normally taken by the highest card of the suit led." """
    state = MinimisereState.scripted(5, [FIVE], dealer=3)
    play(state, "10H")  # seat 4 leads 10H
    play(state, "2H", "AH", "KH", "QH")  # seat 1's Ace of hearts wins
    assert state.tricks_won() == (0, 1, 0, 0, 0)
    assert state.seats_to_act() == (1,)  # "the winner of each trick leads to the next"
    assert trick_winner([(0, "10H", ""), (1, "AS", ""), (2, "JH", "")], "2") == 2  # off-suit Ace loses


def test_a_led_deuce_wins_its_trick() -> None:
    """ "If a Deuce is led it ranks highest of its suit and wins the trick." """
    state = five()
    play(state, "2H", "AH", "KH", "QH", "JH")
    assert state.tricks_won() == (1, 0, 0, 0, 0)
    assert state.seats_to_act() == (0,)


def test_a_followed_deuce_ranks_lowest_and_loses() -> None:
    """ "Otherwise it ranks lowest, and loses." """
    state = MinimisereState.scripted(5, [FIVE], dealer=3)  # seat 4 leads
    play(state, "JC", "10C", "AC", "KC", "2C")  # seat 3 follows with its Deuce
    assert state.tricks_won() == (0, 1, 0, 0, 0)

    assert trick_winner([(0, "10C", ""), (1, "2C", ""), (2, "JD", "")], "2") == 0
    assert trick_winner([(0, "2C", ""), (1, "AC", ""), (2, "KC", "")], "2") == 0


def test_a_led_joker_wins_and_the_followers_play_as_they_please() -> None:
    """ "If the Joker is led it wins the trick, and the followers can play as they please." """
    state = five()
    play(state, "2H", "AH", "KH", "QH", "JH")
    play(state, "JK")
    assert set(codes(state, 1)) == {"QS", "AC", "QD", "KD"}
    play(state, "AC", "KC", "QC", "JC")
    assert state.tricks_won() == (2, 0, 0, 0, 0)


def test_a_joker_not_led_loses_with_four_or_five() -> None:
    """ "Otherwise it loses." (four or six; applied to five, ruling 11)."""
    assert trick_winner([(0, "10C", ""), (1, "JK", ""), (2, "2D", "")], "2") == 0
    state = MinimisereState.scripted(5, [FIVE], dealer=3)  # seat 4 leads
    play(state, "AS", "KS", "QS", "JS", "10S")
    play(state, "2S", "JK", "AH", "KH", "QH")  # led Deuce wins, the Joker played second loses
    assert state.tricks_won() == (0, 0, 0, 0, 2)


def test_nines_option_a_led_nine_wins_and_a_followed_nine_loses() -> None:
    """With Nines for Deuces the Nine takes the Deuce's part (ruling 1): it wins when led."""
    options = {"nines": True}
    state = MinimisereState.scripted(4, [FOUR_NINES], dealer=3, options=options)
    play(state, "AS", "9S", "9C", "9D")  # followed Nines lose to the Ace
    assert state.tricks_won() == (1, 0, 0, 0)
    play(state, "KS", "10H", "10C", "10D", "QS", "KH", "QC", "QD", "JS", "QH", "JC", "JD")
    play(state, "10S", "JH", "KC", "KD")
    play(state, "9H", "AH", "AC", "AD")  # a led Nine beats the Ace of hearts
    assert state.deal_number == 2
    assert state.scores() == (0, 6, 6, 6)  # seat 0 took all six: "6 tricks score 0"


# -- "The Joker" with three players -----------------------------------------------------------------


def test_three_players_a_joker_played_third_wins_or_loses_as_decreed() -> None:
    """ "If you play it third to a trick, it either wins or loses, as you decree." """
    state = MinimisereState.scripted(3, [THREE, THREE], dealer=2)
    play(state, "AS", "AC")
    assert codes(state, 2) == [JOKER_WINS, JOKER_LOSES, "10H", "AD", "KD", "QD", "JD", "10D"]
    events = play(state, JOKER_WINS)
    assert state.tricks_won() == (0, 0, 1)
    assert "decreeing that it wins" in events[0].text
    assert "Joker (wins)" in fields(state.view(None))["Last trick"]
    other = MinimisereState.scripted(3, [THREE], dealer=2)
    play(other, "AS", "AC", JOKER_LOSES)
    assert other.tricks_won() == (1, 0, 0)


def test_three_players_a_joker_played_second_loses() -> None:
    """ "If you play it second to a trick, it loses." """
    hands = [THREE[0], THREE[2], THREE[1]]  # seat 1 holds the Joker
    state = MinimisereState.scripted(3, [hands], dealer=2)
    play(state, "AS")
    assert "JK" in codes(state, 1) and JOKER_WINS not in codes(state, 1)
    play(state, "JK", "AC")
    assert state.tricks_won() == (1, 0, 0)


def test_three_players_a_led_joker_wins_whoever_leads() -> None:
    """ "If you lead the Joker, it wins the trick, and the others may play as they please"; ruling 11:
    "second" and "third" are places in the trick, not seats, so the third seat's led Joker wins too."""
    state = MinimisereState.scripted(3, [THREE], dealer=1)  # seat 2 leads
    play(state, "JK")
    assert len(codes(state, 0)) == 7  # any card
    play(state, "AS", "AC")
    assert state.tricks_won() == (0, 0, 1)


def test_three_players_follow_suit_and_no_joker_when_able_to_follow() -> None:
    state = MinimisereState.scripted(3, [THREE], dealer=1)  # seat 2 leads
    play(state, "10H")
    assert codes(state, 0) == ["AH", "KH"]
    play(state, "KH")
    assert codes(state, 1) == ["QH", "JH"]


def test_three_players_seven_tricks_score_zero_and_none_seven() -> None:
    state = MinimisereState.scripted(3, [THREE], dealer=2)
    play(state, *THREE_ALL_TO_SEAT_0)
    assert state.scores() == (0, 7, 7)


# -- "Score": the tables -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_score_tables_are_the_printed_ones(players: int) -> None:
    table = PRINTED_SCORES[players]
    for tricks, points in table.items():
        others = [0] * (players - 1)
        assert score_for_deal(players, [tricks, *others], None)[0] == points


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_deal_is_scored_by_the_printed_table(players: int) -> None:
    """Deals played by the timeout default score exactly the printed table for each seat's tricks."""
    state = RULES.new_game(players, seed=11 + players)
    for _ in range(3):
        if state.is_terminal():
            break
        before = state.scores()
        play_out_deal(state)
        result = state.last_deal
        assert result is not None
        tricks, gains, bidder = result.tricks, list(result.points), result.lot_bidder
        assert bidder is None
        assert sum(tricks) == {3: 7, 4: 6, 5: 5, 6: 6}[players]
        assert gains == [PRINTED_SCORES[players][count] for count in tricks]
        assert [a - b for a, b in zip(state.scores(), before, strict=True)] == gains


def test_six_players_winning_all_six_scores_zero_and_none_six() -> None:
    state = MinimisereState.scripted(6, [SIX], dealer=5)
    play(state, "AS", "8S", "JH", "AC", "8C", "JD")
    for lead in ("KS", "QS", "JS", "10S", "9S"):
        play(state, lead)
        while state.seats_to_act() != (0,) and state.deal_number == 1:
            (seat,) = state.seats_to_act()
            state.apply(seat, state.default_action(seat))
    assert state.scores() == (0, 6, 6, 6, 6, 6)


def test_four_players_by_the_table() -> None:
    """Four players: seat 0 takes five spades then loses the 10♥ to the Ace: "5 tricks score 10"."""
    state = MinimisereState.scripted(4, [FOUR], dealer=3)
    play(state, "AS", "2S", "2C", "2D")
    for lead in ("KS", "QS", "JS", "10S"):
        play(state, lead)
        for _ in range(3):
            (seat,) = state.seats_to_act()
            state.apply(seat, state.default_action(seat))
    play(state, "10H", "AH", "AC", "AD")
    assert state.scores() == (10, 1, 6, 6)


# -- "Bid the Lot" -----------------------------------------------------------------------------------


def test_the_lot_is_offered_to_every_player_on_their_first_card_only() -> None:
    """ "you can bid 'The Lot' upon playing to the first trick" — leader and followers alike; ruling 13:
    one "Bid the Lot…" beside the plain plays, never a second choice per card."""
    state = five()
    assert all_codes(state, 0) == ["JK", "KS", "2H", "10C", "2D", BID_LOT]
    (opener,) = [a for a in state.legal_actions(0) if a.code == BID_LOT]
    assert opener.label == "Bid the Lot…" and opener.secret and opener.group == ""
    assert "+10" in opener.description and "+5" in opener.description
    play(state, BID_LOT)
    lot = [a for a in state.legal_actions(0) if a.code.endswith("+lot")]
    assert [a.code for a in lot] == [c + "+lot" for c in ("JK", "KS", "2H", "10C", "2D")]
    assert all(a.group == LOT_GROUP and a.secret and a.tone == "bad" for a in lot)
    play(state, CANCEL_LOT, "2H")
    assert all_codes(state, 1) == ["AH", BID_LOT]
    play(state, BID_LOT)
    assert all_codes(state, 1) == [CANCEL_LOT, "AH+lot"]
    play(state, CANCEL_LOT, "AH", "KH", "QH", "JH")
    assert all_codes(state, 0) == ["JK", "KS", "10C", "2D"]
    with pytest.raises(IllegalAction, match="first trick, once per deal"):
        state.apply(0, BID_LOT)


def test_only_one_player_may_bid_the_lot_in_a_deal() -> None:
    """Ruling 6."""
    state = five()
    play(state, BID_LOT, "2H+lot")
    assert all_codes(state, 1) == ["AH"]
    for code in (BID_LOT, "AH+lot"):
        with pytest.raises(IllegalAction, match="first trick, once per deal"):
            state.apply(1, code)


def test_the_lot_made_scores_ten_and_everyone_else_zero() -> None:
    """ "If successful, you score 10 points and everyone else scores zero." (five players)"""
    hands = [
        ["AS", "KS", "QS", "JS", "10S"],
        ["2S", "AH", "KH", "QH", "JH"],
        ["10H", "2H", "AC", "KC", "QC"],
        ["JC", "10C", "2C", "AD", "KD"],
        ["QD", "JD", "10D", "2D", "JK"],
    ]
    state = MinimisereState.scripted(5, [hands], dealer=4)
    events = play(state, BID_LOT, "AS+lot")
    assert events[0].text == events[-1].text  # the step itself says nothing
    events = events[-1:]
    assert "bid {b:the Lot}" in events[0].text
    assert "The Lot is bid" in fields(state.view(None))
    assert "🎯 bid the Lot" in state.view(None).seats[0].summary
    for lead in ("AS", "KS", "QS", "JS", "10S"):
        if lead != "AS":
            play(state, lead)
        for _ in range(4):
            (seat,) = state.seats_to_act()
            state.apply(seat, state.default_action(seat))
    assert state.scores() == (10, 0, 0, 0, 0)
    assert "bid and made" in fields(state.view(None))["Deal 1 result"]


def test_the_lot_failed_scores_zero_and_everyone_else_five_and_ends_the_deal() -> None:
    """ "If not, you score zero and everyone else scores 5, regardless of how many tricks they win";
    ruling 7: the deal ends at the first trick the bidder loses."""
    state = five()
    play(state, "2H", BID_LOT, "AH+lot", "KH", "QH", "JH")  # seat 1 bids; seat 0's led Deuce wins the trick
    assert state.deal_number == 2
    assert state.scores() == (5, 0, 5, 5, 5)  # seat 0 won one trick, yet scores 5
    assert "bid and failed" in fields(state.view(None))["Deal 1 result"]


def test_four_players_lot_failed_scores_six_for_everyone_else() -> None:
    state = MinimisereState.scripted(4, [FOUR], dealer=3)
    play(state, BID_LOT, "AS+lot", "2S", "2C", "2D", "KS", "2H", "10C", "10D")
    play(state, "10H", "AH", "JC", "JD")  # seat 1's Ace of hearts beats the bidder
    assert state.deal_number == 2
    assert state.scores() == (0, 6, 6, 6)


def test_four_players_lot_made_with_a_led_nine_scores_twelve() -> None:
    state = MinimisereState.scripted(4, [FOUR_NINES], dealer=3, options={"nines": True})
    play(state, BID_LOT, "AS+lot", "9S", "9C", "9D")
    play(state, "KS", "10H", "10C", "10D", "QS", "KH", "QC", "QD", "JS", "QH", "JC", "JD")
    play(state, "10S", "JH", "KC", "KD", "9H", "AH", "AC", "AD")
    assert state.scores() == (12, 0, 0, 0)


def test_six_players_lot_made_scores_twelve() -> None:
    state = MinimisereState.scripted(6, [SIX], dealer=5)
    play(state, BID_LOT, "AS+lot", "8S", "JH", "AC", "8C", "JD")
    for lead in ("KS", "QS", "JS", "10S", "9S"):
        play(state, lead)
        for _ in range(5):
            (seat,) = state.seats_to_act()
            state.apply(seat, state.default_action(seat))
    assert state.scores() == (12, 0, 0, 0, 0, 0)


def test_there_is_no_lot_with_three_players() -> None:
    """Ruling 3: the three-hand rules have no Lot."""
    state = MinimisereState.scripted(3, [THREE], dealer=2)
    assert not any("lot" in code for code in all_codes(state, 0))
    for code in (BID_LOT, "AS+lot"):
        with pytest.raises(IllegalAction, match="no Lot with three"):
            state.apply(0, code)


# -- "Game" -----------------------------------------------------------------------------------------


def test_game_is_25_points_and_the_highest_total_wins() -> None:
    """ "Game is 25 points": the game ends after the deal in which someone reaches it."""
    state = five(scores=[19, 0, 0, 0, 0])
    play(state, *FIVE_PLAY)
    assert state.is_terminal()
    assert state.seats_to_act() == ()
    assert [standing.points for standing in state.standings()] == [25, 5, 5, 5, 2]
    assert [standing.rank for standing in state.standings()] == [1, 2, 2, 2, 5]
    assert "game over" in state.view(None).title
    assert "🏆" in state.view(None).seats[0].summary


def test_the_game_goes_on_below_the_target() -> None:
    state = five(scores=[18, 0, 0, 0, 0])
    play(state, *FIVE_PLAY)
    assert not state.is_terminal()
    with pytest.raises(RuntimeError):
        state.standings()


def test_the_target_is_an_option() -> None:
    state = five(scores=[10, 0, 0, 0, 0], options={"target": 15})
    play(state, *FIVE_PLAY)
    assert state.is_terminal()


def test_a_tie_for_first_plays_more_deals_until_there_is_a_winner() -> None:
    """ "if there is a tie for first place play as many more deals as necessary"; ruling 9."""
    state = MinimisereState.scripted(5, [FIVE, rotate(FIVE)], dealer=4, scores=[20, 21, 0, 0, 23])
    events = play(state, *FIVE_PLAY)
    assert state.scores() == (26, 26, 5, 5, 25)
    assert not state.is_terminal()
    assert any("tie for first" in event.text for event in events)
    assert "extra deal" in state.view(None).title
    play(state, *FIVE_PLAY)  # the same cards, one seat to the left: seat 1 scores 6
    assert state.scores() == (28, 32, 10, 10, 30)
    assert state.is_terminal()
    assert [standing.rank for standing in state.standings()] == [3, 1, 4, 4, 2]


def test_three_players_play_to_an_agreed_target() -> None:
    """ "Game is any agreed target (such as 31)"."""
    options = {"target": 31}
    going_on = MinimisereState.scripted(3, [THREE], dealer=2, options=options, scores=[0, 20, 23])
    play(going_on, *THREE_ALL_TO_SEAT_0)
    assert going_on.scores() == (0, 27, 30) and not going_on.is_terminal()
    ending = MinimisereState.scripted(3, [THREE], dealer=2, options=options, scores=[0, 20, 24])
    play(ending, *THREE_ALL_TO_SEAT_0)
    assert ending.is_terminal()
    assert [standing.rank for standing in ending.standings()] == [3, 2, 1]


def test_three_players_play_to_31_unless_the_table_agrees_otherwise() -> None:
    """Three players: "Game is any agreed target (such as 31)" — the text's example is the default
    (ruling 12); four to six players: "Game is 25 points". A stored target keeps its meaning: a game stored
    with the old default written out (``target=25``) still plays to 25."""
    going_on = MinimisereState.scripted(3, [THREE], dealer=2, scores=[0, 20, 23])
    game = {field.name: field.value for field in going_on.view(None).rules}["Game"]
    assert going_on.target == 31 and "First to 31 points" in game
    play(going_on, *THREE_ALL_TO_SEAT_0)
    assert going_on.scores() == (0, 27, 30) and not going_on.is_terminal()
    ending = MinimisereState.scripted(3, [THREE], dealer=2, scores=[0, 20, 24])
    play(ending, *THREE_ALL_TO_SEAT_0)
    assert ending.is_terminal()
    stored = MinimisereState.scripted(3, [THREE], dealer=2, options={"target": 25}, scores=[0, 20, 19])
    play(stored, *THREE_ALL_TO_SEAT_0)
    assert stored.scores() == (0, 27, 26) and stored.is_terminal()
    assert RULES.new_game(4, seed=1).target == 25 and RULES.new_game(6, seed=1).target == 25
    assert (
        MinimisereOptions.default_for("target", 3) == 31 and MinimisereOptions.default_for("nines", 3) is None
    )


def test_three_players_play_an_agreed_number_of_deals() -> None:
    """ "...or any agreed number of deals (such as nine)": the scores do not end it."""
    options = {"end_by": "deals", "deals": 2}
    state = MinimisereState.scripted(3, [THREE, THREE], dealer=2, options=options, scores=[0, 0, 30])
    play(state, *THREE_ALL_TO_SEAT_0)
    assert not state.is_terminal()  # 37 points, but only one deal of two
    hands = rotate(THREE)
    state = MinimisereState.scripted(3, [THREE, hands], dealer=2, options=options, scores=[0, 0, 1])
    play(state, *THREE_ALL_TO_SEAT_0)
    play(state, *THREE_ALL_TO_SEAT_0)  # seat 1 now holds the spades
    assert state.is_terminal() and state.deal_number == 2
    assert state.scores() == (7, 7, 15)
    assert "2 deals" in fields(state.view(None))["Game"]


def test_three_players_by_deals_a_tie_for_first_plays_extra_deals() -> None:
    """Ruling 9 applies to the three-hand game too."""
    options = {"end_by": "deals", "deals": 1}
    state = MinimisereState.scripted(3, [THREE, rotate(THREE)], dealer=2, options=options)
    play(state, *THREE_ALL_TO_SEAT_0)
    assert state.scores() == (0, 7, 7) and not state.is_terminal()
    play(state, *THREE_ALL_TO_SEAT_0)
    assert state.scores() == (7, 7, 14) and state.is_terminal()


def test_end_by_deals_applies_to_three_players_only() -> None:
    """Ruling 12: four to six players always play to the target."""
    state = five(options={"end_by": "deals", "deals": 1})
    play(state, *FIVE_PLAY)
    assert not state.is_terminal()


# -- options ----------------------------------------------------------------------------------------


def test_options_have_defaults_descriptions_and_small_ranges() -> None:
    options = MinimisereOptions()
    assert (options.nines, options.target, options.end_by, options.deals) == (False, None, "target", 9)
    for name, info in MinimisereOptions.model_fields.items():
        assert info.description, name
    for name in ("target", "deals"):
        bounds = {type(m).__name__: m for m in MinimisereOptions.model_fields[name].metadata}
        assert bounds["Le"].le - bounds["Ge"].ge + 1 <= 25
    with pytest.raises(ValidationError):
        MinimisereOptions(target=100)
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"trumps": True})


# -- timeouts (ruling 8) ----------------------------------------------------------------------------


def test_default_action_never_bids_the_lot_and_leads_a_low_plain_card() -> None:
    state = five()
    assert state.default_action(0) == "10C"  # not the Deuce or the Joker, which would win
    with pytest.raises(IllegalAction):
        state.default_action(1)


def test_default_action_following_throws_the_deuce_or_lowest_card() -> None:
    state = MinimisereState.scripted(5, [FIVE], dealer=3)
    play(state, "AS")
    assert state.default_action(0) == "KS"  # the only spade
    play(state, "KS", "QS", "JS", "10S", "JC")  # seat 4 leads JC
    assert state.default_action(0) == "10C"
    play(state, "10C", "AC", "KC", "2C")  # seat 1's Ace wins
    play(state, "QD")  # seat 1 leads QD, seat 2 follows
    assert state.default_action(2) == "10D"
    play(state, "10D", "AD", "JH")
    assert state.default_action(0) == "2D"  # the followed Deuce before anything


def test_default_action_with_three_players_decrees_the_joker_loses() -> None:
    hands = [THREE[0], THREE[1], ["JK", "AD", "KD", "QD", "JD", "10D", "10H"]]
    state = MinimisereState.scripted(3, [hands], dealer=2)
    play(state, "AS", "AC")
    assert state.default_action(2) == JOKER_LOSES


# -- views ------------------------------------------------------------------------------------------


def test_public_view_shows_the_trick_scores_dealer_and_game() -> None:
    state = five(scores=[3, 0, 0, 0, 1])
    play(state, "2H", "AH")
    public = state.view(None)
    table = fields(public)
    assert public.title == "Minimisère: deal 1, trick 1 of 5"
    assert table["Trick 1 of 5"].startswith("2♥ → A♥")
    assert "Deuce was led" in table["Trick 1 of 5"]
    assert "First to 25 points" in table["Game"]
    assert "3 tricks 6" in table["Scoring"] and "made +10" in table["Scoring"]
    summaries = [cards_as_text(line.summary) for line in public.seats]
    assert "dealer" in summaries[4]
    assert "{b:3} pts" in summaries[0] and "played 2♥ (led)" in summaries[0]
    assert "played A♥" in summaries[1]
    assert [line.to_act for line in public.seats] == [False, False, True, False, False]
    assert public.private == () and public.legal_actions == ()


def test_tricks_are_counted_and_only_the_last_trick_is_shown() -> None:
    """Ruling 10: tricks are turned down; their counts and the last trick are public."""
    state = five()
    play(state, "2H", "AH", "KH", "QH", "JH", "JK", "QS", "JS", "10S", "AS")
    table = fields(state.view(None))
    assert table["Last trick"] == "Joker → Q♠ → J♠ → 10♠ → A♠: won with {b:Joker}"
    assert "2♥" not in str(state.view(None).table)
    assert "2 tricks" in state.view(None).seats[0].summary


def test_last_deal_result_is_shown_after_each_deal() -> None:
    state = five()
    play(state, *FIVE_PLAY)
    result = fields(state.view(None))["Deal 1 result"]
    assert result.startswith("Scored by tricks won")
    summaries = [line.summary for line in state.view(None).seats]  # each seat's points, on its line
    assert [summary.split("last deal ")[1][:2] for summary in summaries] == ["+6", "+5", "+5", "+5", "+2"]


def test_private_view_shows_own_hand_only() -> None:
    state = five()
    mine = fields(state.view(0))
    assert mine["Your hand"] == "Joker K♠ 2♥ 10♣ 2♦"
    assert "A♥" not in str(state.view(0))
    assert state.view(1).legal_actions == ()


def test_card_actions_are_secret_and_grouped_however_many() -> None:
    state = MinimisereState.scripted(3, [THREE], dealer=2)
    actions = state.legal_actions(0)
    assert all(action.secret for action in actions)
    assert {action.group for action in actions} == {PLAY_GROUP}
    assert state.public_actions() == ()
    five_state = five()
    plain = [a for a in five_state.legal_actions(0) if a.code != BID_LOT]
    assert len(plain) <= 5 and {a.group for a in plain} == {PLAY_GROUP}  # a few cards: one group too


def test_illegal_actions_change_nothing() -> None:
    state = five()
    before = ([state.view(seat) for seat in (None, 0, 1)], state.version)
    refused = ((1, "AH"), (0, "AH"), (0, "JK+win"), (9, "2H"), (0, "2H+lot+lot"))
    refused += ((0, "2H+lot"), (0, CANCEL_LOT))
    for seat, code in refused:
        with pytest.raises(IllegalAction):
            state.apply(seat, code)
    assert ([state.view(seat) for seat in (None, 0, 1)], state.version) == before


def test_replay_rebuilds_the_same_game() -> None:
    state = RULES.new_game(4, seed=99, options={"nines": True})
    while not state.is_terminal():
        (seat,) = state.seats_to_act()
        state.apply(seat, state.default_action(seat))
    again = replay(RULES, 4, 99, state.options, state.history)
    assert again.standings() == state.standings()
    assert again.view(None) == state.view(None)


# -- properties (random legal play) -----------------------------------------------------------------

OPTIONS = st.fixed_dictionaries(
    {
        "nines": st.booleans(),
        "target": st.integers(15, 39),
        "end_by": st.sampled_from(["target", "deals"]),
        "deals": st.integers(1, 25),
    }
)


@st.composite
def games_with_options(draw, *, finish: bool = False):
    """A Minimisère game with random options after random legal play, with every deal's result."""
    seats = draw(st.integers(3, 6))
    seed = draw(st.integers(0, 2**63 - 1))
    options = draw(OPTIONS)
    state = RULES.new_game(seats, seed, options)
    picker = random.Random(seed)
    steps = 0
    limit = draw(st.integers(0, 150))
    results = []
    while not state.is_terminal() and (finish or steps < limit):
        (seat,) = seats_with_actions(state)
        legal = state.legal_actions(seat)
        last = state.last_deal
        state.apply(seat, picker.choice(legal).code)
        if state.last_deal != last:
            result = state.last_deal
            results.append((result.number, list(result.tricks), list(result.points), result.lot_bidder))
        steps += 1
        assert steps < 5_000
    return state, results


def check_conserved(state: MinimisereState) -> None:
    seats = range(state.num_seats)
    trick = state.current_trick()
    cards = [c for seat in seats for c in state.hand(seat)] + list(state.set_aside())
    cards += [c for seat in seats for c in state.taken(seat)] + [c for _, c, _ in trick]
    assert sorted(cards) == sorted(build_pack(state.num_seats, state.options.nines))
    assert sum(len(state.taken(seat)) for seat in seats) == state.num_seats * sum(state.tricks_won())
    played = {seat for seat, _, _ in trick}
    for seat in seats:
        expected = HAND_SIZES[state.num_seats] - state.tricks_played - (seat in played)
        assert len(state.hand(seat)) == expected


def check_offers(state: MinimisereState) -> None:
    """The engine's own promises about what it offers (fitting them to Discord is the renderer's job):
    short stable codes that parse back, short labels, every action secret (it shows the hand), and each
    decision in one group: the plain plays all in the one group "Play a card…" (however many), and the Lot
    bids all in the one list "Play a card and bid the Lot…", one per card playable, in the Lot step only,
    beside its one "cancel" (ruling 13); outside it, at most one "Bid the Lot…"."""
    for seat in range(state.num_seats):
        view = state.view(seat)
        actions = view.legal_actions
        assert actions == state.legal_actions(seat)
        for action in actions:
            assert CODE.match(action.code) and len(action.label) <= 80 and len(action.description) <= 100
            assert type(state).action_type.parse(action.code).format() == action.code
            assert action.secret
        codes_offered = [action.code for action in actions]
        assert len(set(codes_offered)) == len(codes_offered)
        steps = [action for action in actions if action.code in (BID_LOT, CANCEL_LOT)]
        plays = [action for action in actions if action not in steps and not action.code.endswith("+lot")]
        bids = [action for action in actions if action.code.endswith("+lot")]
        assert all(action.group == PLAY_GROUP for action in plays)
        assert all(action.group == LOT_GROUP and action.tone == "bad" for action in bids)
        assert all(action.group == "" for action in steps) and len(steps) <= 1
        if state.choosing_lot_card and seat in state.seats_to_act():
            assert not plays and [action.code for action in steps] == [CANCEL_LOT]
            assert sorted(action.code for action in bids) == sorted(f"{c}+lot" for c in state.playable(seat))
        else:
            assert not bids and all(action.code == BID_LOT for action in steps)
        if seat in state.seats_to_act():
            assert plays or bids
            assert state.default_action(seat) in set(codes_offered)
        else:
            assert actions == ()


@settings(max_examples=120, deadline=None)
@given(games_with_options(finish=True))
def test_random_games_end_score_by_the_tables_and_replay_exactly(game) -> None:
    state, results = game
    assert state.is_terminal() and state.seats_to_act() == ()
    n = state.num_seats
    size = HAND_SIZES[n]
    for _, tricks, gains, bidder in results:
        if bidder is None:
            assert sum(tricks) == size
            assert gains == [PRINTED_SCORES[n][count] for count in tricks]
        elif tricks[bidder] == size:
            assert gains == [PRINTED_LOT[n][0] if s == bidder else 0 for s in range(n)]
        else:
            assert gains == [0 if s == bidder else PRINTED_LOT[n][1] for s in range(n)]
    totals = [sum(gains[s] for _, _, gains, _ in results) for s in range(n)]
    assert list(state.scores()) == totals
    standings = state.standings()
    top = max(totals)
    assert [s.seat for s in standings if s.rank == 1] == [totals.index(top)]  # a single winner
    if n == 3 and state.options.end_by == "deals":
        assert len(results) >= state.options.deals
    else:
        assert top >= state.options.target
    again = replay(RULES, n, state.seed, state.options, state.history)
    assert again.standings() == standings
    assert again.view(None) == state.view(None)


@settings(max_examples=150, deadline=None)
@given(games_with_options())
def test_random_play_conserves_cards_and_offers_each_decision_in_one_group(game) -> None:
    state, _ = game
    check_conserved(state)
    check_offers(state)


@settings(max_examples=40, deadline=None)
@given(games_in_play(RULES, finish=True))
def test_default_games_end_and_replay(game) -> None:
    rules, state = game
    assert state.is_terminal()
    again = replay(rules, state.num_seats, state.seed, state.options, state.history)
    assert again.standings() == state.standings()
    assert again.view(None) == state.view(None)


@settings(max_examples=100, deadline=None)
@given(games_in_play(RULES))
def test_default_options_play_conserves_cards_and_check_agrees_with_the_legal_actions(game) -> None:
    """Cards are conserved; every listed action passes ``check`` and every other action of the game (any
    card of the pack, with or without a Lot bid or a decree, and either step of the Lot) is refused with
    words, by any seat."""
    _, state = game
    check_conserved(state)
    if state.is_terminal():
        return
    everything = [
        MinimisereAction(card, bid_lot=bid) for card in build_pack(state.num_seats) for bid in (False, True)
    ]
    everything += [MinimisereAction(JOKER, decree=decree) for decree in Decree]
    everything += [LotStep(True), LotStep(False)]
    for seat in range(state.num_seats):
        listed = {action.code for action in state.legal_actions(seat)}
        for action in everything:
            words = state.check(seat, action)
            assert (words is None) == (action.format() in listed), (seat, action, words)
            assert words is None or words.endswith(".")


# -- actions and resampling ---------------------------------------------------------------------------


def test_action_codes_parse_and_format_unchanged() -> None:
    """The codes stored by earlier versions still mean the same actions."""
    assert MinimisereAction.parse("10H") == MinimisereAction("10H")
    assert MinimisereAction.parse("JK+lot") == MinimisereAction(JOKER, bid_lot=True)
    assert MinimisereAction.parse(JOKER_WINS) == MinimisereAction(JOKER, decree=Decree.WINS)
    assert MinimisereAction.parse(JOKER_LOSES) == MinimisereAction(JOKER, decree=Decree.LOSES)
    for code in ("AS", "2D", "JK", "9C+lot", JOKER_WINS, JOKER_LOSES):
        assert MinimisereAction.parse(code).format() == code
    for junk in ("", "1H", "AX", "10", "AS+win", "2H+lot+lot", "JK+", "AS+LOT", "lot"):
        with pytest.raises(ValueError):
            MinimisereAction.parse(junk)


def test_refusals_say_why() -> None:
    """The rule that refuses gives the words: turn, card in hand, the decree of a Joker played third."""
    state = MinimisereState.scripted(3, [THREE], dealer=2)
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, "AC")
    with pytest.raises(IllegalAction, match="do not hold the A♣"):
        state.apply(0, "AC")
    with pytest.raises(IllegalAction, match="not allowed in this game"):
        state.apply(0, "AS+win")
    play(state, "AS", "AC")
    with pytest.raises(IllegalAction, match="decree whether it wins or loses"):
        state.apply(2, JOKER)
    other = MinimisereState.scripted(3, [THREE], dealer=1)  # seat 2 leads
    with pytest.raises(IllegalAction, match="Only a Joker played third"):
        other.apply(2, JOKER_WINS)


def test_phases_deal_tie_break_and_over() -> None:
    state = MinimisereState.scripted(5, [FIVE, rotate(FIVE)], dealer=4, scores=[20, 21, 0, 0, 23])
    assert state.phase is Phase.DEAL
    play(state, *FIVE_PLAY)
    assert state.phase is Phase.TIE_BREAK_DEAL
    play(state, *FIVE_PLAY)
    assert state.phase is Phase.OVER and state.is_terminal()


def test_a_seat_that_did_not_follow_shows_its_void() -> None:
    state = MinimisereState.scripted(5, [FIVE], dealer=3)  # seat 4 leads
    play(state, "10H", "2H", "AH", "KH", "QH")
    assert all(state.known_voids(seat) == frozenset() for seat in range(5))
    play(state, "QS", "JS", "10S", "AS", "KS")  # seat 1 leads spades; everyone follows; seat 4 wins
    play(state, "JC", "10C", "AC", "KC", "QC")  # seat 4 leads clubs; everyone follows; seat 1 wins
    assert all(state.known_voids(seat) == frozenset() for seat in range(5))
    play(state, "KD", "JD", "AD", "JH")  # seat 1 leads KD; seat 4 has no diamond left
    assert state.known_voids(4) == frozenset({"D"})
    assert state.known_voids(1) == frozenset() and state.known_voids(3) == frozenset()


def hidden_cards(state: MinimisereState, seats: list[int]) -> list[str]:
    return sorted([card for seat in seats for card in state.hand(seat)] + list(state.set_aside()))


@settings(max_examples=100, deadline=None)
@given(games_with_options(), st.randoms(use_true_random=False))
def test_resample_redeals_the_hidden_cards_respecting_the_known_voids(game, rng: random.Random) -> None:
    """What a viewer may not see (other hands, the card set aside with four players) is dealt again from the
    same cards with the same sizes; the viewer's hand and everything public stay; no seat gets a suit it has
    shown it lacks; the copy plays on from a fresh random generator."""
    state, _ = game
    seats = range(state.num_seats)
    for viewer in [None, *seats]:
        other = state.resample_hidden(viewer, rng)
        assert isinstance(other, MinimisereState)
        check_conserved(other)
        hidden = [seat for seat in seats if seat != viewer]
        assert hidden_cards(other, hidden) == hidden_cards(state, hidden)
        for seat in seats:
            assert len(other.hand(seat)) == len(state.hand(seat))
            assert not {suit_of(card) for card in other.hand(seat)} & state.known_voids(seat)
        if viewer is not None:
            assert other.hand(viewer) == state.hand(viewer)
        assert other.current_trick() == state.current_trick()
        assert other.scores() == state.scores() and other.tricks_won() == state.tricks_won()
        assert other.history == state.history
