"""Minimize: Declare's typed actions and their stable codes.

The codes (stored in action logs, unchanged since the first version): ``declare``; ``t<cards>`` (throw,
cards in thrown order, e.g. ``t5r6rjk8r``); ``draw``, ``take<card>``, ``nopick``, ``disc<card>``, ``nocard``
(the pick); ``tb<card>`` (quick throw-back) and ``declarenow`` (I Declare Now), the optional out-of-turn
actions of the player who just finished a turn. Logs stored before every throw was offered in one list also
hold ``f1`` .. ``f7`` and ``fback`` (a "family" step that only fitted the throws to Discord's menus,
:data:`LEGACY_FAMILY_STEP`); :meth:`~engine.declare.rules.MinimizeDeclare.upgrade_log` drops them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Self

from engine.core import GameAction
from engine.declare.cards import is_card

DECLARE = "declare"
DECLARE_NOW_CODE = "declarenow"
DRAW = "draw"
NO_PICK_CODE = "nopick"
NO_CARD = "nocard"
LEGACY_FAMILY_STEP = re.compile(r"f[0-9]+|fback")  # codes of the family step of older logs


class DeclareAction(GameAction):
    """A Minimize: Declare action: one of the frozen dataclasses below, parsed from its stable code.

    ``DeclareAction.parse(code)`` gives whichever action ``code`` names; a subclass's ``parse`` accepts
    only codes of that subclass. Cards in codes are the two-character card codes (``"5r"``, ``"jk"``).
    """

    @classmethod
    def parse(cls, code: str) -> Self:
        """The action whose code is ``code``.

        Raises
        ------
        ValueError
            If ``code`` names no action of this game (or none of this subclass).
        """
        action = _parse_action(code)
        if not isinstance(action, cls):
            raise ValueError(f"{code!r} is not a {cls.__name__} code")
        return action


@dataclass(frozen=True)
class Declare(DeclareAction):
    """Call "Declare" at the start of your turn (7 points or less in hand)."""

    def format(self) -> str:
        return DECLARE


@dataclass(frozen=True)
class ThrowCards(DeclareAction):
    """Throw ``cards`` (one card, a set or a sequence) in thrown order: code ``t`` + the cards."""

    cards: tuple[str, ...]

    def format(self) -> str:
        return "t" + "".join(self.cards)


@dataclass(frozen=True)
class Draw(DeclareAction):
    """Pick the top card of the draw pile."""

    def format(self) -> str:
        return DRAW


@dataclass(frozen=True)
class Take(DeclareAction):
    """Pick ``card``, the first or last card of the previous player's throw: code ``take`` + the card."""

    card: str

    def format(self) -> str:
        return "take" + self.card


@dataclass(frozen=True)
class NoPick(DeclareAction):
    """Play I Don't Pick instead of picking a card."""

    def format(self) -> str:
        return NO_PICK_CODE


@dataclass(frozen=True)
class Discover(DeclareAction):
    """Play I Discover Now and pick number card ``card`` from the discard pile: code ``disc`` + the card."""

    card: str

    def format(self) -> str:
        return "disc" + self.card


@dataclass(frozen=True)
class NoCard(DeclareAction):
    """End the turn without a card when neither pile has one to pick (ruling 16)."""

    def format(self) -> str:
        return NO_CARD


@dataclass(frozen=True)
class ThrowBack(DeclareAction):
    """Quickly throw back ``card``, just drawn, onto your throw (out of turn): code ``tb`` + the card."""

    card: str

    def format(self) -> str:
        return "tb" + self.card


@dataclass(frozen=True)
class DeclareNow(DeclareAction):
    """Play I Declare Now right after your turn and declare at once (out of turn)."""

    def format(self) -> str:
        return DECLARE_NOW_CODE


_WORD_ACTIONS: dict[str, DeclareAction] = {
    DECLARE: Declare(),
    DECLARE_NOW_CODE: DeclareNow(),
    DRAW: Draw(),
    NO_PICK_CODE: NoPick(),
    NO_CARD: NoCard(),
}
_CARD_ACTIONS: tuple[tuple[str, type[Take | Discover | ThrowBack]], ...] = (
    ("take", Take),
    ("disc", Discover),
    ("tb", ThrowBack),
)


def _parse_action(code: str) -> DeclareAction:
    """The action of ``code`` (no card prefix is itself a card, so ``take``/``tb`` never read as throws)."""
    if code in _WORD_ACTIONS:
        return _WORD_ACTIONS[code]
    for prefix, kind in _CARD_ACTIONS:
        if code.startswith(prefix) and is_card(code[len(prefix) :]):
            return kind(code[len(prefix) :])
    if code.startswith("t") and len(code) % 2 == 1 and len(code) > 1:
        cards = _split_cards(code[1:])
        if all(is_card(card) for card in cards):
            return ThrowCards(cards)
    raise ValueError(f"{code!r} is not a Minimize: Declare action")


def _split_cards(text: str) -> tuple[str, ...]:
    return tuple(text[index : index + 2] for index in range(0, len(text), 2))
