"""Foist's cards and tokens as plain numbers: the deck, the tokens dealt, and the points a set of cards
scores ("Only the Lowest Card in a Series Counts")."""

from __future__ import annotations

from collections.abc import Collection

LOWEST_CARD = 3
HIGHEST_CARD = 35
REMOVED_UNSEEN = 9


def starting_tokens(num_seats: int) -> int:
    """Tokens dealt to each player ("Pay Tokens to Avoid Cards": 3-5 players 11, 6 players 9, 7 players 7).

    Raises
    ------
    ValueError
        For a player count outside 3..7.
    """
    if 3 <= num_seats <= 5:
        return 11
    if num_seats == 6:
        return 9
    if num_seats == 7:
        return 7
    raise ValueError(f"Foist is for 3 to 7 players, not {num_seats}.")


def runs(cards: list[int] | tuple[int, ...]) -> list[list[int]]:
    """Split cards into series of consecutive numbers, each ascending, lowest series first.

    >>> runs([20, 11, 12, 15, 16, 17])
    [[11, 12], [15, 16, 17], [20]]
    """
    series: list[list[int]] = []
    for card in sorted(cards):
        if series and card == series[-1][-1] + 1:
            series[-1].append(card)
        else:
            series.append([card])
    return series


def card_points(cards: list[int] | tuple[int, ...]) -> int:
    """Points of a set of cards: only the lowest card of each series counts
    ("Only the Lowest Card in a Series Counts"; 11 12 15 16 17 20 count 11 + 15 + 20 = 46)."""
    return sum(series[0] for series in runs(cards))


def marginal_cost(cards: Collection[int], card: int) -> int:
    """How many card points taking ``card`` adds to a seat holding ``cards`` (only the lowest card of a
    series counts): ``card`` alone, 0 next above a series, -1 just below one, and minus the higher series'
    lowest card when it joins two series. Equal to ``card_points(cards + [card]) - card_points(cards)``.

    >>> [marginal_cost(cards, 11) for cards in ({10, 12}, {10}, {12}, set())]
    [-12, 0, -1, 11]
    """
    below = card - 1 in cards
    above = card + 1 in cards
    if below and above:
        return -(card + 1)
    if below:
        return 0
    if above:
        return -1
    return card
