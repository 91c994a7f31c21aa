"""Players' ratings as a night's seating reads them, and how even a table is (openskill's match quality).

A rating is openskill's Plackett–Luce rating (``mu``, ``sigma``), the model the bot rates its games with
(the defaults: mu 25, sigma 25/3, beta 25/6); a player with no rating yet has the model's default. A night
never changes a rating: the games of a night are rated one by one like any other game.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from statistics import NormalDist

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
"""openskill's Plackett–Luce model with its default parameters, the same as the bot's ratings'."""

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


@dataclass(frozen=True)
class Player:
    """A signed-up player: Discord user id and openskill rating (``mu``, ``sigma``, in rating points)."""

    id: int
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` (openskill's ``ordinal()``), the order of strength."""
        return self.mu - 3.0 * self.sigma

    def openskill(self) -> PlackettLuceRating:
        """This player's rating as an openskill rating object."""
        return MODEL.create_rating([self.mu, self.sigma], name=str(self.id))


def match_quality(players: Sequence[Player]) -> float:
    """openskill's ``predict_draw`` of one table of these players, each a team of one: the chance the
    model gives the table to end level, higher for a more even table (0 < quality <= 1).

    Raises
    ------
    ValueError
        With fewer than two players (a table of one is neither even nor uneven).
    """
    if len(players) < 2:
        raise ValueError("A table's match quality needs at least two players.")
    return quality_of([[player.openskill()] for player in players])


def quality_of(teams: list[list[PlackettLuceRating]]) -> float:
    """openskill's ``predict_draw`` of teams already made into openskill ratings."""
    return float(MODEL.predict_draw(teams))


def pair_draw(a: Player, b: Player, size: int) -> float:
    """One pair's term of openskill's ``predict_draw`` at a table of ``size`` players: the table's match
    quality is the mean of its pairs' terms (:func:`table_quality`). The seating's search changes one seat
    at a time, so it sums these terms instead of asking ``predict_draw`` for the whole table again; the
    tests check the two agree."""
    margin = _draw_margin(size)
    spread = math.sqrt(2.0 * (_TWO_BETA_SQUARED + a.sigma * a.sigma + b.sigma * b.sigma))
    gap = a.mu - b.mu
    # Phi((m - gap) / c) - Phi((-gap - m) / c), with Phi(x) = (1 + erf(x / sqrt 2)) / 2
    return 0.5 * (math.erf((margin - gap) / spread) + math.erf((margin + gap) / spread))


def table_quality(players: Sequence[Player]) -> float:
    """:func:`match_quality` as the mean of its pairs' terms (:func:`pair_draw`); 0 for fewer than two."""
    size = len(players)
    if size < 2:
        return 0.0
    total = sum(pair_draw(a, b, size) for a, b in itertools.combinations(players, 2))
    return total / (size * (size - 1) // 2)


@cache
def even_quality(size: int) -> float:
    """The match quality of a table of ``size`` players all at the default rating: a table's quality
    divided by this compares tables of different sizes (a bigger table draws less often, however even)."""
    return table_quality([Player(0)] * size)


_NORMAL = NormalDist()
_TWO_BETA_SQUARED = 2.0 * MODEL.beta**2


@cache
def _draw_margin(size: int) -> float:
    return math.sqrt(size) * MODEL.beta * _NORMAL.inv_cdf((1.0 + 1.0 / size) / 2.0)
