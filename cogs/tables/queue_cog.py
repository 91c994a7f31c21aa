"""The queues that find partners, on Discord: ``/queue join game:<game> [players]``, ``/queue leave``,
``/queue post`` (Manage Server) and the buttons of each channel's **Looking for a game** message
(:mod:`cogs.tables.queue_board`).

Queues live in server text channels (a table a queue fills opens in a new thread of the channel), where
the bot has a table's permissions and a thread's; anything else is refused with words for the member.
The work is the queues' (:class:`engine.tables.queues.TableQueues`); tables open through
:class:`~cogs.tables.queue_opening.QueueOpener`. Every answer is ephemeral; a join or a press that may
open a table is deferred first (opening a thread takes Discord several requests), then answered.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.press_limits import admit_press
from cogs.tables import server_defaults, threads
from cogs.tables.components import answer_not_mine
from cogs.tables.queue_board import PREFIX, TEMPLATE, QueueBoards
from cogs.tables.queue_opening import QueueOpener
from cogs.tables.table_message import missing_permissions
from engine import GAMES
from engine.tables.queues import QueueAnswer, TableQueues, size_refusal
from engine.tables.session import TableError
from engine.tables.tasks import Supervisor

if TYPE_CHECKING:
    from cogs.host import Host
    from cogs.tables.cog import TablesCog

log = logging.getLogger(__name__)

NOT_FINISHED = "Something went wrong on my side, so I could not finish that. Please try again in a moment."
GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]
_TEMPLATE = re.compile(TEMPLATE)


def channel_refusal(interaction: discord.Interaction) -> str | None:
    """Why the interaction's channel holds no queue (words for the member), or ``None``."""
    channel = interaction.channel
    if interaction.guild_id is None or channel is None:
        return "Queues live in server channels: use `/queue` in a channel of a server."
    if isinstance(channel, discord.Thread) or not isinstance(channel, discord.TextChannel):
        return (
            "Queues live in text channels, and their tables open in threads of them: use `/queue` in a text "
            "channel."
        )
    permissions = interaction.app_permissions
    missing = missing_permissions(permissions) + threads.missing_thread_permissions(permissions)
    if missing:
        return (
            f"I can't run a queue in this channel: I am missing the **{', '.join(missing)}** permission "
            "here. A server admin can grant it in the channel's settings (Permissions)."
        )
    return None


class QueueButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A board button (``queue:join:<game>``, ``queue:leave:any``) as discord.py dispatches it; register
    the class :meth:`QueueCog.items` binds to a cog, not this one."""

    cog: ClassVar[QueueCog]

    def __init__(self, item: discord.ui.Button[Any], verb: str = "leave", game: str = "any") -> None:
        super().__init__(item)
        self.verb, self.game = verb, game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QueueButton:
        return cls(item, match["verb"], match["game"])  # type: ignore[arg-type]

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """The bot's gate, then the member's press limit (:func:`cogs.press_limits.admit_press`)."""
        return await admit_press(self.cog.bot, interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Join the game's queue (at its smallest table), or leave the member's queue."""
        if self.verb == "join":
            rules = GAMES.get(self.game)
            if rules is None:
                await interaction.response.send_message("I don't know that game.", ephemeral=True)
                return
            await self.cog.join(interaction, self.game, rules.min_seats)
        else:
            await self.cog.leave(interaction)


class QueueCog(commands.Cog, name="Queue"):
    """The queues of every channel (see the module)."""

    queue = app_commands.Group(
        name="queue", description="Find players: wait in this channel's queue for a game", guild_only=True
    )

    def __init__(self, bot: Host, tables: TablesCog) -> None:
        self.bot = bot
        self.queues: TableQueues = tables.queues
        self.tasks = Supervisor(expected=(discord.HTTPException,))
        self.boards = QueueBoards(bot, self.queues, self.tasks)  # type: ignore[arg-type]
        self.queues.opener = QueueOpener(bot, tables.runtime, tables.messages, tables.limits)
        self.queues.changed = self.boards.refresh
        self.items = (type(QueueButton.__name__, (QueueButton,), {"cog": self}, template=TEMPLATE),)

    async def cog_load(self) -> None:
        """Read the stored queues and boards, then, once connected, redraw the boards and arm the AI-fill
        clocks; register the board buttons' dynamic item."""
        owns = None if self.bot.settings.holds_every_shard else self.bot.owns_guild
        waiting = await self.queues.load(owns)
        await self.boards.load(owns)
        if waiting:
            log.info("Restored queues with %s waiting", waiting)
        self.bot.component_prefixes.add(PREFIX)
        self.bot.add_dynamic_items(*self.items)
        self.tasks.spawn(self._when_ready(), "queue boards and clocks after a restart")

    async def _when_ready(self) -> None:
        await self.bot.wait_until_ready()
        self.boards.refresh_all()
        await self.queues.arm_all()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.items)
        self.bot.component_prefixes.discard(PREFIX)
        self.queues.disarm_all()
        self.tasks.cancel_all()

    # -- commands ----------------------------------------------------------------------------------

    @queue.command(name="join")
    @app_commands.describe(
        game="The game you want to play",
        players="How many players you want at the table, you included (default: the game's smallest table)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def join_command(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        """Wait in this channel's queue for a game: a table opens once enough players wait."""
        rules = GAMES.get(game)
        if rules is None:
            await interaction.response.send_message("I don't know that game.", ephemeral=True)
            return
        await self.join(interaction, game, rules.min_seats if players is None else players)

    @queue.command(name="leave")
    async def leave_command(self, interaction: discord.Interaction) -> None:
        """Stop waiting in the queue you are in on this server."""
        await self.leave(interaction)

    @queue.command(name="post")
    async def post_command(self, interaction: discord.Interaction) -> None:
        """Post (or post again) this channel's Looking for a game message (Manage Server)."""
        if not await server_defaults.check_manager(interaction):
            return
        refusal = channel_refusal(interaction)
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.boards.post(interaction.channel)  # type: ignore[arg-type]
        except discord.HTTPException as error:
            await interaction.edit_original_response(content=f"Discord did not let me post it: {error.text}")
            return
        await interaction.edit_original_response(content="The **Looking for a game** message is posted here.")

    # -- the work of a command or a press -----------------------------------------------------------

    async def join(self, interaction: discord.Interaction, game: str, players: int) -> None:
        """The member waits for ``game`` at a table of ``players`` in the interaction's channel."""
        refusal = channel_refusal(interaction)
        rules = GAMES[game]
        if refusal is None and not rules.min_seats <= players <= rules.max_seats:
            refusal = size_refusal(rules.display_name, rules.min_seats, rules.max_seats)
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None and interaction.channel_id is not None
        user = interaction.user
        joining = self.queues.join(
            interaction.guild_id, interaction.channel_id, game, user.id, user.display_name, players
        )
        await self._answer(interaction, joining, post=True)

    async def leave(self, interaction: discord.Interaction) -> None:
        """The member leaves the queue they wait in on the server."""
        if interaction.guild_id is None:
            await interaction.response.send_message("Queues live in server channels.", ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._answer(interaction, self.queues.leave(interaction.guild_id, interaction.user.id))

    async def _answer(self, interaction: discord.Interaction, work: Any, *, post: bool = False) -> None:
        try:
            answer: QueueAnswer = await work
        except TableError as refusal:
            await interaction.edit_original_response(content=str(refusal))
            return
        except Exception:  # a bug, or Discord or the database failing midway: say so, log it
            log.exception("A queue's join or leave failed")
            await interaction.edit_original_response(content=NOT_FINISHED)
            return
        for channel_id in answer.channels:
            self.boards.refresh(channel_id, post=post and channel_id == interaction.channel_id)
        await interaction.edit_original_response(content=answer.note)

    # -- presses no dynamic item takes ------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a press with a ``queue:`` custom_id that the board's dynamic item does not take (forged,
        or no longer on its message): "not one of mine", nothing changed."""
        await answer_not_mine(interaction, PREFIX, _TEMPLATE, self.bot.admit)
