"""The Frazzled Wool 78-card deck shared by MINIMIZE, TOKENIZE and ERADICIZE, and small card helpers.

Facts (seeds README, "Facts from outside the texts"): 13 numbers (the 14/1 card and 2-13), 13 colours and
13 shapes; each number, each colour and each shape is on exactly 6 cards, and no two cards share a
number/colour/shape combination. We read the last fact in its strongest form: no two cards share a
number *and* a colour, a number *and* a shape, or a colour *and* a shape.

Construction (ours; the publisher's exact card list is not in the texts): for each number index
``n`` (0..12) and each ``k`` (0..5) there is one card with colour ``(n + k) mod 13`` and shape
``(n + 2k) mod 13``. Each colour and shape then appears once per ``k`` (6 times); the colour and the shape
offsets ``k`` and ``2k`` are distinct, and so is their difference ``k``, so every pair of attributes is
unique.

Colours and shapes have names and symbols so that a card never relies on colour alone (colour-blind
players read the name); how a card is written (``"7 Red ★"``) is :func:`engine.frazzled.words.card_label`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from engine.core import plural

FOURTEEN_ONE = 14
"""The number of the 14/1 card. It counts as 14 or as 1 per each game's rules."""

NUMBERS: tuple[int, ...] = (FOURTEEN_ONE, *range(2, 14))
"""The 13 numbers, the 14/1 card first (it is the deck's "1" in the construction)."""

COLOURS: tuple[str, ...] = (
    "Red",
    "Orange",
    "Yellow",
    "Lime",
    "Green",
    "Teal",
    "Sky",
    "Blue",
    "Navy",
    "Purple",
    "Pink",
    "Brown",
    "Grey",
)
"""The 13 colour names, shown in full on every card so no one depends on seeing the colour."""

SHAPES: tuple[str, ...] = (
    "Circle",
    "Square",
    "Triangle",
    "Diamond",
    "Star",
    "Heart",
    "Spade",
    "Club",
    "Cross",
    "Moon",
    "Hexagon",
    "Flower",
    "Bolt",
)
"""The 13 shape names."""

SHAPE_SYMBOLS: tuple[str, ...] = ("●", "■", "▲", "◆", "★", "♥", "♠", "♣", "✚", "☾", "⬢", "✿", "ϟ")
"""One distinct symbol per shape, in the order of :data:`SHAPES`."""

CARDS_PER_VALUE = 6
DECK_SIZE = len(NUMBERS) * CARDS_PER_VALUE  # 78


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``number`` (2..13, or 14 for the 14/1 card), ``colour`` and ``shape`` indices (0..12).

    ``id`` (0..77) is the card's place in :func:`build_deck` order, stable across games, for action codes.
    """

    id: int
    number: int
    colour: int
    shape: int


def build_deck() -> tuple[Card, ...]:
    """The 78 cards in a fixed order (``card.id == index``), before any shuffle."""
    cards: list[Card] = []
    for number_index, number in enumerate(NUMBERS):
        for k in range(CARDS_PER_VALUE):
            colour = (number_index + k) % len(COLOURS)
            shape = (number_index + 2 * k) % len(SHAPES)
            cards.append(Card(len(cards), number, colour, shape))
    return tuple(cards)


DECK: tuple[Card, ...] = build_deck()
"""The deck, built once; index it by card id."""


def find_card(number: int, colour: int | None = None, shape: int | None = None) -> Card:
    """The card with ``number`` (14 for the 14/1 card) and the given colour or shape index.

    The deck has no two cards sharing a number and a colour (or a number and a shape), so a number and
    one of the two names a single card.

    Raises
    ------
    ValueError
        If no card matches, or the description names several.
    """
    found = [
        card
        for card in DECK
        if card.number == number
        and (colour is None or card.colour == colour)
        and (shape is None or card.shape == shape)
    ]
    if len(found) != 1:
        raise ValueError(f"{plural(len(found), 'card')} match number={number} colour={colour} shape={shape}")
    return found[0]


def card_by_name(text: str) -> Card:
    """The card named like ``"7 Red"`` or ``"14/1 Blue"`` (number and colour name), for tests and docs.

    Raises
    ------
    ValueError
        If the text names no card.
    """
    number_text, colour_name = text.split()
    number = FOURTEEN_ONE if number_text in {"14/1", "14", "1"} else int(number_text)
    return find_card(number, colour=COLOURS.index(colour_name))


def display_key(card: Card) -> tuple[int, int, int]:
    """Sort key of display order: by number (14/1 first), then colour, then shape."""
    return (1 if card.number == FOURTEEN_ONE else card.number, card.colour, card.shape)


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: by number (14/1 first), then colour."""
    return sorted(cards, key=display_key)


def shuffled_deck(rng: random.Random) -> list[Card]:
    """All 78 cards in an order drawn from ``rng``."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck
