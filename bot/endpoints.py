"""Where discord.py sends the bot's requests: the configuration that points it at Discord or at any
Discord-compatible server (the sandbox), in this one module.

discord.py keeps both endpoints in class attributes, its only setting for them: ``discord.http.Route.BASE``
(the REST API, ``https://discord.com/api/v10``) and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
(a ``yarl.URL``, where a client with a set shard count connects). They are set here before the bot logs
in and connects; nothing else of discord.py is changed. :class:`ServerShardedBot` is discord.py's sharded
bot that does so as it logs in.
"""

from __future__ import annotations

from typing import Any

import discord
import yarl
from discord.ext import commands


def use_api(api_base: str) -> None:
    """Send every REST request to ``api_base`` (``https://discord.com/api/v10``, or a sandbox's); before
    the client logs in."""
    discord.http.Route.BASE = api_base


async def follow_gateway(client: discord.Client) -> None:
    """Connect to the gateway URL the REST API gives (``GET /gateway/bot``) rather than Discord's default,
    so the bot works against any Discord-compatible server; after ``client`` has logged in.

    Raises
    ------
    discord.HTTPException
        The server refused the request.
    """
    _shards, url, _limits = await client.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


class ServerShardedBot(commands.AutoShardedBot):
    """discord.py's sharded bot talking to the Discord-compatible server whose REST API is at ``api_base``
    (``https://discord.com/api/v10``, or a sandbox's); ``options`` are ``commands.AutoShardedBot``'s."""

    def __init__(self, *, api_base: str, **options: Any) -> None:
        super().__init__(**options)
        self.api_base = api_base

    async def login(self, token: str) -> None:
        """Log in against :attr:`api_base` and take the gateway URL from ``GET /gateway/bot``.

        discord.py itself would connect to Discord's default gateway; asking the server keeps the bot
        working against any Discord-compatible server.
        """
        use_api(self.api_base)
        await super().login(token)
        await follow_gateway(self)
