"""Minimize: Declare's throws: which cards make a legal throw (one card, a set, a sequence), every throw a
hand holds, the ends of a throw the next player may take, and where a just-drawn card may be thrown back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.declare.cards import (
    COLOURS,
    JOKER,
    POWER_CARDS,
    RANKS,
    card_points,
    card_sort_key,
    is_card,
    is_number,
    rank_of,
)

SINGLE, SET, PURE, IMPURE = "single", "set", "pure", "impure"


@dataclass(frozen=True)
class Throw:
    """One legal throw: ``cards`` in thrown order (so ``cards[0]`` and ``cards[-1]`` are the ends the next
    player may pick), its ``kind`` (``"single"``, ``"set"``, ``"pure"`` or ``"impure"`` sequence) and the
    ``points`` it sheds."""

    cards: tuple[str, ...]
    kind: str
    points: int

    @property
    def code(self) -> str:
        return "t" + "".join(self.cards)


def sequence_start(cards: Sequence[str]) -> int:
    """The number the first card of a sequence stands for (a leading Joker stands for the card below).

    Raises
    ------
    ValueError
        If the cards hold no number card.
    """
    for index, card in enumerate(cards):
        if is_number(card):
            return rank_of(card) - index
    raise ValueError("a sequence needs a number card")


def classify(cards: Sequence[str]) -> str | None:
    """The kind of throw ``cards`` (in thrown order) make, or ``None`` if they are not a legal throw.

    "Any one card" (a number card or a Joker, not a power card: ruling 6); "a set of two or more cards of
    the same rank" (number cards only: ruling 7); "a sequence of three (minimum) or more consecutive cards
    of a single colour" (pure) or "four (minimum) or more … of different colours" (impure), ascending,
    Jokers standing in for any card (ruling 8: at least one number card; a sequence is pure when its number
    cards share a colour).
    """
    if not cards or any(card in POWER_CARDS or not is_card(card) for card in cards):
        return None
    if len(cards) == 1:
        return SINGLE
    numbers = [card for card in cards if is_number(card)]
    if not numbers:
        return None
    if len(numbers) == len(cards) and len({rank_of(card) for card in numbers}) == 1:
        return SET
    if len(cards) < 3:
        return None
    start = sequence_start(cards)
    if start < 1 or start + len(cards) - 1 > 12:
        return None
    for index, card in enumerate(cards):
        if is_number(card) and rank_of(card) != start + index:
            return None
    colours = {card[1] for card in numbers}
    if len(colours) == 1:
        return PURE
    return IMPURE if len(cards) >= 4 else None


THROWS_REMEMBERED = 1024
"""Hands whose throws :func:`legal_throws` (and :func:`throw_cards`) keep. Each kept hand holds about six
:class:`Throw` objects that Python's garbage collector scans at every full collection, a pause that lands
in whichever decision or press triggers it; a smaller cache halves that pause for the same decisions at
the same CPU (the AI's searches deal ever new hands, so a bigger cache seldom hits anyway;
``docs/rules/declare.md``)."""


@lru_cache(maxsize=THROWS_REMEMBERED)
def legal_throws(hand: tuple[str, ...]) -> tuple[Throw, ...]:
    """Every legal throw from ``hand`` (ruling 9: sets in colour order ♥ ★ ♣ ♦; sequences ascending, each
    distinct Joker position a distinct throw), most points shed first.

    >>> [t.code for t in legal_throws(("5r", "6r", "7r"))][:2]
    ['t5r6r7r', 't7r']
    """
    counts = Counter(hand)
    jokers = counts[JOKER]
    by_rank: dict[int, Counter[str]] = {}
    for card, count in counts.items():
        if is_number(card):
            by_rank.setdefault(rank_of(card), Counter())[card[1]] = count
    found: dict[tuple[str, ...], str] = {}
    for card in counts:
        if card not in POWER_CARDS:
            found[(card,)] = SINGLE
    for rank, colours in by_rank.items():
        if sum(colours.values()) < 2:
            continue
        _sets(RANKS[rank - 1], colours, 0, [], found)
    if by_rank and sum(len(colours) for colours in by_rank.values()) + jokers >= 3:
        for start in range(1, 11):
            _sequences(start, by_rank, jokers, [], None, False, found)
    throws = [Throw(cards, kind, sum(card_points(card) for card in cards)) for cards, kind in found.items()]
    kind_order = {SINGLE: 0, SET: 1, PURE: 2, IMPURE: 3}
    throws.sort(
        key=lambda t: (-t.points, kind_order[t.kind], len(t.cards), [card_sort_key(c) for c in t.cards])
    )
    return tuple(throws)


@lru_cache(maxsize=THROWS_REMEMBERED)
def throw_cards(hand: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The cards of every legal throw from ``hand`` (:func:`legal_throws`), for checking a throw."""
    return frozenset(throw.cards for throw in legal_throws(hand))


def _sets(rank: str, colours: Counter[str], index: int, chosen: list[str], found: dict) -> None:
    if index == len(COLOURS):
        if len(chosen) >= 2:
            found[tuple(chosen)] = SET
        if len(chosen) >= 3:
            for ordered in set_orders(chosen):
                found[ordered] = SET
        return
    colour = COLOURS[index]
    for count in range(colours.get(colour, 0) + 1):
        _sets(rank, colours, index + 1, chosen + [rank + colour] * count, found)


def set_orders(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every way to lay a set of three or more (ruling 9): any card first, any other card last (the two the
    next player may pick), the rest between them in colour order ♥ ★ ♣ ♦. Equal cards give one order.

    >>> set_orders(("5r", "5y", "5g"))[:3]
    [('5r', '5y', '5g'), ('5r', '5g', '5y'), ('5y', '5g', '5r')]
    """
    orders: dict[tuple[str, ...], None] = {tuple(cards): None}
    for first in range(len(cards)):
        for last in range(len(cards)):
            if first != last:
                middle = [card for index, card in enumerate(cards) if index not in (first, last)]
                orders[(cards[first], *middle, cards[last])] = None
    return list(orders)


def _sequences(
    start: int,
    by_rank: dict[int, Counter[str]],
    jokers: int,
    chosen: list[str],
    colour: str | None,
    mixed: bool,
    found: dict,
) -> None:
    """Grow every sequence starting at ``start`` one card at a time, recording each legal length."""
    length = len(chosen)
    if length >= 3 and colour is not None and (not mixed or length >= 4):
        found[tuple(chosen)] = IMPURE if mixed else PURE
    rank = start + length
    if rank > 12:
        return
    if jokers:
        _sequences(start, by_rank, jokers - 1, chosen + [JOKER], colour, mixed, found)
    for card_colour in by_rank.get(rank, {}):
        _sequences(
            start,
            by_rank,
            jokers,
            chosen + [RANKS[rank - 1] + card_colour],
            card_colour if colour is None else colour,
            mixed or (colour is not None and card_colour != colour),
            found,
        )


def pickable_ends(throw: Sequence[str]) -> list[str]:
    """The first and last card of a throw ("only the first or last card of the set or sequence can be
    picked up"), once each if they are the same card; none for no throw."""
    if not throw:
        return []
    ends = [throw[0]]
    if len(throw) > 1 and throw[-1] != throw[0]:
        ends.append(throw[-1])
    return ends


def throw_back_fits(throw: Sequence[str], card: str) -> int | None:
    """Where a just-drawn ``card`` may be thrown back onto ``throw`` (the manual's Note: "a match to the
    single card discarded …, the set discarded or the sequence discarded"; additional rule 1).

    Returns ``1`` to add it at the end (same number as a single or set, or one above a sequence), ``0`` to
    add it at the start (one below a sequence), or ``None`` if it does not match (ruling 13: Jokers and
    power cards never match; a thrown Joker alone matches nothing).
    """
    if not throw or not is_number(card):
        return None
    kind = classify(throw)
    number = rank_of(card)
    if kind in (SINGLE, SET):
        if not is_number(throw[0]):
            return None
        return 1 if rank_of(throw[0]) == number else None
    if kind in (PURE, IMPURE):
        start = sequence_start(throw)
        if number == start - 1:
            return 0
        if number == start + len(throw):
            return 1
    return None
