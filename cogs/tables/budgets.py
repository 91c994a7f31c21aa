"""How much a message asks its reader to read, and the budget of each message kind (every message reads at
a glance, on a phone too).

"Characters of text" are the characters a reader reads: the message's content and, for each embed, its
title, description, field names and values, footer and author (Components V2 TextDisplay text too).
Component labels are not counted: Discord limits those itself. Markdown marks count as written (``**``);
a custom emoji (a card's face, ``<:name:id>``) counts as one character, however long its markup (Discord's
own limits count the markup: :func:`cogs.tables.embeds.fit_embed` and
:func:`cogs.tables.action_menus.clip` keep to those).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cogs.tables.action_menus import clip_reading, reading_length
from cogs.tables.embeds import embed_length

TABLE_MESSAGE = 700
"""The table message while a game is played (the public message in the channel), in characters of text."""
PRIVATE_VIEW = 900
"""A seat's private view shown ephemerally ("My hand"), in characters of text."""
DM = 600
"""A seat's private view sent by DM, in characters of text."""
DM_INTRO = 100
"""The characters of text a DM may put before the private view ("It is your turn."), within :data:`DM`."""

TEXT_DISPLAY = 10  # Discord's component type of a Components V2 text display


def _component_text(components: Iterable[Mapping[str, Any]]) -> int:
    """The characters of the TextDisplay components in ``components`` (nested in containers and sections)."""
    total = 0
    for component in components:
        if component.get("type") == TEXT_DISPLAY:
            total += reading_length(component.get("content") or "")
        total += _component_text(component.get("components") or ())
    return total


def text_length(message: Mapping[str, Any]) -> int:
    """The characters of text of ``message``, a message body as Discord takes it (``content``, ``embeds``,
    ``components``): content, then every embed's title, description, field names and values, footer and
    author (:func:`cogs.tables.embeds.embed_length`), then the text of TextDisplay components; labels of
    buttons and menus are not counted; a custom emoji counts as one."""
    total = reading_length(message.get("content") or "")
    total += sum(embed_length(embed) for embed in message.get("embeds") or ())
    return total + _component_text(message.get("components") or ())


LAST_LINE_MIN = 30
"""The characters the last line of a log keeps however full a message is (cut to them, never dropped)."""


def latest_lines(lines: list[str], room: int) -> str:
    """The latest of ``lines`` (a log, oldest first) that fit in ``room`` characters of text, joined by
    newlines; the last line always, cut to fit if it must (to no fewer than :data:`LAST_LINE_MIN`
    characters)."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        length = reading_length(line)
        if kept and used + length + 1 > room:
            break
        if not kept and length > room:
            line = clip_reading(line, max(room, LAST_LINE_MIN))
            length = reading_length(line)
        kept.append(line)
        used += length + 1
    return "\n".join(reversed(kept))
