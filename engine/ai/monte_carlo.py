"""Flat determinised Monte Carlo search, written once for every game.

The search of the AI levels that search: draw worlds consistent with what the deciding seat has seen
(determinisations of its information set), play every candidate action in each world and the game on with
a cheap playout policy, rate each end with an evaluation, and keep the candidate with the best mean
(Perfect Information Monte Carlo, or "determinized" flat Monte Carlo: a tree-less cousin of
information-set MCTS). The loop is the same in every game; what differs is the game's part, which a
:class:`FlatMonteCarlo` holds as callables:

- ``candidates``: the actions weighed (the game prunes them: a rule player's choice first, moves that
  cannot differ dropped),
- ``determinise``: world number ``n`` (0 first), drawn with the decision's generator; a world is whatever
  the game's playouts start from: a determinised state, and with it anything every candidate shares in
  that world (draws made once per world, so that every candidate meets the same luck: common random
  numbers),
- ``playout``: one candidate played for the seat in a copy of a world, then the game played on by the
  game's policy; it returns the position to rate,
- ``evaluate``: that position's worth to the seat (higher is better),
- ``worlds``, ``min_worlds``, ``cpu_seconds``: the budget and its CPU-time guard
  (:class:`~engine.ai.core.SearchGuard`).

The order of the generator's draws is fixed: world 0 is drawn, then every candidate is played out in it in
the order given, then world 1, and so on; the search draws nothing itself. So a decision is deterministic
from the information set and the generator, as :class:`~engine.ai.core.AIPlayer` requires, unless its
CPU-time guard stops it early (the games' budgets stay well inside it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.ai.core import SearchGuard
from engine.core import GameState

World = TypeVar("World")
"""A world of the game's search: a determinised state, with whatever its candidates share in it."""

Candidate = TypeVar("Candidate")
"""A candidate action: a code, or the game's action object."""


def first_best(values: Sequence[float]) -> int:
    """The index of the highest of ``values``; ties go to the first (the candidate listed first).

    Raises
    ------
    ValueError
        If ``values`` is empty.
    """
    if not values:
        raise ValueError("no value to choose from")
    return max(range(len(values)), key=lambda index: (values[index], -index))


@dataclass(frozen=True)
class SearchResult(Generic[Candidate]):
    """What one search found.

    Attributes
    ----------
    candidates:
        The candidates weighed, in the order given.
    totals:
        Per candidate (same order), the sum of its playouts' evaluations over the worlds searched.
    outcomes:
        World by world (in the order drawn), each candidate's evaluation in that world.
    """

    candidates: tuple[Candidate, ...]
    totals: tuple[float, ...]
    outcomes: tuple[tuple[float, ...], ...]

    @property
    def worlds(self) -> int:
        """How many worlds were searched (at least ``min_worlds``; fewer than ``worlds`` only if the guard
        stopped the search)."""
        return len(self.outcomes)

    @property
    def means(self) -> tuple[float, ...]:
        """Per candidate, its mean evaluation over the worlds searched."""
        return tuple(total / self.worlds for total in self.totals)

    @property
    def best(self) -> Candidate:
        """The candidate with the highest total (so the best mean: every candidate met the same worlds);
        ties go to the one listed first."""
        return self.candidates[first_best(self.totals)]


@dataclass(frozen=True)
class FlatMonteCarlo(Generic[World, Candidate]):
    """One decision's flat determinised Monte Carlo search (see the module's docstring).

    Attributes
    ----------
    candidates:
        The actions weighed, best-first by the game's own judgement: ties go to the first.
    determinise:
        ``determinise(number, rng) -> world``: world ``number`` (0, 1, ...), drawn with ``rng`` (the
        decision's generator). It is played out once per candidate and must not be changed by it.
    playout:
        ``playout(world, candidate, rng) -> state``: ``candidate`` played for the deciding seat in a copy of
        ``world`` (which stays unchanged), then the game played on by the game's policy (to its end, or a
        horizon); the state reached, to be rated. ``rng``: the decision's generator.
    evaluate:
        ``evaluate(state) -> float``: the worth of a playout's end to the deciding seat, higher is better
        (any scale: a share of the win, points, tokens).
    worlds:
        How many worlds to search (each candidate is played out once in each).
    min_worlds:
        How many of them are searched whatever the guard says (at least 1).
    cpu_seconds:
        The guard: past this much CPU time of the deciding thread since the search started (seconds,
        ``time.thread_time``), no further world is drawn once ``min_worlds`` were; ``None``: no guard.
    """

    candidates: Sequence[Candidate]
    determinise: Callable[[int, random.Random], World]
    playout: Callable[[World, Candidate, random.Random], GameState]
    evaluate: Callable[[GameState], float]
    worlds: int
    min_worlds: int = 1
    cpu_seconds: float | None = None

    def run(self, rng: random.Random) -> SearchResult[Candidate]:
        """Search with ``rng``: for each world in turn, every candidate played out and rated.

        Raises
        ------
        ValueError
            If there is no candidate, or ``worlds`` or ``min_worlds`` is less than 1.
        """
        candidates = tuple(self.candidates)
        if not candidates:
            raise ValueError("a search needs at least one candidate")
        if self.worlds < 1 or self.min_worlds < 1:
            raise ValueError(f"a search needs a world: worlds={self.worlds}, min_worlds={self.min_worlds}")
        totals = [0.0] * len(candidates)
        outcomes: list[tuple[float, ...]] = []
        guard = SearchGuard(self.cpu_seconds)
        for number in range(self.worlds):
            if number >= self.min_worlds and guard.spent():
                break
            world = self.determinise(number, rng)
            values = []
            for index, candidate in enumerate(candidates):
                value = self.evaluate(self.playout(world, candidate, rng))
                totals[index] += value
                values.append(value)
            outcomes.append(tuple(values))
        return SearchResult(candidates, tuple(totals), tuple(outcomes))
