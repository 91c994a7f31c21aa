"""Minimisère's cards as short strings: the packs by player count, the hands, the Deuce (or Nine) that wins
only when led, and who wins a trick ("Play", "The Joker").

A card is a rank (``"A" "K" "Q" "J" "10" "9" "8" "7" "2"``) then a suit letter (``"S" "H" "C" "D"``), e.g.
``"10H"``, or ``"JK"`` for the Joker.
"""

from __future__ import annotations

JOKER = "JK"
SUITS = ("S", "H", "C", "D")  # display order: alternate colours
RANK_VALUES = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7, "2": 2}
HAND_SIZES = {3: 7, 4: 6, 5: 5, 6: 6}
"""Cards dealt to each player, by player count."""

SUIT: dict[str, str | None] = {JOKER: None} | {rank + suit: suit for rank in RANK_VALUES for suit in SUITS}
"""Every card's suit letter, ``None`` for the Joker (the fast form of :func:`suit_of`)."""
VALUE: dict[str, int] = {JOKER: 0} | {
    rank + suit: value for rank, value in RANK_VALUES.items() for suit in SUITS
}
"""Every card's rank value (Ace 14 down to Deuce 2), 0 for the Joker, which has no rank."""
_DISPLAY_ORDER = {
    card: index
    for index, card in enumerate([JOKER] + [rank + suit for suit in SUITS for rank in RANK_VALUES])
}


def suit_of(card: str) -> str | None:
    """The suit letter of a card, ``None`` for the Joker (it belongs to no suit)."""
    return SUIT[card]


def rank_of(card: str) -> str:
    """The rank of a suited card, e.g. ``"10"`` for ``"10H"``."""
    return card[:-1]


def is_card(code: str) -> bool:
    """Whether ``code`` names a card of some Minimisère pack."""
    return code in SUIT


def sort_cards(cards: list[str] | tuple[str, ...]) -> list[str]:
    """Cards in display order: the Joker, then ♠ ♥ ♣ ♦, each suit high to low."""
    return sorted(cards, key=_DISPLAY_ORDER.__getitem__)


def pack_ranks(num_seats: int, nines: bool = False) -> tuple[str, ...]:
    """The ranks in each suit of the pack for ``num_seats`` players.

    Five or four players: A-K-Q-J-10-2, or A-K-Q-J-10-9 with ``nines`` ("You can replace the Deuce with a
    Nine"); six: A-K-Q-J-10-9-8-7-2 (the option does not apply, ruling 2); three: A-K-Q-J-10.

    Raises
    ------
    ValueError
        For a player count outside 3..6.
    """
    if num_seats in (4, 5):
        return ("A", "K", "Q", "J", "10", "9" if nines else "2")
    if num_seats == 6:
        return ("A", "K", "Q", "J", "10", "9", "8", "7", "2")
    if num_seats == 3:
        return ("A", "K", "Q", "J", "10")
    raise ValueError(f"Minimisère is for 3 to 6 players, not {num_seats}.")


def build_pack(num_seats: int, nines: bool = False) -> list[str]:
    """The whole pack: 25 cards for four or five (with the Joker), 36 for six (no Joker), 21 for three."""
    pack = [rank + suit for suit in SUITS for rank in pack_ranks(num_seats, nines)]
    if num_seats != 6:
        pack.append(JOKER)
    return pack


def special_rank(num_seats: int, nines: bool = False) -> str | None:
    """The rank that wins when led and loses otherwise: the Deuce, or the Nine that replaces it (ruling 1).

    Three players have no Deuce, so ``None``. It is always the lowest rank of its pack.
    """
    if num_seats == 3:
        return None
    if num_seats == 6:
        return "2"
    return "9" if nines else "2"


def trick_winner(plays: list[tuple[int, str, str]], special: str | None) -> int:
    """Index in ``plays`` of the card that wins a trick, or leads it so far if it is not complete.

    ``plays`` is ``(seat, card, decree)`` in playing order, the lead first; ``decree`` is ``"win"`` for a
    Joker that three players' third hand decreed to win, else ``""``/``"lose"``. Rules ("Play", "The
    Joker"): a led Joker wins; a led Deuce (``special``) wins; a Joker played third may be decreed to win;
    otherwise the highest card of the suit led wins, the Deuce and an unled Joker losing.
    """
    led = plays[0][1]
    if led == JOKER or rank_of(led) == special:
        return 0
    suit = SUIT[led]
    best, best_value = 0, VALUE[led]
    for index in range(1, len(plays)):
        _, card, decree = plays[index]
        if card == JOKER:
            if decree == "win":
                return index
        elif SUIT[card] == suit and VALUE[card] > best_value:
            best, best_value = index, VALUE[card]
    return best
