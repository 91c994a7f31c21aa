"""Interactions from DMs, relayed to the process that owns their table (a bot sharded over processes).

Discord delivers every interaction from a DM (``/hand`` in a DM, a button on a DM'd hand view) to shard 0.
With ``SHARD_IDS``, the table it is about may belong to a guild of another process's shard. The process
that received it then relays the raw gateway payload through the shared PostgreSQL
(:class:`storage.relay.RelayStore`: a row holding the payload and a NOTIFY on the owning shard's channel,
``cardtable_shard_<k>``). The process holding shard ``k`` listens on its shards' channels, claims the
row (which notifies the sender at once) and handles the payload exactly as if its own gateway had
delivered it; it answers by REST with the interaction's token, which any process may do.

Once the owner has answered, it tells the sender (a NOTIFY ``"<relay id> answered"`` on the sender's
channel). A sender whose interaction was claimed but not answered in :data:`RELAY_ANSWER_SECONDS` (the owner
died between its claim and its answer: a SIGKILL, a crash) answers it itself, so no player is left with
"This interaction failed"; only an owner dying in the few milliseconds between its answer and its NOTIFY
makes that a second answer, which Discord refuses (harmless).

The owner takes a relayed interaction as soon as it can act on it (:attr:`RelayingBot.acting`: its tables
restored and its handlers in place), which is before discord.py calls it ready (``is_ready()`` turns true
only ``guild_ready_timeout`` after a shard's last GUILD_CREATE, while the process already answers its own
gateway's interactions, and a reconnect does not reset it). One that arrives earlier still is held until
then, for at most :data:`RELAY_ACK_SECONDS`. If no claim comes within :data:`RELAY_ACK_SECONDS` (the owner
is down, or still starting), the sender withdraws the row and answers the player itself:
:data:`OWNER_RESTARTING`. The row decides which of the two acts, so
nothing relayed is acted on twice, and every relayed interaction is answered within Discord's 3 seconds.

Which table an interaction is about is the tables cog's knowledge (:class:`DmRouter`,
``cogs.tables.dm_routing``); this module only moves payloads.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.lean_state import LeanConnectionState
from bot.shards import shard_of
from storage import error_line
from storage.relay import ANSWERED, RelayStore

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

RELAY_ACK_SECONDS = 1.5
"""How long a relayed interaction waits for the owning process to claim it before its sender answers the
player itself. Leaves the owner about a second of Discord's 3 to answer after a late claim."""
LISTEN_WAIT_SECONDS = 10.0
"""How long a starting process waits for its relay to listen before it gives up starting."""
RELAY_ANSWER_SECONDS = 2.3
"""How long after relaying an interaction its sender waits for the owner's answer once it is claimed: an
owner's answer comes within milliseconds of its claim; without one by then, the sender answers in time
for Discord's 3 seconds."""
ANSWER_POLL_SECONDS = 0.002
"""How often the owner looks whether it has answered a relayed interaction, to tell its sender."""
OWNER_RESTARTING = "That table's server is restarting: please try again in a moment."
"""The answer when the process owning the table did not take the interaction in time."""


def shard_channel(shard_id: int) -> str:
    """The NOTIFY channel that the process holding shard ``shard_id`` listens on."""
    return f"cardtable_shard_{shard_id}"


class DmRouter(Protocol):
    """Knows which table an interaction from a DM is about (the tables cog's ``DmRouting``)."""

    def is_here(self, data: dict[str, Any]) -> bool:
        """True if the interaction is for this process (a table of its own, or no table at all); False if
        it may be about another process's table (then :meth:`guild_of` is asked)."""
        ...

    async def guild_of(self, data: dict[str, Any]) -> int | None:
        """The guild of the table the interaction is about, from the database; ``None`` if none."""
        ...


class RelayingBot(Protocol):
    """What the relay needs of the bot (``bot.bot.CardTableBot``): its shards, whether it can act on
    interactions yet, whether it is stopping, and which guilds are its own."""

    settings: Settings
    draining: bool
    acting: asyncio.Event
    """Set once the process can act on an interaction: its extensions loaded (tables restored, handlers in
    place)."""

    def owns_guild(self, guild_id: int) -> bool: ...

    def is_closed(self) -> bool: ...

    def tracked_interaction(self, interaction_id: int) -> discord.Interaction | None:
        """The interaction ``interaction_id`` this process received in the last seconds, if any."""
        ...


class InteractionRelay:
    """Relays this process's DM interactions about other processes' tables, and handles those relayed to it.

    Parameters
    ----------
    bot:
        The bot (its shards, :meth:`~RelayingBot.owns_guild`, whether it is ready or stopping).
    state:
        The bot's gateway state: it handles relayed interactions and answers in the owner's stead.
    store:
        The open relay store, listening on :meth:`channels_for` this process.
    shard_count:
        How many shards all processes hold together.
    reply_channel:
        This process's own channel, on which receivers confirm their claims (see :meth:`channels_for`).
    """

    def __init__(
        self,
        bot: RelayingBot,
        state: LeanConnectionState,
        store: RelayStore,
        shard_count: int,
        reply_channel: str,
    ) -> None:
        self.bot = bot
        self.state = state
        self.store = store
        self.shard_count = shard_count
        self.reply_channel = reply_channel
        self.router: DmRouter | None = None  # set by the tables cog when it loads
        self._claims: dict[str, asyncio.Future[None]] = {}
        self._answers: dict[str, asyncio.Future[None]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._listener: asyncio.Task | None = None

    @staticmethod
    def channels_for(shard_ids: Collection[int]) -> tuple[str, list[str]]:
        """A fresh reply channel for a process holding ``shard_ids``, and every channel it listens on."""
        reply = f"cardtable_reply_{secrets.token_hex(6)}"
        return reply, [reply, *(shard_channel(shard) for shard in sorted(shard_ids))]

    @classmethod
    async def open(cls, bot: RelayingBot, state: LeanConnectionState, url: str) -> InteractionRelay:
        """Connect to the shared database ``url`` and return once listening (the bot connects to the
        gateway after: an interaction relayed to this process from then on is heard).

        Raises
        ------
        psycopg.Error, psycopg_pool.PoolTimeout
            If the database cannot be reached.
        TimeoutError
            If the listener is not listening within :data:`LISTEN_WAIT_SECONDS`.
        """
        settings = bot.settings
        assert settings.shard_count is not None and settings.shard_ids is not None
        reply, channels = cls.channels_for(settings.shard_ids)
        store = await RelayStore.open(url, channels)
        relay = cls(bot, state, store, settings.shard_count, reply)
        relay._listener = asyncio.ensure_future(relay._listen())
        try:
            await asyncio.wait_for(store.listening.wait(), LISTEN_WAIT_SECONDS)
        except BaseException:
            await relay.close()
            raise
        return relay

    @property
    def busy(self) -> bool:
        """True while an interaction is being routed, relayed or claimed (a stop waits for them)."""
        return bool(self._tasks)

    async def close(self) -> None:
        """Stop listening and disconnect (after the bot has waited until :attr:`busy` is False)."""
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.store.close()

    # -- sending -----------------------------------------------------------------------------------

    def takes(self, data: dict[str, Any]) -> bool:
        """Take an interaction from the gateway if it may be about another process's table: one from a DM
        that the router does not place here. Then it is handled here or relayed, in the background, once
        the database has said whose table it is. False: the caller handles it as usual."""
        if data.get("guild_id") is not None or self.router is None or self.bot.draining:
            return False
        if self.router.is_here(data):
            return False
        self._spawn(self._route(data))
        return True

    async def _route(self, data: dict[str, Any]) -> None:
        assert self.router is not None
        try:
            guild_id = await self.router.guild_of(data)
        except Exception:
            log.exception("Could not look up the table of a DM interaction: handling it here")
            guild_id = None
        if guild_id is None or self.bot.owns_guild(guild_id):
            self.state.handle_interaction(data)
            return
        await self.relay(data, shard_of(guild_id, self.shard_count))

    async def relay(self, data: dict[str, Any], shard_id: int) -> None:
        """Send the interaction ``data`` to the process holding shard ``shard_id`` and wait for its claim;
        without one in :data:`RELAY_ACK_SECONDS`, withdraw it and answer :data:`OWNER_RESTARTING`. Once
        claimed, wait for the owner's word that it answered; without it in :data:`RELAY_ANSWER_SECONDS` of
        the relay, answer :data:`OWNER_RESTARTING`."""
        relay_id = secrets.token_hex(8)
        loop = asyncio.get_running_loop()
        started = loop.time()
        claimed = self._claims[relay_id] = loop.create_future()
        answered = self._answers[relay_id] = loop.create_future()
        try:
            try:
                await self.store.send(relay_id, shard_channel(shard_id), self.reply_channel, json.dumps(data))
            except Exception as error:
                log.warning("Could not relay an interaction to shard %d: %s", shard_id, self._line(error))
                await self._answer_instead(data)
                return
            try:
                await asyncio.wait_for(claimed, RELAY_ACK_SECONDS)
            except TimeoutError:
                pass
            else:
                try:
                    await asyncio.wait_for(answered, max(0.0, started + RELAY_ANSWER_SECONDS - loop.time()))
                except TimeoutError:
                    log.warning("Shard %d took a relayed interaction, no answer: answered here", shard_id)
                    await self._answer_instead(data)
                return
            try:
                withdrawn = await self.store.withdraw(relay_id)
            except Exception as error:  # no way to know: an answer too many is refused by Discord, harmless
                log.warning("Could not withdraw a relayed interaction: %s", self._line(error))
                withdrawn = True
            if withdrawn:
                log.warning("Shard %d did not take a relayed interaction in time: answered here", shard_id)
                await self._answer_instead(data)
        finally:
            del self._claims[relay_id], self._answers[relay_id]

    async def _answer_instead(self, data: dict[str, Any]) -> None:
        interaction = self.state.interaction(data)
        if interaction.type is discord.InteractionType.autocomplete:
            return
        try:
            await interaction.response.send_message(OWNER_RESTARTING, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("Could not tell a player their table's server is restarting: %s", error)

    # -- receiving ---------------------------------------------------------------------------------

    async def _listen(self) -> None:
        async for channel, payload in self.store.notifications():
            if channel == self.reply_channel:
                answered = payload.endswith(ANSWERED)
                waiting = (self._answers if answered else self._claims).get(payload.removesuffix(ANSWERED))
                if waiting is not None and not waiting.done():
                    waiting.set_result(None)
            else:
                self._spawn(self._receive(payload))

    async def _receive(self, relay_id: str) -> None:
        """Claim and handle a relayed interaction as soon as the process can act on it (held until then, for
        at most :data:`RELAY_ACK_SECONDS`); not while it stops (its sender then answers)."""
        if not self.bot.acting.is_set():
            try:
                await asyncio.wait_for(self.bot.acting.wait(), RELAY_ACK_SECONDS)
            except TimeoutError:
                return  # still starting: its sender has withdrawn it and answered
        if self.bot.is_closed() or self.bot.draining:
            return
        try:
            claimed = await self.store.claim(relay_id)
        except Exception as error:
            log.warning("Could not claim a relayed interaction: %s", self._line(error))
            return
        if claimed is None:
            return  # withdrawn: its sender answered it
        payload, reply_channel = claimed
        data = json.loads(payload)
        self.state.handle_interaction(data)
        interaction = self.bot.tracked_interaction(int(data["id"]))
        deadline = asyncio.get_running_loop().time() + RELAY_ANSWER_SECONDS
        while interaction is None or not interaction.response.is_done():
            if interaction is None or asyncio.get_running_loop().time() > deadline:
                return  # not answered (a handler failed): its sender answers it
            await asyncio.sleep(ANSWER_POLL_SECONDS)
        try:
            await self.store.tell_answered(relay_id, reply_channel)
        except Exception as error:  # its sender then answers too: Discord refuses the second, harmless
            log.warning("Could not tell a relayed interaction's sender of its answer: %s", self._line(error))

    def _line(self, error: BaseException) -> str:
        return error_line(error, self.store.url)  # never the database's password

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
