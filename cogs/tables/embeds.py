"""Embeds as Discord JSON: an embed and its fields exactly as ``discord.Embed.to_dict()`` gives them, and
trimming one to Discord's 6,000 characters in all (see ``shared/DISCORD-NOTES.md``)."""

from __future__ import annotations

from typing import Any

from cogs.tables.action_menus import clip as _clip
from cogs.tables.action_menus import reading_length, without_emojis


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
    """The characters of text of an embed a reader reads (what the budgets of :mod:`cogs.tables.budgets`
    count): its title, description, field names and values, footer and author, a custom emoji counting as
    one (:func:`~cogs.tables.action_menus.reading_length`)."""
    return sum(reading_length(text) if "<:" in text else len(text) for text in _texts(drawn))


def embed_size(drawn: dict[str, Any]) -> int:
    """The characters of an embed that count toward Discord's 6,000 (as ``len(discord.Embed)``: a custom
    emoji counts its whole markup)."""
    return sum(len(text) for text in _texts(drawn))


def _texts(drawn: dict[str, Any]) -> list[str]:
    texts = [drawn.get("title") or "", drawn.get("description") or ""]
    for shown in drawn.get("fields", ()):
        texts += (shown["name"], shown["value"])
    texts.append(drawn.get("footer", {}).get("text") or "")
    texts.append(drawn.get("author", {}).get("name") or "")
    return texts


def fit_embed(drawn: dict[str, Any], limit: int = EMBED_TOTAL_LIMIT) -> dict[str, Any]:
    """Trim an embed (changed in place, and returned) to ``limit`` characters in all as Discord counts them
    (Discord's 6,000 for an embed; what a layout's 4,000 leave, :mod:`cogs.tables.layouts`): first its
    custom emojis (cards shown by their text alone), then the oldest log lines (the turn line and the latest
    moves stay), then the longest fields."""
    budget = limit - 20
    excess = embed_size(drawn) - budget
    if excess <= 0:
        return drawn
    if "description" in drawn:
        drawn["description"] = without_emojis(drawn["description"])
    if "fields" in drawn:
        drawn["fields"] = [
            field(shown["name"], without_emojis(shown["value"]), shown["inline"]) for shown in drawn["fields"]
        ]
    excess = embed_size(drawn) - budget
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
        excess = embed_size(drawn) - budget
    fields = drawn.get("fields", [])
    while excess > 0 and fields:
        index, longest = max(enumerate(fields), key=lambda item: len(item[1]["value"]))
        value = longest["value"]
        if len(value) <= 40:
            break
        fields[index] = field(longest["name"], _clip(value, max(40, len(value) - excess)), longest["inline"])
        excess = embed_size(drawn) - budget
    description = drawn.get("description")
    if excess > 0 and description:
        drawn["description"] = _clip(description, max(1, len(description) - excess))
    return drawn
