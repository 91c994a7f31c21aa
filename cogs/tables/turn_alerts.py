"""Your turn finds you: each person whose new turn it is (the runtime says who, in
:attr:`~engine.tables.outcome.Outcome.turn_alerts`) is told as they chose, and the line goes once the turn
is over, so a channel holds at most one such line per player and table.

- A mention in the table's channel (or its thread), the default: a short message that mentions only that
  player (``AllowedMentions(users=[them])``; everything else the bot sends mentions nobody), with a "My
  hand" button when the player has no private view the bot can still edit.
- A DM, for those who chose it, who get their hand by DM, or who play a slow table without choosing.
- Nothing, for those who chose it; and a server whose admins turned table mentions off mentions nobody.

A turn is told only once it has waited ``delay`` seconds (the setting ``TURN_ALERT_DELAY_SECONDS``): a
player who moves within it, as at a table where everyone is watching, is not pinged, and the channel and
the bot's requests stay free of lines nobody needed.

A player chooses per table (stored with the table) or per server (:class:`AlertChoices`); the table's
choice wins. Everything runs in the background, one table's lines one request at a time (discord.py's HTTP
client waits out Discord's rate limits), and never delays a press's answer. A turn over before its line
went out costs nothing. A player whose DMs are closed (Discord's 403 ``50007``) is mentioned instead,
and no DM is tried again for them until the bot restarts: the game goes on either way.

Every line and every turn DM outlives the process that posted it (:mod:`cogs.tables.turn_notices`
stores each as it goes out, and removes its row once it is deleted), so a line is deleted once its turn
is over even if the process that posted it was killed. A turn DM is deleted like a line: a player expects
"it is your turn" to mean it still is, in their DMs as in the channel, and the DM names a deadline that
passes with the turn. A bot that stops deletes its lines (:meth:`TurnAlerts.take_back_all`); one killed
leaves them, and the next process, as it restores each table (:meth:`TurnAlerts.restored`), keeps a
notice whose player it still waits for while the game has not moved since it was posted (it stands for
the fresh line they would get: no second ping for the same turn), and deletes the others (a newer turn,
or none); the notices of tables that are gone or did not come back are deleted once the restored tables
are all replayed, those of tables already closed at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable

import discord

from cogs.tables import custom_ids as ids
from cogs.tables.action_menus import button, rows
from cogs.tables.direct_messages import CLOSED_DMS, deliver_dm
from cogs.tables.drawn import Drawn
from cogs.tables.private_views import PrivateViews
from cogs.tables.table_message import TableMessages
from cogs.tables.table_text import TABLE_LINK, masked_link
from cogs.tables.turn_notices import DM_START, MENTION_START, Line, TurnNotices
from engine.tables import ai_seats
from engine.tables.outcome import Outcome
from engine.tables.session import BY_DM, BY_MENTION, NOT_TOLD, TablePhase, TableSession
from engine.tables.tasks import Supervisor
from engine.tables.time_control import SLOW
from storage import Database, DatabaseError, StoredTurnNotice

log = logging.getLogger(__name__)


def turn_notice(table: TableSession, user_id: int, jump_url: str) -> str:
    """The words of a "your turn" DM to ``user_id`` (seated, waited for), with their deadline if any."""
    seat = table.seat_of(user_id)
    deadline = table.seat_deadlines.get(seat) if seat is not None else None
    until = "" if deadline is None else f" You have until <t:{int(deadline.timestamp())}:f>."
    link = masked_link(TABLE_LINK, jump_url)
    return f"{DM_START} **{table.rules.display_name}** table.{until}\n{link}"


def mention_line(table: TableSession, user_id: int, jump_url: str) -> str:
    """The words of a turn mention in the table's channel, with a link to the table message."""
    link = masked_link(TABLE_LINK, jump_url)
    start = MENTION_START.format(user_id=user_id)
    return f"{start} at the **{table.rules.display_name}** table.\n{link}"


def hand_button(table: TableSession) -> tuple[dict, ...]:
    """A "My hand" button (the table's own custom_id: its dynamic item opens a fresh private view)."""
    custom_id = str(ids.TableCustomId(table.table_id, 0, ids.HAND))
    return rows([(0, button(custom_id, "My hand", discord.ButtonStyle.primary))])


class AlertChoices:
    """How each player's turns find them: their choice for a table (``TableSession.alert_modes``), else for
    the server (stored, read once per player and server, then kept), else a DM for DM players and slow
    tables and a mention for the rest; a mention becomes nothing where the server turned mentions off."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._players: dict[tuple[int, int], str | None] = {}
        self._mentions: dict[int, bool] = {}

    async def how(self, table: TableSession, user_id: int) -> str:
        """How ``user_id`` is told of a turn at ``table``: one of ``ALERT_MODES`` (with the database busy,
        as if they had chosen nothing for the server: it is asked again next time)."""
        chosen = table.alert_modes.get(user_id)
        if chosen is None:
            key = (table.guild_id, user_id)
            if key not in self._players:
                try:
                    self._players[key] = await self.db.turn_alert_mode(*key)
                except DatabaseError as error:
                    log.info("Could not read the turn choice of %s: %s", user_id, error)
            chosen = self._players.get(key)
        if chosen is None:
            slow = table.settings.time_control.kind == SLOW
            chosen = BY_DM if user_id in table.dm_wanted or slow else BY_MENTION
        if chosen == BY_MENTION and not await self.mentions_on(table.guild_id):
            return NOT_TOLD
        return chosen

    async def mentions_on(self, guild_id: int) -> bool:
        """Whether the server's tables mention players (its admins may turn it off; the default, yes, while
        the database is busy)."""
        if guild_id not in self._mentions:
            try:
                self._mentions[guild_id] = await self.db.guild_turn_mentions(guild_id)
            except DatabaseError as error:
                log.info("Could not read whether server %s mentions players: %s", guild_id, error)
                return True
        return self._mentions[guild_id]

    async def choose_for_server(self, guild_id: int, user_id: int, mode: str) -> None:
        """Store the player's choice for every table of the server."""
        await self.db.set_turn_alert_mode(guild_id, user_id, mode)
        self._players[(guild_id, user_id)] = mode

    async def set_mentions(self, guild_id: int, on: bool) -> None:
        """Turn the server's table mentions on or off."""
        await self.db.set_guild_turn_mentions(guild_id, on)
        self._mentions[guild_id] = on


class TurnAlerts:
    """The turn lines of every table (see the module)."""

    def __init__(
        self,
        client: discord.Client,
        tasks: Supervisor,
        messages: TableMessages,
        private_views: PrivateViews,
        choices: AlertChoices,
        notices: TurnNotices,
        delay: float = 0.0,
    ) -> None:
        self.client = client
        self.tasks = tasks
        self.messages = messages
        self.private_views = private_views
        self.choices = choices
        self.notices = notices
        self.delay = delay  # seconds a turn waits before its player is told
        self._tables: dict[str, _TableAlerts] = {}
        self.closed_dms: set[int] = set()  # users Discord refused a DM: mentioned instead, until a restart

    def show(self, outcome: Outcome) -> None:
        """After a change: tell the people whose new turn it is, and take back the lines of turns that are
        over (a closed table's too)."""
        table = outcome.table
        alerts = self._tables.get(table.table_id)
        if alerts is None:
            if not outcome.turn_alerts:
                return
            alerts = self._tables[table.table_id] = _TableAlerts(self, table)
        alerts.ask(outcome.turn_alerts)
        alerts.request()

    def in_line(self, table_id: str) -> bool:
        """True if the lines of table ``table_id`` are as its game is now: none on its way, being taken
        back, or due to be told."""
        alerts = self._tables.get(table_id)
        return alerts is None or alerts.in_line()

    def restored(self, table: TableSession) -> None:
        """A table came back after a restart: the notices an earlier process left at it are settled (kept
        where still valid, else deleted), and each other person it waits for gets a fresh line at once
        (their turn began before the restart)."""
        alerts = self._tables.get(table.table_id)
        if alerts is None:
            alerts = self._tables[table.table_id] = _TableAlerts(self, table)
        alerts.left.extend(self.notices.claim(table.table_id))
        alerts.ask(alerts.waiting(), waited=self.delay)
        alerts.request()

    async def load_left(self, owns_guild: Callable[[int], bool] | None) -> None:
        """At start, before any table is shown: read the notices an earlier process left (of the servers
        ``owns_guild`` accepts; all with ``None``)."""
        await self.notices.load_left(owns_guild)

    async def delete_left(self, live: Callable[[str], bool]) -> None:
        """Delete the notices left at every table ``live`` refuses (gone, or not restored): a restored
        table settles its own (:meth:`restored`)."""
        await self.notices.delete_left(live)

    async def take_back_all(self, timeout: float) -> None:
        """The bot stops: delete every turn line sent, each table's one at a time (for at most ``timeout``
        seconds; a restored table gives its people fresh lines)."""
        work = [alerts.take_back_all() for alerts in self._tables.values()]
        self._tables.clear()
        if work:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*work), timeout)

    def done(self, alerts: _TableAlerts) -> None:
        """A table's worker has nothing left to send or take back."""
        if self._tables.get(alerts.table.table_id) is alerts:
            del self._tables[alerts.table.table_id]


class _TableAlerts:
    """One table's turn lines: those asked for and those sent, and one task at a time that brings the
    channel (and DMs) in line with who the game waits for now."""

    def __init__(self, alerts: TurnAlerts, table: TableSession) -> None:
        self.alerts = alerts
        self.table = table
        self.asked: dict[int, float] = {}  # user with a new turn to tell of, not sent yet: when it began
        self.sent: dict[int, Line] = {}  # the line (or DM) sent to each user for their turn
        self.left: list[StoredTurnNotice] = []  # an earlier process's notices here, not settled yet
        self.wanted = False
        self.closing = False  # the bot stops: no new line
        self.task: asyncio.Task | None = None
        self._wake: asyncio.TimerHandle | None = None  # when the next asked turn is due to be told

    def ask(self, users: Iterable[int], waited: float = 0.0) -> None:
        """``users`` have a new turn, begun ``waited`` seconds ago: tell each once it has waited the
        alerts' delay, if it is still theirs."""
        began = asyncio.get_running_loop().time() - waited
        self.asked.update(dict.fromkeys(users, began))

    def request(self) -> None:
        """Bring the table's lines in line with who the game waits for now: at once when that needs no
        request (nothing to send or take back yet: the usual press, within the delay), otherwise by the
        table's task."""
        self.wanted = True
        if self.task is not None and not self.task.done():
            return
        if not self.sent and not self.left and not self._any_due():
            self.wanted = False
            self._forget_over(self.waiting())
            self._rearm()
            return
        self.task = self.alerts.tasks.spawn(self._run(), f"turn alerts of table {self.table.table_id}")

    def in_line(self) -> bool:
        """True if no line is on its way, being taken back, or due (see :meth:`TurnAlerts.in_line`)."""
        return (self.task is None or self.task.done()) and not self.wanted and not self._any_due()

    def _any_due(self) -> bool:
        """True if a turn asked for has waited the delay (and so may be told now)."""
        deadline = asyncio.get_running_loop().time() - self.alerts.delay
        return any(began <= deadline for began in self.asked.values())

    def _forget_over(self, waiting: set[int]) -> None:
        """Drop the asked turns that ended before they were told (they cost nothing)."""
        for user_id in [user for user in self.asked if user not in waiting or self.closing]:
            del self.asked[user_id]

    def _rearm(self) -> None:
        """Look again when the first asked turn is due; with nothing asked or sent, the table is done. A
        wake already set for no later than that is kept (waking early only looks again)."""
        if self.asked:
            loop = asyncio.get_running_loop()
            due = min(self.asked.values()) + self.alerts.delay
            if self._wake is not None and self._wake.when() <= due:
                return
            if self._wake is not None:
                self._wake.cancel()
            self._wake = loop.call_at(due, self._woken)
        elif not self.sent and not self.left:
            self.alerts.done(self)

    def waiting(self) -> set[int]:
        """The people the game waits for now (no seat an AI plays)."""
        table = self.table
        if table.phase is not TablePhase.PLAYING or not self.alerts.messages.is_live(table):
            return set()
        return {
            user for user in table.users_to_act() if not ai_seats.ai_plays(table, table.players.index(user))
        }

    def _woken(self) -> None:
        self._wake = None
        self.request()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.wanted:
            self.wanted = False
            await self._follow_or_delete_left()
            waiting = self.waiting()
            for user_id, line in list(self.sent.items()):
                if user_id not in waiting or user_id in self.asked:  # over, or a newer turn to tell of
                    del self.sent[user_id]
                    await self._take_back(line)
            for user_id, began in list(self.asked.items()):
                if user_id not in self.waiting() or self.closing:  # over before it was told: costs nothing
                    del self.asked[user_id]
                elif began + self.alerts.delay <= loop.time():
                    del self.asked[user_id]
                    message = await self._tell(user_id)
                    if message is not None:
                        self.sent[user_id] = message
                        self.wanted = True  # the turn may have ended while it went out
        self._rearm()  # turns not due yet: look again when the first is

    async def _follow_or_delete_left(self) -> None:
        """Follow each notice an earlier process left here whose turn is still waiting, unchanged (the
        player waited for, the game not moved since it was posted, no newer line of theirs): it stands for
        the fresh line they were to get. Delete the others."""
        table = self.table
        version = table.state.version if table.state is not None else None
        waiting = self.waiting()
        while self.left:
            notice = self.left.pop(0)
            user = notice.user_id
            valid = user in waiting and notice.version == version and not self.closing
            if valid and notice.message_id is not None and user not in self.sent:
                self.sent[user] = self.alerts.notices.adopt(notice)
                self.asked.pop(user, None)
            else:
                await self.alerts.notices.delete(notice)

    async def take_back_all(self) -> None:
        """Delete every line of the table, once a line on its way has gone out."""
        self.closing = True
        if self.task is not None and not self.task.done():
            await asyncio.wait({self.task})
        while self.sent:
            await self._take_back(self.sent.popitem()[1])

    async def _tell(self, user_id: int) -> Line | None:
        """Tell ``user_id`` of their turn as they chose, the notice stored as it goes out; the line sent,
        or ``None``."""
        table, alerts = self.table, self.alerts
        how = await alerts.choices.how(table, user_id)

        def still_due() -> bool:
            return user_id in self.waiting()

        if how == NOT_TOLD or not still_due():
            return None
        has_view = alerts.private_views.editable(table.table_id, user_id)
        if how == BY_DM and user_id not in alerts.closed_dms:
            has_dm = has_view or alerts.private_views.has_live_dm(table.table_id, user_id)
            text = turn_notice(table, user_id, alerts.messages.jump_url(table))
            drawn = Drawn(components=() if has_dm else hand_button(table), content=text)
            refused: list[str] = []

            async def send_dm() -> discord.Message | None:
                sent = await deliver_dm(alerts.client, user_id, **drawn.send_kwargs())
                if isinstance(sent, str):
                    refused.append(sent)
                    return None
                return sent

            line = await alerts.notices.post(table, user_id, None, send_dm, still_due)
            if line is not None:
                return line
            if not refused:  # the turn ended before it went out
                return None
            log.info("The turn DM of table %s to %s was not delivered: %s", table.table_id, user_id, refused)
            if CLOSED_DMS not in refused or not await alerts.choices.mentions_on(table.guild_id):
                return None
            alerts.closed_dms.add(user_id)  # closed DMs: a mention instead, and no DM tried again
        channel = alerts.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        drawn = Drawn(
            components=() if has_view else hand_button(table),
            content=mention_line(table, user_id, alerts.messages.jump_url(table)),
        )
        mention = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]
        )

        async def send_mention() -> discord.Message | None:
            try:
                return await channel.send(**drawn.send_kwargs(), allowed_mentions=mention)
            except discord.HTTPException as error:
                log.info("The turn mention of table %s was not sent: %s", table.table_id, error)
                return None

        return await alerts.notices.post(table, user_id, table.channel_id, send_mention, still_due)

    async def _take_back(self, line: Line) -> None:
        """Delete a turn line whose turn is over, and its row (see :meth:`TurnNotices.take_back`)."""
        await self.alerts.notices.take_back(line, self.table.table_id)
