"""The bot: a discord.py ``commands.Bot`` (slash commands and components only) with its dependencies.

Settings, the database and the scheduler are passed in or made here and handed to the cogs through the
bot (``bot.settings``, ``bot.db``, ``bot.scheduler``). Extensions are loaded in ``setup_hook``; a failing
one is logged and the rest still load.

The bot spends as little as discord.py allows on gateway events it does not use: it asks only for the
intents it needs (:func:`bot_intents`) and keeps no message cache.

Every interaction the bot handles passes :meth:`CardTableBot.admit` first, through discord.py's public
hooks that run first in the interaction's own task: the command tree's ``interaction_check``
(:class:`CardTableTree`), the table components' (``cogs.tables.components``) and the component listeners
of the cogs. While the bot stops it answers :data:`bot.shutdown.RESTARTING` and nothing else handles the
interaction; otherwise it gives the database writes the interaction leads to their deadline
(:mod:`bot.press_deadline`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from art import table_picture
from bot import press_deadline
from bot.backups import take_backup
from bot.endpoints import ServerShardedBot
from bot.health import HealthReporter
from bot.interaction_relay import InteractionRelay
from bot.scheduler import TableScheduler
from bot.settings import Settings
from bot.shards import shard_owns_guild
from bot.shutdown import RESTARTING
from cogs import card_emojis
from storage import Database, error_line, is_locked, is_unreachable

log = logging.getLogger(__name__)

PICTURE_WARM_DELAY_SECONDS = 30.0
"""Seconds after start before every card face is scaled for the table pictures (see ``_warm_pictures``)."""

EXTENSIONS = ("cogs.tables", "cogs.leaderboard", "cogs.stats", "cogs.replay", "cogs.rules")


class StartupError(Exception):
    """The bot cannot start as configured; ``str(error)`` is one line for the admin."""


def bot_intents() -> discord.Intents:
    """The gateway intents the bot needs, none privileged.

    - ``guilds``: the servers and channels the bot is in (discord.py's guild cache, ``bot.guilds``).
    - ``guild_messages``: ``MESSAGE_DELETE`` in server channels, so a deleted table message is posted
      again (``on_raw_message_delete``). It also brings every ``MESSAGE_CREATE`` / ``MESSAGE_UPDATE`` of
      those channels, which the bot does not listen to.

    Slash commands, buttons and menus arrive as interactions, which need no intent. Everything else the
    default intents would bring (typing, reactions, DMs, voice, emojis, invites, ...) is never sent.
    """
    return discord.Intents(guilds=True, guild_messages=True)


INTERACTIONS_KEPT = 64  # interactions remembered before the answered and the old ones are forgotten


class CardTableTree(app_commands.CommandTree):
    """discord.py's command tree whose every slash command (and autocomplete) passes the bot's gate
    (:meth:`CardTableBot.admit`) before its callback, in the same task."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Whether the command is run: not while the bot stops (answered "restarting"; an autocomplete
        gets no answer)."""
        admit = getattr(self.client, "admit", None)
        return True if admit is None else await admit(interaction)


class CardTableBot(ServerShardedBot):
    """The card-table bot: discord.py's sharded bot (logging in at ``settings.discord_api_base``:
    :class:`bot.endpoints.ServerShardedBot`, its slash commands in a :class:`CardTableTree`), holding the
    shards ``settings.shard_ids`` of ``settings.shard_count`` (default: every shard of Discord's recommended
    count, in this process).

    A process owns the guilds of its shards and their tables (:meth:`owns_guild`); with ``SHARD_IDS`` the
    other shards' guilds are other processes', which share the PostgreSQL database, and an interaction from
    a DM about one of their tables is relayed to them (:attr:`relay`).

    Parameters
    ----------
    settings:
        The configuration (token, API base, database, timings).
    database:
        An open database; by default the one ``settings.database_url`` names is opened in ``setup_hook``.
    """

    def __init__(self, settings: Settings, database: Database | None = None) -> None:
        # A card table never joins voice: skip discord.py's start-up warnings about voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            api_base=settings.discord_api_base,  # logs in there, see ServerShardedBot.login
            tree_cls=CardTableTree,
            command_prefix=commands.when_mentioned,  # no prefix commands: slash commands and buttons only
            intents=bot_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # no message cache: nothing reads old messages from it
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
        )
        self.settings = settings
        # Relays interactions from DMs about other processes' tables (set in setup_hook with SHARD_IDS).
        self.relay: InteractionRelay | None = None
        self._database = database
        self._owns_database = database is None
        self.scheduler = TableScheduler(timezone="UTC")
        self.draining = False  # set when the bot stops (bot.shutdown): admit answers "restarting"
        # Set once the extensions are loaded (tables restored, handlers in place): interactions relayed by
        # other processes are taken from then on, before discord.py's ready (InteractionRelay._receive).
        self.acting = asyncio.Event()
        self._interactions: dict[discord.Interaction, float] = {}
        self._sweep_at = INTERACTIONS_KEPT  # how many kept interactions make the next one sweep them
        self.card_emoji_sync: asyncio.Task[card_emojis.SyncReport] | None = None
        self.pictures_warmed: asyncio.Task[None] | None = None
        self.health = HealthReporter(self, settings.health_path)
        # custom_id prefixes of components answered by a cog other than the tables' (e.g. "rp:" for replay
        # buttons): the tables cog, which answers every other press, leaves these to their cog.
        self.component_prefixes: set[str] = set()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction" and args:
            self.track_interaction(args[0])
        super().dispatch(event_name, *args, **kwargs)

    def track_interaction(self, interaction: discord.Interaction) -> None:
        """Remember an interaction until it is answered (a stop waits for it); forget those older than
        Discord's answer window, so the bot keeps only the last few seconds' presses.

        The kept ones are swept when they reach twice as many as the last sweep left (at least
        :data:`INTERACTIONS_KEPT`): a burst of presses all still waiting for their answer costs each one
        a constant share of a sweep, not a sweep of all the others."""
        now = time.monotonic()
        interactions = self._interactions
        if len(interactions) >= self._sweep_at:
            oldest = now - 3.0
            for old, received in list(interactions.items()):
                if received < oldest or old.response.is_done():
                    del interactions[old]
            self._sweep_at = max(INTERACTIONS_KEPT, 2 * len(interactions))
        interactions[interaction] = now

    def interactions_in_flight(self) -> list[discord.Interaction]:
        """Interactions received in the last 3 seconds (Discord's answer window) and not yet answered."""
        oldest = time.monotonic() - 3.0
        for interaction, received in list(self._interactions.items()):
            if received < oldest or interaction.response.is_done():
                del self._interactions[interaction]
        return list(self._interactions)

    async def admit(self, interaction: discord.Interaction) -> bool:
        """The gate in front of every interaction the bot handles, called first in the interaction's own
        task (``interaction_check``, a component listener).

        While the bot stops (:attr:`draining`), answer it with :data:`bot.shutdown.RESTARTING` (an
        autocomplete gets no answer) and return False: the caller then does nothing more with it.
        Otherwise give the database writes the rest of this task leads to until
        :data:`bot.press_deadline.PRESS_WRITE_SECONDS` from now (:func:`bot.press_deadline.start`) and
        return True."""
        if self.draining:
            await self.answer_restarting(interaction)
            return False
        press_deadline.start()
        return True

    @staticmethod
    async def answer_restarting(interaction: discord.Interaction) -> None:
        """Answer ``interaction`` with :data:`bot.shutdown.RESTARTING` (the bot is stopping); an
        autocomplete gets no answer, nor one answered already."""
        if interaction.type is discord.InteractionType.autocomplete or interaction.response.is_done():
            return
        try:
            await interaction.response.send_message(RESTARTING, ephemeral=True)
        except discord.HTTPException:
            log.warning("Could not tell a player the bot is restarting", exc_info=True)

    def owns_guild(self, guild_id: int) -> bool:
        """True if this process holds the shard of guild ``guild_id`` (Discord's rule: shard =
        ``(guild_id >> 22) % shard_count``), so its tables are this process's to run. Always True
        without ``SHARD_IDS``."""
        return shard_owns_guild(self.settings.shard_count, self.settings.shard_ids, guild_id)

    @property
    def db(self) -> Database:
        """The open database.

        Raises
        ------
        RuntimeError
            Before ``setup_hook`` has opened it.
        """
        if self._database is None:
            raise RuntimeError("the database is not open yet")
        return self._database

    async def setup_hook(self) -> None:
        if self._database is None:
            self._database = await Database.open(
                self.settings.database_url, pool_size=self.settings.database_pool_size
            )
        problems = await self.db.integrity_problems()
        if problems:
            found = " ".join(" ".join(problems).split())[:200]
            raise StartupError(
                f"the database {self.db.target.shown} is damaged ({found}): restore the latest "
                "backup (see the README, 'Backups')"
            )
        if not self.settings.holds_every_shard:
            await self._open_relay()
        self.scheduler.start()
        self.health.start()
        if self.db.dialect == "postgresql":
            log.info(
                "The database is PostgreSQL (%s): the bot takes no backups of it; back it up with pg_dump "
                "(see the README, 'Backups')",
                self.db.target.shown,
            )
        elif self.settings.backup_interval_minutes > 0:
            await self.back_up_database()  # one at start: a bot restarted more often than the interval
            self.scheduler.add_job(
                self.back_up_database,
                "interval",
                minutes=self.settings.backup_interval_minutes,
                id="database-backup",
                replace_existing=True,
                coalesce=True,
                max_instances=1,
            )
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("Could not load extension %s", extension)
        self.tree.on_error = self._on_app_command_error
        self.acting.set()
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as error:
                raise StartupError(
                    f"cannot sync slash commands to DEV_GUILD_ID {self.settings.dev_guild_id}: the bot is "
                    f"not in that server, or was invited without the applications.commands scope ({error})"
                ) from None
        else:
            synced = await self.tree.sync()
        log.info("Synced %d slash commands", len(synced))
        if self.settings.card_emoji_decks:  # in the background: presses never wait for uploads
            self.card_emoji_sync = card_emojis.start_sync(self, self.settings.card_emoji_decks)
        self.pictures_warmed = asyncio.create_task(self._warm_pictures(), name="warm table pictures")

    async def _open_relay(self) -> None:
        """Start relaying DM interactions to and from the processes holding the other shards."""
        try:
            self.relay = await InteractionRelay.open(self, self.settings.database_url)
        except Exception as error:
            raise StartupError(
                "cannot listen on the database for interactions relayed between processes: "
                + error_line(error, self.settings.database_url)
            ) from None
        log.info("Holding shards %s of %s", self.settings.shard_ids, self.settings.shard_count)

    async def back_up_database(self) -> Path | None:
        """Write a consistent backup of the database into the backup folder and keep the newest
        ``backup_keep`` of them (:func:`bot.backups.take_backup`). Returns the new file, or ``None`` if the
        backup failed (logged)."""
        try:
            target = await take_backup(self.db, self.settings.backup_path, self.settings.backup_keep)
        except Exception:
            log.exception("The database backup to %s failed", self.settings.backup_path)
            return None
        log.info("Database backed up to %s", target)
        return target

    async def on_ready(self) -> None:
        log.info("Ready as %s in %d servers", self.user, len(self.guilds))
        self.health.report_soon()

    async def _on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Every failed slash command still gets an answer; bugs are logged."""
        cause = getattr(error, "original", error)
        if isinstance(error, discord.app_commands.TransformerError | discord.app_commands.CheckFailure):
            text = "That option is not valid here."
        elif is_unreachable(cause):  # the PostgreSQL server is away
            log.warning("A slash command found the database not answering: %s", error_line(cause))
            text = "The database is not answering, so that did not happen. Please try again in a moment."
        elif is_locked(cause):  # another program holds the write lock
            log.warning("A slash command found the database locked by another program")
            text = "The database is busy, so that did not happen. Please try again in a moment."
        else:
            log.error("Slash command failed", exc_info=error)
            text = "Something went wrong on my side. Please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("Could not tell the user about a failed command", exc_info=True)

    @staticmethod
    async def _warm_pictures() -> None:
        """Scale every card face for the table pictures once (:func:`art.table_picture.warm`), in a
        worker thread, :data:`PICTURE_WARM_DELAY_SECONDS` (seconds) after start: not while the start
        restores tables and answers its first presses (warming at once made restarts measurably slower, as
        ``tests/e2e/test_crash_recovery.py``'s restarts showed). Until then a face is scaled on its first
        use, mostly in the worker thread that draws a table's picture ahead of its answer."""
        await asyncio.sleep(PICTURE_WARM_DELAY_SECONDS)
        await asyncio.get_running_loop().run_in_executor(None, table_picture.warm)

    async def close(self) -> None:
        if self.pictures_warmed is not None:
            self.pictures_warmed.cancel()
            self.pictures_warmed = None
        if self.card_emoji_sync is not None:
            self.card_emoji_sync.cancel()
            await asyncio.gather(self.card_emoji_sync, return_exceptions=True)
            self.card_emoji_sync = None
            card_emojis.CARD_EMOJIS.clear()
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        await self.health.stop()
        if self.relay is not None:
            await self.relay.close()
            self.relay = None
        await super().close()
        if self._owns_database and self._database is not None:
            await self._database.close()
            self._database = None
