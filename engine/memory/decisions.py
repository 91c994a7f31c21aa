"""The decisions a game of Deluxe Memory waits for, which actions answer each, and the amounts of the Mixed
Chart whose effects make most of them (how each decision is asked is in :mod:`engine.memory.words`).

A game waits for one :class:`Step` at a time (a queue of them in :class:`~engine.memory.state.MemoryState`);
its :class:`Phase` says what is decided, and for a choice of a player its :class:`Purpose` says what for.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.memory.actions import (
    ChooseCross,
    ChooseSquare,
    CopyEffect,
    Look,
    MemoryAction,
    MoveFrom,
    MoveTo,
    Reveal,
)
from engine.memory.cards import CROSS_CENTRES, POSITIONS, SQUARE_CORNERS

# The Mixed Chart's amounts (its words are in :mod:`engine.memory.words`).
SEVEN_PRICE = 5  # Mixed 7: "You may lose 5 tokens at the end of that turn to take another turn."
QUEEN_GIFT = 6  # Mixed Queen: "Choose a player to give six tokens to another player."
THREE_LOSS = 3  # Mixed 3: "choose up to three players to lose three tokens"


class Phase(enum.Enum):
    """The kind of decision the game waits for (:attr:`MemoryState.phase`)."""

    PICK_FIRST = "pick1"  # a turn's first look
    PICK_SECOND = "pick2"  # its second look, once the first card is seen (ruling 19)
    HIDE = "hide"  # after a non-match: leave both face-up, or pay to put cards back face-down
    TARGET = "target"  # choose a player; what for is the step's Purpose
    REVEAL_ONE = "reveal1"  # Mixed Ace: reveal a card
    LOOK_SWAP = "look_swap"  # Mixed 2: look at two cards to swap
    REVEAL_UP_TO_FOUR = "reveal_upto"  # Mixed 3
    SQUARE = "square"  # Mixed 4: choose the square
    SQUARE_LOOK = "square_look"  # Mixed 4: look at two of its cards
    CROSS = "cross"  # Mixed 5
    REVEAL_ANY = "reveal_any"  # Mixed 6
    KING = "king"  # Mixed King: choose the rank to copy
    REARRANGE = "rearrange"  # Jokin' Around: pick a card to move, or be done
    REARRANGE_TO = "rearrange_to"  # Jokin' Around: where the picked card goes
    MEMORISE = "memorise"  # a look that ends an effect, seen before the turn ends (ruling 10)
    BUY_SEVEN = "buy7"  # Mixed 7: lose 5 tokens for one more turn?


class Purpose(enum.Enum):
    """What a :attr:`Phase.TARGET` choice of a player does."""

    BLACK = "black"  # returns the rank in tokens to the Bank
    RED = "red"  # gains the rank from the Bank
    ACE_GAIN = "ace_gain"
    ACE_LOSE = "ace_lose"
    THREE_LOSE = "three_lose"  # up to three players, one at a time (ruling 6)
    JACK = "jack"  # two players to even out
    QUEEN_GIVER = "queen_giver"
    QUEEN_RECEIVER = "queen_receiver"
    GIVE_GIVER = "give_giver"  # Simplicity
    GIVE_RECEIVER = "give_receiver"


# Decisions that choose a card to look at, to reveal, to reveal with a chance to stop, and to rearrange.
LOOKING = (Phase.PICK_FIRST, Phase.PICK_SECOND, Phase.LOOK_SWAP)
REVEALING = (Phase.REVEAL_ONE, Phase.REVEAL_UP_TO_FOUR, Phase.REVEAL_ANY)
REVEALING_SEVERAL = (Phase.REVEAL_UP_TO_FOUR, Phase.REVEAL_ANY)
REARRANGING = (Phase.REARRANGE, Phase.REARRANGE_TO)
# Choices that may not name the chooser (ruling 5).
OTHERS_ONLY = frozenset({Purpose.BLACK, Purpose.ACE_LOSE, Purpose.THREE_LOSE})
# Choices of a second, different player (ruling 5).
DIFFERENT = frozenset({Purpose.JACK, Purpose.QUEEN_RECEIVER, Purpose.GIVE_RECEIVER, Purpose.THREE_LOSE})

# One value per possible action, built once (legal actions are asked for often).
LOOKS = tuple(Look(p) for p in range(POSITIONS))
REVEALS = tuple(Reveal(p) for p in range(POSITIONS))
MOVES = tuple(MoveFrom(p) for p in range(POSITIONS))
MOVES_TO = tuple(MoveTo(p) for p in range(POSITIONS))
SQUARES = tuple(ChooseSquare(corner) for corner in SQUARE_CORNERS)
CROSSES = tuple(ChooseCross(centre) for centre in CROSS_CENTRES)
COPIES = tuple(CopyEffect(rank) for rank in range(1, 13))
AT_POSITION: dict[type[MemoryAction], tuple[MemoryAction, ...]] = {
    Look: LOOKS,
    Reveal: REVEALS,
    MoveFrom: MOVES,
    MoveTo: MOVES_TO,
}
# The decisions that choose a position, and the type of the action that chooses it.
CHOOSES_POSITION: dict[Phase, type[MemoryAction]] = {
    Phase.PICK_FIRST: Look,
    Phase.PICK_SECOND: Look,
    Phase.LOOK_SWAP: Look,
    Phase.SQUARE_LOOK: Look,
    Phase.REVEAL_ONE: Reveal,
    Phase.REVEAL_UP_TO_FOUR: Reveal,
    Phase.REVEAL_ANY: Reveal,
    Phase.REARRANGE: MoveFrom,
    Phase.REARRANGE_TO: MoveTo,
}


@dataclass
class Step:
    """One pending decision.

    ``phase`` names the decision and ``seat`` decides it. ``purpose`` says what a :attr:`Phase.TARGET`
    choice does; ``amount`` is a token count; ``positions`` and ``chosen`` collect positions and players
    chosen so far (a Mixed 3 keeps the cards it revealed in ``chosen``); ``pair`` is the matched pair a
    King copies with; ``area`` a square's positions holding cards.
    """

    phase: Phase
    seat: int
    purpose: Purpose | None = None
    amount: int = 0
    positions: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    pair: tuple[int, ...] = ()
    area: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Decision:
    """The pending decision as the table sees it (:attr:`MemoryState.decision`): its ``phase``, the
    ``seat`` deciding, a player choice's ``purpose`` and token ``amount``, the ``positions`` chosen so far
    (looks to swap, cards revealed, the square's looks), the players or revealed cards ``chosen`` so far (a
    Mixed 3 keeps its revealed cards here), and at a turn's second look the ``first_pick`` position."""

    phase: Phase
    seat: int
    purpose: Purpose | None
    amount: int
    positions: tuple[int, ...]
    chosen: tuple[int, ...]
    first_pick: int | None
