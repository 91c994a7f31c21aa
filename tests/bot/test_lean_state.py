"""``bot/lean_state.py`` reaches into discord.py's internals (see its docstring): these tests fail if any of
them moves or changes shape in the installed discord.py, so an upgrade cannot silently change what the bot
does with gateway events. (The e2e tests run every gateway event and interaction through it.) The
endpoints the bot sets (``bot/endpoints.py``) are checked too."""

from __future__ import annotations

import inspect

import discord
import yarl
from discord.ext import commands
from discord.state import AutoShardedConnectionState, ConnectionState

from bot.lean_state import LeanConnectionState, LeanShardedBot


def parameters(function: object) -> set[str]:
    return set(inspect.signature(function).parameters)  # type: ignore[arg-type]


async def test_the_bot_s_gateway_state_is_the_lean_one_and_parses_with_its_methods() -> None:
    options = {"command_prefix": commands.when_mentioned, "intents": discord.Intents.none()}
    async with LeanShardedBot(api_base="http://127.0.0.1:9/api/v10", **options) as bot:
        state = bot.lean_state
        assert type(state) is LeanConnectionState and state._get_client() is bot
        # discord.py finds the parser of an event by its method's name, parse_<event>.
        assert state.parsers["INTERACTION_CREATE"].__func__ is LeanConnectionState.parse_interaction_create


def test_discord_py_makes_its_state_through_the_hook_the_lean_bot_overrides() -> None:
    client_init = inspect.getsource(discord.Client.__init__)
    for used in ("self._handlers", "self._hooks", "self._connection", "= self._get_state(", "_get_client = "):
        assert used in client_init, used
    sharded = inspect.getsource(discord.AutoShardedClient._get_state)
    assert "AutoShardedConnectionState(" in sharded
    assert {"dispatch", "handlers", "hooks", "http"} <= parameters(ConnectionState.__init__)
    assert issubclass(AutoShardedConnectionState, ConnectionState)


def test_the_parser_the_lean_state_wraps_makes_the_interaction_it_makes() -> None:
    interaction = inspect.getsource(ConnectionState.parse_interaction_create)
    assert "Interaction(data=data, state=self)" in interaction
    assert {"data", "state"} <= parameters(discord.Interaction.__init__)


def test_the_endpoints_are_where_the_lean_bot_sets_them() -> None:
    assert isinstance(discord.http.Route.BASE, str)
    assert "self.BASE + self.path" in inspect.getsource(discord.http.Route.__init__)
    assert isinstance(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL)
    assert "cls.DEFAULT_GATEWAY" in inspect.getsource(discord.gateway.DiscordWebSocket.from_client)
    gateway = inspect.getsource(discord.http.HTTPClient.get_bot_gateway)
    assert "return data['shards'], data['url'], data['session_start_limit']" in gateway
