"""Tables in channels: the slash commands (``/play``, ``/hand``, ``/table``) and the entry points of
presses and gateway events. One table per channel.

The work is done by the table runtime (:class:`engine.tables.runtime.TableRuntime`, Discord-free) and
shown by :class:`~cogs.tables.presenter.DiscordPresenter`; this cog only turns commands into calls on
them, and hands the table components to :class:`~cogs.tables.presses.TablePresses` (discord.py's dynamic
items, :mod:`cogs.tables.components`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import ratings_admin
from cogs.press_limits import press_limits_of
from cogs.tables import dm_routing, server_defaults, turn_choice
from cogs.tables.assembly import assemble
from cogs.tables.components import answer_unclaimed, table_items
from cogs.tables.dm_routing import DmRouting
from cogs.tables.limited_presses import LimitedPresses
from cogs.tables.opening import TableRequest, open_table
from cogs.tables.presses import reply
from cogs.tables.server_defaults import TableLimitsGiven
from cogs.tables.table_limits import AI_TABLES, MEMBER_LOBBIES, SERVER_TABLES
from engine import GAMES
from engine.ai.registry import LEVELS, NORMAL
from engine.core import plural
from engine.tables.moves import AdminEnd
from engine.tables.session import TableError, TableSession
from engine.tables.tasks import Supervisor

if TYPE_CHECKING:
    from cogs.host import Host

log = logging.getLogger(__name__)

COG_NAME = "Tables"
GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]
CLOCK_CHOICES = [
    app_commands.Choice(name="fixed clock per decision", value="fixed"),
    app_commands.Choice(name="time bank per player", value="bank"),
    app_commands.Choice(name="slow mode (hours per decision, DM on your turn)", value="slow"),
]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]


class TablesCog(commands.Cog, name=COG_NAME):
    """Hosts the tables of every channel the bot is in."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        self.settings = bot.settings
        parts = assemble(bot)
        self.registry = parts.runtime.registry
        self.runtime, self.messages, self.private_views = parts.runtime, parts.messages, parts.private_views
        self.presses, self.turn_alerts, self.limits = parts.presses, parts.turn_alerts, parts.limits
        self.queues = parts.queues  # the queues' cog (cogs.tables.queue_cog) shares them
        # Every press passes the member's press limit (and the server's table limits) first.
        self.gate = LimitedPresses(self.presses, press_limits_of(bot), self.limits, self.registry)
        # What every table press and /hand pass first: "restarting" while the bot stops, the write
        # deadline, and with SHARD_IDS the relay of DMs about other processes' tables.
        self.routing = DmRouting(bot, self.registry, self.gate, self.show_hand)
        self.items = table_items(self.gate, self.routing)  # the components, as discord.py's dynamic items
        self._restoring = Supervisor()

    async def cog_load(self) -> None:
        """Restore every table of this process's guilds stored when the bot stopped (or crashed), with
        the messages that show it (read first, so each is edited, not posted again), its clocks re-armed
        (a deadline that passed meanwhile is applied at once). Each game is replayed from its log when first
        needed (a press, a clock, ``/hand``), the rest in the background once connected; each replayed
        table's message is then redrawn with working buttons and its AI seats play on.

        Then the table components' dynamic items are registered: discord.py dispatches their presses from
        now on (:mod:`cogs.tables.components`)."""
        dm_routing.attach(self.bot, self.routing)
        sharded = not self.settings.holds_every_shard
        await self.messages.ids.load(self.bot.owns_guild if sharded else None)  # before any is shown
        restored = await self.runtime.restore(self.bot.owns_guild if sharded else None)
        await self.turn_alerts.load_left(self.bot.owns_guild if sharded else None)  # a crash's turn lines
        if restored:
            log.info("Restored %s", plural(restored, "table"))
        # Not among the runtime's tasks, which a stop waits for: replaying thousands of games may take longer.
        self._restoring.spawn(self._finish_restoring_when_ready(), "replay and redraw of restored tables")
        self.bot.add_dynamic_items(*self.items)

    async def _finish_restoring_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        registry = self.registry
        self._restoring.spawn(  # the turn lines a crash left at tables gone; a restored table settles its own
            self.turn_alerts.delete_left(lambda table: table in registry.tables or table in registry.waiting),
            "turn lines of tables gone",
        )
        await self.runtime.finish_restoring(self._shown_again)
        await self.turn_alerts.delete_left(lambda table: False)  # those of tables that did not come back

    def _shown_again(self, session: TableSession) -> None:
        self.messages.refresh(session)
        self.turn_alerts.restored(session)  # turn lines from before kept if still valid, fresh ones else

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.items)
        dm_routing.detach(self.bot)
        await self.turn_alerts.take_back_all(timeout=2.0)  # a restart sends fresh ones
        for session in list(self.registry.tables.values()):
            self.runtime.clocks.disarm_all(session)
        self.runtime.clocks.disarm_waiting()
        self._restoring.cancel_all()
        self.runtime.tasks.cancel_all()

    # -- slash commands --------------------------------------------------------------------------

    @app_commands.command(name="play")
    @app_commands.describe(
        game="The game to play",
        turn_seconds="Seconds each player has per decision (fixed clock)",
        clock="Fixed clock, time bank or slow mode (the host can change it in the lobby)",
        bots="AI players to seat beside you (the host can add and remove them in the lobby too)",
        level="The AI players' level: easy, normal or hard (the host can change each in the lobby)",
        thread="Open the table in a new thread of this channel (default: the server's choice)",
    )
    @app_commands.choices(game=GAME_CHOICES, clock=CLOCK_CHOICES, level=LEVEL_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        turn_seconds: app_commands.Range[int, 1, 86400] | None = None,
        clock: str = "fixed",
        bots: app_commands.Range[int, 0, 9] = 0,
        level: str = NORMAL,
        thread: bool | None = None,
    ) -> None:
        """Open a table for a card game in this channel (or in a new thread of it)."""
        request = TableRequest(game, turn_seconds, clock, bots, level, thread)
        await open_table(
            interaction,
            request,
            host=self.bot,
            runtime=self.runtime,
            messages=self.messages,
            limits=self.limits,
        )

    admin = app_commands.Group(
        name="table",
        description="Admin tools for the card tables of this server",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @admin.command(name="end")
    async def end_table(self, interaction: discord.Interaction) -> None:
        """End the table in this channel (a stuck game is closed without a result)."""
        if not await server_defaults.check_manager(interaction):
            return
        session = self.registry.channel_table(interaction.channel_id or 0)
        if session is None:
            await interaction.response.send_message("There is no table in this channel.", ephemeral=True)
            return
        try:
            await self.runtime.commit(session, AdminEnd(interaction.user.display_name), wait=None)
        except TableError:
            await interaction.response.send_message("That table has just closed.", ephemeral=True)
            return
        await interaction.response.send_message(
            f"The {session.rules.display_name} table is closed.", ephemeral=True
        )

    @admin.command(name="defaults")
    @app_commands.describe(
        turn_seconds="Seconds per decision when /play does not say (leave all empty to reset)",
        min_games=(
            "Rated games a player needs in a game to leave the leaderboard's provisional list (default 5)"
        ),
        count_ai_games="Whether games with AI players count on this server's leaderboard (on at first)",
        threads="Open each new table in a new thread of its channel when /play does not say",
        turn_mentions="Mention players in the channel when it is their turn (on at first)",
        hints_in_rated=(
            "Offer Hint in rated games too; the scoreboard shows each player's hints (off at first)"
        ),
        member_lobbies=f"Open lobbies one member may host at once (0: no limit; {MEMBER_LOBBIES} at first)",
        max_tables=f"Lobbies and games this server may have at once (0: no limit; {SERVER_TABLES} at first)",
        ai_tables=(f"Games AI players may finish with no person seated (0: no limit; {AI_TABLES} at first)"),
        queue_ai_after="Minutes a queue waits before AI players fill its table (0: never, as at first)",
    )
    async def set_defaults(
        self,
        interaction: discord.Interaction,
        turn_seconds: app_commands.Range[int, 1, 86400] | None = None,
        min_games: app_commands.Range[int, 1, 1000] | None = None,
        count_ai_games: bool | None = None,
        threads: bool | None = None,
        turn_mentions: bool | None = None,
        hints_in_rated: bool | None = None,
        member_lobbies: app_commands.Range[int, 0, 100] | None = None,
        max_tables: app_commands.Range[int, 0, 900] | None = None,
        ai_tables: app_commands.Range[int, 0, 900] | None = None,
        queue_ai_after: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        """Set this server's defaults: turn length, the leaderboards' minimum of games, whether games with
        AIs count, tables in threads, turn mentions, hints in rated games, the limits on tables, queues'
        AI fill."""
        await server_defaults.set_defaults(
            self.bot,
            interaction,
            self.turn_alerts.choices,
            turn_seconds=turn_seconds,
            min_games=min_games,
            count_ai_games=count_ai_games,
            threads=threads,
            turn_mentions=turn_mentions,
            hints_in_rated=hints_in_rated,
            limits=TableLimitsGiven(member_lobbies, max_tables, ai_tables),
            queue_ai_after=queue_ai_after,
            queues=self.queues,
        )

    @admin.command(name="season")
    async def new_season(self, interaction: discord.Interaction) -> None:
        """Start a new rating season here (the current ratings are archived)."""
        if await server_defaults.check_manager(interaction):
            await ratings_admin.start_season(self.bot.db, interaction)

    @admin.command(name="forget")
    @app_commands.describe(member="The member whose ratings, stats and history to erase from this server")
    async def forget(self, interaction: discord.Interaction, member: discord.User) -> None:
        """Erase a member's ratings, stats and history from this server."""
        if await server_defaults.check_manager(interaction):
            await ratings_admin.forget_member(self.bot.db, interaction, member)

    @app_commands.command(name="hand")
    @app_commands.describe(dm="Also send it by DM, now and whenever it becomes your turn")
    async def hand(self, interaction: discord.Interaction, dm: bool = False) -> None:
        """Show your hand at the table in this channel (only you can see it)."""
        if not await self.routing.relayed(interaction):  # a DM about another process's table: relayed
            await self.show_hand(interaction, dm)

    async def show_hand(self, interaction: discord.Interaction, dm: bool) -> None:
        """``/hand``'s work: the player's private view of their table here (or, from a DM, of their table),
        ephemerally or (``dm``) by DM too; the command's interaction, or one relayed from another process
        (:meth:`DmRouting.run <cogs.tables.dm_routing.DmRouting.run>`)."""
        channel_id = interaction.channel_id if interaction.guild_id is not None else None
        session = self.registry.table_of_player(interaction.user.id, channel_id)
        if session is None:
            seated = self.registry.channels_of_player(interaction.user.id)
            where = f" You sit at a table in <#{seated[0]}>: use `/hand` there." if seated else ""
            await interaction.response.send_message(
                "You are not playing at a table here. Join one with its **Join** button, or open one "
                f"with `/play`.{where}",
                ephemeral=True,
            )
            return
        try:
            if dm:
                await self.private_views.dm_hand(interaction, session)
            else:
                await self.private_views.show(interaction, session)
        except TableError as refusal:
            await reply(interaction, str(refusal))

    @app_commands.command(name="turns")
    @app_commands.describe(how="How your turns find you", scope="This table, or every table of this server")
    @app_commands.choices(how=turn_choice.HOW_CHOICES, scope=turn_choice.SCOPE_CHOICES)
    async def turns(self, interaction: discord.Interaction, how: str, scope: str = "table") -> None:
        """Choose how your turns find you: a mention in the channel, a DM, or nothing."""
        await turn_choice.choose(self.runtime, self.turn_alerts.choices, interaction, how, scope)

    # -- gateway events ----------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the component presses no dynamic item takes, but other cogs'
        (:func:`~cogs.tables.components.answer_unclaimed`, past the gate)."""
        if interaction.type is discord.InteractionType.component:
            await answer_unclaimed(self.gate, interaction, self.bot.component_prefixes, self.routing)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted a message: if it was a table message, post the table again, so the game goes on."""
        session = self.registry.channel_table(payload.channel_id)
        if session is not None:
            self.messages.deleted(session, payload.message_id)
