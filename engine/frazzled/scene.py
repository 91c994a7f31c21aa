"""The table scene of MINIMIZE, TOKENIZE and ERADICIZE (:class:`engine.core.Scene`): the three face-up draw
piles' top cards and the discard pile's top card, as players see them on the table, and in ERADICIZE each
player's face-up cards. The bonus rule cards are rules, not cards of the deck: they stay in the view's
rules fields."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import CardRef, SceneRow, plural
from engine.frazzled.deck import DECK as FULL_DECK
from engine.frazzled.deck import Card, sorted_cards

DECK = "fw"
"""The Frazzled Wool deck's key in a scene (``art.faces``)."""


CARD_REFS: dict[int, CardRef] = {card.id: (DECK, str(card.id)) for card in FULL_DECK}
"""Each card's scene card by card id, made once (every scene shares them)."""


def card_ref(card: Card) -> CardRef:
    """``card`` as a scene's card: ``("fw", "<card id>")``."""
    return CARD_REFS[card.id]


def piles_row(piles: Sequence[Sequence[Card]]) -> SceneRow:
    """The draw piles (each listed bottom to top): each pile's top card, an empty place for an empty pile,
    and their sizes as the note (``"12 · 11 · 0 left"``: "cards" after the last size would read as its
    count, "1 cards")."""
    note = " · ".join(str(len(pile)) for pile in piles) + " left"
    return SceneRow("Draw piles", tuple((card_ref(pile[-1]),) if pile else () for pile in piles), note)


def discard_row(discard: Sequence[Card]) -> SceneRow:
    """The discard pile (bottom card first): its top card and its size."""
    if not discard:
        return SceneRow("Discard pile", ((),), "empty")
    return SceneRow("Discard pile", ((card_ref(discard[-1]),),), plural(len(discard), "card"))


def face_up_row(seat: int, face_up: Sequence[Card], hand_size: int) -> SceneRow:
    """ERADICIZE: ``seat``'s face-up cards (sorted) and, as the note, how many cards it holds in hand."""
    cards = tuple(card_ref(card) for card in sorted_cards(face_up))
    return SceneRow(f"{{seat:{seat}}}", (cards,) if cards else (), f"{hand_size} in hand")
