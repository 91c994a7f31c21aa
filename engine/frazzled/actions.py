"""The typed actions of the Frazzled Wool games and the grammar of their stable codes.

Every action is a small frozen dataclass whose ``format()`` is the code stored in the action log and in
custom_ids (``draw.2``, ``discard.41``, ``fan.0``, ``token.c5``, ``steal.2.s7``, ``keep``...). Codes keep
their meaning forever, so stored games replay. Numbers in codes are canonical (no sign, no leading zero),
so ``parse(code).format() == code`` for every code ``parse`` accepts. The actions shared by several games
are here; each game module adds its own and lists its ``kinds`` in its action type.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Self

from engine.core import GameAction, LegalAction
from engine.frazzled.deck import COLOURS, DECK, Card

NUM_PILES = 3
COLOUR = "c"
SHAPE = "s"


NUMBER_TEXT = re.compile(r"0|[1-9][0-9]{0,2}")


def code_number(text: str, limit: int | None = None) -> int | None:
    """``text`` as a number in canonical form (no sign, no leading zero), below ``limit`` if given."""
    if not NUMBER_TEXT.fullmatch(text):
        return None
    value = int(text)
    return value if limit is None or value < limit else None


def code_parts(code: str, prefix: str) -> list[str] | None:
    """The dot-separated parts of ``code`` after ``prefix.``, or ``None`` if it does not start so."""
    head, dot, rest = code.partition(".")
    if head != prefix or not dot:
        return None
    return rest.split(".")


class FrazzledAction(GameAction):
    """Base of the typed actions of the three games.

    Each concrete action is a frozen dataclass with ``from_code`` (its own code, or ``None``) and
    ``format``. A game's action type is a subclass listing its ``kinds``; its ``parse`` tries them in
    turn, so one game never accepts another's code.
    """

    kinds: ClassVar[tuple[type[FrazzledAction], ...]] = ()

    @classmethod
    def parse(cls, code: str) -> FrazzledAction:  # type: ignore[override]
        for kind in cls.kinds or (cls,):
            action = kind.from_code(code)
            if action is not None:
                return action
        raise ValueError(f"not an action code: {code!r}")

    @classmethod
    def from_code(cls, code: str) -> FrazzledAction | None:
        """The action whose code is ``code`` if it is of this kind, else ``None``."""
        return None


def one_number(code: str, prefix: str, limit: int | None = None) -> int | None:
    """The number of a code ``prefix.<number>`` (below ``limit`` if given), or ``None``."""
    parts = code_parts(code, prefix)
    if parts is None or len(parts) != 1:
        return None
    return code_number(parts[0], limit)


@dataclass(frozen=True)
class Draw(FrazzledAction):
    """``draw.<pile>``: take the top card of draw pile ``pile`` (0..2)."""

    pile: int

    @classmethod
    def from_code(cls, code: str) -> Draw | None:
        pile = one_number(code, "draw", NUM_PILES)
        return None if pile is None else cls(pile)

    def format(self) -> str:
        return f"draw.{self.pile}"


@dataclass(frozen=True)
class CardAction(FrazzledAction):
    """An action naming one card by its id: ``<prefix>.<card id>``; subclasses set ``prefix``."""

    prefix: ClassVar[str]
    card: Card

    @classmethod
    def from_code(cls, code: str) -> Self | None:
        card = one_number(code, cls.prefix, len(DECK))
        return None if card is None else cls(DECK[card])

    def format(self) -> str:
        return f"{self.prefix}.{self.card.id}"


class Discard(CardAction):
    """``discard.<card id>``: discard that card from the hand (MINIMIZE, TOKENIZE)."""

    prefix = "discard"


@dataclass(frozen=True)
class Fan(FrazzledAction):
    """``fan.<position>``: pick the card at ``position`` (0-based) of the face-down fan on your right."""

    position: int

    @classmethod
    def from_code(cls, code: str) -> Fan | None:
        position = one_number(code, "fan")
        return None if position is None else cls(position)

    def format(self) -> str:
        return f"fan.{self.position}"


def token_of(text: str) -> tuple[str, int] | None:
    """A token written ``c<colour>`` or ``s<shape>`` as ``(kind, index)``, or ``None``."""
    if text[:1] not in (COLOUR, SHAPE):
        return None
    index = code_number(text[1:], len(COLOURS))
    return None if index is None else (text[0], index)


@dataclass(frozen=True)
class TakeToken(FrazzledAction):
    """``token.c<colour>`` or ``token.s<shape>``: take that token from the middle (a 13)."""

    kind: str
    index: int

    @classmethod
    def from_code(cls, code: str) -> TakeToken | None:
        parts = code_parts(code, "token")
        token = token_of(parts[0]) if parts is not None and len(parts) == 1 else None
        return None if token is None else cls(*token)

    def format(self) -> str:
        return f"token.{self.kind}{self.index}"


@dataclass(frozen=True)
class StealToken(FrazzledAction):
    """``steal.<seat>.c<colour>`` (or ``.s<shape>``): steal that token from ``owner`` (a 13, empty middle)."""

    owner: int
    kind: str
    index: int

    @classmethod
    def from_code(cls, code: str) -> StealToken | None:
        parts = code_parts(code, "steal")
        if parts is None or len(parts) != 2:
            return None
        owner, token = code_number(parts[0]), token_of(parts[1])
        return None if owner is None or token is None else cls(owner, *token)

    def format(self) -> str:
        return f"steal.{self.owner}.{self.kind}{self.index}"


def simple_action(code: str, doc: str) -> type[FrazzledAction]:
    """A frozen action without arguments whose code is ``code`` (``keep``, ``pickup``, ``challenge``)."""

    @dataclass(frozen=True)
    class Simple(FrazzledAction):
        @classmethod
        def from_code(cls, text: str) -> Simple | None:
            return cls() if text == code else None

        def format(self) -> str:
            return code

    Simple.__doc__ = f"``{code}``: {doc}"
    return Simple


def offered(actions: Sequence[LegalAction], name: str, *, buttons_up_to: int = 5) -> tuple[LegalAction, ...]:
    """A decision's choices that are not single cards (tokens, fan positions, sets) as the three games
    offer them: a handful (at most ``buttons_up_to``) each on its own, more as one list of choices called
    ``name`` (e.g. "Take a token…"), however many there are. A choice of one card from a hand is one group
    however many (e.g. "Play a card…"): the renderer shows each card's face on its own button when they
    fit."""
    group = name if len(actions) > buttons_up_to else ""
    return tuple(replace(action, group=group) for action in actions)
