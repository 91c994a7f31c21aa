"""Minimisère's moves and their stable codes: playing a card, with the Lot bid or the Joker's decree that
may ride on it (the card, ``"10H"``, ``"JK"``; ``"<card>+lot"``; ``"JK+win"``, ``"JK+lose"``), and the two
moves of the Lot step, opening it (``"lot"``) and cancelling it (``"lot-cancel"``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Self

from engine.core import GameAction
from engine.minimisere.cards import JOKER, is_card

LOT = "lot"
BID_LOT = LOT
"""The code that opens the Lot step: the seat then chooses the card to bid the Lot with, or cancels."""
CANCEL_LOT = "lot-cancel"
"""The code that closes the Lot step without bidding: back to the plain plays."""
JOKER_WINS = JOKER + "+win"
JOKER_LOSES = JOKER + "+lose"


class Decree(enum.Enum):
    """What the player of a Joker third to a trick with three players decrees ("If you play it third to a
    trick, it either wins or loses, as you decree")."""

    WINS = "win"
    LOSES = "lose"


class MinimisereMove(GameAction):
    """Any Minimisère move, read from its code: a :class:`LotStep` or a :class:`MinimisereAction`."""

    @classmethod
    def parse(cls, code: str) -> Self:
        if code in (BID_LOT, CANCEL_LOT):
            return LotStep(code == BID_LOT)  # type: ignore[return-value]
        return MinimisereAction.parse(code)  # type: ignore[return-value]


@dataclass(frozen=True)
class LotStep(MinimisereMove):
    """Open (``open``) the Lot step, "Bid the Lot…" (code ``"lot"``), or cancel it (``"lot-cancel"``).
    Neither plays a card: the step only changes what the seat is offered (ruling 13)."""

    open: bool

    @classmethod
    def parse(cls, code: str) -> Self:
        if code not in (BID_LOT, CANCEL_LOT):
            raise ValueError(f"not a step of the Lot: {code!r}")
        return cls(code == BID_LOT)

    def format(self) -> str:
        return BID_LOT if self.open else CANCEL_LOT


@dataclass(frozen=True)
class MinimisereAction(MinimisereMove):
    """Play ``card`` to the trick; ``bid_lot``: and bid the Lot with it ("you can bid 'The Lot' upon
    playing to the first trick"), chosen in the Lot step; ``decree``: whether a Joker played third by three
    players wins or loses.

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
