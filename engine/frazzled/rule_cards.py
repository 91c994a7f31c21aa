"""The rule cards of the Frazzled Wool deck: single-sided bonus rule cards (MINIMIZE and TOKENIZE), the
double-sided "Shape or Colour" bonus card and the double-sided actions card (MINIMIZE only).

Source: ``shared/seeds/000_d97c66fde1b75dcf.txt`` mentions these cards but does not print them; the seeds
README adds that the "Shape or Colour" card makes duplicate colours (or, on its other side, duplicate
shapes) add points. The texts here are ours, in the spirit of the rules' own examples ("three of the same
colour", "lots of odd numbers", "just having a 6", "+4 for a colour set", "+5 for each 6"). Every card's
exact text and how each game reads it: ``docs/rules/frazzled-rule-cards.md``.

A bonus card gives a *benefit* to the holder of some cards: positive is good for the holder (a
"bonus"), negative is bad (a "penalty"). MINIMIZE applies it to a whole hand and *subtracts* it from the
MINIMIZE score (low scores win); TOKENIZE applies it to one set of three and *adds* it to the set's points.

The 14/1 card counts as 14 or as 1. :meth:`BonusCard.points` takes ``low_aces`` (``True``: every 14/1 is a
1, ``False``: every 14/1 is a 14); MINIMIZE's holder counts all 14/1s the same way, whichever gives the
better score ("A player cannot have both a 14 and a 1 in their hand"); :meth:`BonusCard.best_points`
gives the better of the two readings for a game that scores each set on its own (TOKENIZE).

Pure data and pure functions: no randomness, no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.frazzled.deck import COLOURS, FOURTEEN_ONE, SHAPE_SYMBOLS, SHAPES, Card

LOW_ACE = 1
"""The 14/1 card's low value."""


def card_value(card: Card, *, low_aces: bool = False) -> int:
    """The number a card counts as: 2..13, or 14 / 1 for the 14/1 card per ``low_aces``."""
    if card.number == FOURTEEN_ONE:
        return LOW_ACE if low_aces else FOURTEEN_ONE
    return card.number


def card_values(cards: Sequence[Card], *, low_aces: bool = False) -> list[int]:
    """The numbers of ``cards`` in order, the 14/1s read per ``low_aces``."""
    return [card_value(card, low_aces=low_aces) for card in cards]


# -- the rules of the single-sided cards -------------------------------------------------------------
# Each takes the cards and the 14/1 reading and returns the benefit (positive: good for the holder).


def _each_number(number: int, worth: int) -> Callable[[Sequence[Card], bool], int]:
    def rule(cards: Sequence[Card], low_aces: bool) -> int:
        return worth * sum(1 for value in card_values(cards, low_aces=low_aces) if value == number)

    return rule


def _each_card_number(number: int, worth: int) -> Callable[[Sequence[Card], bool], int]:
    """Per printed number (the 14/1 card is one card whatever it counts as)."""

    def rule(cards: Sequence[Card], low_aces: bool) -> int:
        return worth * sum(1 for card in cards if card.number == number)

    return rule


def _trio_of(attribute: str, worth: int) -> Callable[[Sequence[Card], bool], int]:
    def rule(cards: Sequence[Card], low_aces: bool) -> int:
        counts = Counter(getattr(card, attribute) for card in cards)
        return worth if counts and max(counts.values()) >= 3 else 0

    return rule


def _odd_majority(cards: Sequence[Card], low_aces: bool) -> int:
    values = card_values(cards, low_aces=low_aces)
    odd = sum(1 for value in values if value % 2)
    return 3 if odd > len(values) - odd else 0


def _all_even(cards: Sequence[Card], low_aces: bool) -> int:
    values = card_values(cards, low_aces=low_aces)
    return 5 if values and all(value % 2 == 0 for value in values) else 0


def _straight(cards: Sequence[Card], low_aces: bool) -> int:
    values = set(card_values(cards, low_aces=low_aces))
    return 3 if any(value + 1 in values and value + 2 in values for value in values) else 0


def _low_average(cards: Sequence[Card], low_aces: bool) -> int:
    values = card_values(cards, low_aces=low_aces)
    return 3 if values and sum(values) <= 6 * len(values) else 0


def _each_value_at_least(threshold: int, worth: int) -> Callable[[Sequence[Card], bool], int]:
    def rule(cards: Sequence[Card], low_aces: bool) -> int:
        return worth * sum(1 for value in card_values(cards, low_aces=low_aces) if value >= threshold)

    return rule


def _rainbow(cards: Sequence[Card], low_aces: bool) -> int:
    return 2 if cards and len({card.colour for card in cards}) == len(cards) else 0


def _each_shape_in(shapes: frozenset[int], worth: int) -> Callable[[Sequence[Card], bool], int]:
    def rule(cards: Sequence[Card], low_aces: bool) -> int:
        return worth * sum(1 for card in cards if card.shape in shapes)

    return rule


def _each_colour_in(colours: frozenset[int], worth: int) -> Callable[[Sequence[Card], bool], int]:
    def rule(cards: Sequence[Card], low_aces: bool) -> int:
        return worth * sum(1 for card in cards if card.colour in colours)

    return rule


PRIMES = frozenset({2, 3, 5, 7, 11, 13})


def _primes(cards: Sequence[Card], low_aces: bool) -> int:
    return sum(1 for value in card_values(cards, low_aces=low_aces) if value in PRIMES)


def _duplicates_of(attribute: str) -> Callable[[Sequence[Card], bool], int]:
    """The "Shape or Colour" card: a penalty per group of duplicates (2: 1, 3: 3, 4 or more: 5)."""

    def rule(cards: Sequence[Card], low_aces: bool) -> int:
        counts = Counter(getattr(card, attribute) for card in cards)
        return -sum(duplicate_points(count) for count in counts.values())

    return rule


def duplicate_points(count: int) -> int:
    """Points for ``count`` cards sharing a number (the pro points) or, on the "Shape or Colour" card, a
    colour or shape: two 1, three 3, four or more 5, else 0 (MINIMIZE, "Aim and Scoring")."""
    if count >= 4:
        return 5
    if count == 3:
        return 3
    if count == 2:
        return 1
    return 0


@dataclass(frozen=True)
class BonusCard:
    """One bonus rule (a single-sided card, or one side of the "Shape or Colour" card).

    Attributes
    ----------
    id:
        Stable short identifier (action codes, tests), e.g. ``"sixes"``.
    title:
        The card's name, e.g. ``"Lucky Sixes"``.
    text:
        The exact wording shown to players, e.g. ``"Each 6: bonus 5."``.
    rule:
        ``rule(cards, low_aces) -> benefit``; use :meth:`points`.
    """

    id: str
    title: str
    text: str
    rule: Callable[[Sequence[Card], bool], int] = field(repr=False, compare=False)

    def points(self, cards: Sequence[Card], *, low_aces: bool = False) -> int:
        """The benefit of this card to the holder of ``cards`` (positive: a bonus, negative: a penalty).

        ``low_aces``: every 14/1 card counts as 1 (``True``) or as 14 (``False``). MINIMIZE subtracts the
        benefit from a hand's score; TOKENIZE adds it to a set's points.
        """
        return self.rule(cards, low_aces)

    def best_points(self, cards: Sequence[Card]) -> int:
        """The larger benefit of the two readings of the 14/1 cards (their holder's choice)."""
        return max(self.points(cards, low_aces=False), self.points(cards, low_aces=True))


_HEART = SHAPES.index("Heart")
_STAR = SHAPES.index("Star")
_WARM = frozenset(COLOURS.index(name) for name in ("Red", "Orange", "Yellow"))
_COLD = frozenset(COLOURS.index(name) for name in ("Sky", "Blue", "Navy"))

BONUS_CARDS: tuple[BonusCard, ...] = (
    BonusCard("sixes", "Lucky Sixes", "Each 6: bonus 5.", _each_number(6, 5)),
    BonusCard("colour3", "Colour Trio", "Three or more cards of one colour: bonus 4.", _trio_of("colour", 4)),
    BonusCard("shape3", "Shape Trio", "Three or more cards of one shape: bonus 4.", _trio_of("shape", 4)),
    BonusCard("odds", "Odd Lot", "More odd numbers than even numbers: bonus 3.", _odd_majority),
    BonusCard("evens", "Even Stevens", "No odd numbers at all: bonus 5.", _all_even),
    BonusCard("thirteen", "Unlucky 13", "Each 13: penalty 3.", _each_number(13, -3)),
    BonusCard("straight", "Straight", "Three numbers in a row (such as 4, 5, 6): bonus 3.", _straight),
    BonusCard("small", "Small Change", "The numbers average 6 or less: bonus 3.", _low_average),
    BonusCard("high", "Top Heavy", "Each number 11 or higher: penalty 1.", _each_value_at_least(11, -1)),
    BonusCard("rainbow", "Rainbow", "Every card a different colour: bonus 2.", _rainbow),
    BonusCard(
        "hearts",
        "Hearts and Stars",
        f"Each {SHAPE_SYMBOLS[_HEART]} Heart or {SHAPE_SYMBOLS[_STAR]} Star: bonus 2.",
        _each_shape_in(frozenset({_HEART, _STAR}), 2),
    ),
    BonusCard("warm", "Warm Colours", "Each Red, Orange or Yellow card: bonus 1.", _each_colour_in(_WARM, 1)),
    BonusCard("cold", "Cold Feet", "Each Sky, Blue or Navy card: penalty 1.", _each_colour_in(_COLD, -1)),
    BonusCard("primes", "Prime Time", "Each prime number (2, 3, 5, 7, 11, 13): bonus 1.", _primes),
    BonusCard("wild", "Wild Ones", "Each 14/1 card: bonus 2.", _each_card_number(FOURTEEN_ONE, 2)),
)
"""The single-sided bonus rule cards, in a fixed order (shuffle a copy). Ids are unique."""

BONUS_BY_ID: dict[str, BonusCard] = {card.id: card for card in BONUS_CARDS}


# -- the double-sided "Shape or Colour" bonus card (MINIMIZE only) ------------------------------------

COLOUR_SIDE = BonusCard(
    "dupcolour",
    "Colour duplicates",
    "Cards sharing a colour: two of a colour penalty 1, three penalty 3, four or more penalty 5 "
    "(each colour counted on its own).",
    _duplicates_of("colour"),
)
SHAPE_SIDE = BonusCard(
    "dupshape",
    "Shape duplicates",
    "Cards sharing a shape: two of a shape penalty 1, three penalty 3, four or more penalty 5 "
    "(each shape counted on its own).",
    _duplicates_of("shape"),
)


@dataclass(frozen=True)
class DoubleSidedCard:
    """A card with two sides; exactly one side is in play. ``sides[0]`` and ``sides[1]``."""

    id: str
    title: str
    sides: tuple[object, object]


SHAPE_OR_COLOUR = DoubleSidedCard("shapecolour", "Shape or Colour", (COLOUR_SIDE, SHAPE_SIDE))
"""Side 0 "Colour": duplicate colours add to the MINIMIZE score; side 1 "Shape": duplicate shapes do.
Duplicate numbers always deduct the pro points (MINIMIZE's own rule, not this card's)."""

RULE_BY_ID: dict[str, BonusCard] = {card.id: card for card in (*BONUS_CARDS, COLOUR_SIDE, SHAPE_SIDE)}
"""Every bonus rule by its id: the single-sided cards and both sides of the Shape or Colour card. A rule's
scoring is a function (``BonusCard.rule``), so an engine snapshot stores a rule card by its id and finds it
here again (:mod:`engine.frazzled.snapshot`)."""


# -- the double-sided actions card (MINIMIZE only) -----------------------------------------------------

# What an action number does, as a stable kind the engine dispatches on.
TAKE_ONE = "take_one"  # everyone takes 1 card blind from the face-down fan of the player on their right
TAKE_TWO = "take_two"  # ... 2 cards
PASS_LEFT = "pass_left"  # everyone passes their whole hand to the left
CHANGE_RULE = "change_rule"  # the discarder changes a rule
EXTRA_TURN = "extra_turn"  # the discarder takes another turn
GIVE_ONE = "give_one"  # everyone chooses 1 card of their own hand and passes it to the left
GIVE_TWO = "give_two"  # ... 2 cards
PASS_RIGHT = "pass_right"  # everyone passes their whole hand to the right
SKIP_NEXT = "skip_next"  # the next player misses their turn

ACTION_NUMBERS: tuple[int, ...] = (FOURTEEN_ONE, 2, 6, 10, 13)
"""The numbers that carry an action (the other games' lists: 14/1, 2, 6, 10, 13)."""


@dataclass(frozen=True)
class ActionsSide:
    """One side of the actions card: ``actions`` maps an action number to ``(kind, text)``; ``name`` and
    each ``text`` are the side's printed words (shown by :func:`engine.frazzled.words.actions_side_text`)."""

    id: str
    name: str
    actions: tuple[tuple[int, str, str], ...]

    def kind(self, number: int) -> str | None:
        """The action kind for a discarded ``number`` (14 for the 14/1 card), or ``None``."""
        for action_number, kind, _ in self.actions:
            if action_number == number:
                return kind
        return None

    def text(self, number: int) -> str:
        """The printed line for ``number``, or ``""``."""
        for action_number, _, text in self.actions:
            if action_number == number:
                return text
        return ""


CHANGE_RULE_TEXT = (
    "Change a rule: flip one double-sided card, or swap one bonus rule card for the top of the bonus "
    "pile (the old one goes to the bottom)."
)

ACTIONS_SIDE_A = ActionsSide(
    "A",
    "Side A: Blind swap",
    (
        (
            FOURTEEN_ONE,
            TAKE_ONE,
            "Everyone takes 1 card blind from the face-down fan of the player on their right.",
        ),
        (2, TAKE_TWO, "Everyone takes 2 cards blind from the face-down fan of the player on their right."),
        (6, PASS_LEFT, "Everyone passes their whole hand to the left."),
        (10, CHANGE_RULE, CHANGE_RULE_TEXT),
        (13, EXTRA_TURN, "Take another turn."),
    ),
)
ACTIONS_SIDE_B = ActionsSide(
    "B",
    "Side B: Pass it on",
    (
        (FOURTEEN_ONE, GIVE_ONE, "Everyone chooses 1 card from their hand and passes it to the left."),
        (2, GIVE_TWO, "Everyone chooses 2 cards from their hand and passes them to the left."),
        (6, PASS_RIGHT, "Everyone passes their whole hand to the right."),
        (10, CHANGE_RULE, CHANGE_RULE_TEXT),
        (13, SKIP_NEXT, "The next player misses their turn."),
    ),
)
ACTIONS_CARD = DoubleSidedCard("actions", "Actions", (ACTIONS_SIDE_A, ACTIONS_SIDE_B))
"""Side 0 "A" and side 1 "B". Only players still playing the round take part in an action."""
