"""A night's standings: every player's points across the rounds played, in order, with the tie-breaks.

The order, best first:

1. **points**, summed over the rounds (:mod:`engine.nights.placement`);
2. **wins**: rounds finished first at the table (a shared first place counts for each player in it);
3. **opponents' points** (Buchholz): the sum, over every table the player sat at, of the points their
   opponents there have now (an opponent met twice counts twice; AI seats are no one's opponents);
4. **rating**: the ordinal (``mu - 3 sigma``) the player signed up with, higher first;
5. **sign-up order**: who signed up first.

The last tie-break differs for every player, so places are never shared: 1, 2, 3, ...
A player who left is still listed with the points they earned (marked ``left``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.nights.placement import DEFAULT_SCORING, Scoring, cached_points
from engine.nights.rating import Player
from engine.nights.table import RoundResult


@dataclass(frozen=True)
class Standing:
    """One player's line of the standings.

    ``place`` 1 is the top; ``points`` and ``opponents_points`` are points (exact); ``wins`` and
    ``rounds`` count rounds (``rounds``: rounds the player sat at a table); ``rating`` is the ordinal
    the player signed up with; ``order`` the sign-up order (0 first); ``left``: the player has left the
    night.
    """

    place: int
    player: int
    points: Fraction
    wins: int
    opponents_points: Fraction
    rating: float
    order: int
    rounds: int
    left: bool


def standings(
    players: Sequence[Player], played: Sequence[RoundResult], scoring: Scoring = DEFAULT_SCORING
) -> tuple[Standing, ...]:
    """The standings after the rounds ``played``, best first (tie-breaks in the module docstring).

    Parameters
    ----------
    players:
        Everyone signed up, in sign-up order (late arrivals last); a player who never sat has 0 points.
    played:
        The rounds finished so far, in order.
    scoring:
        The night's points per place.

    Returns
    -------
    tuple[Standing, ...]
        One line per player of ``players``, in order of place.

    Raises
    ------
    ValueError
        If a round seats a player who is not in ``players``, or a player is signed up twice.
    """
    index = {player.id: order for order, player in enumerate(players)}
    if len(index) != len(players):
        raise ValueError("A player is signed up twice.")
    awarded: list[tuple[list[int], list[Fraction], list[int]]] = []  # per table: players, points, ranks
    for result in played:
        for table in result.tables:
            points = cached_points(table.ranks, scoring)
            humans, scored, ranks = [], [], []
            for player, pt, rank in zip(table.seats, points, table.ranks, strict=True):
                if player is None:
                    continue
                if player not in index:
                    raise ValueError(f"Player {player} sat at a table but did not sign up.")
                humans.append(index[player])
                scored.append(pt)
                ranks.append(rank)
            awarded.append((humans, scored, ranks))
    # Whole numbers in a common unit: the shares of ties have few denominators, and integer sums keep
    # the standings of a big night within a press's budget.
    unit = math.lcm(1, *{pt.denominator for _, points, _ in awarded for pt in points})
    count = len(players)
    totals, wins, rounds = [0] * count, [0] * count, [0] * count
    for humans, points, ranks in awarded:
        for seat, pt, rank in zip(humans, points, ranks, strict=True):
            totals[seat] += pt.numerator * (unit // pt.denominator)
            wins[seat] += rank == 1
            rounds[seat] += 1
    buchholz = [0] * count
    for humans, _points, _ranks in awarded:
        table_total = sum(totals[seat] for seat in humans)
        for seat in humans:
            buchholz[seat] += table_total - totals[seat]
    left = {p for result in played for p in result.left}
    ordered = sorted(range(count), key=lambda i: (-totals[i], -wins[i], -buchholz[i], -players[i].ordinal, i))
    return tuple(
        Standing(
            place,
            players[i].id,
            Fraction(totals[i], unit),
            wins[i],
            Fraction(buchholz[i], unit),
            players[i].ordinal,
            i,
            rounds[i],
            players[i].id in left,
        )
        for place, i in enumerate(ordered, 1)
    )
