"""``/gamenight create``, ``edit`` and ``cancel`` (members with Manage Events), and the sign-up buttons.

``create`` stores the night (:mod:`storage.nights`), creates its Discord guild scheduled event (external,
its location the night's channel, its end an estimate of :data:`ROUND_MINUTES` per round) and posts the
sign-up message (:mod:`cogs.nights.signups`). ``edit`` moves the start or changes the rounds of the next
night of the channel, and the event with it; ``cancel`` cancels both. Every refusal is an ephemeral answer
that changes nothing.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.nights import signups
from cogs.nights.runner import NightRunner
from cogs.nights.standings import played_rounds, standings_text
from cogs.nights.start_time import HELP, StartTimeError, parse_start
from cogs.press_limits import admit_press
from cogs.tables import threads
from cogs.tables.components import answer_not_mine
from cogs.tables.table_message import missing_permissions
from engine import GAMES
from engine.core import plural
from engine.nights import Format
from engine.tables.tasks import Supervisor
from storage.nights import CANCELED, IN, OVER, RUNNING, SCHEDULED, StoredNight, StoredSignup

if TYPE_CHECKING:
    from cogs.host import Host
    from cogs.tables.cog import TablesCog

log = logging.getLogger(__name__)

ROUND_MINUTES = 60
"""The estimate of a round's length that sets the scheduled event's end (minutes)."""
REMIND_MINUTES = 15
"""Minutes before the start a night reminds its players."""
MAX_ROUNDS = 10
GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]
FORMAT_CHOICES = [
    app_commands.Choice(name="Rounds re-seated by standings", value=Format.SWISS.value),
    app_commands.Choice(name="Knockout to a final table", value=Format.KNOCKOUT.value),
    app_commands.Choice(name="Casual: seated at random", value=Format.RANDOM.value),
]
NO_NIGHT = "There is no game night planned in this channel: `/gamenight create` plans one."
GONE = "That game night is over or was canceled: nothing changed."
_TEMPLATE = re.compile(signups.TEMPLATE)
MANAGERS = "Only members with the **Manage Events** permission can plan, edit or cancel game nights."


def may_manage(interaction: discord.Interaction) -> bool:
    """True if the member may plan nights here (Manage Events, or Administrator)."""
    permissions = interaction.permissions
    return interaction.guild_id is not None and (permissions.manage_events or permissions.administrator)


def bot_refusal(interaction: discord.Interaction, channel: object, me: discord.Member) -> str | None:
    """Why the bot cannot run a night in ``channel`` (words for the member), or ``None``: the bot's
    permissions as the interaction tells them (Create Events), and in ``channel`` as discord.py computes
    them (a table's and a thread's)."""
    if not isinstance(channel, discord.TextChannel):
        return "A night's tables open in threads of a text channel: pick a text channel."
    mine = interaction.app_permissions
    if not (mine.create_events or mine.manage_events):
        return (
            "I can't create the server's event for the night: I am missing the **Create Events** permission. "
            "A server admin can grant it to my role in the server's settings (Roles)."
        )
    permissions = mine if channel.id == interaction.channel_id else channel.permissions_for(me)
    missing = missing_permissions(permissions) + threads.missing_thread_permissions(permissions)
    if missing:
        return (
            f"I can't run a night in {channel.mention}: I am missing the **{', '.join(missing)}** permission "
            "there. A server admin can grant it in the channel's settings (Permissions)."
        )
    return None


def event_end(night: StoredNight) -> datetime:
    """The scheduled event's end: the start and :data:`ROUND_MINUTES` per round (aware UTC)."""
    return night.starts_at + timedelta(minutes=ROUND_MINUTES * night.rounds)


class NightButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=signups.TEMPLATE):
    """A sign-up button (``night:in:<id>``, ``night:out:<id>``) as discord.py dispatches it; register the
    class :meth:`NightsCog.items` binds to a cog, not this one."""

    cog: ClassVar[NightsCog]

    def __init__(self, item: discord.ui.Button[Any], verb: str = IN, night_id: int = 0) -> None:
        super().__init__(item)
        self.verb, self.night_id = verb, night_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NightButton:
        return cls(item, match["verb"], int(match["night"]))  # type: ignore[arg-type]

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """The bot's gate, then the member's press limit (:func:`cogs.press_limits.admit_press`)."""
        return await admit_press(self.cog.bot, interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Sign the member in or out, and redraw the sign-up message through the answer."""
        await self.cog.sign(interaction, self.night_id, self.verb)


class NightsCog(commands.Cog, name="Game nights"):
    """The game nights of every server (see the module)."""

    gamenight = app_commands.Group(
        name="gamenight", description="Game nights: plan one, with rounds of tables", guild_only=True
    )

    def __init__(self, bot: Host, tables: TablesCog) -> None:
        self.bot = bot
        self.runner = NightRunner(bot, tables.runtime, tables.messages)
        self.tasks = Supervisor(expected=(discord.HTTPException,))
        self.items = (type(NightButton.__name__, (NightButton,), {"cog": self}, template=signups.TEMPLATE),)

    async def cog_load(self) -> None:
        """Register the sign-up buttons' dynamic item; once connected, arm the stored nights' jobs (their
        starts, or the watch of their rounds)."""
        self.bot.component_prefixes.add(signups.PREFIX)
        self.bot.add_dynamic_items(*self.items)
        self.tasks.spawn(self._when_ready(), "game nights' jobs after a restart")

    async def _when_ready(self) -> None:
        await self.bot.wait_until_ready()
        await self.runner.arm_all()

    async def cog_unload(self) -> None:
        self.tasks.cancel_all()
        self.bot.remove_dynamic_items(*self.items)
        self.bot.component_prefixes.discard(signups.PREFIX)

    # -- commands ----------------------------------------------------------------------------------

    @gamenight.command(name="create")
    @app_commands.describe(
        game="The game the night plays",
        start=HELP,
        format="How the rounds after the first are seated (default: re-seated by standings)",
        rounds="How many rounds (default 3)",
        channel="The channel whose threads hold the tables (default: this one)",
        remind="Minutes before the start to mention everyone in (default 15; 0: no reminder)",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        start: str,
        format: str = Format.SWISS.value,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        channel: discord.TextChannel | None = None,
        remind: app_commands.Range[int, 0, 1440] = REMIND_MINUTES,
    ) -> None:
        """Plan a game night: a server event, a sign-up message, and rounds of tables at the start."""
        refusal = await self._refusal(interaction, game, format, channel)
        if refusal is None:
            try:
                starts_at = parse_start(start, discord.utils.utcnow())
            except StartTimeError as error:
                refusal = str(error)
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        assert interaction.guild is not None
        where = channel or interaction.channel
        assert isinstance(where, discord.TextChannel)
        await interaction.response.defer(ephemeral=True, thinking=True)
        night = StoredNight(
            interaction.id,
            interaction.guild.id,
            where.id,
            (game,),
            starts_at,
            Format(format).value,
            rounds,
            True,
            remind,
            interaction.id & 0xFFFFFFFF,
            interaction.user.id,
        )
        try:
            event = await interaction.guild.create_scheduled_event(
                name=signups.night_title(night)[:100],
                description=signups.describe(night, where.name),
                start_time=starts_at,
                end_time=event_end(night),
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=f"#{where.name}"[:100],
            )
        except discord.Forbidden:
            await interaction.edit_original_response(
                content="Discord did not let me create the server's event: I need the **Create Events** "
                "permission. Nothing was planned."
            )
            return
        except discord.HTTPException as error:
            await interaction.edit_original_response(
                content=f"Discord did not let me create the server's event ({error.text}). "
                "Nothing was planned."
            )
            return
        night = night.but(event_id=event.id)
        await self.bot.db.put_night(night)
        try:
            message = await where.send(
                signups.board_text(night, []),
                view=signups.board_view(night),  # type: ignore[arg-type]
            )
        except discord.HTTPException as error:
            await interaction.edit_original_response(
                content="The event is made, but Discord did not let me post the sign-up message "
                f"({error.text})."
            )
            return
        night = night.but(signup_message_id=message.id)
        await self.bot.db.put_night(night)
        self.runner.arm(night)
        await interaction.edit_original_response(
            content=f"The game night is planned: the server's event is made and the sign-up message is in "
            f"{where.mention}: {message.jump_url}"
        )

    @gamenight.command(name="edit")
    @app_commands.describe(start=HELP, rounds="How many rounds")
    async def edit(
        self,
        interaction: discord.Interaction,
        start: str | None = None,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
    ) -> None:
        """Move the start, or change the rounds, of this channel's next game night (and its event)."""
        night, refusal = await self._next_night(interaction)
        changes: dict[str, Any] = {}
        if night is not None and start is not None:
            try:
                changes["starts_at"] = parse_start(start, discord.utils.utcnow())
            except StartTimeError as error:
                refusal = str(error)
        if night is not None and refusal is None and start is None and rounds is None:
            refusal = "Give a new `start`, or a number of `rounds`: nothing changed."
        if night is None or refusal is not None:
            await interaction.response.send_message(refusal or NO_NIGHT, ephemeral=True)
            return
        if rounds is not None:
            changes["rounds"] = rounds
        await interaction.response.defer(ephemeral=True, thinking=True)
        changed = night.but(**changes)
        assert interaction.guild is not None
        if night.event_id is not None:
            try:
                event = await interaction.guild.fetch_scheduled_event(night.event_id)
                await event.edit(
                    start_time=changed.starts_at,
                    end_time=event_end(changed),
                    description=signups.describe(changed, self._channel_name(changed)),
                )
            except discord.HTTPException as error:
                await interaction.edit_original_response(
                    content=f"Discord did not let me change the server's event ({error.text}): "
                    "nothing changed."
                )
                return
        await self.bot.db.put_night(changed)
        self.runner.arm(changed)
        await self._redraw(changed)
        start_at = int(changed.starts_at.timestamp())
        await interaction.edit_original_response(
            content=f"The game night now starts <t:{start_at}:F> and plays {plural(changed.rounds, 'round')}."
        )

    @gamenight.command(name="cancel")
    async def cancel(self, interaction: discord.Interaction) -> None:
        """Cancel this channel's next game night, and its server event."""
        night, refusal = await self._next_night(interaction)
        if night is None:
            await interaction.response.send_message(refusal or NO_NIGHT, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild is not None
        if night.event_id is not None:
            try:
                event = await interaction.guild.fetch_scheduled_event(night.event_id)
                await event.cancel()
            except discord.NotFound:
                pass  # deleted by someone: the night is canceled all the same
            except discord.HTTPException as error:
                await interaction.edit_original_response(
                    content=f"Discord did not let me cancel the server's event ({error.text}): "
                    "nothing changed."
                )
                return
        canceled = night.but(state=CANCELED)
        await self.bot.db.put_night(canceled)
        self.runner.disarm(night.night_id)
        await self._redraw(canceled)
        await interaction.edit_original_response(content="The game night and its server event are canceled.")

    @gamenight.command(name="start")
    async def start_now(self, interaction: discord.Interaction) -> None:
        """Start this channel's next game night now: its first round's tables open in threads here."""
        night, refusal = await self._next_night(interaction)
        if night is None:
            await interaction.response.send_message(refusal or NO_NIGHT, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        refusal = await self.runner.start(night.night_id)
        await interaction.edit_original_response(
            content=refusal or "The game night has started: its tables are open in threads of this channel."
        )

    @gamenight.command(name="standings")
    async def standings_command(self, interaction: discord.Interaction) -> None:
        """Show the standings of this channel's latest game night."""
        nights = [] if interaction.guild_id is None else await self.bot.db.guild_nights(interaction.guild_id)
        here = [n for n in nights if n.channel_id == interaction.channel_id and n.state in (RUNNING, OVER)]
        if not here:
            await interaction.response.send_message(
                "No game night has started in this channel yet.", ephemeral=True
            )
            return
        night = here[0]
        tables = await self.bot.db.night_tables(night.night_id)
        rows = await self.bot.db.signups(night.night_id)
        sat = {player for table in tables for player in table.players}
        names = {row.user_id: row.name for row in rows if row.user_id in sat}
        played = played_rounds(tables, rows)
        await interaction.response.send_message(
            standings_text(night, names, played, night.state == OVER), ephemeral=True
        )

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a press with a ``night:`` custom_id that the sign-up buttons' dynamic item does not take
        (forged, or no longer on its message): "not one of mine", nothing changed."""
        await answer_not_mine(interaction, signups.PREFIX, _TEMPLATE, self.bot.admit)

    # -- the work of a press ------------------------------------------------------------------------

    async def sign(self, interaction: discord.Interaction, night_id: int, verb: str) -> None:
        """The member presses I'm in or Not this time on the night's sign-up message."""
        night = await self.bot.db.night(night_id)
        if night is None or night.guild_id != interaction.guild_id or night.state in (CANCELED, OVER):
            await interaction.response.send_message(GONE, ephemeral=True)
            return
        user = interaction.user
        await self.bot.db.put_signup(
            night_id, StoredSignup(user.id, user.display_name, verb, discord.utils.utcnow())
        )
        players = await self._players(night)
        await interaction.response.edit_message(
            content=signups.board_text(night, players), view=signups.board_view(night)
        )

    # -- helpers -------------------------------------------------------------------------------------

    async def _players(self, night: StoredNight) -> list[signups.Member]:
        guild = self.bot.get_guild(night.guild_id)  # type: ignore[attr-defined]
        found = await signups.interested(guild, night.event_id) if guild is not None else []
        return signups.who_is_in(await self.bot.db.signups(night.night_id), found)

    async def _redraw(self, night: StoredNight) -> None:
        """Edit the night's sign-up message to show it as it is (a message gone is no matter)."""
        channel = self.bot.get_channel(night.channel_id)  # type: ignore[attr-defined]
        if night.signup_message_id is None or not isinstance(channel, discord.TextChannel):
            return
        try:
            await channel.get_partial_message(night.signup_message_id).edit(
                content=signups.board_text(night, await self._players(night)), view=signups.board_view(night)
            )
        except discord.HTTPException:
            log.info("Could not redraw the sign-up message of night %s", night.night_id)

    def _channel_name(self, night: StoredNight) -> str:
        channel = self.bot.get_channel(night.channel_id)  # type: ignore[attr-defined]
        return getattr(channel, "name", "the channel")

    async def _refusal(
        self, interaction: discord.Interaction, game: str, format: str, channel: discord.TextChannel | None
    ) -> str | None:
        if not may_manage(interaction):
            return MANAGERS
        if game not in GAMES:
            return "I don't know that game."
        if format not in {choice.value for choice in FORMAT_CHOICES}:
            return "I don't know that format: pick one of the choices."
        where = channel or interaction.channel
        guild = interaction.guild
        if guild is None or guild.me is None or where is None:
            return "Game nights live in server channels."
        if isinstance(where, discord.Thread):
            return (
                "A night's tables open in threads of a text channel: use it in a text channel, or pick one."
            )
        return bot_refusal(interaction, where, guild.me)

    async def _next_night(self, interaction: discord.Interaction) -> tuple[StoredNight | None, str | None]:
        """The channel's next planned night, or why there is none to change (words for the member)."""
        if not may_manage(interaction):
            return None, MANAGERS
        nights = await self.bot.db.nights((SCHEDULED,), lambda guild: guild == interaction.guild_id)
        here = [night for night in nights if night.channel_id == interaction.channel_id]
        return (here[0], None) if here else (None, NO_NIGHT)
