"""Minimize: Declare's scoring of a round ("Scoring" in the manual): who scores what after a declare, what
a new total does to a player (back to 50, out), who starts the next round; pure functions over points."""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.declare.cards import ELIMINATION_Q, PENALTY_Q


class Settlement(enum.Enum):
    """What a player's new game total did to them at the end of a round."""

    KEPT = "kept"  # 100 points or less, not exactly 100: plays on
    BACK_TO_50 = "back to 50"  # "If a player's score is exactly 100 … 50"
    OUT = "out"  # "more than 100 points is eliminated"


@dataclass(frozen=True)
class RoundResult:
    """How a round ended, for the public view: ``hands`` and ``hand_q`` (quarter points) per seat that
    played it (``None`` for seats already out), ``scored_q`` added per seat, and what each new total did
    (``settlements``, :attr:`Settlement.KEPT` for seats already out)."""

    number: int
    caller: int
    caller_q: int
    succeeded: bool
    hands: tuple[tuple[str, ...] | None, ...]
    hand_q: tuple[int | None, ...]
    scored_q: tuple[int, ...]
    settlements: tuple[Settlement, ...]


def round_scores(hand_q: Sequence[int | None], caller: int) -> tuple[bool, tuple[int, ...]]:
    """Whether the caller was beaten, and the quarter points each seat scores this round.

    ``hand_q`` holds each seat's hand total in quarter points (``None`` for a seat already out); ``caller``
    is the seat that declared. "If any other player has the same number of points or fewer points than the
    caller, the caller scores 25 penalty points"; otherwise the caller scores 0; every other player scores
    their hand, except that a player equal to or below a beaten caller scores 0 (ruling 2).
    """
    players = [seat for seat, own in enumerate(hand_q) if own is not None]
    caller_q = hand_q[caller]
    assert caller_q is not None
    beaten = any(hand_q[seat] <= caller_q for seat in players if seat != caller)  # type: ignore[operator]
    scored = [0] * len(hand_q)
    for seat in players:
        own = hand_q[seat]
        assert own is not None
        if seat == caller:
            scored[seat] = PENALTY_Q if beaten else 0
        elif not beaten or own > caller_q:
            scored[seat] = own
    return beaten, tuple(scored)


def settle(total_q: int) -> tuple[int, Settlement]:
    """A new game total (quarter points) as it stands and what it did: exactly 100 goes back to 50 ("If a
    player's score is exactly 100 … 50"), more than 100 is out ("more than 100 points is eliminated")."""
    if total_q == ELIMINATION_Q:
        return ELIMINATION_Q // 2, Settlement.BACK_TO_50
    if total_q > ELIMINATION_Q:
        return total_q, Settlement.OUT
    return total_q, Settlement.KEPT


def next_starter(hand_q: Sequence[int | None], caller: int, survivors: Collection[int]) -> int:
    """The seat that starts the next round: "The player with the lowest card point total for that round
    starts the next round. If two or more players had the equally low totals, the starter … will be the
    first of them, counting clockwise starting to the left of the caller." (ruling 3: among ``survivors``,
    the seats still in the game, each of which played this round).
    """
    num_seats = len(hand_q)
    order = [(caller + step) % num_seats for step in range(1, num_seats + 1)]
    candidates = [seat for seat in order if seat in survivors]
    low = min(hand_q[seat] for seat in candidates)  # type: ignore[type-var]
    return next(seat for seat in candidates if hand_q[seat] == low)
