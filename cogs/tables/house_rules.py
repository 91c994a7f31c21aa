"""The table's marker on content the project invented because the rule text prints none: the Frazzled
Wool bonus rule cards (MINIMIZE, TOKENIZE), MINIMIZE's Shape or Colour card and its actions card
(``docs/rules/frazzled-rule-cards.md``). ``/rules`` marks the same content
(:data:`cogs.rules.pages.HOUSE_RULE`)."""

from __future__ import annotations

import functools

HOUSE_RULE_FIELDS: dict[str, tuple[str, ...]] = {
    "minimize": ("Bonus rule", "Shape or Colour", "Actions card"),
    "tokenize": ("Bonus rule",),
}
"""By game key, the starts of the public field names that show an invented card."""
MARKER = " (🏠 house rule)"


@functools.lru_cache(maxsize=1024)
def marked(game: str, field_name: str) -> str:
    """``field_name`` with the house-rule marker if the field shows an invented card of ``game``."""
    if field_name.startswith(HOUSE_RULE_FIELDS.get(game, ())):
        return field_name + MARKER
    return field_name
