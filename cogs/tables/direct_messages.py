"""Sending a DM, with the reason in plain words when Discord does not deliver it."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger(__name__)


async def send_dm(client: discord.Client, user_id: int, **message: object) -> str | None:
    """Send a DM to ``user_id``. Returns ``None`` once delivered, else why not, in words for the player."""
    try:
        channel = await client.create_dm(discord.Object(user_id))
        await channel.send(**message)  # type: ignore[arg-type]
    except (discord.Forbidden, discord.NotFound):
        return (
            "📪 I can't DM you: your DMs are closed to me. Allow direct messages from server members "
            "(Privacy settings) and press the button again."
        )
    except discord.HTTPException as error:
        log.warning("A DM to %s failed: %s", user_id, error)
        return "📪 Discord did not deliver my DM just now. Try again in a moment."
    return None
