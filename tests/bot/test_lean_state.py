"""``bot/lean_state.py`` reaches into discord.py's internals (see its docstring): these tests fail if
another discord.py is installed than the one it was checked with, or if any of the internals moves or
changes shape, so a discord.py upgrade cannot silently change what the bot does with gateway events. (The
e2e tests run every gateway event and interaction through it.)"""

from __future__ import annotations

import inspect

import discord
import yarl
from discord.ext import commands
from discord.state import AutoShardedConnectionState, ConnectionState
from discord.ui.view import ViewStore

from bot import lean_state
from bot.lean_state import LeanConnectionState, LeanShardedBot


def parameters(function: object) -> set[str]:
    return set(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_the_installed_discord_py_is_the_one_the_lean_state_was_checked_with() -> None:
    assert discord.__version__ == lean_state.CHECKED_WITH, (
        f"discord.py {discord.__version__} is installed, but bot/lean_state.py was checked with "
        f"{lean_state.CHECKED_WITH}. Re-check each internal its docstring lists against the new version's "
        "source (discord/state.py ConnectionState.parse_message_update and parse_interaction_create, "
        "discord/client.py Client.__init__ and _get_state, discord/shard.py AutoShardedClient._get_state, "
        "discord/http.py Route and get_bot_gateway, discord/gateway.py DiscordWebSocket.from_client), "
        "run tests/bot/test_lean_state.py and the e2e tests, then set CHECKED_WITH to it."
    )


async def test_the_bot_s_gateway_state_is_the_lean_one_and_parses_with_its_methods() -> None:
    options = {"command_prefix": commands.when_mentioned, "intents": discord.Intents.none()}
    async with LeanShardedBot(api_base="http://127.0.0.1:9/api/v10", **options) as bot:
        state = bot.lean_state
        assert type(state) is LeanConnectionState and state._get_client() is bot
        # discord.py finds the parser of an event by its method's name, parse_<event>.
        for event in ("MESSAGE_CREATE", "MESSAGE_UPDATE", "INTERACTION_CREATE"):
            assert state.parsers[event].__func__ is getattr(LeanConnectionState, f"parse_{event.lower()}")


def test_discord_py_makes_its_state_through_the_hook_the_lean_bot_overrides() -> None:
    client_init = inspect.getsource(discord.Client.__init__)
    for used in ("self._handlers", "self._hooks", "self._connection", "= self._get_state(", "_get_client = "):
        assert used in client_init, used
    sharded = inspect.getsource(discord.AutoShardedClient._get_state)
    assert "AutoShardedConnectionState(" in sharded
    assert {"dispatch", "handlers", "hooks", "http"} <= parameters(ConnectionState.__init__)
    assert issubclass(AutoShardedConnectionState, ConnectionState)


def test_the_parsers_the_lean_state_replaces_do_what_it_keeps_of_them() -> None:
    update = inspect.getsource(ConnectionState.parse_message_update)
    for used in ("'components' in data", "data['interaction']['id']", "self._view_store.is_message_tracked("):
        assert used in update, used
    assert {"message_id"} <= parameters(ViewStore.is_message_tracked)
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
