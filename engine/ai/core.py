"""The AI player interface, the seat's information it decides from, and the baseline players.

An AI player is pure and deterministic: :meth:`AIPlayer.decide` gets an :class:`InformationSet` (what one
seat knows: its view, the public history, and a means to draw whole worlds consistent with them) and a
seeded random generator, and returns one legal action code for that seat. It is never handed the game's
state: :meth:`InformationSet.of` keeps only a determinisation (the state with everything the seat may not
see redrawn by :meth:`~engine.core.GameState.resample_hidden`), so what a seat cannot see is out of the
player's reach by construction, not by convention. Each game's ``resample_hidden`` is canonical (its result
depends only on what the seat has seen and on the generator), so a decision is the same whichever world
the information set was made from; a property test per game and level checks it.

:meth:`AIPlayer.choose` is the entry for a caller that holds the state (the table runtime, benchmarks,
tests): it makes the seat's information set and decides from it alone.
"""

from __future__ import annotations

import abc
import functools
import random
import time
from collections.abc import Callable

from engine.core import GameState, SeatView


class InformationSet:
    """What ``seat`` knows at one moment of a game: its own view and the public history, and worlds
    consistent with them; never the game's state itself.

    Attributes
    ----------
    seat:
        The seat whose information this is.
    world:
        One fixed determinisation: a whole game state in which the seat's own and public facts are true
        and everything it may not see is a random draw (made with a generator fixed by the version and the
        seat, not the decision's). Read the seat's own and public facts from it (its hand, the cards up,
        running scores, ``history``); it is not to be changed (copy it to play moves on).
    """

    def __init__(self, world: GameState, seat: int) -> None:
        self.seat = seat
        self.world = world

    @classmethod
    def of(cls, state: GameState, seat: int) -> InformationSet:
        """``seat``'s information in ``state`` (which is not changed and not kept).

        Raises
        ------
        NotImplementedError
            If the game cannot resample its hidden information.
        """
        fixed = random.Random(f"information-set:{state.version}:{seat}")
        return cls(state.resample_hidden(seat, fixed), seat)

    @property
    def num_seats(self) -> int:
        """The number of seats in the game."""
        return self.world.num_seats

    @property
    def version(self) -> int:
        """How many actions the game has had."""
        return self.world.version

    @property
    def history(self) -> tuple[tuple[int, str], ...]:
        """The public history: every action as ``(seat, code)``, oldest first."""
        return tuple(self.world.history)

    @functools.cached_property
    def view(self) -> SeatView:
        """The seat's view, as its player sees it."""
        return self.world.view(self.seat)

    def sample(self, rng: random.Random) -> GameState:
        """A new world consistent with what the seat has seen, its hidden parts drawn with ``rng`` (a fresh
        state the caller may change)."""
        return self.world.resample_hidden(self.seat, rng)

    def legal_codes(self) -> list[str]:
        """The codes the seat may play now, in the engine's order.

        Raises
        ------
        ValueError
            If there are none.
        """
        return legal_codes(self.world, self.seat)


SEARCH_CPU_SECONDS = 0.09
"""The hard levels' cap on one decision's search, in CPU seconds of the deciding thread, so that a decision
stays within a press's budget: past it no further world or playout starts (:class:`SearchGuard`)."""


class SearchGuard:
    """The CPU-time guard of one decision's search, started when it is made: :meth:`spent` is true once the
    deciding thread has used more than ``seconds`` of CPU time since (``time.thread_time``, so other
    threads' load does not count). A search with a fixed budget of worlds asks it before each further world
    and stops early only on an overloaded machine.

    Parameters
    ----------
    seconds:
        The cap in CPU seconds, or ``None``: no cap (:meth:`spent` is always false).
    """

    def __init__(self, seconds: float | None) -> None:
        self._deadline = None if seconds is None else time.thread_time() + seconds

    def spent(self) -> bool:
        """Whether the cap has been passed."""
        return self._deadline is not None and time.thread_time() > self._deadline


class AIPlayer(abc.ABC):
    """A decision maker for one game.

    Attributes
    ----------
    name:
        A short name for logs and the benchmark ("random", "greedy", "foist-mc").
    """

    name: str

    @abc.abstractmethod
    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        """One legal action code for ``seen.seat`` (a seat the game waits for), from the seat's information
        only. The same information and generator state give the same code.

        Raises
        ------
        ValueError
            If the seat has no legal action.
        """

    def choose(self, state: GameState, seat: int, rng: random.Random) -> str:
        """:meth:`decide` on ``seat``'s information in ``state`` (:meth:`InformationSet.of`); ``state`` is
        neither changed nor handed to the player.

        Raises
        ------
        ValueError
            If ``seat`` has no legal action.
        """
        return self.decide(InformationSet.of(state, seat), rng)


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


class RandomPlayer(AIPlayer):
    """Plays a legal action chosen uniformly at random (the benchmark's weakest opponent)."""

    name = "random"

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        return rng.choice(seen.legal_codes())


Evaluation = Callable[[GameState, int], float]
"""A position's worth to a seat, higher is better (any scale): ``evaluate(state, seat)``."""


class GreedyPlayer(AIPlayer):
    """One-move lookahead: tries each legal action on one determinisation of the hidden information (the
    information set's own fixed world, :attr:`InformationSet.world`: drawing another would cost a second
    resample per decision and see no more) and keeps the action after which ``evaluate`` rates the position
    best for the seat (ties: the first in the engine's order). The benchmark's stronger baseline.

    Parameters
    ----------
    evaluate:
        The game's evaluation, ``evaluate(state, seat) -> float``, higher is better for ``seat``.
    """

    name = "greedy"

    def __init__(self, evaluate: Evaluation) -> None:
        self._evaluate = evaluate

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        seat, codes = seen.seat, seen.legal_codes()
        if len(codes) == 1:
            return codes[0]
        world = seen.world
        best_code, best_value = codes[0], float("-inf")
        for code in codes:
            after = world.copy()
            after.apply(seat, code)
            value = self._evaluate(after, seat)
            if value > best_value:
                best_code, best_value = code, value
        return best_code


class BeginnerPlayer(AIPlayer):
    """The easy level: a newcomer's play. It takes the move that looks best one move ahead (as
    :class:`GreedyPlayer`, with the game's evaluation), but it slips: with chance ``slip`` it plays any
    legal move instead, as a beginner who has not yet seen what the move costs. Always legal, sensible
    most of the time, and beatable: it wins less than the greedy player it slips from.

    Parameters
    ----------
    evaluate:
        The game's evaluation, ``evaluate(state, seat) -> float``, higher is better for ``seat``.
    slip:
        The chance (0 to 1) of a random legal move at a decision.
    """

    name = "easy"

    def __init__(self, evaluate: Evaluation, slip: float = 0.3) -> None:
        self._greedy = GreedyPlayer(evaluate)
        self.slip = slip

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        if rng.random() < self.slip:
            return rng.choice(seen.legal_codes())
        return self._greedy.decide(seen, rng)


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
