"""Interactions from DMs, relayed to the process that owns their table (a bot sharded over processes).

Discord delivers every interaction from a DM (``/hand`` in a DM, a button on a DM'd hand view) to shard 0.
With ``SHARD_IDS``, the table it is about may belong to a guild of another process's shard. The process
that received it handles it through discord.py's public path (the table component's dynamic item, the
``/hand`` command), whose first step (``cogs.tables.dm_routing.DmRouting.relayed``) finds it is about
another process's table: it acknowledges the interaction at once (a deferred update for a component, a
deferred ephemeral "thinking" answer for ``/hand``) and hands :meth:`InteractionRelay.relay` a plain JSON
description of it (``cogs.tables.relayed_press.describe``: its id, token, application id, user, channel,
the message pressed on and its raw ``data``). The relay stores it in the shared PostgreSQL
(:class:`storage.relay.RelayStore`: a row holding it and a NOTIFY on the owning shard's channel,
``cardtable_shard_<k>``). The process holding shard ``k`` listens on its shards' channels, claims the row
(which notifies the sender at once) and handles the press through its normal press handling
(:meth:`DmRouter.run`), with an interaction that stands for the deferred one and answers through its
token (``discord.Webhook.partial``: an edit of the original response, or an ephemeral followup), which any
process may do. A relayed press costs two requests: the sender's acknowledgement and the owner's answer.

Once the owner has answered, it tells the sender (a NOTIFY ``"<relay id> answered"`` on the sender's
channel). A sender whose interaction was claimed but not answered in :data:`RELAY_ANSWER_SECONDS` (the owner
died between its claim and its answer: a SIGKILL, a crash) answers it itself, :data:`OWNER_RESTARTING`
(an ephemeral followup for a component, an edit of the "thinking" answer for a command), so no player is
left without an answer; only an owner dying in the few milliseconds between its answer and its NOTIFY
makes that a second answer, which follows the first.

The owner takes a relayed interaction as soon as it can act on it (:attr:`RelayingBot.acting`: its tables
restored and its handlers in place), which is before discord.py calls it ready (``is_ready()`` turns true
only ``guild_ready_timeout`` after a shard's last GUILD_CREATE, while the process already answers its own
gateway's interactions, and a reconnect does not reset it). One that arrives earlier still is held until
then, for at most :data:`RELAY_ACK_SECONDS`. If no claim comes within :data:`RELAY_ACK_SECONDS` (the owner
is down, or still starting), the sender withdraws the row and answers the player itself:
:data:`OWNER_RESTARTING`. The row decides which of the two acts, so nothing relayed is acted on twice; the
sender's acknowledgement answers every relayed interaction within Discord's 3 seconds, and the owner's
answer or :data:`OWNER_RESTARTING` follows within :data:`RELAY_ANSWER_SECONDS`.

Which table an interaction is about, and how a relayed press is handled, is the tables cog's knowledge
(``cogs.tables.dm_routing``); this module only moves descriptions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot import press_deadline
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
"""How long after relaying an interaction its sender waits for the owner's answer once it is claimed (and
how long the owner waits for its own answer before it gives up telling the sender): an owner's answer comes
within milliseconds of its claim; without one by then, the sender answers :data:`OWNER_RESTARTING`."""
OWNER_RESTARTING = "That table's server is restarting: please try again in a moment."
"""The answer when the process owning the table did not take the interaction in time."""


def shard_channel(shard_id: int) -> str:
    """The NOTIFY channel that the process holding shard ``shard_id`` listens on."""
    return f"cardtable_shard_{shard_id}"


class DmRouter(Protocol):
    """Handles the presses relayed to this process (the tables cog's ``DmRouting``)."""

    async def run(self, press: dict[str, Any], answered: asyncio.Event) -> None:
        """Handle the relayed press ``press`` (a ``cogs.tables.relayed_press.describe``) as this process's
        own, answering it through its token; set ``answered`` once the answer reached Discord."""
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


class InteractionRelay:
    """Relays this process's DM interactions about other processes' tables, and hands those relayed to it to
    :attr:`router`.

    Parameters
    ----------
    bot:
        The bot (its shards, :meth:`~RelayingBot.owns_guild`, whether it is ready or stopping).
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
        store: RelayStore,
        shard_count: int,
        reply_channel: str,
    ) -> None:
        self.bot = bot
        self.store = store
        self.shard_count = shard_count
        self.reply_channel = reply_channel
        self.router: DmRouter | None = None  # set by the tables cog when it loads
        self._claims: dict[str, asyncio.Future[None]] = {}
        self._answers: dict[str, asyncio.Future[None]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._relaying = 0  # interactions this process relayed that are not answered yet
        self._listener: asyncio.Task | None = None

    @staticmethod
    def channels_for(shard_ids: Collection[int]) -> tuple[str, list[str]]:
        """A fresh reply channel for a process holding ``shard_ids``, and every channel it listens on."""
        reply = f"cardtable_reply_{secrets.token_hex(6)}"
        return reply, [reply, *(shard_channel(shard) for shard in sorted(shard_ids))]

    @classmethod
    async def open(cls, bot: RelayingBot, url: str) -> InteractionRelay:
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
        relay = cls(bot, store, settings.shard_count, reply)
        relay._listener = asyncio.ensure_future(relay._listen())
        try:
            await asyncio.wait_for(store.listening.wait(), LISTEN_WAIT_SECONDS)
        except BaseException:
            await relay.close()
            raise
        return relay

    @property
    def busy(self) -> bool:
        """True while an interaction is being relayed, or one relayed here claimed and handled (a stop waits
        for them)."""
        return bool(self._tasks) or self._relaying > 0

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

    async def relay(self, press: dict[str, Any], guild_id: int, interaction: discord.Interaction) -> None:
        """Send the acknowledged DM interaction ``interaction``, described as ``press``, to the process
        owning guild ``guild_id`` and wait for its claim; without one in :data:`RELAY_ACK_SECONDS`,
        withdraw it and answer :data:`OWNER_RESTARTING`. Once claimed, wait for the owner's word that it
        answered; without it in :data:`RELAY_ANSWER_SECONDS` of the relay, answer :data:`OWNER_RESTARTING`.
        Never raises for the database or Discord (logged)."""
        shard_id = shard_of(guild_id, self.shard_count)
        relay_id = secrets.token_hex(8)
        loop = asyncio.get_running_loop()
        started = loop.time()
        claimed = self._claims[relay_id] = loop.create_future()
        answered = self._answers[relay_id] = loop.create_future()
        self._relaying += 1
        try:
            try:
                await self.store.send(
                    relay_id, shard_channel(shard_id), self.reply_channel, json.dumps(press)
                )
            except Exception as error:
                log.warning("Could not relay an interaction to shard %d: %s", shard_id, self._line(error))
                await self._answer_instead(interaction)
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
                    await self._answer_instead(interaction)
                return
            try:
                withdrawn = await self.store.withdraw(relay_id)
            except Exception as error:  # no way to know: a second answer follows the first, harmless
                log.warning("Could not withdraw a relayed interaction: %s", self._line(error))
                withdrawn = True
            if withdrawn:
                log.warning("Shard %d did not take a relayed interaction in time: answered here", shard_id)
                await self._answer_instead(interaction)
        finally:
            self._relaying -= 1
            del self._claims[relay_id], self._answers[relay_id]

    @staticmethod
    async def _answer_instead(interaction: discord.Interaction) -> None:
        """Tell the player the table's process is restarting: the answer of an interaction not acknowledged
        yet, else an ephemeral followup of a component press (its original response is the message pressed
        on) or the edit of a command's "thinking" answer."""
        if interaction.type is discord.InteractionType.autocomplete:
            return
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(OWNER_RESTARTING, ephemeral=True)
            elif interaction.type is discord.InteractionType.component:
                await interaction.followup.send(OWNER_RESTARTING, ephemeral=True)
            else:
                await interaction.edit_original_response(content=OWNER_RESTARTING)
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
        at most :data:`RELAY_ACK_SECONDS`); not while it stops, nor while its tables are not loaded (its
        sender then answers). Its database writes have the deadline of a press's; the sender is told once
        it is answered."""
        if not self.bot.acting.is_set():
            try:
                await asyncio.wait_for(self.bot.acting.wait(), RELAY_ACK_SECONDS)
            except TimeoutError:
                return  # still starting: its sender has withdrawn it and answered
        router = self.router
        if self.bot.is_closed() or self.bot.draining or router is None:
            return
        try:
            claimed = await self.store.claim(relay_id)
        except Exception as error:
            log.warning("Could not claim a relayed interaction: %s", self._line(error))
            return
        if claimed is None:
            return  # withdrawn: its sender answered it
        payload, reply_channel = claimed
        answered = asyncio.Event()
        press_deadline.start()  # for the handling's task too, which starts in this task's context
        self._spawn(self._handle(router, json.loads(payload), answered))
        try:
            await asyncio.wait_for(answered.wait(), RELAY_ANSWER_SECONDS)
        except TimeoutError:
            return  # not answered (a handler failed): its sender answers it
        try:
            await self.store.tell_answered(relay_id, reply_channel)
        except Exception as error:  # its sender then answers too: a second answer follows the first
            log.warning("Could not tell a relayed interaction's sender of its answer: %s", self._line(error))

    @staticmethod
    async def _handle(router: DmRouter, press: dict[str, Any], answered: asyncio.Event) -> None:
        try:
            await router.run(press, answered)
        except Exception:
            log.exception("A relayed interaction failed")

    def _line(self, error: BaseException) -> str:
        return error_line(error, self.store.url)  # never the database's password

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
