"""Components V2 layouts (Discord's message flag 32768) as Discord JSON: the table message, a seat's private
view and the scoreboard are drawn as one container each (:func:`card`), small notices as a text display
(:func:`notice`).

The renderer (:mod:`cogs.tables.render`) puts a card's text together as a :class:`Card` (heading, fields,
footer: the shape its budgets and trimming work on, measured by :mod:`cogs.tables.lengths` as the layout
shows it), then draws it here once:

- a container (type 17) with the card's colour as its accent;
- a text display (type 10): the title as a heading (``### title``, a link when the card has a ``url``),
  then the description (whose turn, the clock, the latest moves);
- the picture, if any, in a media gallery (type 12) as ``attachment://<filename>`` with its description
  (alt text);
- a text display of the fields (``**name**: value`` for a short inline field, else ``**name**`` over its
  value: :func:`cogs.tables.lengths.reads_inline`) and the footer in small print (``-# footer``);
- a separator (type 14) and the action rows (type 1), when there are any.

Discord's limits (``shared/DISCORD-NOTES.md``; ``sandbox/limits.py`` checks them): at most 40 components in
all, nested ones counted (a card uses at most 5 besides its action rows, which hold at most 30), and 4,000
characters of text across its text displays (:func:`cogs.tables.lengths.fit_card` keeps a card's text
within them; the budgets of :mod:`cogs.tables.lengths` keep far below).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, NamedTuple

from cogs.tables.drawn import Attachment
from cogs.tables.lengths import ALT_TEXT_MAX, LAYOUT_TEXT_MAX, TEXT_DISPLAY, clip, display_texts, reads_inline

ACTION_ROW, MEDIA_GALLERY, SEPARATOR, CONTAINER = 1, 12, 14, 17
"""Discord's component types."""


class CardField(NamedTuple):
    """A field of a card: its ``name`` in bold, then its ``value`` on the same line when ``inline`` and short
    (:func:`cogs.tables.lengths.reads_inline`), else under it."""

    name: str
    value: str
    inline: bool = True


@dataclasses.dataclass
class Card:
    """The text of a card (:func:`card`) while the renderer puts it together: its accent ``colour``, the
    ``title`` (a link to ``url`` if given), the ``description`` under it, the ``fields`` and the ``footer``
    (each ``""`` or empty when not shown)."""

    colour: int
    title: str = ""
    description: str = ""
    url: str | None = None
    fields: list[CardField] = dataclasses.field(default_factory=list)
    footer: str = ""


def text_display(content: str) -> dict[str, Any]:
    """A text display of ``content`` (1-4,000 characters, cut to fit)."""
    return {"type": TEXT_DISPLAY, "content": clip(content, LAYOUT_TEXT_MAX)}


def _field_line(shown: CardField) -> str:
    return f"**{shown.name}**: {shown.value}" if reads_inline(shown) else f"**{shown.name}**\n{shown.value}"


def _heading(text: Card) -> str:
    title = text.title
    if title and text.url:
        title = f"[{title}]({text.url})"
    head = f"### {title}" if title else ""
    description = text.description
    return f"{head}\n{description}" if head and description else head or description


def _body(text: Card) -> str:
    lines = [_field_line(shown) for shown in text.fields]
    if text.footer:
        lines.append(f"-# {text.footer}")
    return "\n".join(lines)


def picture_item(picture: Attachment) -> dict[str, Any]:
    """A media gallery item showing the attached ``picture``, with its description as alt text."""
    item: dict[str, Any] = {"media": {"url": f"attachment://{picture.filename}"}}
    if picture.description:
        item["description"] = clip(picture.description, ALT_TEXT_MAX)
    return item


def card(
    text: Card, rows: Sequence[dict[str, Any]] = (), pictures: Sequence[Attachment] = ()
) -> tuple[dict[str, Any], ...]:
    """The layout of a message whose text is ``text``, with ``pictures`` (attached files, shown in a media
    gallery) and the action ``rows``: one container (see the module's docstring). Empty parts are left
    out."""
    inside: list[dict[str, Any]] = []
    heading = _heading(text)
    if heading:
        inside.append(text_display(heading))
    if pictures:
        inside.append({"type": MEDIA_GALLERY, "items": [picture_item(picture) for picture in pictures[:10]]})
    body = _body(text)
    if body:
        inside.append(text_display(body))
    if rows:
        inside.append({"type": SEPARATOR, "divider": True, "spacing": 1})
        inside.extend(rows)
    return ({"type": CONTAINER, "components": inside, "accent_color": text.colour},)


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
