"""``bot/endpoints.py`` points discord.py at another server through its class attributes (see its
docstring): these tests fail if any of them moves or changes shape in the installed discord.py."""

from __future__ import annotations

import inspect

import discord
import yarl


def test_the_endpoints_are_where_the_bot_sets_them() -> None:
    assert isinstance(discord.http.Route.BASE, str)
    assert "self.BASE + self.path" in inspect.getsource(discord.http.Route.__init__)
    assert isinstance(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL)
    assert "cls.DEFAULT_GATEWAY" in inspect.getsource(discord.gateway.DiscordWebSocket.from_client)
    gateway = inspect.getsource(discord.http.HTTPClient.get_bot_gateway)
    assert "return data['shards'], data['url'], data['session_start_limit']" in gateway
