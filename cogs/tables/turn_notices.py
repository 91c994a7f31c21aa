"""Turn notices that outlive the process that posted them: every "it is your turn" line (or DM) is stored
as it goes out (:mod:`storage.turn_notices`) and its row removed once it is deleted, so that a process
killed before it took its lines back leaves them to the next one, which deletes those whose turn is over
(:mod:`cogs.tables.turn_alerts` decides which).

A notice's row is written just before it is posted, with a snowflake from shortly before
(:data:`SINCE_MARGIN_SECONDS`), and given the message's id once Discord answers. A process killed between
Discord's answer and that write leaves a row without a message id: the next process looks for the line in
the channel's (or the DM's) history after that snowflake, one request, and deletes the bot's turn lines
for that player it finds there. Discord's errors are logged and never stop anything: a message already
gone (404) only has its row removed; a server error leaves the row for the next start to try again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

import discord

from engine.tables.session import TableSession
from storage import Database, DatabaseError, StoredTurnNotice

log = logging.getLogger(__name__)

SINCE_MARGIN_SECONDS = 60
"""How long before a notice's post its stored snowflake is taken: a clock of the bot's host ahead of
Discord's by less than this still finds the line in the history."""
HISTORY_LIMIT = 100
"""How many messages after that snowflake are looked through for a line whose id never came back."""
MENTION_START = "🔔 <@{user_id}>, it is your turn"
"""How a turn line in a table's channel starts (:func:`cogs.tables.turn_alerts.mention_line`)."""
DM_START = "⏳ It is your turn at the"
"""How a turn DM starts (:func:`cogs.tables.turn_alerts.turn_notice`)."""


@dataclass(frozen=True)
class Line:
    """A turn notice on Discord: its message (a partial one when an earlier process posted it) and its
    row's id (``None`` if the database could not store it: the line is then only in memory)."""

    message: discord.Message | discord.PartialMessage
    notice_id: int | None


def is_turn_text(content: str, user_id: int, in_dm: bool) -> bool:
    """True if ``content`` is the text of a turn notice to ``user_id``: a mention line in a channel, or (in
    their DM channel, ``in_dm``) a turn DM."""
    return content.startswith(DM_START if in_dm else MENTION_START.format(user_id=user_id))


class TurnNotices:
    """The stored rows of the turn notices, and those an earlier process left (see the module)."""

    def __init__(self, client: discord.Client, db: Database) -> None:
        self.client = client
        self.db = db
        self.left: dict[str, list[StoredTurnNotice]] = {}  # by table id: an earlier process's, not settled
        self._mine: set[int] = set()  # ids of the lines this process posted and has not deleted
        self._started = discord.utils.time_snowflake(discord.utils.utcnow())  # none of ours is older

    async def post(
        self,
        table: TableSession,
        user_id: int,
        channel_id: int | None,
        send: Callable[[], Awaitable[discord.Message | None]],
        still_due: Callable[[], bool],
    ) -> Line | None:
        """Store a notice to ``user_id`` about to go to ``channel_id`` (``None``: their DM channel), post it
        with ``send()`` (``None``: not sent, and its row is removed) and store its message id. The line, or
        ``None``: also when ``still_due()`` is false once the row is stored (the turn ended meanwhile, and
        a line for it would ping for nothing). A database error is logged: the line is then kept in memory
        only."""
        since = discord.utils.utcnow() - timedelta(seconds=SINCE_MARGIN_SECONDS)
        version = table.state.version if table.state is not None else 0
        notice_id: int | None = None
        try:
            notice_id = await self.db.add_turn_notice(
                table.guild_id,
                table.table_id,
                user_id,
                version,
                discord.utils.time_snowflake(since),
                channel_id,
            )
        except DatabaseError as error:
            log.info("The turn notice of table %s was not stored: %s", table.table_id, error)
        message = await send() if still_due() else None
        if message is not None:
            self._mine.add(message.id)
        if notice_id is not None:
            try:
                if message is None:
                    await self.db.remove_turn_notice(notice_id)
                else:
                    await self.db.set_turn_notice_message(notice_id, message.channel.id, message.id)
            except DatabaseError as error:  # the row stays: the next start looks for its line
                log.info("The turn notice of table %s was not stored: %s", table.table_id, error)
        return None if message is None else Line(message, notice_id)

    def adopt(self, notice: StoredTurnNotice) -> Line:
        """An earlier process's notice (with its message id), followed as if this process had posted it."""
        assert notice.channel_id is not None and notice.message_id is not None
        channel = self.client.get_partial_messageable(notice.channel_id)
        self._mine.add(notice.message_id)
        return Line(channel.get_partial_message(notice.message_id), notice.notice_id)

    async def take_back(self, line: Line, table_id: str) -> None:
        """Delete a turn notice and remove its row (one already gone is no matter; a server error keeps
        the row, for the next start to try again)."""
        try:
            await line.message.delete()
        except discord.NotFound:
            pass
        except discord.DiscordServerError as error:
            log.info("A turn line of table %s was not deleted: %s", table_id, error)
            return
        except discord.HTTPException as error:  # not allowed: trying again would not help
            log.info("A turn line of table %s was not deleted: %s", table_id, error)
        self._mine.discard(line.message.id)
        await self._remove(line.notice_id)

    async def load_left(self, owns_guild: Callable[[int], bool] | None) -> None:
        """Read the notices an earlier process left, of the servers ``owns_guild`` accepts (all with
        ``None``), into :attr:`left`. Call it before this process posts any (at start); with the database
        busy, none are read and they wait for the next start."""
        try:
            stored = await self.db.turn_notices()
        except DatabaseError as error:
            log.warning("Could not read the turn notices left from before: %s", error)
            return
        for notice in stored:
            if owns_guild is None or owns_guild(notice.guild_id):
                self.left.setdefault(notice.table_id, []).append(notice)

    def claim(self, table_id: str) -> list[StoredTurnNotice]:
        """The notices left at ``table_id``, no longer in :attr:`left` (whoever claims them settles them)."""
        return self.left.pop(table_id, [])

    async def delete_left(self, keep: Callable[[str], bool]) -> None:
        """Delete the notices left at every table ``keep`` refuses (one request at a time), and remove
        their rows."""
        for table_id in [table_id for table_id in self.left if not keep(table_id)]:
            for notice in self.claim(table_id):
                await self.delete(notice)

    async def delete(self, notice: StoredTurnNotice) -> None:
        """Delete an earlier process's notice from Discord and remove its row; one whose id never came
        back is looked for in its channel's history (see the module)."""
        if notice.message_id is not None:
            await self.take_back(self.adopt(notice), notice.table_id)
            return
        try:
            await self._find_and_delete(notice)
        except discord.DiscordServerError as error:
            log.info("The turn lines of table %s were not looked for: %s", notice.table_id, error)
            return
        except discord.HTTPException as error:
            log.info("The turn lines of table %s were not looked for: %s", notice.table_id, error)
        await self._remove(notice.notice_id)

    async def _find_and_delete(self, notice: StoredTurnNotice) -> None:
        """Delete the bot's turn lines to the notice's player posted after its snowflake and before this
        process started, but this process's own."""
        channel: discord.abc.Messageable
        in_dm = notice.channel_id is None
        if notice.channel_id is None:
            channel = await self.client.create_dm(discord.Object(notice.user_id))
        else:
            channel = self.client.get_partial_messageable(notice.channel_id)
        me = self.client.user
        async for message in channel.history(
            limit=HISTORY_LIMIT,
            after=discord.Object(notice.since_id),
            before=discord.Object(self._started),
            oldest_first=True,
        ):
            mine = me is not None and message.author.id == me.id
            if mine and message.id not in self._mine and is_turn_text(message.content, notice.user_id, in_dm):
                try:
                    await message.delete()
                except discord.NotFound:
                    pass

    async def _remove(self, notice_id: int | None) -> None:
        if notice_id is None:
            return
        try:
            await self.db.remove_turn_notice(notice_id)
        except DatabaseError as error:  # the next start deletes it again: a 404, then the row goes
            log.info("A turn notice's row was not removed: %s", error)
