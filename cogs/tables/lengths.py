"""Every length of a message's text, in one place: how much a reader reads, how much Discord counts, the
cutting to either, and each message kind's budget (every message reads at a glance, on a phone too).

Two counts, in characters:

- a **length** is what a reader reads (:func:`reading_length`, :func:`embed_length`, :func:`layout_length`,
  :func:`text_length`): markdown marks count as written (``**``), a custom emoji (a card's face,
  ``<:name:id>``, 30 to 60 characters of markup) counts as one. The budgets (:data:`TABLE_MESSAGE`,
  :data:`PRIVATE_VIEW`, :data:`DM`) are lengths.
- a **size** is what Discord's limits count (:func:`embed_size`, :func:`message_size`): every character of
  the markup, an emoji's included (``shared/DISCORD-NOTES.md``; ``sandbox/limits.py`` checks them).

:func:`clip` cuts a text to a size, :func:`clip_reading` to a length. A whole message's text is trimmed to
a size in one way (:func:`_trimmed`): an embed to Discord's 6,000 characters (:func:`fit_embed`), a card to
what a layout's 4,000 leave (:func:`fit_card`). Component labels are not measured here: Discord limits those
itself, and :mod:`cogs.tables.action_menus` cuts them with :func:`clip`.

The table, the private views and the scoreboards are cards (:class:`cogs.tables.layouts.Card`, drawn once
by :func:`cogs.tables.layouts.card`): :func:`layout_length` is the length of a card's layout, computed from
its texts and the marks the layout adds around them, :func:`reads_inline` deciding for both how a field
reads.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from cogs.tables.embeds import field

# -- a text ------------------------------------------------------------------------------------------

CUSTOM_EMOJI = re.compile(r"<:\w{2,32}:\d{1,20}>")
"""A custom emoji as Discord writes it in text (``<:fw_7_blue_star_a1b2c3:123…>``): one picture to read."""
EMOJI_PIECES = re.compile(r"(<:\w{2,32}:\d{1,20}>)")
"""Splits text into its pieces between custom emojis (even) and the emojis (odd)."""
SHOWN_EMOJI = re.compile(r"<:\w{2,32}:\d{1,20}> ?")
"""A card's emoji before its text, as :meth:`cogs.card_emojis.CardEmojis.shown` writes it."""


def reading_length(text: str) -> int:
    """The characters of ``text`` a reader reads: a custom emoji (``<:name:id>``, 30 to 60 characters of
    markup, which Discord's limits count) counts as one."""
    return len(text) if "<:" not in text else _reading_length(text)


@functools.lru_cache(maxsize=4096)
def _reading_length(text: str) -> int:
    return len(text) - sum(len(emoji) - 1 for emoji in CUSTOM_EMOJI.findall(text))


def without_emojis(text: str) -> str:
    """``text`` with its custom emojis (and the space after each) left out: cards shown by their text
    alone, as before card emojis."""
    return SHOWN_EMOJI.sub("", text) if "<:" in text else text


def clip_reading(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters of text as a reader counts them (:func:`reading_length`: an
    emoji is one), ending in "…" when cut; an emoji is kept whole or left out, never cut."""
    if reading_length(text) <= limit:
        return text
    kept, room = [], limit - 1
    for index, piece in enumerate(EMOJI_PIECES.split(text)):
        size = 1 if index % 2 else len(piece)  # odd pieces are the emojis
        if size > room:
            kept.append("" if index % 2 else piece[:room])
            break
        kept.append(piece)
        room -= size
    return "".join(kept) + "…"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters as Discord counts them (an emoji's markup counts), ending in "…"
    when cut; a text too long with its custom emojis loses them first (its cards shown by their text
    alone), so no emoji is ever cut in half."""
    if len(text) <= limit:
        return text
    text = without_emojis(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- Discord's limits of a message's text (sizes) ----------------------------------------------------

EMBED_TOTAL_LIMIT = 6000
"""Discord: the characters of an embed's title, description, fields, footer and author together."""
LAYOUT_TEXT_MAX = 4000
"""Discord: the characters of one text display, and of all of a message's text displays together."""
ALT_TEXT_MAX = 1024
"""Discord: the characters of an attachment's or a media item's description (a picture's alt text)."""
TITLE_MAX, DESCRIPTION_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX = 256, 4096, 256, 1024
"""Discord: the characters of an embed's title, description, field name and field value; a card's parts
(:class:`cogs.tables.layouts.Card`) keep to them too."""


# -- an embed (Discord JSON) -------------------------------------------------------------------------


def _texts(drawn: Mapping[str, Any]) -> list[str]:
    texts = [drawn.get("title") or "", drawn.get("description") or ""]
    for shown in drawn.get("fields", ()):
        texts += (shown["name"], shown["value"])
    texts.append(drawn.get("footer", {}).get("text") or "")
    texts.append(drawn.get("author", {}).get("name") or "")
    return texts


def embed_length(drawn: Mapping[str, Any]) -> int:
    """The characters of an embed (Discord JSON) a reader reads: its title, description, field names and
    values, footer and author, a custom emoji counting as one (:func:`reading_length`)."""
    return sum(map(reading_length, _texts(drawn)))


def embed_size(drawn: Mapping[str, Any]) -> int:
    """The characters of an embed that count toward Discord's 6,000 (as ``len(discord.Embed)``: a custom
    emoji counts its whole markup)."""
    return sum(map(len, _texts(drawn)))


def fit_embed(drawn: dict[str, Any], limit: int = EMBED_TOTAL_LIMIT) -> dict[str, Any]:
    """Trim an embed (Discord JSON; changed in place, and returned) to ``limit`` characters in all as
    Discord counts them (:func:`embed_size`; Discord's 6,000) as :func:`_trimmed` does."""
    fixed = embed_size({key: value for key, value in drawn.items() if key not in ("description", "fields")})
    fields = [(shown["name"], shown["value"], shown["inline"]) for shown in drawn.get("fields", ())]
    trimmed = _trimmed(drawn.get("description") or "", fields, limit - fixed)
    if trimmed is not None:
        if "description" in drawn:
            drawn["description"] = trimmed[0]
        if "fields" in drawn:
            drawn["fields"] = [field(name, value, inline) for name, value, inline in trimmed[1]]
    return drawn


Fields = list[tuple[str, str, bool]]
"""Fields being trimmed: each ``(name, value, inline)``."""


def _trimmed(description: str, fields: Fields, limit: int) -> tuple[str, Fields] | None:
    """``description`` and ``fields`` trimmed to ``limit`` characters (less 20) in all as Discord counts
    them, or ``None`` if they are within it: first their custom emojis (cards shown by their text alone),
    then the oldest log lines of the description (the turn line and the latest moves stay, after its first
    blank line), then the longest fields, then the description's end."""
    budget = limit - 20

    def excess() -> int:
        return len(description) + sum(len(name) + len(value) for name, value, _ in fields) - budget

    if excess() <= 0:
        return None
    description = without_emojis(description)
    fields = [(name, without_emojis(value), inline) for name, value, inline in fields]
    if excess() <= 0:
        return description, fields
    if description:
        head, _, log = description.partition("\n\n")
        if log:
            keep = max(min(400, len(log)), len(log) - excess() - 1)  # the latest moves stay readable
            log = log if keep >= len(log) else "…" + log[len(log) - keep :]
            description = f"{head}\n\n{log}"
        else:
            description = clip(head, max(1, len(head) - excess()))
    while excess() > 0 and fields:
        index, (name, value, inline) = max(enumerate(fields), key=lambda item: len(item[1][1]))
        if len(value) <= 40:
            break
        fields[index] = (name, clip(value, max(40, len(value) - excess())), inline)
    if excess() > 0 and description:
        description = clip(description, max(1, len(description) - excess()))
    return description, fields


# -- the layout of a card (cogs.tables.layouts.card) -------------------------------------------------

INLINE_LINE = 60
"""An inline field whose value is one line of at most this many characters reads on one line with its name."""
FIELD_MARKUP = len("****: \n")
"""The most characters a field adds in a layout besides its name and value (bold marks, ": " or a line
break, and the line break before the next)."""


def reads_inline(shown: Any) -> bool:
    """True if the card's field ``shown`` (:class:`cogs.tables.layouts.CardField`) reads on one line
    (``**name**: value``), else its name is over its value."""
    return shown.inline and "\n" not in shown.value and len(shown.value) <= INLINE_LINE


def field_size(shown: Any) -> int:
    """The most characters of text a card's field (:class:`cogs.tables.layouts.CardField`) takes in its
    layout (its name, its value and :data:`FIELD_MARKUP`), a custom emoji counting as one."""
    return reading_length(shown.name) + reading_length(shown.value) + FIELD_MARKUP


def _layout_marks(text: Any) -> int:
    """The characters the layout of the card ``text`` adds around its texts: ``### `` and the line break
    before the description, the link's brackets and its address, each field's bold marks and ``: `` or
    line break, the footer's ``-# `` and the line breaks between the body's lines. Counted from the texts'
    presence and lengths alone, so that no joined text is built and read again: none of these marks can
    make or break a custom emoji with the texts beside them, so the reading length of the whole is the sum
    of its parts'."""
    marks = 0
    if text.title:
        marks += 4  # "### "
        if text.url:
            marks += 4 + reading_length(text.url)  # "[title](url)"
        if text.description:
            marks += 1  # the line break before the description
    lines = len(text.fields)
    marks += sum(6 if reads_inline(shown) else 5 for shown in text.fields)
    if text.footer:
        marks += 3  # "-# "
        lines += 1
    return marks + max(lines - 1, 0)


def _card_texts(text: Any) -> list[str]:
    names_and_values = (part for shown in text.fields for part in (shown.name, shown.value))
    return [text.title, text.description, *names_and_values, text.footer]


def layout_length(text: Any) -> int:
    """The characters of text the layout of the card ``text`` (:class:`cogs.tables.layouts.Card`) shows,
    markup included, a custom emoji counting as one: what :func:`text_length` counts of its message."""
    return sum(map(reading_length, _card_texts(text))) + _layout_marks(text)


def opening(text: Any) -> int:
    """The line break the layout of the card ``text`` puts between its title and a description it has not
    yet: what adding a description to it costs besides the description (0 or 1 character)."""
    return 1 if text.title and not text.description else 0


def fit_card(text: Any, limit: int | None = None) -> Any:
    """Trim the card ``text`` (:class:`cogs.tables.layouts.Card`; changed in place, and returned) so that its
    layout's text keeps within ``limit`` characters in all as Discord counts them (by default Discord's
    4,000 for a layout's text displays less :data:`DM_INTRO`, the room a DM's intro takes above a private
    view), as :func:`_trimmed` does; the layout's marks counted as they are before the trimming."""
    if limit is None:
        limit = LAYOUT_TEXT_MAX - DM_INTRO
    markup = _layout_marks(text) + opening(text)
    fields = [tuple(shown) for shown in text.fields]
    trimmed = _trimmed(text.description, fields, limit - markup - len(text.title) - len(text.footer))
    if trimmed is not None:
        text.description = trimmed[0]
        text.fields = [type(shown)(*trim) for shown, trim in zip(text.fields, trimmed[1], strict=True)]
    return text


# -- a message ---------------------------------------------------------------------------------------

TEXT_DISPLAY = 10  # Discord's component type of a Components V2 text display


def display_texts(components: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    """The contents of the text displays in ``components`` (nested in containers and sections), in order."""
    for component in components:
        if component.get("type") == TEXT_DISPLAY:
            yield component.get("content") or ""
        yield from display_texts(component.get("components") or ())


def text_length(message: Mapping[str, Any]) -> int:
    """The characters of text of ``message``, a message body as Discord takes it (``content``, ``embeds``,
    ``components``), as a reader reads them: content, then every embed's title, description, field names
    and values, footer and author (:func:`embed_length`), then the text of TextDisplay components; labels
    of buttons and menus are not counted; a custom emoji counts as one."""
    total = reading_length(message.get("content") or "")
    total += sum(embed_length(embed) for embed in message.get("embeds") or ())
    return total + sum(map(reading_length, display_texts(message.get("components") or ())))


def message_size(message: Mapping[str, Any]) -> int:
    """The characters of the text displays of ``message`` (a message body as Discord takes it) as Discord
    counts them toward a layout's :data:`LAYOUT_TEXT_MAX` (every character of an emoji's markup)."""
    return sum(map(len, display_texts(message.get("components") or ())))


# -- the budgets -------------------------------------------------------------------------------------

TABLE_MESSAGE = 700
"""The table message while a game is played (the public message in the channel), in characters of text."""
PRIVATE_VIEW = 900
"""A seat's private view shown ephemerally ("My hand"), in characters of text."""
DM = 600
"""A seat's private view sent by DM, in characters of text."""
DM_INTRO = 100
"""The characters of text a DM may put before the private view ("It is your turn."), within :data:`DM`."""
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
