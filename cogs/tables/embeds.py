"""Embeds as Discord JSON: an embed and its fields exactly as ``discord.Embed.to_dict()`` gives them, and
trimming one to Discord's 6,000 characters in all (see ``shared/DISCORD-NOTES.md``)."""

from __future__ import annotations

from typing import Any

from cogs.tables.action_menus import clip as _clip


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


EMBED_TOTAL_LIMIT = 6000  # Discord: title, description, fields, footer and author together


def embed_length(drawn: dict[str, Any]) -> int:
    """The characters of an embed that count toward Discord's 6,000 (as ``len(discord.Embed)``)."""
    total = len(drawn.get("title") or "") + len(drawn.get("description") or "")
    for shown in drawn.get("fields", ()):
        total += len(shown["name"]) + len(shown["value"])
    total += len(drawn.get("footer", {}).get("text") or "")
    total += len(drawn.get("author", {}).get("name") or "")
    return total


def fit_embed(drawn: dict[str, Any], limit: int = EMBED_TOTAL_LIMIT) -> dict[str, Any]:
    """Trim an embed (changed in place, and returned) to ``limit`` characters in all (Discord's 6,000 for
    an embed; what a layout's 4,000 leave, :mod:`cogs.tables.layouts`): first the oldest log lines (the
    turn line and the latest moves stay), then the longest fields."""
    budget = limit - 20
    excess = embed_length(drawn) - budget
    if excess <= 0:
        return drawn
    description = drawn.get("description")
    if description:
        head, _, log = description.partition("\n\n")
        if log:
            keep = max(min(400, len(log)), len(log) - excess - 1)  # the latest moves stay readable
            log = log if keep >= len(log) else "…" + log[len(log) - keep :]
            drawn["description"] = f"{head}\n\n{log}"
        else:
            drawn["description"] = _clip(head, max(1, len(head) - excess))
        excess = embed_length(drawn) - budget
    fields = drawn.get("fields", [])
    while excess > 0 and fields:
        index, longest = max(enumerate(fields), key=lambda item: len(item[1]["value"]))
        value = longest["value"]
        if len(value) <= 40:
            break
        fields[index] = field(longest["name"], _clip(value, max(40, len(value) - excess)), longest["inline"])
        excess = embed_length(drawn) - budget
    description = drawn.get("description")
    if excess > 0 and description:
        drawn["description"] = _clip(description, max(1, len(description) - excess))
    return drawn
