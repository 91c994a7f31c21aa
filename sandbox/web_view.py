"""What the sandbox's web page (:mod:`sandbox.web`) sends for a message: the message as a Discord client
would get it, with every file reference made a URL of the page's own server.

- ``attachment://<filename>`` in a layout (media gallery items, thumbnails, file components) or an embed
  (image, thumbnail) becomes ``/files/<attachment id>/<filename>``, and the attachment is marked
  ``referenced`` (a client shows a referenced file only where it is referenced);
- every application emoji the message names (``<:name:id>`` in any text, ``emoji.id`` on a button or a
  select option) is listed in ``emojis``: id -> ``/emojis/<id>.png``, for the emojis the application has;
- every user a ``<@id>`` mention names is listed in ``mentions``: id -> display name.

The page escapes every text it shows; nothing here is HTML.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any, Protocol

from .models import Channel, Message, SimUser, iter_components

EMOJI_MARKUP = re.compile(r"<a?:\w+:(\d+)>")
USER_MENTION = re.compile(r"<@!?(\d+)>")
ATTACHMENT_SCHEME = "attachment://"


class ViewServer(Protocol):
    """What the view needs of :class:`~sandbox.server.SandboxServer`."""

    emoji_images: dict[int, bytes]
    users: dict[int, SimUser]
    bot_user: SimUser


def channel_view(channel: Channel) -> dict[str, Any]:
    """``{"id", "name", "kind", "parent_id"}`` of ``channel``; kind is ``"dm"``, ``"thread"`` or
    ``"channel"``; ``parent_id`` is a thread's channel id (else None). Ids are strings, as Discord's."""
    if channel.is_dm:
        kind = "dm"
    elif channel.is_thread:
        kind = "thread"
    else:
        kind = "channel"
    return {
        "id": str(channel.id),
        "name": channel.name or "",
        "kind": kind,
        "parent_id": str(channel.parent.id) if channel.parent is not None else None,
    }


def message_view(server: ViewServer, message: Message) -> dict[str, Any]:
    """The page's object for ``message`` in its current version.

    Returns
    -------
    dict
        ``id``, ``channel`` (:func:`channel_view`), ``author`` (``{"id", "name", "bot"}``), ``content``,
        ``embeds``, ``components`` (file references resolved, see the module's docstring), ``attachments``
        (``{"id", "filename", "url", "content_type", "referenced"}``), ``flags``, ``components_v2``,
        ``ephemeral``, ``loading``, ``edited``, ``command`` (``{"user", "name"}`` of the slash command
        the message answers, or None), ``emojis`` and ``mentions``.
    """
    files = {a["filename"]: f"/files/{a['id']}/{a['filename']}" for a in message.attachments}
    referenced: set[str] = set()

    def resolve(url: Any) -> Any:
        if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
            name = url[len(ATTACHMENT_SCHEME) :]
            if name in files:
                referenced.add(name)
                return files[name]
        return url

    embeds = copy.deepcopy(message.embeds)
    for embed in embeds:
        for key in ("image", "thumbnail"):
            if isinstance(embed.get(key), dict):
                embed[key]["url"] = resolve(embed[key].get("url"))
    components = copy.deepcopy(message.components)
    for component in iter_components(components):
        for holder in [component, *(component.get("items") or [])]:  # a media gallery's items hold media
            for key in ("media", "file"):
                if isinstance(holder.get(key), dict):
                    holder[key]["url"] = resolve(holder[key].get("url"))
    metadata = message.interaction_metadata or {}
    command = None
    if metadata.get("name"):
        command = {"user": (metadata.get("user") or {}).get("username", ""), "name": metadata["name"]}
    view = {
        "id": str(message.id),
        "channel": channel_view(message.channel),
        "author": {
            "id": str(message.author.id),
            "name": message.author.name,
            "bot": message.author.bot,
        },
        "content": message.content,
        "embeds": embeds,
        "components": components,
        "attachments": [
            {
                "id": a["id"],
                "filename": a["filename"],
                "url": files[a["filename"]],
                "content_type": a.get("content_type", ""),
                "referenced": a["filename"] in referenced,
            }
            for a in message.attachments
        ],
        "flags": message.flags,
        "components_v2": bool(message.flags & 32768),
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "edited": message.edited_timestamp is not None,
        "command": command,
    }
    view["emojis"] = _emojis(server, message)
    view["mentions"] = _mentions(server, message)
    return view


def _texts(message: Message) -> Iterator[str]:
    yield message.content
    for embed in message.embeds:
        yield from _strings(embed)
    yield from _strings(message.components)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _emoji_ids(message: Message) -> set[int]:
    ids = {int(match) for text in _texts(message) for match in EMOJI_MARKUP.findall(text)}
    for component in iter_components(message.components):
        emojis = [component.get("emoji")] + [option.get("emoji") for option in component.get("options") or []]
        ids.update(int(emoji["id"]) for emoji in emojis if isinstance(emoji, dict) and emoji.get("id"))
    return ids


def _emojis(server: ViewServer, message: Message) -> dict[str, str]:
    return {str(i): f"/emojis/{i}.png" for i in sorted(_emoji_ids(message)) if i in server.emoji_images}


def _mentions(server: ViewServer, message: Message) -> dict[str, str]:
    people = {**server.users, server.bot_user.id: server.bot_user}
    ids = {int(match) for text in _texts(message) for match in USER_MENTION.findall(text)}
    return {str(i): people[i].name for i in sorted(ids) if i in people}
