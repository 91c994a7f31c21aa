"""The bot: a discord.py ``commands.Bot`` (slash commands and components only) with its dependencies.

Settings, the database and the scheduler are passed in or made here and handed to the cogs through the
bot (``bot.settings``, ``bot.db``, ``bot.scheduler``). Extensions are loaded in ``setup_hook``; a failing
one is logged and the rest still load.
"""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import yarl
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from discord.ext import commands

from bot.settings import Settings
from storage import Database

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tables", "cogs.leaderboard")


class StartupError(Exception):
    """The bot cannot start as configured; ``str(error)`` is one line for the admin."""


class CardTableBot(commands.Bot):
    """The card-table bot.

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
            command_prefix=commands.when_mentioned,  # no prefix commands: slash commands and buttons only
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self._database = database
        self._owns_database = database is None
        self.scheduler = AsyncIOScheduler(timezone="UTC")

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

    async def login(self, token: str) -> None:
        """Log in against ``DISCORD_API_BASE`` and take the gateway URL from ``GET /gateway/bot``.

        discord.py itself would connect to Discord's default gateway; asking the server keeps the bot
        working against any Discord-compatible server.
        """
        discord.http.Route.BASE = self.settings.discord_api_base
        await super().login(token)
        _shards, url, _limits = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

    async def setup_hook(self) -> None:
        if self._database is None:
            self._database = await Database.open(self.settings.database_path)
        problems = await self.db.integrity_problems()
        if problems:
            found = " ".join(" ".join(problems).split())[:200]
            raise StartupError(
                f"the database {self.settings.database_path} is damaged ({found}): restore the latest "
                "backup (see the README, 'Backups')"
            )
        self.scheduler.start()
        if self.settings.backup_interval_minutes > 0:
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

    async def back_up_database(self) -> Path | None:
        """Write a consistent backup of the database into the backup folder and keep the newest
        ``backup_keep`` of them. Returns the new file, or ``None`` if the backup failed (logged)."""
        folder = self.settings.backup_path
        stamp = discord.utils.utcnow().strftime("%Y%m%d-%H%M%S-%f")
        target = folder / f"cardtable-{stamp}.sqlite3"
        try:
            await self.db.backup_to(target)
            backups = sorted(folder.glob("cardtable-*.sqlite3"))
            for old in backups[: -self.settings.backup_keep]:
                old.unlink(missing_ok=True)
        except Exception:
            log.exception("The database backup to %s failed", folder)
            return None
        log.info("Database backed up to %s", target)
        return target

    async def on_ready(self) -> None:
        log.info("Ready as %s in %d servers", self.user, len(self.guilds))

    async def _on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Every failed slash command still gets an answer; bugs are logged."""
        if isinstance(error, discord.app_commands.TransformerError | discord.app_commands.CheckFailure):
            text = "That option is not valid here."
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

    async def close(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        await super().close()
        if self._owns_database and self._database is not None:
            await self._database.close()
            self._database = None
