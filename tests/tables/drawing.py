"""Reading a message the renderer drew (:class:`cogs.tables.drawn.Drawn`) in tests: its components row by
row (in a layout too), its select menus and buttons, its text, and the body discord.py would send for it."""

from __future__ import annotations

from typing import Any

from cogs.tables import layouts
from cogs.tables.drawn import Drawn
from sandbox.limits import FLAG_COMPONENTS_V2
from sandbox.models import snapshot_text

BUTTON, SELECT = 2, 3  # Discord's component types


def rows(drawn: Drawn) -> list[list[dict[str, Any]]]:
    """The components of each action row, in order (wherever a layout nests the rows)."""
    return [list(row["components"]) for row in layouts.action_rows(drawn.components)]


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
    """The message body Discord gets for ``drawn`` (content, embeds, components; flag 32768 for a layout)."""
    body: dict[str, Any] = {"components": list(drawn.components)}
    if drawn.layout:
        body["flags"] = FLAG_COMPONENTS_V2
    if drawn.embed is not None:
        body["embeds"] = [drawn.embed]
    if drawn.content is not None:
        body["content"] = drawn.content
    return body


def text(drawn: Drawn) -> str:
    """What ``drawn`` reads (content, embed, text displays), as the sandbox reads a message
    (:meth:`sandbox.models.Message.text`)."""
    return snapshot_text(payload(drawn))


def pictures(drawn: Drawn) -> list[dict[str, Any]]:
    """The media items of ``drawn``'s media galleries (``{"media": {"url"}, "description"}``), in order."""
    found = []
    for component in drawn.components:
        for inside in (component, *component.get("components", ())):
            if inside.get("type") == layouts.MEDIA_GALLERY:
                found.extend(inside["items"])
    return found


def field_names(drawn: Drawn) -> list[str]:
    """The names of the fields a layout shows (:func:`cogs.tables.layouts.card`: each field's first line is
    ``**name**: value`` or ``**name**`` alone), in order; the heading's text is not searched."""
    names = []
    for text in layouts.texts(drawn.components)[1:]:
        for line in text.splitlines():
            if line.startswith("**") and line.endswith("**"):
                names.append(line[2:-2])
            elif line.startswith("**") and "**: " in line:
                names.append(line[2 : line.index("**: ")])
    return names


def seat_lines(drawn: Drawn) -> list[str]:
    """The "Players" lines of a layout (▶️ to act, • the others)."""
    return [line for line in text(drawn).splitlines() if line.startswith(("▶️", "• "))]
