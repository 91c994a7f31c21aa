"""Deluxe Memory's actions: one small frozen type per kind of choice, each with its stable code.

The codes are those stored in action logs since the first version, so old games replay:

=================  ===========================================  =====================================
code               action                                       chosen when
=================  ===========================================  =====================================
``look.C5``        :class:`Look` at a position                  a turn's two looks, Mixed 2, Mixed 4
``reveal.C5``      :class:`Reveal` a position to everyone       Mixed Ace, 3 and 6
``square.D2``      :class:`ChooseSquare` by its top-left        Mixed 4
``cross.C3``       :class:`ChooseCross` by its centre           Mixed 5
``move.C2``        :class:`MoveFrom` a position (pick it up)    Jokin' Around, a card to move
``to.B2``          :class:`MoveTo` a position                   Jokin' Around, where it goes
``show``           :class:`Show` a non-match (free)             after a non-match
``hide.B2``        :class:`Hide` one card (``hide.both``: two)  after a non-match
``target.2``       :class:`ChoosePlayer` by seat                pairs and Mixed Chart effects
``copy.9``         :class:`CopyEffect` of a rank (A..Q)         Mixed King
``done``           :class:`Done`                                stop revealing / choosing, end a look
``buy``            :class:`Buy` another turn for 5 tokens       after a Mixed 7's extra turn
``end``            :class:`EndTurn`                             after a Mixed 7's extra turn
``finish``         :class:`Finish` the game                     Underdogs: only you have tokens left
=================  ===========================================  =====================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import GameAction
from engine.memory.cards import RANK_NAMES, parse_position, position_name


class MemoryAction(GameAction):
    """Base of every Deluxe Memory action; :meth:`parse` reads any of their codes."""

    verb: ClassVar[str]

    @classmethod
    def parse(cls, code: str) -> MemoryAction:
        """The action whose code is ``code`` (``"look.C5"``, ``"target.2"``, ``"done"``).

        Raises
        ------
        ValueError
            If ``code`` is not the code of a Deluxe Memory action (or not in its one spelling:
            ``"target.02"`` is refused, ``"target.2"`` is the code).
        """
        verb, dot, argument = code.partition(".")
        kind = _BY_VERB.get(verb)
        if kind is None or not issubclass(kind, cls):
            raise ValueError(f"Not a Deluxe Memory action: {code!r}")
        action = kind._from_argument(argument if dot else None)
        if action.format() != code:
            raise ValueError(f"Not a Deluxe Memory action: {code!r}")
        return action

    @classmethod
    def _from_argument(cls, argument: str | None) -> MemoryAction:
        raise NotImplementedError


@dataclass(frozen=True)
class _AtPosition(MemoryAction):
    """An action on one grid position (``int``, see :mod:`engine.memory.cards`)."""

    position: int

    def format(self) -> str:
        return f"{self.verb}.{position_name(self.position)}"

    @classmethod
    def _from_argument(cls, argument: str | None) -> MemoryAction:
        if argument is None:
            raise ValueError(f"{cls.verb} needs a position")
        return cls(parse_position(argument))


@dataclass(frozen=True)
class _Plain(MemoryAction):
    """An action without an argument: its code is its verb."""

    def format(self) -> str:
        return self.verb

    @classmethod
    def _from_argument(cls, argument: str | None) -> MemoryAction:
        if argument is not None:
            raise ValueError(f"{cls.verb} takes no argument")
        return cls()


class Look(_AtPosition):
    """Look privately at the card at ``position``."""

    verb = "look"


class Reveal(_AtPosition):
    """Show the face-down card at ``position`` to everyone."""

    verb = "reveal"


class ChooseSquare(_AtPosition):
    """Mixed 4: the 2 by 2 square whose top-left is ``position``."""

    verb = "square"


class ChooseCross(_AtPosition):
    """Mixed 5: the 3 by 3 cross whose centre is ``position``."""

    verb = "cross"


class MoveFrom(_AtPosition):
    """Jokin' Around: pick up the card at ``position`` to move it."""

    verb = "move"


class MoveTo(_AtPosition):
    """Jokin' Around: put the card picked up at ``position`` (swapping with what lies there)."""

    verb = "to"


@dataclass(frozen=True)
class Hide(MemoryAction):
    """After a non-match, pay a token to put the card at ``position`` back face-down; ``None``: both cards
    (two tokens)."""

    position: int | None
    verb: ClassVar[str] = "hide"

    def format(self) -> str:
        return f"{self.verb}.{'both' if self.position is None else position_name(self.position)}"

    @classmethod
    def _from_argument(cls, argument: str | None) -> MemoryAction:
        if argument is None:
            raise ValueError("hide needs a position or 'both'")
        return cls(None if argument == "both" else parse_position(argument))


@dataclass(frozen=True)
class ChoosePlayer(MemoryAction):
    """Choose the player in ``seat`` for the effect being resolved."""

    seat: int
    verb: ClassVar[str] = "target"

    def format(self) -> str:
        return f"{self.verb}.{self.seat}"

    @classmethod
    def _from_argument(cls, argument: str | None) -> MemoryAction:
        if argument is None or not argument.isdigit():
            raise ValueError("target needs a seat number")
        return cls(int(argument))


@dataclass(frozen=True)
class CopyEffect(MemoryAction):
    """Mixed King: take the effect of ``rank`` (1..13; only 1..12 may be copied)."""

    rank: int
    verb: ClassVar[str] = "copy"

    def format(self) -> str:
        return f"{self.verb}.{RANK_NAMES[self.rank - 1]}"

    @classmethod
    def _from_argument(cls, argument: str | None) -> MemoryAction:
        if argument not in RANK_NAMES:
            raise ValueError("copy needs a rank A..K")
        return cls(RANK_NAMES.index(argument) + 1)


class Show(_Plain):
    """After a non-match, leave both cards face-up (free)."""

    verb = "show"


class Done(_Plain):
    """Stop: revealing (Mixed 3, 6), choosing players (Mixed 3), rearranging, or looking (ends the turn)."""

    verb = "done"


class Buy(_Plain):
    """Mixed 7: lose 5 tokens to take another turn."""

    verb = "buy"


class EndTurn(_Plain):
    """Mixed 7: decline the extra turn and end the turn."""

    verb = "end"


class Finish(_Plain):
    """Underdogs: the only player with tokens left ends the game at the start of a turn (ruling 3)."""

    verb = "finish"


_BY_VERB: dict[str, type[MemoryAction]] = {
    kind.verb: kind
    for kind in (Look, Reveal, ChooseSquare, ChooseCross, MoveFrom, MoveTo, Hide, ChoosePlayer, CopyEffect)
    + (Show, Done, Buy, EndTurn, Finish)
}
