"""Plain-text rendering of sandbox messages, for demos and test failure output.

:func:`render_message` turns one message into readable text::

    #cards  CardBot  (ephemeral, only alice)
      Your hand
      | == Foist: round 1 ==
      | It is alice's turn.
      | * Trump: Hearts
      | -- footer text
      [Play] [Pass] [Rules ->]
      <select: Pick a card | A of hearts, 7 of spades>

:func:`print_activity` subscribes to a server and prints every message
creation, edit and deletion as it happens.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TextIO

from .models import Message

if TYPE_CHECKING:  # pragma: no cover
    from .models import Channel
    from .server import SandboxServer

__all__ = ["render_message", "render_event", "render_channel", "print_activity"]


def _where(msg: Message) -> str:
    if msg.channel.is_dm:
        recipient = msg.channel.recipient.username if msg.channel.recipient else "?"
        return f"DM with {recipient}"
    return f"#{msg.channel.name}"


def _render_embed(embed: dict[str, Any], indent: str) -> list[str]:
    lines: list[str] = []
    bar = indent + "| "
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.append(f"{bar}{author}")
    if embed.get("title"):
        lines.append(f"{bar}== {embed['title']} ==")
    if embed.get("description"):
        lines.extend(f"{bar}{line}".rstrip() for line in str(embed["description"]).splitlines() or [""])
    for field in embed.get("fields") or []:
        value = str(field.get("value") or "").splitlines() or [""]
        lines.append(f"{bar}* {field.get('name')}: {value[0]}")
        lines.extend(f"{bar}    {line}" for line in value[1:])
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(f"{bar}-- {footer}")
    return lines


def _render_button(button: dict[str, Any]) -> str:
    label = button.get("label") or ""
    emoji = button.get("emoji") or {}
    if emoji.get("name"):
        label = f"{emoji['name']} {label}".strip()
    if button.get("style") == 5:
        label += " ->"
    if button.get("disabled"):
        label += " (disabled)"
    return f"[{label}]"


def _render_components(components: list[dict[str, Any]], indent: str) -> list[str]:
    lines: list[str] = []
    for row in components:
        items = [row] if row.get("type") != 1 else row.get("components") or []
        buttons: list[str] = []
        for comp in items:
            ctype = comp.get("type")
            if ctype == 2:
                buttons.append(_render_button(comp))
            elif ctype == 3:
                options = ", ".join(str(o.get("label")) for o in comp.get("options") or [])
                lines.append(
                    f"{indent}<select: {comp.get('placeholder') or comp.get('custom_id')} | {options}>"
                )
            elif ctype in (5, 6, 7, 8):
                lines.append(f"{indent}<select: {comp.get('placeholder') or comp.get('custom_id')}>")
            elif ctype == 10:
                lines.extend(indent + line for line in str(comp.get("content")).splitlines())
            elif ctype == 12:  # a media gallery: each picture with its description (alt text)
                for item in comp.get("items") or []:
                    alt = f": {item['description']}" if item.get("description") else ""
                    lines.append(f"{indent}(picture {(item.get('media') or {}).get('url')}{alt})")
            elif ctype == 14:
                lines.append(indent + "─" * 20)
            elif ctype in (9, 17):  # a section or a container: its components in turn, then an accessory
                lines.extend(_render_components(comp.get("components") or [], indent))
                if (comp.get("accessory") or {}).get("type") == 2:
                    buttons.append(_render_button(comp["accessory"]))
        if buttons:
            lines.append(indent + " ".join(buttons))
    return lines


def render_message(msg: Message, *, header: bool = True) -> str:
    """Render one message as readable plain text.

    Parameters
    ----------
    msg : Message
    header : bool
        Start with a line naming the channel, the author and markers
        (``ephemeral, only <user>``, ``DM``, ``deleted``, ``edited``, ``loading``).

    Returns
    -------
    str
        Content, embeds (author, title, description, fields, footer), buttons as
        ``[Label]`` and selects as ``<select: placeholder | options>``.
    """
    indent = "  "
    lines: list[str] = []
    if header:
        marks: list[str] = []
        if msg.ephemeral_for is not None:
            user = msg._server.users.get(msg.ephemeral_for)
            marks.append(f"ephemeral, only {user.username if user else msg.ephemeral_for}")
        if msg.channel.is_dm:
            marks.append("DM")
        if msg.loading:
            marks.append("thinking...")
        if msg.edited_timestamp:
            marks.append("edited")
        if msg.deleted:
            marks.append("deleted")
        mark_text = f"  ({', '.join(marks)})" if marks else ""
        lines.append(f"{_where(msg)}  {msg.author.global_name}{mark_text}")
    if msg.content:
        lines.extend(indent + line for line in msg.content.splitlines())
    for embed in msg.embeds:
        lines.extend(_render_embed(embed, indent))
    lines.extend(_render_components(msg.components, indent))
    for attachment in msg.attachments:
        lines.append(f"{indent}(file {attachment.get('filename')}, {attachment.get('size')} bytes)")
    return "\n".join(lines)


def render_event(kind: str, msg: Message) -> str:
    """Render a message event (``create``, ``edit`` or ``delete``) for a live log."""
    if kind == "delete":
        return f"--- deleted message {msg.id} in {_where(msg)}"
    prefix = "+++ new" if kind == "create" else "~~~ edited"
    return f"{prefix} message {msg.id}\n{render_message(msg)}"


def render_channel(messages: Iterable[Message]) -> str:
    """Render a list of messages (e.g. ``server.visible_messages(alice, channel)``)."""
    return "\n\n".join(render_message(m) for m in messages)


def print_activity(
    server: "SandboxServer", *, channels: Iterable["Channel"] | None = None, file: TextIO | None = None
) -> Callable[[str, Message], None]:
    """Print every message creation, edit and deletion as it happens.

    Parameters
    ----------
    server : SandboxServer
    channels : iterable of Channel, optional
        Only these channels (default: all, including DMs).
    file : text stream, optional
        Where to print (default ``sys.stdout``).

    Returns
    -------
    callable
        The listener; pass it to ``server.remove_message_listener`` to stop.
    """
    wanted = {c.id for c in channels} if channels is not None else None

    def listener(kind: str, msg: Message) -> None:
        if wanted is not None and msg.channel.id not in wanted:
            return
        print(render_event(kind, msg), file=file or sys.stdout, flush=True)
        print(file=file or sys.stdout, flush=True)

    server.add_message_listener(listener)
    return listener
