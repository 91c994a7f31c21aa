"""Reading a message the renderer drew (:class:`cogs.tables.drawn.Drawn`) in tests: its components row by
row, its select menus and buttons, and the body discord.py would send for it."""

from __future__ import annotations

from typing import Any

from cogs.tables.drawn import Drawn

BUTTON, SELECT = 2, 3  # Discord's component types


def rows(drawn: Drawn) -> list[list[dict[str, Any]]]:
    """The components of each action row, in order."""
    return [list(row["components"]) for row in drawn.components]


def components(drawn: Drawn) -> list[dict[str, Any]]:
    """Every component, row after row."""
    return [component for row in rows(drawn) for component in row]


def menus(drawn: Drawn) -> list[dict[str, Any]]:
    """The select menus."""
    return [component for component in components(drawn) if component["type"] == SELECT]


def buttons(drawn: Drawn) -> list[dict[str, Any]]:
    """The buttons."""
    return [component for component in components(drawn) if component["type"] == BUTTON]


def payload(drawn: Drawn) -> dict[str, Any]:
    """The message body Discord gets for ``drawn`` (content, embeds, components)."""
    body: dict[str, Any] = {"components": list(drawn.components)}
    if drawn.embed is not None:
        body["embeds"] = [drawn.embed]
    if drawn.content is not None:
        body["content"] = drawn.content
    return body
