"""Points per placement: what a place at a table is worth in a night's standings.

The default is scaled to the table's size, like the placement points of Board Game Arena's tournaments,
so a table of any size hands out the same: the winner scores ``top`` (60) points, the last 0, and the
places between are evenly spaced (a table of 4: 60, 40, 20, 0; of 3: 60, 30, 0; of 5: 60, 45, 30, 15, 0).
A night may set its own points per place instead (``Scoring(fixed=(5, 3, 1))``: 5 for a win, 3 for
second, 1 for third, 0 for any place after). Tied players share the points of the places they cover:
two tied for first at a table of 4 score (60 + 40) / 2 = 50 each. AI seats take their places like anyone
(a player behind an AI is placed behind it) and their points go to nobody.

Points are exact fractions (``fractions.Fraction``): a share of a tie is never rounded, so the standings
add up to exactly the points the tables handed out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.core import plural

DEFAULT_TOP = 60
"""The default winner's points at a table of any size (60 splits evenly for tables of 2 to 7)."""


@dataclass(frozen=True)
class Scoring:
    """How a night scores a place: ``top`` points for a win, scaled to the table's size down to 0 for the
    last; or, when ``fixed`` is given, ``fixed[p - 1]`` points for place ``p`` (0 beyond it) at any size.

    Raises
    ------
    ValueError
        If ``top`` or a ``fixed`` value is negative, or ``fixed`` rises from one place to the next.
    """

    top: int = DEFAULT_TOP
    fixed: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.top < 0 or any(points < 0 for points in self.fixed):
            raise ValueError("Points for a place cannot be negative.")
        if any(a < b for a, b in zip(self.fixed, self.fixed[1:], strict=False)):
            raise ValueError("A place cannot be worth more than the place before it.")

    def place(self, place: int, seats: int) -> Fraction:
        """The points of place ``place`` (1 = first) at a table of ``seats`` seats, before any tie."""
        if not 1 <= place <= seats:
            raise ValueError(f"Place {place} is not a place at a table of {seats}.")
        if self.fixed:
            return Fraction(self.fixed[place - 1]) if place <= len(self.fixed) else Fraction(0)
        if seats == 1:
            return Fraction(self.top)
        return Fraction(self.top * (seats - place), seats - 1)


DEFAULT_SCORING = Scoring()


def placement_points(ranks: Sequence[int], scoring: Scoring = DEFAULT_SCORING) -> tuple[Fraction, ...]:
    """Each seat's points from its rank at one table (every seat, AI seats included).

    Parameters
    ----------
    ranks:
        Each seat's rank, standard competition ranking (1 = first; tied seats share the best of their
        places: 1, 1, 3).
    scoring:
        The night's points per place.

    Returns
    -------
    tuple[Fraction, ...]
        Points per seat, in seat order; tied seats share the mean of the places they cover.

    Raises
    ------
    ValueError
        If ``ranks`` is not a competition ranking of its seats (a rank below 1, or one that the seats
        ahead of it make impossible, like 1, 1, 2).
    """
    seats = len(ranks)
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    shares: dict[int, Fraction] = {}
    expected = 1
    for rank in sorted(counts):
        if rank != expected:
            raise ValueError(f"The ranks {tuple(ranks)} are not a ranking of {plural(seats, 'seat')}.")
        covered = range(rank, rank + counts[rank])
        shares[rank] = sum((scoring.place(p, seats) for p in covered), Fraction(0)) / counts[rank]
        expected = rank + counts[rank]
    return tuple(shares[rank] for rank in ranks)


@lru_cache(maxsize=4096)
def cached_points(ranks: tuple[int, ...], scoring: Scoring) -> tuple[Fraction, ...]:
    """:func:`placement_points`, remembered: a night's tables repeat few rankings."""
    return placement_points(ranks, scoring)
