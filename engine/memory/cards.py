"""Deluxe Memory's cards and the grid they lie on: card and position names, the layout, and the shapes
(2 by 2 squares, 3 by 3 crosses) that Mixed Chart effects choose.

Shapes:

* A *card* is an ``int``: ``0..51`` is ``rank_index * 4 + suit`` (ranks A, 2..10, J, Q, K; suits ♠ ♥ ♦ ♣,
  ♥ and ♦ red) and ``52``, ``53`` are the two Jokers (Jokin' Around only).
* A *position* is an ``int`` ``row * 8 + column`` on the 7 by 8 grid (rows "A".."G", columns "1".."8"),
  named like ``"C5"``. The four corners are not part of the layout (two of them are, with the Jokers).
"""

from __future__ import annotations

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("♠", "♥", "♦", "♣")
RED_SUITS = frozenset({1, 2})
JOKERS = (52, 53)
ROWS = "ABCDEFG"
COLUMNS = 8
POSITIONS = len(ROWS) * COLUMNS  # 56 places on the grid, corners included


def is_joker(card: int) -> bool:
    """True for the two Jokers (cards 52 and 53)."""
    return card >= 52


def rank_of(card: int) -> int:
    """The rank 1..13 (Ace 1, Jack 11, Queen 12, King 13: "Aces count as one..."), 0 for a Joker."""
    return 0 if is_joker(card) else card // 4 + 1


def is_red(card: int) -> bool:
    """True for ♥ and ♦ (a Joker is neither red nor black)."""
    return not is_joker(card) and card % 4 in RED_SUITS


def is_black(card: int) -> bool:
    """True for ♠ and ♣."""
    return not is_joker(card) and card % 4 not in RED_SUITS


def card_text(card: int) -> str:
    """A card in plain Unicode: ``"7♥"``, ``"10♠"``, ``"Q♣"``, ``"Joker"``."""
    if is_joker(card):
        return "Joker"
    return RANK_NAMES[card // 4] + SUITS[card % 4]


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    """Cards separated by spaces: ``"9♠ 9♥"``."""
    return " ".join(card_text(card) for card in cards)


def parse_card(text: str, jokers_taken: int = 0) -> int:
    """The card named ``text`` (``"7♥"``, ``"10♠"``, ``"Joker"``); the ``jokers_taken``-th Joker for "Joker".

    Raises
    ------
    ValueError
        If ``text`` names no card.
    """
    if text == "Joker":
        if jokers_taken > 1:
            raise ValueError("There are only two Jokers.")
        return JOKERS[jokers_taken]
    rank, suit = text[:-1], text[-1:]
    if rank not in RANK_NAMES or suit not in SUITS:
        raise ValueError(f"No such card: {text!r}")
    return RANK_NAMES.index(rank) * 4 + SUITS.index(suit)


def rank_title(rank: int) -> str:
    """``1`` -> ``"Ace"``, ``7`` -> ``"7"``, ``13`` -> ``"King"``."""
    return {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(rank, str(rank))


def position_name(position: int) -> str:
    """``17`` -> ``"C2"`` (row letter, then the 1-based column)."""
    return f"{ROWS[position // COLUMNS]}{position % COLUMNS + 1}"


def parse_position(name: str) -> int:
    """``"C2"`` -> ``17``.

    Raises
    ------
    ValueError
        If ``name`` is not a row A..G followed by a column 1..8.
    """
    if len(name) != 2 or name[0] not in ROWS or name[1] not in "12345678":
        raise ValueError(f"No such position: {name!r}")
    return ROWS.index(name[0]) * COLUMNS + int(name[1]) - 1


def layout(jokers: bool) -> tuple[int, ...]:
    """The positions cards are dealt to, row by row.

    "a 7 by 8 grid with the corner cards omitted" holds the 52 cards. With the two Jokers (54 cards) only the
    corners A8 and G1 stay empty, so A1 and G8 hold cards too (ruling 1).
    """
    omitted = {"A1", "A8", "G1", "G8"}
    if jokers:
        omitted -= {"A1", "G8"}
    return tuple(p for p in range(POSITIONS) if position_name(p) not in omitted)


def square(corner: int) -> list[int]:
    """The four positions of the 2 by 2 square whose top-left is ``corner`` (Mixed 4)."""
    return [corner, corner + 1, corner + COLUMNS, corner + COLUMNS + 1]


def square_name(corner: int) -> str:
    """``"D2–E3"``: a square named by its top-left and bottom-right positions."""
    return f"{position_name(corner)}–{position_name(corner + COLUMNS + 1)}"


# Every top-left corner whose 2 by 2 square fits the grid (ruling 11), row by row.
SQUARE_CORNERS = tuple(
    row * COLUMNS + column for row in range(len(ROWS) - 1) for column in range(COLUMNS - 1)
)


def cross(centre: int) -> list[int]:
    """The five positions of the 3 by 3 cross around ``centre``: it and its four neighbours (Mixed 5)."""
    return [centre - COLUMNS, centre - 1, centre, centre + 1, centre + COLUMNS]


# Every centre whose 3 by 3 cross fits the grid: rows B–F, columns 2–7 (ruling 12), row by row.
CROSS_CENTRES = tuple(
    row * COLUMNS + column for row in range(1, len(ROWS) - 1) for column in range(1, COLUMNS - 1)
)
