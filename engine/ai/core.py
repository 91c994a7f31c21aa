"""The AI player interface and the baseline players.

An AI player is pure and deterministic: :meth:`AIPlayer.choose` gets the game state, the seat it plays and a
seeded random generator, and returns one legal action code for that seat. It decides only from what that
seat may see. The rule that keeps it honest: the player never reads the hidden parts of ``state`` directly;
it reads the seat's own :meth:`~engine.core.GameState.view`, the public history, and, where it searches,
determinisations drawn with :meth:`~engine.core.GameState.resample_hidden` (whose result depends only on
what the seat has seen and on the generator). A property test per game checks this: resampling what the seat
cannot see leaves the choice unchanged.

``choose`` must not change ``state``; the table runtime still hands it a copy, so that it can think in a
worker thread while the table goes on answering presses.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from engine.core import GameState


class AIPlayer(Protocol):
    """A decision maker for one game.

    Attributes
    ----------
    name:
        A short name for logs and the benchmark ("random", "greedy", "foist-mc").
    """

    name: str

    def choose(self, state: GameState, seat: int, rng: random.Random) -> str:
        """One legal action code for ``seat`` (a seat in ``state.seats_to_act()``).

        ``state`` is not changed. The same state, seat and generator state give the same code.

        Raises
        ------
        ValueError
            If ``seat`` has no legal action.
        """
        ...


def legal_codes(state: GameState, seat: int) -> list[str]:
    """The codes ``seat`` may play now, in the engine's order.

    Raises
    ------
    ValueError
        If there are none.
    """
    codes = [action.code for action in state.legal_actions(seat)]
    if not codes:
        raise ValueError(f"seat {seat} has no legal action")
    return codes


class RandomPlayer:
    """Plays a legal action chosen uniformly at random (the benchmark's weakest opponent)."""

    name = "random"

    def choose(self, state: GameState, seat: int, rng: random.Random) -> str:
        return rng.choice(legal_codes(state, seat))


Evaluation = Callable[[GameState, int], float]
"""A position's worth to a seat, higher is better (any scale): ``evaluate(state, seat)``."""


class GreedyPlayer:
    """One-move lookahead: tries each legal action on one determinisation of the hidden information and
    keeps the action after which ``evaluate`` rates the position best for the seat (ties: the first in the
    engine's order). The benchmark's stronger baseline.

    Parameters
    ----------
    evaluate:
        The game's evaluation, ``evaluate(state, seat) -> float``, higher is better for ``seat``.
    """

    name = "greedy"

    def __init__(self, evaluate: Evaluation) -> None:
        self._evaluate = evaluate

    def choose(self, state: GameState, seat: int, rng: random.Random) -> str:
        codes = legal_codes(state, seat)
        if len(codes) == 1:
            return codes[0]
        world = state.resample_hidden(seat, rng)
        best_code, best_value = codes[0], float("-inf")
        for code in codes:
            after = world.copy()
            after.apply(seat, code)
            value = self._evaluate(after, seat)
            if value > best_value:
                best_code, best_value = code, value
        return best_code



def win_share(state: GameState, seat: int) -> float:
    """``seat``'s share of the win in a finished game: 1 for the only winner, 1/k when k seats share
    rank 1, 0 otherwise (the benchmark's measure of a win).

    Raises
    ------
    RuntimeError
        If the game is not over.
    """
    standings = state.standings()
    winners = [standing.seat for standing in standings if standing.rank == 1]
    return 1 / len(winners) if seat in winners else 0.0
