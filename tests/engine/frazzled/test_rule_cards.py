"""The Frazzled Wool rule cards (engine/frazzled/rule_cards.py, docs/rules/frazzled-rule-cards.md) and the
deck facts of the seeds README."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from engine.frazzled.deck import COLOURS, DECK, FOURTEEN_ONE, NUMBERS, SHAPES, Card
from engine.frazzled.rule_cards import (
    ACTION_NUMBERS,
    ACTIONS_CARD,
    ACTIONS_SIDE_A,
    ACTIONS_SIDE_B,
    BONUS_BY_ID,
    BONUS_CARDS,
    CHANGE_RULE,
    COLOUR_SIDE,
    EXTRA_TURN,
    GIVE_ONE,
    GIVE_TWO,
    PASS_LEFT,
    PASS_RIGHT,
    SHAPE_OR_COLOUR,
    SHAPE_SIDE,
    SKIP_NEXT,
    TAKE_ONE,
    TAKE_TWO,
    card_value,
    duplicate_points,
)
from engine.frazzled.words import actions_side_text, bonus_display


def card(number: int, colour: str | None = None, shape: str | None = None) -> Card:
    """The one card with this number and colour (or shape); without either, the first of the number."""
    for candidate in DECK:
        if candidate.number != number:
            continue
        if colour is not None and COLOURS[candidate.colour] != colour:
            continue
        if shape is not None and SHAPES[candidate.shape] != shape:
            continue
        return candidate
    raise LookupError(f"no card {number} {colour} {shape}")


def nth(number: int, k: int) -> Card:
    """The k-th card (0..5) of a number in deck order."""
    return [c for c in DECK if c.number == number][k]


# -- deck facts (seeds README) ------------------------------------------------------------------------


def test_deck_has_78_cards_each_number_colour_and_shape_six_times() -> None:
    assert len(DECK) == 78
    assert Counter(c.number for c in DECK) == {number: 6 for number in NUMBERS}
    assert Counter(c.colour for c in DECK) == {colour: 6 for colour in range(len(COLOURS))}
    assert Counter(c.shape for c in DECK) == {shape: 6 for shape in range(len(SHAPES))}


def test_no_two_cards_share_two_attributes() -> None:
    for first, second in combinations(DECK, 2):
        same = (first.number == second.number) + (first.colour == second.colour)
        same += first.shape == second.shape
        assert same <= 1


# -- the single-sided bonus cards --------------------------------------------------------------------


def test_at_least_twelve_cards_with_unique_ids_and_short_texts() -> None:
    assert len(BONUS_CARDS) >= 12
    assert len({c.id for c in BONUS_CARDS}) == len(BONUS_CARDS)
    assert BONUS_BY_ID["sixes"].title == "Lucky Sixes"
    for bonus in BONUS_CARDS:
        assert len(bonus_display(bonus)) <= 256
        assert bonus.text.endswith(".")


# Each case: card id, cards, 14/1 reading (low_aces), expected benefit. Six-card hands and three-card sets.
SIX = [nth(3, 0), nth(5, 1), nth(8, 2), nth(9, 3), nth(11, 4), nth(12, 5)]
CASES = [
    ("sixes", [nth(6, 0), nth(6, 1), nth(3, 0)], False, 10),
    ("sixes", SIX, False, 0),
    ("sixes", [*SIX[:5], nth(6, 3)], False, 5),
    ("colour3", [card(3, "Teal"), card(5, "Teal"), card(6, "Teal")], False, 4),
    ("colour3", [card(3, "Teal"), card(5, "Teal"), card(7, "Blue"), card(8, "Blue")], False, 0),
    ("colour3", [card(2, "Sky"), card(3, "Sky"), card(4, "Sky"), card(5, "Sky"), nth(9, 0)], False, 4),
    ("shape3", [card(3, shape="Star"), card(5, shape="Star"), card(8, shape="Star")], False, 4),
    ("shape3", [card(3, shape="Star"), card(5, shape="Star"), card(8, shape="Moon")], False, 0),
    ("odds", [nth(3, 0), nth(5, 0), nth(8, 0)], False, 3),
    ("odds", [nth(3, 0), nth(4, 0), nth(8, 0)], False, 0),
    ("odds", [nth(3, 0), nth(FOURTEEN_ONE, 0), nth(8, 0)], True, 3),  # 14/1 as 1 is odd
    ("odds", [nth(3, 0), nth(FOURTEEN_ONE, 0), nth(8, 0)], False, 0),  # as 14 it is even
    ("odds", [nth(3, 0), nth(5, 0), nth(7, 0), nth(2, 0), nth(4, 0), nth(6, 0)], False, 0),  # 3 v 3
    ("evens", [nth(2, 0), nth(4, 0), nth(FOURTEEN_ONE, 0)], False, 5),
    ("evens", [nth(2, 0), nth(4, 0), nth(FOURTEEN_ONE, 0)], True, 0),
    ("evens", [nth(2, 0), nth(4, 0), nth(6, 0), nth(8, 0), nth(10, 0), nth(13, 0)], False, 0),
    ("thirteen", [nth(13, 0), nth(13, 1), nth(2, 0)], False, -6),
    ("thirteen", SIX, False, 0),
    ("straight", [nth(4, 0), nth(5, 0), nth(6, 0)], False, 3),
    ("straight", [nth(4, 0), nth(5, 0), nth(7, 0), nth(9, 0), nth(10, 0), nth(12, 0)], False, 0),
    ("straight", [nth(FOURTEEN_ONE, 0), nth(2, 0), nth(3, 0)], True, 3),
    ("straight", [nth(FOURTEEN_ONE, 0), nth(12, 0), nth(13, 0)], False, 3),
    ("straight", [nth(FOURTEEN_ONE, 0), nth(2, 0), nth(3, 0)], False, 0),
    ("small", [nth(2, 0), nth(4, 0), nth(12, 0)], False, 3),  # 18 / 3 = 6
    ("small", [nth(2, 0), nth(5, 0), nth(12, 0)], False, 0),
    ("small", [nth(FOURTEEN_ONE, 0), nth(5, 0), nth(12, 0)], True, 3),
    ("high", [nth(11, 0), nth(12, 0), nth(FOURTEEN_ONE, 0)], False, -3),
    ("high", [nth(11, 0), nth(12, 0), nth(FOURTEEN_ONE, 0)], True, -2),
    ("rainbow", [nth(7, 0), nth(7, 1), nth(7, 2)], False, 2),  # a number set never repeats a colour
    ("rainbow", [card(3, "Teal"), card(5, "Teal"), nth(9, 3)], False, 0),
    ("hearts", [card(4, shape="Heart"), card(5, shape="Star"), card(8, shape="Moon")], False, 4),
    ("hearts", [card(8, shape="Moon")], False, 0),
    ("warm", [card(9, "Red"), card(11, "Orange"), card(3, "Yellow"), card(8, "Blue")], False, 3),
    ("cold", [card(6, "Sky"), card(7, "Blue"), card(8, "Navy"), card(9, "Red")], False, -3),
    ("primes", [nth(2, 0), nth(3, 0), nth(4, 0), nth(11, 0), nth(13, 0), nth(9, 0)], False, 4),
    ("primes", [nth(FOURTEEN_ONE, 0)], True, 0),  # 1 is not prime
    ("wild", [nth(FOURTEEN_ONE, 0), nth(FOURTEEN_ONE, 1), nth(5, 0)], False, 4),
    ("wild", [nth(FOURTEEN_ONE, 0), nth(FOURTEEN_ONE, 1), nth(5, 0)], True, 4),
    ("wild", SIX, False, 0),
    ("warm", [card(8, "Blue")], False, 0),
    ("cold", [card(9, "Red")], False, 0),
    ("high", [nth(2, 0), nth(FOURTEEN_ONE, 0)], True, 0),
]


@pytest.mark.parametrize(("card_id", "cards", "low_aces", "benefit"), CASES)
def test_bonus_card_points(card_id: str, cards: list[Card], low_aces: bool, benefit: int) -> None:
    assert BONUS_BY_ID[card_id].points(cards, low_aces=low_aces) == benefit


def test_every_bonus_card_is_tested_with_a_benefit_and_without() -> None:
    tested = {case[0] for case in CASES if case[3] != 0}
    assert tested == set(BONUS_BY_ID)
    assert {case[0] for case in CASES if case[3] == 0} == set(BONUS_BY_ID)


def test_best_points_takes_the_better_reading_of_the_fourteen_one() -> None:
    cards = [nth(3, 0), nth(FOURTEEN_ONE, 0), nth(8, 0)]
    assert BONUS_BY_ID["odds"].best_points(cards) == 3
    assert BONUS_BY_ID["high"].best_points([nth(FOURTEEN_ONE, 0)]) == 0


def test_card_value_reads_the_fourteen_one_card() -> None:
    assert card_value(nth(FOURTEEN_ONE, 0)) == 14
    assert card_value(nth(FOURTEEN_ONE, 0), low_aces=True) == 1
    assert card_value(nth(9, 0), low_aces=True) == 9


def test_the_tokenize_examples_read_right() -> None:
    """TOKENIZE: "+4 for a colour set" and "+5 for each 6": a colour set with one 6 scores 10 + 4 + 5."""
    teal_set = [card(6, "Teal"), card(3, "Teal"), card(5, "Teal")]
    bonus = BONUS_BY_ID["colour3"].points(teal_set) + BONUS_BY_ID["sixes"].points(teal_set)
    assert 10 + bonus == 19


# -- the double-sided cards --------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "points"), [(1, 0), (2, 1), (3, 3), (4, 5), (5, 5), (6, 5)])
def test_duplicate_points(count: int, points: int) -> None:
    assert duplicate_points(count) == points


def test_shape_or_colour_colour_side_penalises_each_colour_group() -> None:
    hand = [card(2, "Teal"), card(3, "Teal"), card(4, "Teal"), card(5, "Blue"), card(6, "Blue"), nth(9, 0)]
    assert COLOURS[nth(9, 0).colour] not in ("Teal", "Blue")
    assert COLOUR_SIDE.points(hand) == -(3 + 1)
    assert SHAPE_OR_COLOUR.sides == (COLOUR_SIDE, SHAPE_SIDE)


def test_shape_or_colour_shape_side_penalises_each_shape_group() -> None:
    stars = [card(n, shape="Star") for n in (3, 5, 8, 12)]
    hand = [*stars, card(4, shape="Moon"), card(6, shape="Moon")]
    assert SHAPE_SIDE.points(hand) == -(5 + 1)
    assert COLOUR_SIDE.points([nth(7, k) for k in range(6)]) == 0


def test_actions_card_sides_cover_every_action_number() -> None:
    assert ACTIONS_CARD.sides == (ACTIONS_SIDE_A, ACTIONS_SIDE_B)
    assert [ACTIONS_SIDE_A.kind(n) for n in ACTION_NUMBERS] == [
        TAKE_ONE,
        TAKE_TWO,
        PASS_LEFT,
        CHANGE_RULE,
        EXTRA_TURN,
    ]
    assert [ACTIONS_SIDE_B.kind(n) for n in ACTION_NUMBERS] == [
        GIVE_ONE,
        GIVE_TWO,
        PASS_RIGHT,
        CHANGE_RULE,
        SKIP_NEXT,
    ]
    for number in (3, 4, 5, 7, 8, 9, 11, 12):
        assert ACTIONS_SIDE_A.kind(number) is None and ACTIONS_SIDE_B.text(number) == ""
    assert actions_side_text(ACTIONS_SIDE_A).splitlines()[0].startswith("14/1 – Everyone takes 1 card blind")
    assert len(actions_side_text(ACTIONS_SIDE_A)) <= 1024 and len(actions_side_text(ACTIONS_SIDE_B)) <= 1024
