"""Pointing a discord.py client at a sandbox: the one module of ``sandbox/`` that imports discord.py (the
server itself speaks Discord's protocol and knows no client library)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .server import SandboxServer

__all__ = ["discord_endpoints"]


@contextlib.contextmanager
def discord_endpoints(server: SandboxServer) -> Iterator[None]:
    """Point discord.py's class-level endpoints at ``server`` and restore them afterwards.

    Sets ``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
    (the only global state discord.py offers for this). The server must be started.
    """
    import discord.gateway
    import discord.http
    import yarl

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = server.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
