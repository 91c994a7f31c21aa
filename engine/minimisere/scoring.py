"""Minimisère's scores: the printed tables of tricks won, the Lot, and the target score that ends a game."""

from __future__ import annotations

from engine.minimisere.cards import HAND_SIZES

# Tricks won -> score, indexed by the number of tricks ("Score" of each section).
SCORE_TABLES: dict[int, tuple[int, ...]] = {
    5: (5, 1, 2, 6, 8, 0),
    4: (6, 1, 2, 3, 8, 10, 0),
    6: (6, 1, 2, 3, 8, 10, 0),
    3: (7, 1, 2, 3, 8, 10, 12, 0),
}
# "Bid the Lot": (bidder's score if made, everyone else's score if it fails). No Lot with three (ruling 3).
LOT_SCORES: dict[int, tuple[int, int]] = {5: (10, 5), 4: (12, 6), 6: (12, 6)}

TEXT_TARGETS = {3: 31}
"""The target score the text gives per player count where it differs from 25: three players, "Game is any
agreed target (such as 31)"; the others, "Game is 25 points" (ruling 12)."""
DEFAULT_TARGET = 25


def default_target(num_seats: int) -> int:
    """The text's target score for ``num_seats`` players (points): 31 with three, 25 otherwise."""
    return TEXT_TARGETS.get(num_seats, DEFAULT_TARGET)


def score_for_deal(num_seats: int, tricks: list[int], lot_bidder: int | None) -> list[int]:
    """Points each seat scores for one deal.

    ``tricks`` is the number of tricks each seat won. Without a Lot bid, each seat scores its count on the
    section's table ("Score"). With one: if the bidder won every trick it scores the Lot and everyone else
    zero; if not, it scores zero and everyone else scores the failure value, "regardless of how many tricks
    they win" ("Bid the Lot").
    """
    if lot_bidder is None:
        table = SCORE_TABLES[num_seats]
        return [table[count] for count in tricks]
    made, failed = LOT_SCORES[num_seats]
    if tricks[lot_bidder] == HAND_SIZES[num_seats]:
        return [made if seat == lot_bidder else 0 for seat in range(num_seats)]
    return [0 if seat == lot_bidder else failed for seat in range(num_seats)]
