"""Stopping cleanly on SIGTERM (``docker stop``, systemd) and SIGINT (Ctrl-C).

On the first signal the bot

1. stops taking presses: every interaction that arrives from then on is answered at once with
   :data:`RESTARTING`, and handled no further (see ``bot.bot.CardTableBot.admit``, the gate every
   interaction passes first);
2. stops the clocks (the scheduler is paused: no turn runs out while the bot stops);
3. lets the presses under way finish: it waits until every interaction already received has been
   answered, no table's lock is held and the tables' background edits are done, at most
   :data:`DRAIN_SECONDS`;
4. closes the connection to Discord (the cogs unload, disarming every clock) and returns from
   ``bot.start``, after which the database is closed and the process exits 0.

Every table is stored as of its last move, so the next start restores all of them. If closing hangs,
the process ends with exit code 1 after :data:`HARD_STOP_SECONDS` (a committed move is on disk anyway).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from bot.interaction_relay import InteractionRelay
    from bot.scheduler import TableScheduler

log = logging.getLogger(__name__)

RESTARTING = "I am restarting: please try again in a moment."
"""The answer to a press that arrives while the bot stops."""

DRAIN_SECONDS = 3.0
"""How long presses under way get to finish (Discord's own answer window is 3 seconds)."""

HARD_STOP_SECONDS = 4.5
"""After this long the process ends whatever is still running (the stop must take under 5 seconds)."""

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StoppingBot(Protocol):
    """What a stop needs of the bot (``bot.bot.CardTableBot``): its ``draining`` flag, its scheduler, what is
    still under way (interactions, relayed interactions, the tables cog's work) and ``close``."""

    draining: bool
    scheduler: TableScheduler
    relay: InteractionRelay | None

    def interactions_in_flight(self) -> list[discord.Interaction]: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    async def close(self) -> None: ...


class GracefulShutdown:
    """The signal handlers of a running bot (see the module's docstring for what a stop does)."""

    def __init__(self, bot: StoppingBot) -> None:
        self.bot = bot
        self.task: asyncio.Task | None = None

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in SIGNALS:
            loop.add_signal_handler(signum, self.request, signum)

    def uninstall(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in SIGNALS:
            loop.remove_signal_handler(signum)

    def request(self, signum: int = signal.SIGTERM) -> None:
        """Begin stopping (a second signal while stopping changes nothing)."""
        if self.task is not None:
            return
        log.info("%s received: stopping", signal.Signals(signum).name)
        loop = asyncio.get_running_loop()
        loop.call_later(HARD_STOP_SECONDS, _hard_stop)
        self.task = loop.create_task(self.stop())

    async def stop(self) -> None:
        bot = self.bot
        bot.draining = True
        if bot.scheduler.running:
            bot.scheduler.pause()
        await wait_until_idle(bot, time.monotonic() + DRAIN_SECONDS)
        await bot.close()
        log.info("Stopped cleanly")


async def wait_until_idle(bot: StoppingBot, deadline: float) -> bool:
    """Wait until every interaction received has been answered, no table lock is held and no background
    edit runs, or until ``deadline`` (``time.monotonic()``). Returns ``True`` if idle in time."""
    await asyncio.sleep(0)  # presses dispatched just before the signal start their work first
    while True:
        if _idle(bot):
            return True
        if time.monotonic() >= deadline:
            log.warning("Stopping with presses still under way")
            return False
        await asyncio.sleep(0.02)


def _idle(bot: StoppingBot) -> bool:
    if any(not interaction.response.is_done() for interaction in bot.interactions_in_flight()):
        return False
    if bot.relay is not None and bot.relay.busy:  # a DM interaction relayed to another process
        return False
    cog = bot.get_cog("Tables")
    if cog is None:
        return True
    runtime = getattr(cog, "runtime", None)
    sessions = list(runtime.registry.tables.values()) if runtime is not None else []
    if any(session.lock.locked() for session in sessions):
        return False
    return runtime is None or not runtime.tasks.tasks


def _hard_stop() -> None:
    log.error("Could not stop within %.1f seconds: ending the process", HARD_STOP_SECONDS)
    logging.shutdown()
    os._exit(1)
