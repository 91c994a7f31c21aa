"""The bot's connection to Discord, leaner than discord.py's: the one module of ``bot/`` that uses
discord.py's internals (the quick answer to a press, ``cogs/quick_answer.py``, is the other place in the
project).

:class:`LeanConnectionState` drops the messages the bot never reads and hands DM interactions about other
processes' tables to the relay; :class:`LeanShardedBot` is discord.py's sharded bot with that state,
logging in at any Discord-compatible server. They lean on these internals, checked with discord.py
:data:`CHECKED_WITH` (``tests/bot/test_lean_state.py`` fails when another version is installed, and when
any of them moves):

- ``discord.state.AutoShardedConnectionState`` and its ``parse_message_create``,
  ``parse_message_update`` and ``parse_interaction_create`` (one per gateway event), ``_view_store``
  (``is_message_tracked``) and ``_get_client``;
- ``Client._get_state`` (discord.py's one hook for its gateway state), ``Client._handlers``,
  ``Client._hooks`` and ``Client._connection`` (the state it made);
- ``discord.Interaction(data=..., state=...)``, an interaction built from a raw gateway payload;
- ``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (where REST
  requests and the gateway go, class attributes) and ``Client.http.get_bot_gateway``.
"""

from __future__ import annotations

import time
from typing import Any

import discord
import yarl
from discord.ext import commands
from discord.state import AutoShardedConnectionState

from storage import press_write_deadline

CHECKED_WITH = "2.7.1"
"""The discord.py version whose internals this module was checked against (see the module's docstring)."""

PRESS_WRITE_SECONDS = 1.5
"""How long a press's database writes may wait for a database locked by another program before they give
up (the press is then told the database is busy), so every press is answered within Discord's 3 seconds.
"""


class LeanConnectionState(AutoShardedConnectionState):
    """discord.py's gateway state (its sharded client's: the bot's), minus the work for messages the bot
    never reads, and with DM interactions about other processes' tables relayed to them.

    discord.py turns every ``MESSAGE_CREATE`` and ``MESSAGE_UPDATE`` into a full ``discord.Message``
    (author, embeds, components, mentions) only to dispatch ``on_message`` / ``on_message_edit``; this bot
    listens to neither, and most of these events are its own table edits echoed back, one per press.
    Here they are dropped as soon as they are decoded. The one thing discord.py itself does with an edit,
    updating a view it tracks on that message, still happens (table messages are drawn as JSON and never
    tracked, see ``cogs.tables.drawn.DrawnView``). ``MESSAGE_DELETE`` is parsed as usual.

    The client using it (``bot.bot.CardTableBot``) provides ``relay`` (``None`` unless sharded over
    processes), ``draining`` (True while the bot stops), ``track_interaction(interaction)`` and
    ``answer_restarting(interaction)``.
    """

    def parse_message_create(self, data: Any) -> None:
        return None

    def parse_message_update(self, data: Any) -> None:
        if "components" not in data:
            return
        interaction = data.get("interaction")
        tracked_id = interaction.get("id") if isinstance(interaction, dict) else None
        if self._view_store.is_message_tracked(int(tracked_id or data["id"])):
            super().parse_message_update(data)

    def parse_interaction_create(self, data: Any) -> None:
        """An interaction from the gateway. One from a DM that is about a table of another process (only
        with ``SHARD_IDS``) goes to that process (:class:`bot.interaction_relay.InteractionRelay`); any
        other is handled here (:meth:`handle_interaction`)."""
        relay = getattr(self._get_client(), "relay", None)
        if relay is not None and relay.takes(data):
            return
        self.handle_interaction(data)

    def handle_interaction(self, data: Any) -> None:
        """Handle an interaction in this process (one from the gateway, or one another process relayed).

        While the bot stops, answer it with :data:`bot.shutdown.RESTARTING` instead of handling it.
        Otherwise handle it as discord.py does, with the database writes it leads to limited to
        :data:`PRESS_WRITE_SECONDS` of waiting for a lock (the tasks discord.py starts for it inherit the
        deadline)."""
        client = self._get_client()
        if getattr(client, "draining", False):
            interaction = self.interaction(data)
            client.track_interaction(interaction)
            client.answer_restarting(interaction)
            return
        token = press_write_deadline.set(time.monotonic() + PRESS_WRITE_SECONDS)
        try:
            super().parse_interaction_create(data)
        finally:
            press_write_deadline.reset(token)

    def interaction(self, data: Any) -> discord.Interaction:
        """The ``discord.Interaction`` of the raw gateway payload ``data`` (an ``INTERACTION_CREATE``'s
        ``d``), answerable through this state."""
        return discord.Interaction(data=data, state=self)


class LeanShardedBot(commands.AutoShardedBot):
    """discord.py's sharded bot whose gateway state is a :class:`LeanConnectionState`, talking to the
    Discord-compatible server whose REST API is at ``api_base`` (``https://discord.com/api/v10``, or a
    sandbox's); ``options`` are ``commands.AutoShardedBot``'s."""

    def __init__(self, *, api_base: str, **options: Any) -> None:
        super().__init__(**options)
        self.api_base = api_base

    async def login(self, token: str) -> None:
        """Log in against :attr:`api_base` and take the gateway URL from ``GET /gateway/bot``.

        discord.py itself would connect to Discord's default gateway; asking the server keeps the bot
        working against any Discord-compatible server.
        """
        discord.http.Route.BASE = self.api_base
        await super().login(token)
        _shards, url, _limits = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

    def _get_state(self, **options: Any) -> LeanConnectionState:
        # discord.py's one hook for its gateway state (Client._get_state): use the lean one.
        return LeanConnectionState(
            dispatch=self.dispatch, handlers=self._handlers, hooks=self._hooks, http=self.http, **options
        )

    @property
    def lean_state(self) -> LeanConnectionState:
        """The gateway state this bot made (:meth:`_get_state`)."""
        state = self._connection
        assert isinstance(state, LeanConnectionState)
        return state
