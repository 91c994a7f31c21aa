"""A fast exact copy of a Frazzled Wool game state (AI players search on many copies).

``copy.deepcopy`` of a game takes about a millisecond; a game state is plain data (lists, dicts and sets of
frozen cards, a few small dataclasses, the game's :class:`random.Random`), so :func:`copy_state` rebuilds the
containers and shares every immutable value instead, at a small fraction of that cost. Any value of a type
it does not know is deep-copied, so a field added later is still copied independently.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import random
from collections import Counter
from typing import Any

from engine.core import GameOptions

_ATOMIC: set[type] = {int, str, float, bool, type(None), bytes, tuple}
_IMMUTABLE: dict[type, bool] = {}
_SHARED: set[type] = set()
"""The types :func:`_immutable` has found immutable (a list of nothing else is copied at C speed)."""


def _immutable(kind: type) -> bool:
    """Values of this type are shared, never copied: atoms, frozen dataclasses, and tuples (a game state
    keeps only immutable values in tuples: cards, action log entries, position keys)."""
    known = _IMMUTABLE.get(kind)
    if known is None:
        params = getattr(kind, "__dataclass_params__", None)
        known = kind in _ATOMIC or bool(params is not None and params.frozen)
        _IMMUTABLE[kind] = known
        if known:
            _SHARED.add(kind)
    return known


def duplicate(value: Any) -> Any:
    """An independent copy of ``value``: containers rebuilt, immutable values (numbers, strings, frozen
    dataclasses such as cards and rule cards, tuples, enums, options models) shared, mutable dataclasses
    copied field by field, a :class:`random.Random` copied with its state, anything else deep-copied."""
    kind = type(value)
    if _immutable(kind):
        return value
    if kind is list:
        if _SHARED.issuperset(map(type, value)):
            return value.copy()
        return [item if _immutable(type(item)) else duplicate(item) for item in value]
    if kind is dict:
        return {key: duplicate(item) for key, item in value.items()}
    if kind is set or kind is frozenset:
        return kind(value)  # set elements are hashable values (cards, numbers)
    if kind is Counter:
        return Counter(value)
    if isinstance(value, enum.Enum | GameOptions):
        return value
    if kind is random.Random:
        other = random.Random.__new__(random.Random)  # no seeding from the system: the state is set
        other.setstate(value.getstate())
        return other
    if dataclasses.is_dataclass(value):
        other = object.__new__(kind)
        other.__dict__.update({name: duplicate(item) for name, item in value.__dict__.items()})
        return other
    return copy.deepcopy(value)


def copy_state(state: Any) -> Any:
    """An exact, independent copy of a game state object (every attribute through :func:`duplicate`)."""
    other = object.__new__(type(state))
    other.__dict__.update({name: duplicate(item) for name, item in state.__dict__.items()})
    return other
