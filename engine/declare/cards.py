"""Minimize: Declare's 108 cards as short codes, their points and the points limits of the game.

Cards are short codes, which is also how they appear in action codes:

* number cards: a rank character from ``"123456789ABC"`` (A = 10, B = 11, C = 12) and a colour from
  ``"rygb"`` (red ♥, yellow ★, green ♣, blue ♦), e.g. ``"5r"`` is 5♥ and ``"Cb"`` is 12♦;
* ``"jk"``: a Joker; ``"hv"``, ``"dn"``, ``"np"``, ``"dv"``: the power cards My Half Value, I Declare Now,
  I Don't Pick and I Discover Now.

Points are kept internally in quarter points (``int``): My Half Value halves a hand total once or twice
("In case he/she has 2 of such cards then point total will be 2.5 points"), so every score is a multiple
of ¼ and quarter points keep all arithmetic exact.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

RANKS = "123456789ABC"
COLOURS = "rygb"
JOKER = "jk"
HALF_VALUE = "hv"
DECLARE_NOW = "dn"
NO_PICK = "np"
DISCOVER = "dv"
POWER_CARDS = (HALF_VALUE, DECLARE_NOW, NO_PICK, DISCOVER)
HAND_SIZE = 7
DECLARE_LIMIT_Q = 7 * 4  # seeds README: declare with 7 points or less (in quarter points)
PENALTY_Q = 25 * 4  # "the caller scores 25 penalty points"
ELIMINATION_Q = 100 * 4  # "more than 100 points is eliminated"; exactly 100 is reduced to 50

FULL_DECK: tuple[str, ...] = tuple(
    [rank + colour for rank in RANKS for colour in COLOURS] * 2
    + [JOKER] * 4
    + [power for power in POWER_CARDS for _ in range(2)]
)

_RANK_OF = {char: index + 1 for index, char in enumerate(RANKS)}


def is_number(card: str) -> bool:
    """True for a number card (``"5r"``), False for a Joker or a power card."""
    return card[0] in RANKS


def rank_of(card: str) -> int:
    """The number of a number card, 1..12.

    Raises
    ------
    ValueError
        For a Joker or a power card, which have no number.
    """
    try:
        return _RANK_OF[card[0]]
    except KeyError:
        raise ValueError(f"{card!r} has no number") from None


def card_points(card: str) -> int:
    """Points of one card: its face value; "The Power Cards and the Jokers are worth zero points"."""
    return _RANK_OF.get(card[0], 0)


@functools.cache  # a few dozen card codes, and AI players sort hands thousands of times a decision
def card_sort_key(card: str) -> tuple[int, int, int]:
    """Hand order: number cards by rank then colour (♥ ★ ♣ ♦), then Jokers, then power cards.

    Raises
    ------
    ValueError
        If ``card`` is not a card code.
    """
    if is_number(card):
        return (0, rank_of(card), COLOURS.index(card[1]))
    if card == JOKER:
        return (1, 0, 0)
    return (2, POWER_CARDS.index(card), 0)


def is_card(card: str) -> bool:
    """True for any valid card code."""
    return card in POWER_CARDS or card == JOKER or (len(card) == 2 and is_number(card) and card[1] in COLOURS)


def hand_quarters(hand: Sequence[str]) -> int:
    """A hand's total in quarter points: face values summed, halved once per My Half Value held
    ("his point value will be taken as 5 points. In case he/she has 2 of such cards … 2.5 points")."""
    total = sum(card_points(card) for card in hand) * 4
    return total >> min(hand.count(HALF_VALUE), 2)


def points_value(quarters: int) -> int | float:
    """Quarter points as a number: an ``int`` when whole, else a ``float`` (exact: quarters are binary)."""
    return quarters // 4 if quarters % 4 == 0 else quarters / 4
