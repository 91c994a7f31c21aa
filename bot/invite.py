"""The invite URL: the ``bot`` and ``applications.commands`` scopes and the permissions a table needs."""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlencode

import discord

INVITE_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_events": "Create Events",
}
"""The permissions the bot is invited with (flag: the name Discord shows); ``docs/running.md`` lists the
same."""

SCOPES = ("bot", "applications.commands")


def invite_permissions() -> discord.Permissions:
    """:data:`INVITE_PERMISSIONS` as a ``discord.Permissions`` (its ``value`` is the URL's integer)."""
    return discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS, True))


def invite_url(application_id: int) -> str:
    """The URL that adds the application ``application_id`` to a server with its slash commands and the
    permissions of :data:`INVITE_PERMISSIONS`."""
    query = urlencode(
        {"client_id": application_id, "permissions": invite_permissions().value, "scope": " ".join(SCOPES)}
    )
    return f"https://discord.com/oauth2/authorize?{query}"


def application_id_of_token(token: str) -> int | None:
    """The bot user's id encoded in the first part of a bot token (for a bot made with its application,
    the application id), or ``None`` if the token does not look like one."""
    first = token.split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() else None
