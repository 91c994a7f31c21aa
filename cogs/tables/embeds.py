"""Embeds as Discord JSON: an embed and its fields exactly as ``discord.Embed.to_dict()`` gives them (their
lengths, and trimming one to Discord's 6,000 characters in all: :mod:`cogs.tables.lengths`)."""

from __future__ import annotations

from typing import Any


def embed(title: str | None, description: str | None, colour: int) -> dict[str, Any]:
    """An embed as Discord JSON, exactly as ``discord.Embed(...).to_dict()`` gives it (an empty title or
    description is left out)."""
    drawn: dict[str, Any] = {"flags": 0, "color": colour, "type": "rich"}
    if description:
        drawn["description"] = description
    if title:
        drawn["title"] = title
    return drawn


def field(name: str, value: str, inline: bool = True) -> dict[str, Any]:
    """An embed field as Discord JSON."""
    return {"inline": inline, "name": name, "value": value}
