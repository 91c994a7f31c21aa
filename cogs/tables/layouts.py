"""Components V2 layouts (Discord's message flag 32768) as Discord JSON: the table message, a seat's private
view and the scoreboard are drawn as one container each (:func:`card`), small notices as a text display
(:func:`notice`).

The renderer (:mod:`cogs.tables.render`) first puts a message's text together as an embed object (title,
description, fields, footer: the shape its budgets and trimming work on), then lays it out here:

- a container (type 17) with the embed's colour as its accent;
- a text display (type 10): the title as a heading (``### title``, a link when the embed has a ``url``),
  then the description (whose turn, the clock, the latest moves);
- the picture, if any, in a media gallery (type 12) as ``attachment://<filename>`` with its description
  (alt text);
- a text display of the fields (``**name**: value`` for a short inline field, else ``**name**`` over its
  value) and the footer in small print (``-# footer``);
- a separator (type 14) and the action rows (type 1), when there are any.

Discord's limits (``shared/DISCORD-NOTES.md``; ``sandbox/limits.py`` checks them): at most 40 components in
all, nested ones counted (a card uses at most 5 besides its action rows, which hold at most 30), and 4,000
characters of text across its text displays (the budgets of :mod:`cogs.tables.lengths` keep far below).
:func:`cogs.tables.lengths.layout_length` is what the layout of an embed reads, so the renderer's budgets
count its markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.tables.drawn import Attachment
from cogs.tables.lengths import LAYOUT_TEXT_MAX, TEXT_DISPLAY, clip, display_texts, reads_inline

ACTION_ROW, MEDIA_GALLERY, SEPARATOR, CONTAINER = 1, 12, 14, 17
"""Discord's component types."""
DESCRIPTION_MAX = 1024
"""Discord: the characters of a media item's description (alt text)."""


def text_display(content: str) -> dict[str, Any]:
    """A text display of ``content`` (1-4,000 characters, cut to fit)."""
    return {"type": TEXT_DISPLAY, "content": clip(content, LAYOUT_TEXT_MAX)}


def _field_line(shown: dict[str, Any]) -> str:
    name, value = shown["name"], shown["value"]
    return f"**{name}**: {value}" if reads_inline(shown) else f"**{name}**\n{value}"


def _heading(embed: dict[str, Any]) -> str:
    title = embed.get("title") or ""
    if title and embed.get("url"):
        title = f"[{title}]({embed['url']})"
    head = f"### {title}" if title else ""
    description = embed.get("description") or ""
    return f"{head}\n{description}" if head and description else head or description


def _body(embed: dict[str, Any]) -> str:
    lines = [_field_line(shown) for shown in embed.get("fields") or ()]
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(f"-# {footer}")
    return "\n".join(lines)


def picture_item(picture: Attachment) -> dict[str, Any]:
    """A media gallery item showing the attached ``picture``, with its description as alt text."""
    item: dict[str, Any] = {"media": {"url": f"attachment://{picture.filename}"}}
    if picture.description:
        item["description"] = clip(picture.description, DESCRIPTION_MAX)
    return item


def card(
    embed: dict[str, Any], rows: Sequence[dict[str, Any]] = (), pictures: Sequence[Attachment] = ()
) -> tuple[dict[str, Any], ...]:
    """The layout of a message whose text is ``embed`` (an embed object: title, url, description, fields,
    footer, color), with ``pictures`` (attached files, shown in a media gallery) and the action ``rows``:
    one container (see the module's docstring). Empty parts are left out."""
    inside: list[dict[str, Any]] = []
    heading = _heading(embed)
    if heading:
        inside.append(text_display(heading))
    if pictures:
        inside.append({"type": MEDIA_GALLERY, "items": [picture_item(picture) for picture in pictures[:10]]})
    body = _body(embed)
    if body:
        inside.append(text_display(body))
    if rows:
        inside.append({"type": SEPARATOR, "divider": True, "spacing": 1})
        inside.extend(rows)
    container: dict[str, Any] = {"type": CONTAINER, "components": inside}
    if embed.get("color") is not None:
        container["accent_color"] = embed["color"]
    return (container,)


def notice(text: str, rows: Sequence[dict[str, Any]] = ()) -> tuple[dict[str, Any], ...]:
    """The layout of a short notice: ``text`` in a text display, then the action ``rows``."""
    return (text_display(text), *rows)


def with_notice(
    layout: Sequence[dict[str, Any]], text: str, rows: Sequence[dict[str, Any]]
) -> tuple[dict[str, Any], ...]:
    """``layout`` (a card, as a message shows it) with its action rows, and the separator above them,
    replaced by ``text`` in a text display and the action ``rows``: what it shows stays, its buttons go."""
    kept = []
    for component in layout:
        if component.get("type") == CONTAINER:
            inside = [shown for shown in component["components"] if shown.get("type") != ACTION_ROW]
            while inside and inside[-1].get("type") == SEPARATOR:
                inside.pop()
            inside.append(text_display(text))
            if rows:
                inside.extend(({"type": SEPARATOR, "divider": True, "spacing": 1}, *rows))
            kept.append({**component, "components": inside})
        elif component.get("type") != ACTION_ROW:
            kept.append(component)
    return tuple(kept)


def action_rows(components: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The action rows of ``components`` (a layout, or classic rows), in order, wherever they are nested."""
    found = []
    for component in components:
        if component.get("type") == ACTION_ROW:
            found.append(component)
        else:
            found.extend(action_rows(component.get("components") or ()))
    return found


def texts(components: Sequence[dict[str, Any]]) -> list[str]:
    """The contents of the text displays of ``components``, in order, wherever they are nested."""
    return list(display_texts(components))
