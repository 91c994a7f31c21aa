"""Minimisère's one action, playing a card, with the Lot bid or the Joker's decree that may ride on it, and
its stable codes: the card (``"10H"``, ``"JK"``), ``"<card>+lot"``, ``"JK+win"``, ``"JK+lose"``."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Self

from engine.core import GameAction
from engine.minimisere.cards import JOKER, is_card

LOT = "lot"
JOKER_WINS = JOKER + "+win"
JOKER_LOSES = JOKER + "+lose"


class Decree(enum.Enum):
    """What the player of a Joker third to a trick with three players decrees ("If you play it third to a
    trick, it either wins or loses, as you decree")."""

    WINS = "win"
    LOSES = "lose"


@dataclass(frozen=True)
class MinimisereAction(GameAction):
    """Play ``card`` to the trick; ``bid_lot``: and bid the Lot with it ("you can bid 'The Lot' upon
    playing to the first trick"); ``decree``: whether a Joker played third by three players wins or loses.

    Codes: the card (``"10H"``, ``"JK"``), ``"<card>+lot"``, ``"JK+win"``, ``"JK+lose"``.
    """

    card: str
    bid_lot: bool = False
    decree: Decree | None = None

    @classmethod
    def parse(cls, code: str) -> Self:
        card, plus, flag = code.partition("+")
        if not is_card(card):
            raise ValueError(f"not a Minimisère card: {card!r}")
        if not plus:
            return cls(card)
        if flag == LOT:
            return cls(card, bid_lot=True)
        if card == JOKER and flag in (Decree.WINS.value, Decree.LOSES.value):
            return cls(card, decree=Decree(flag))
        raise ValueError(f"not a Minimisère action: {code!r}")

    def format(self) -> str:
        if self.bid_lot:
            return f"{self.card}+{LOT}"
        if self.decree is not None:
            return f"{self.card}+{self.decree.value}"
        return self.card
