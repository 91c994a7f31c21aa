"""The bot's gateway state, the one module of the project that uses discord.py's internals, for the DM
relay across processes and for a stop.

:class:`LeanConnectionState` is discord.py's gateway state that hands DM interactions about other
processes' tables to the relay (``bot/interaction_relay.py``) before discord.py dispatches them, makes an
interaction of a raw payload another process relayed (discord.py offers no public way to do either), and
answers every interaction "restarting" while the bot stops. Every gateway event is parsed as discord.py
parses it (dropping the ``MESSAGE_CREATE`` / ``MESSAGE_UPDATE`` events the bot never reads saves nothing
measurable: ``python3 bench/press_cost.py --quick`` with and without it). :class:`LeanShardedBot` is
discord.py's sharded bot with that state, logging in at any Discord-compatible server
(:mod:`bot.endpoints`).

The internals used: ``discord.state.AutoShardedConnectionState`` and its ``parse_interaction_create`` (the
parser of ``INTERACTION_CREATE``) and ``_get_client``; ``Client._get_state`` (discord.py's one hook for its
gateway state), ``Client._handlers``, ``Client._hooks`` and ``Client._connection``;
``discord.Interaction(data=..., state=...)``. ``tests/bot/test_lean_state.py`` checks each is where this
module expects it.
"""

from __future__ import annotations

import time
from typing import Any

import discord
from discord.ext import commands
from discord.state import AutoShardedConnectionState

from bot import endpoints
from storage import press_write_deadline

PRESS_WRITE_SECONDS = 1.5
"""How long a press's database writes may wait for a database locked by another program before they give
up (the press is then told the database is busy), so every press is answered within Discord's 3 seconds.
"""


class LeanConnectionState(AutoShardedConnectionState):
    """discord.py's gateway state (its sharded client's: the bot's), with DM interactions about other
    processes' tables relayed to them.

    The client using it (``bot.bot.CardTableBot``) provides ``relay`` (``None`` unless sharded over
    processes), ``draining`` (True while the bot stops), ``track_interaction(interaction)`` and
    ``answer_restarting(interaction)``.
    """

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
        endpoints.use_api(self.api_base)
        await super().login(token)
        await endpoints.follow_gateway(self)

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
