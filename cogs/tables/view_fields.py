"""Which public fields a private view repeats: the table's state, not its rules. A field that restates a
game's rules (its scoring table, its pack, its additional rules) stays on the table message and in
``/rules``; a player's private view shows their hand, their choices and the state they decide on."""

from __future__ import annotations

from engine import Field

RULES_FIELDS: dict[str, frozenset[str]] = {
    "minimisere": frozenset({"Game", "Scoring", "Cards"}),
    "declare": frozenset({"Cards", "Additional rules"}),
}
"""By game key, the names of the public fields that restate rules."""


def state_fields(game: str, fields: tuple[Field, ...]) -> tuple[Field, ...]:
    """``fields`` without those that restate ``game``'s rules."""
    rules = RULES_FIELDS.get(game)
    return fields if not rules else tuple(field for field in fields if field.name not in rules)
