"""Reading what a message in the sandbox shows, whether an embed message or a Components V2 layout
(:mod:`cogs.tables.layouts`): its title, footer, the link of its title, its pictures. A message's whole
text is :meth:`sandbox.models.Message.text` (content, embeds and text displays)."""

from __future__ import annotations

import re
from typing import Any

from cogs.tables import layouts
from sandbox.limits import FLAG_COMPONENTS_V2
from sandbox.models import Message, iter_components

LINKED = re.compile(r"^\[(?P<title>.*)\]\((?P<url>[^)]*)\)$")


def _state(shown: Message | dict[str, Any]) -> dict[str, Any]:
    """A message, or one stored version of it, as ``{"content", "embeds", "components", "flags"}``."""
    if isinstance(shown, Message):
        return {
            "content": shown.content,
            "embeds": shown.embeds,
            "components": shown.components,
            "flags": shown.flags,
        }
    return shown


def is_layout(shown: Message | dict[str, Any]) -> bool:
    """True for a Components V2 message (flag 32768), which then has no content and no embed."""
    state = _state(shown)
    layout = bool(state.get("flags", 0) & FLAG_COMPONENTS_V2)
    assert not layout or not (state.get("content") or state.get("embeds")), state
    return layout


def _heading(state: dict[str, Any]) -> tuple[str, str]:
    """The title and its link ("" if none) of a layout: the first line of its first text display."""
    texts = layouts.texts(state.get("components") or ())
    first = texts[0].split("\n", 1)[0] if texts else ""
    if not first.startswith("### "):
        return "", ""
    linked = LINKED.match(first.removeprefix("### "))
    return (linked["title"], linked["url"]) if linked else (first.removeprefix("### "), "")


def title(shown: Message | dict[str, Any]) -> str:
    """The title: the embed's, or a layout's heading ("" if none)."""
    state = _state(shown)
    if state.get("embeds"):
        return state["embeds"][0].get("title") or ""
    return _heading(state)[0]


def link(shown: Message | dict[str, Any]) -> str:
    """Where the title links to ("" if nowhere)."""
    state = _state(shown)
    if state.get("embeds"):
        return state["embeds"][0].get("url") or ""
    return _heading(state)[1]


def footer(shown: Message | dict[str, Any]) -> str:
    """The footer: the embed's, or a layout's small print (its last ``-# `` line; "" if none)."""
    state = _state(shown)
    if state.get("embeds"):
        return (state["embeds"][0].get("footer") or {}).get("text") or ""
    lines = [line for text in layouts.texts(state.get("components") or ()) for line in text.split("\n")]
    return next((line.removeprefix("-# ") for line in reversed(lines) if line.startswith("-# ")), "")


def pictures(shown: Message | dict[str, Any]) -> list[dict[str, Any]]:
    """The media items of the message's media galleries (``{"media": {"url"}, "description"}``)."""
    state = _state(shown)
    return [
        item
        for component in iter_components(state.get("components"))
        if component.get("type") == layouts.MEDIA_GALLERY
        for item in component["items"]
    ]


def description(shown: Message | dict[str, Any]) -> str:
    """The text under the title: the embed's description, or a layout's heading text after its title
    (whose turn, the clock, the latest moves; a scoreboard's standings)."""
    state = _state(shown)
    if state.get("embeds"):
        return state["embeds"][0].get("description") or ""
    texts = layouts.texts(state.get("components") or ())
    if not texts:
        return ""
    return texts[0].split("\n", 1)[1] if texts[0].startswith("### ") and "\n" in texts[0] else texts[0]
