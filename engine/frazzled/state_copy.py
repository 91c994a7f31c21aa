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

_ATOMIC: set[type] = {int, str, float, bool, type(None), bytes}
_FROZEN: dict[type, bool] = {}


def _is_frozen_dataclass(kind: type) -> bool:
    frozen = _FROZEN.get(kind)
    if frozen is None:
        params = getattr(kind, "__dataclass_params__", None)
        frozen = bool(params is not None and params.frozen)
        _FROZEN[kind] = frozen
    return frozen


def duplicate(value: Any) -> Any:
    """An independent copy of ``value``: containers rebuilt, immutable values (numbers, strings, frozen
    dataclasses such as cards and rule cards, enums, options models) shared, mutable dataclasses copied
    field by field, a :class:`random.Random` copied with its state, anything else deep-copied."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is list:
        return [item if type(item) in _ATOMIC or _is_frozen_dataclass(type(item)) else duplicate(item)
                for item in value]
    if kind is dict:
        return {key: duplicate(item) for key, item in value.items()}
    if kind is set or kind is frozenset:
        return kind(value)  # set elements are hashable values (cards, numbers)
    if kind is Counter:
        return Counter(value)
    if kind is tuple:
        return tuple(duplicate(item) for item in value)
    if _is_frozen_dataclass(kind) or isinstance(value, enum.Enum | GameOptions):
        return value
    if kind is random.Random:
        other = random.Random()
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
