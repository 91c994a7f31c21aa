"""Each channel's **Looking for a game** message: the waiting members of each game's queue there and since
when, and a button per game to wait for it, and one to leave the queue (a member waits in one queue per
server, so one **Leave the queue** serves every game).

One message per channel, posted by ``/queue post`` (or by the first ``/queue join`` in a channel that has
none), its id stored (:mod:`storage.queues`) and then edited as the queues change, never posted again for
a change; a message someone deleted is posted again at the next change. The redraws of one channel run one
at a time and coalesce: however many changes come at once, the message ends showing the queues as they
are, with as few edits as can be.

The buttons are plain components with custom_ids of :data:`TEMPLATE` (``queue:join:<game>``,
``queue:leave:any``), dispatched by discord.py to the queue cog's ``DynamicItem``
(:mod:`cogs.tables.queue_cog`).
A classic message holds 5 action rows of 5 buttons: the join buttons take up to 4 rows (20 games), the last
row holds **Leave the queue**; the bot's games are fewer (:data:`MAX_GAMES`, checked by a test).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

import discord

from cogs.names import shown_name
from cogs.tables import lengths
from engine import GAMES
from engine.core import plural
from engine.matching import Waiting
from engine.tables.queues import TableQueues
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)

PREFIX = "queue:"
TEMPLATE = r"queue:(?P<verb>join|leave):(?P<game>[a-z0-9_]{1,40})"
"""The custom_id of a board button: ``queue:join:<game key>``, or ``queue:leave:any``."""
LEAVE_ID = f"{PREFIX}leave:any"
ROW_BUTTONS = 5
MAX_GAMES = 4 * ROW_BUTTONS
"""The most games the board's buttons hold (4 rows of 5; the fifth row is the leave button's)."""
CONTENT_MAX = 2000
"""Discord's limit on a message's text."""
TITLE = "**Looking for a game**"


def join_id(game: str) -> str:
    """The custom_id of the button that waits for ``game`` (its key)."""
    return f"{PREFIX}join:{game}"


def _line(member: Waiting) -> str:
    since = int(member.since.timestamp())
    return f"• {shown_name(member.name)}, for a table of {member.players}, waiting since <t:{since}:R>"


def board_text(queues: dict[str, list[Waiting]]) -> str:
    """The board's text for the queues of one channel (game key to its members, longest waiting first),
    within Discord's 2,000 characters."""
    parts = [
        TITLE,
        "Press a game to wait for a table of it (`/queue join` lets you choose the table size). When enough "
        "players wait, a table opens in a new thread of this channel and seats them.",
    ]
    if not queues:
        parts.append("Nobody is waiting yet.")
    for game, waiting in queues.items():
        rules = GAMES[game]
        heading = (
            f"**{rules.display_name}** ({rules.min_seats}–{plural(rules.max_seats, 'player')}): "
            f"{plural(len(waiting), 'player')} waiting"
        )
        parts.append("\n".join([heading, *(_line(member) for member in waiting)]))
    return lengths.clip("\n\n".join(parts), CONTENT_MAX)


def board_view() -> discord.ui.View:
    """The board's buttons (a view discord.py does not keep: the dynamic item takes the presses)."""
    view = discord.ui.View(timeout=None)
    for index, (key, rules) in enumerate(list(GAMES.items())[:MAX_GAMES]):
        view.add_item(
            discord.ui.Button(
                label=rules.display_name[:80],
                custom_id=join_id(key),
                style=discord.ButtonStyle.primary,
                row=index // ROW_BUTTONS,
            )
        )
    view.add_item(
        discord.ui.Button(
            label="Leave the queue", custom_id=LEAVE_ID, style=discord.ButtonStyle.secondary, row=4
        )
    )
    view.stop()  # sent as components only: nothing is stored for it
    return view


class QueueBoards:
    """The **Looking for a game** message of each channel (see the module)."""

    def __init__(self, client: discord.Client, queues: TableQueues, tasks: Supervisor) -> None:
        self.client = client
        self.queues = queues
        self.tasks = tasks
        self.boards: dict[int, tuple[int, int]] = {}  # channel id -> (guild id, message id)
        self._wanted: dict[int, bool] = {}  # channel id -> post if it has none
        self._drawing: set[int] = set()

    async def load(self, guild_filter: Callable[[int], bool] | None = None) -> None:
        """Read where each channel's message is (at start, before any is drawn)."""
        stored = await self.queues.db.queue_boards(guild_filter)
        self.boards = {row.channel_id: (row.guild_id, row.message_id) for row in stored}

    def message_id(self, channel_id: int) -> int | None:
        """The id of the channel's board message, or ``None``."""
        board = self.boards.get(channel_id)
        return None if board is None else board[1]

    def refresh(self, channel_id: int, *, post: bool = False) -> None:
        """Redraw the channel's message in the background (``post``: post one if it has none)."""
        self._wanted[channel_id] = self._wanted.get(channel_id, False) or post
        if channel_id not in self._drawing:
            self._drawing.add(channel_id)
            self.tasks.spawn(self._draw_while_wanted(channel_id), f"queue board of channel {channel_id}")

    def refresh_all(self) -> None:
        """Redraw every stored board (after a restart)."""
        for channel_id in list(self.boards):
            self.refresh(channel_id)

    async def _draw_while_wanted(self, channel_id: int) -> None:
        try:
            while channel_id in self._wanted:
                post = self._wanted.pop(channel_id)
                await self._draw(channel_id, post)
        finally:
            self._drawing.discard(channel_id)

    async def _draw(self, channel_id: int, post: bool) -> None:
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        message_id = self.message_id(channel_id)
        queues = self.queues.channel_queues(channel.guild.id, channel_id)
        if message_id is not None:
            try:
                message = channel.get_partial_message(message_id)
                await message.edit(content=board_text(queues), view=board_view())
                return
            except discord.NotFound:  # deleted: posted again below
                post = True
        if post:
            await self.post(channel)

    async def post(self, channel: discord.TextChannel) -> None:
        """Post the channel's message afresh, store its id and delete the one it replaces.

        Raises
        ------
        discord.HTTPException
            Discord refused the message (nothing changed).
        """
        queues = self.queues.channel_queues(channel.guild.id, channel.id)
        sent = await channel.send(
            content=board_text(queues), view=board_view(), allowed_mentions=discord.AllowedMentions.none()
        )
        old = self.message_id(channel.id)
        self.boards[channel.id] = (channel.guild.id, sent.id)
        try:
            await self.queues.db.set_queue_board(channel.id, channel.guild.id, sent.id)
        except Exception:  # the message shows; a restart posts another at the next change
            log.exception("Could not store the queue message of channel %s", channel.id)
        if old is not None and old != sent.id:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
