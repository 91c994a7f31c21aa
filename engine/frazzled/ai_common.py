"""What the three Frazzled Wool AI players share: the seat's own world and the cards it has not seen.

Every Frazzled Wool AI decides on a *world*: ``state.resample_hidden(seat, rng)``, the state with
everything ``seat`` may not see redrawn at random (:meth:`engine.frazzled.table.FrazzledTable.resample_hidden`
is canonical: the world depends only on what the seat has seen and on ``rng``). The player reads its own
hand, the public table and its legal actions from that world, so it cannot read a secret even by mistake:
in the world the other hands and the piles' hidden cards are a random guess. Search (Monte Carlo over
several worlds) draws more worlds from the first one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.ai.core import legal_codes
from engine.frazzled.deck import DECK, Card
from engine.frazzled.table import FrazzledTable


def card_id(card: Card) -> int:
    """Sort key: the card's stable id."""
    return card.id


def seen_cards(world: FrazzledTable, seat: int, *extra: Iterable[Card]) -> set[Card]:
    """The cards ``seat`` sees now: its hand, the card drawn and not yet placed, the discard pile and the
    face-up top of every draw pile, plus ``extra`` (a game's other public cards)."""
    seen = set(world.hand(seat)) | set(world.discard_pile)
    if world.drawn is not None:
        seen.add(world.drawn)
    for index in range(3):
        pile = world.pile(index)
        if pile:
            seen.add(pile[-1])
    for cards in extra:
        seen.update(cards)
    return seen


def unseen_cards(world: FrazzledTable, seat: int, *extra: Iterable[Card]) -> list[Card]:
    """The cards ``seat`` cannot see (other hands, the piles under their tops, cards out of play unseen),
    sorted by id: :data:`DECK` minus :func:`seen_cards`."""
    seen = seen_cards(world, seat, *extra)
    return [card for card in DECK if card not in seen]


def pile_tops(world: FrazzledTable) -> list[tuple[int, Card]]:
    """``(pile index, face-up top card)`` for every draw pile that has cards."""
    tops = []
    for index in range(3):
        pile = world.pile(index)
        if pile:
            tops.append((index, pile[-1]))
    return tops


def world_for(state: FrazzledTable, seat: int, rng: random.Random) -> FrazzledTable:
    """The seat's world: ``state`` with everything ``seat`` may not see redrawn (``state`` unchanged)."""
    return state.resample_hidden(seat, rng)


def best_by(codes: Sequence[str], value) -> str:
    """The code with the highest ``value(code)``; ties go to the first in ``codes`` (the engine's order)."""
    best, best_value = codes[0], float("-inf")
    for code in codes:
        worth = value(code)
        if worth > best_value:
            best, best_value = code, worth
    return best


__all__ = ["best_by", "card_id", "legal_codes", "pile_tops", "seen_cards", "unseen_cards", "world_for"]
