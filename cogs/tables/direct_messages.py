"""Sending a DM, with the reason in plain words when Discord does not deliver it."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger(__name__)

CLOSED_DMS = (
    "📪 I can't DM you: your DMs are closed to me. Allow direct messages from server members "
    "(Privacy settings) and press the button again."
)
"""Why a DM was not delivered when Discord refuses it (403 ``50007``: the user's DMs are closed)."""


async def send_dm(client: discord.Client, user_id: int, **message: object) -> str | None:
    """Send a DM to ``user_id``. Returns ``None`` once delivered, else why not, in words for the player."""
    sent = await deliver_dm(client, user_id, **message)
    return sent if isinstance(sent, str) else None


async def deliver_dm(client: discord.Client, user_id: int, **message: object) -> discord.Message | str:
    """Send a DM to ``user_id``. Returns the message once delivered, else why not, in words for the
    player (closed DMs: Discord's 403 ``50007``; any other refusal is logged)."""
    try:
        channel = await client.create_dm(discord.Object(user_id))
        return await channel.send(**message)  # type: ignore[arg-type]
    except (discord.Forbidden, discord.NotFound):
        return CLOSED_DMS
    except discord.HTTPException as error:
        log.warning("A DM to %s failed: %s", user_id, error)
        return "📪 Discord did not deliver my DM just now. Try again in a moment."
