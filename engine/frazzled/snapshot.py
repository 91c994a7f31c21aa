"""The pieces of a Frazzled Wool game's engine snapshot (:meth:`engine.core.GameState.engine_snapshot`) as
JSON-ready data, and back.

A card is stored as its id (0..77, :data:`engine.frazzled.deck.DECK` order), a bonus rule card as its id
(:data:`engine.frazzled.rule_cards.RULE_BY_ID`: its scoring is a function, found there again on load), a
mapping keyed by seat (or by ``None``) as a list of ``[key, value]`` pairs in its order (JSON keys are
strings), a set of cards as its sorted ids. Each layer of a state writes its own fields
(:meth:`engine.frazzled.table.FrazzledTable.engine_snapshot`); these are the conversions they share.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.frazzled.deck import DECK, DECK_SIZE, Card
from engine.frazzled.fan import FanExchange
from engine.frazzled.rule_cards import RULE_BY_ID, BonusCard


def card_ids(cards: Iterable[Card]) -> list[int]:
    """The ids of ``cards``, in their order."""
    return [card.id for card in cards]


def card_of(card_id: Any) -> Card:
    """The card with id ``card_id``.

    Raises
    ------
    ValueError, TypeError
        If it is not a card id (0..77).
    """
    index = int(card_id)
    if not 0 <= index < DECK_SIZE:
        raise ValueError(f"no card has id {card_id!r}")
    return DECK[index]


def cards_of(ids: Iterable[Any]) -> list[Card]:
    """The cards with ``ids``, in their order (see :func:`card_of`)."""
    return [card_of(card_id) for card_id in ids]


def optional_card_of(card_id: Any) -> Card | None:
    """The card with id ``card_id``, or ``None`` for ``None`` (see :func:`card_of`)."""
    return None if card_id is None else card_of(card_id)


def optional_int(value: Any) -> int | None:
    """``value`` as an int, ``None`` kept."""
    return None if value is None else int(value)


def rule_ids(rules: Iterable[BonusCard]) -> list[str]:
    """The ids of bonus rule cards, in their order."""
    return [rule.id for rule in rules]


def rules_of(ids: Iterable[Any]) -> list[BonusCard]:
    """The bonus rule cards with ``ids``, in their order.

    Raises
    ------
    KeyError
        If an id names no bonus rule.
    """
    return [RULE_BY_ID[str(rule_id)] for rule_id in ids]


def fan_data(fan: FanExchange | None) -> list[Any] | None:
    """A fan exchange in progress as ``[count, [[picker, owner, fan's card ids, positions picked], ...]]``
    in its pickers' order, or ``None``."""
    if fan is None:
        return None
    return [
        fan.count,
        [
            [picker, fan.owners[picker], card_ids(cards), list(fan.picked[picker])]
            for picker, cards in fan.fans.items()
        ],
    ]


def fan_of(data: Any) -> FanExchange | None:
    """The fan exchange :func:`fan_data` wrote."""
    if data is None:
        return None
    count, pickers = data
    fans: dict[int, list[Card]] = {}
    owners: dict[int, int] = {}
    picked: dict[int, list[int]] = {}
    for picker, owner, ids, positions in pickers:
        fans[int(picker)] = cards_of(ids)
        owners[int(picker)] = int(owner)
        picked[int(picker)] = [int(position) for position in positions]
    return FanExchange(int(count), fans, owners, picked)


def known_data(known: dict[int | None, dict[int, set[Card]]]) -> list[Any]:
    """What each viewer knows lies in each hand (``viewer -> seat -> cards``) as
    ``[[viewer, [[seat, sorted card ids], ...]], ...]``."""
    return [
        [viewer, [[seat, sorted(card.id for card in cards)] for seat, cards in seats.items()]]
        for viewer, seats in known.items()
    ]


def known_of(data: Any) -> dict[int | None, dict[int, set[Card]]]:
    """The knowledge :func:`known_data` wrote."""
    return {
        optional_int(viewer): {int(seat): set(cards_of(ids)) for seat, ids in seats} for viewer, seats in data
    }
