"""The public table message: answering a press with it, refreshing it by plain edits in the background,
posting it again when it is deleted, moving it when it grows old, and telling the host once when a
permission is missing. Which message shows a table is the Discord layer's, kept by table id
(:class:`~cogs.tables.message_ids.TableMessageIds`, stored apart from the table).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime

import discord

from cogs.tables import late_presses, render
from cogs.tables.direct_messages import send_dm
from cogs.tables.drawn import Drawn, answer_press, attachments_on, draw_in_thread
from cogs.tables.edit_pacing import EditPacing
from cogs.tables.message_ids import TableMessageIds
from engine.tables.session import TablePhase, TableSession
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)

EDIT_ATTEMPTS = 3
EDIT_RETRY_SECONDS = 1.0
REDRAWS = 3
"""How many times a background edit draws the table again when it moved while its new picture was drawn."""

REQUIRED_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}
"""The channel permissions a table needs (flag: the name Discord shows)."""


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of the channel permissions a table needs that ``permissions`` lack."""
    return [name for flag, name in REQUIRED_PERMISSIONS.items() if not getattr(permissions, flag)]


def now() -> datetime:
    """Discord's clock (UTC)."""
    return discord.utils.utcnow()


class TableMessages:
    """The public messages of every table.

    ``ids`` keeps which message shows each table and each player's live DM of it (by table id, stored as
    they change); ``is_live(session)`` tells whether the table is still open; ``pacing`` says when each
    plain edit may go (:mod:`cogs.tables.edit_pacing`; default: Discord's limits and the module's constants).
    """

    def __init__(
        self,
        client: discord.Client,
        tasks: Supervisor,
        max_age_seconds: float,
        ids: TableMessageIds,
        is_live: Callable[[TableSession], bool],
        pacing: EditPacing | None = None,
    ) -> None:
        self.client = client
        self.pacing = pacing if pacing is not None else EditPacing()
        self.tasks = tasks
        self.max_age_seconds = max_age_seconds
        self.ids = ids
        self.is_live = is_live
        self.permission_warned: set[str] = set()  # tables whose host was told of a missing permission
        self._refreshers: dict[str, _Refresher] = {}
        self._pictures: dict[str, _Pictures] = {}  # by table: what its message shows, to keep a picture

    # -- what is known of a table's message ---------------------------------------------------------

    def release(self, session: TableSession) -> None:
        """Forget a closed table once its last message is shown, unless a last edit still needs it (that
        edit forgets it when done)."""
        if session.table_id not in self._refreshers:
            self.permission_warned.discard(session.table_id)
            self._forget_pictures(session)
            self.pacing.forget(session.table_id)
            self.ids.forget(session.table_id)

    def pressed(self, session: TableSession) -> None:
        """A press on ``session`` arrived: the table is watched (:meth:`EditPacing.pressed`), and an edit
        of its message held back as unwatched goes as soon as its channel allows."""
        self.pacing.pressed(session.table_id)
        refresher = self._refreshers.get(session.table_id)
        if refresher is not None:
            refresher.nudge()

    def note_posted(self, session: TableSession, message_id: int | None) -> None:
        """The table was just posted as message ``message_id`` (now): known at once, so a press on the new
        message is answered with the table, and stored in the background."""
        self.ids.posted(session, message_id, now())

    def message_id(self, session: TableSession) -> int | None:
        """The id of the table's public message (``None``: not posted yet, or deleted)."""
        return self.ids.message_id(session.table_id)

    def jump_url(self, session: TableSession) -> str:
        """A link to the table message (to the channel while it has none)."""
        channel_url = f"https://discord.com/channels/{session.guild_id}/{session.channel_id}"
        message_id = self.message_id(session)
        return channel_url if message_id is None else f"{channel_url}/{message_id}"

    def is_table_message(self, interaction: discord.Interaction, session: TableSession) -> bool:
        """True if the interaction's component is on the table's public message."""
        return interaction.message is not None and interaction.message.id == self.message_id(session)

    def _pictures_of(self, session: TableSession) -> _Pictures:
        pictures = self._pictures.get(session.table_id)
        if pictures is None:
            pictures = self._pictures[session.table_id] = _Pictures()
        return pictures

    def _forget_pictures(self, session: TableSession) -> None:
        self._pictures.pop(session.table_id, None)

    async def answer_on_table(
        self, interaction: discord.Interaction, session: TableSession, drawn: Drawn
    ) -> None:
        """Answer a press on the table message with ``drawn`` (see :func:`answer_press`), and remember the
        files it shows now, unless a plain edit was under way before or during the answer (which of the
        two lands last is then unknown)."""
        pictures = self._pictures_of(session)
        quiet = pictures.writing == 0
        edits = pictures.edits
        pictures.begin(answer=True)
        try:
            await answer_press(interaction, drawn)
        finally:
            pictures.writing -= 1
        if quiet and pictures.writing == 0 and pictures.edits == edits and interaction.message is not None:
            pictures.learn(interaction.message.id, drawn.filenames())

    def deleted(self, session: TableSession, message_id: int) -> None:
        """Someone deleted a message: if it was the table's, post the table again at once."""
        if not self.ids.message_gone(session, message_id):
            return
        log.info("The table message of %s was deleted: posting it again", session.table_id)
        self.refresh(session)

    # -- showing the table ---------------------------------------------------------------------------

    async def answer_with_table(
        self,
        interaction: discord.Interaction | None,
        session: TableSession,
        note: str,
        *,
        final: Drawn | None = None,
    ) -> None:
        """Show the new table: through the press's own answer if it was on the table message (one request),
        else by an ephemeral ``note`` to the presser (if any) and an edit of the table message.

        ``final`` replaces the table message for good (a closed table: :func:`render.closed_message`,
        :func:`render.final_scoreboard`).
        """
        try:
            if interaction is not None and self.is_table_message(interaction, session):
                revision = session.revision
                drawn = final if final is not None else render.current_message(session)
                await self.answer_on_table(interaction, session, drawn)
                if final is None and session.revision != revision:
                    # Another move was committed while this answer was on its way: its answer or edit
                    # may have landed first, so follow with an edit that shows the table as it is now.
                    self.refresh(session)
                else:
                    self.refresh_if_editing(session, final)
                return
            if interaction is not None:
                await late_presses.send_private(interaction, content=note)
        except discord.HTTPException as error:
            # The change stands; show it through a plain edit (the player may see "This interaction failed").
            log.warning("Could not answer a press on table %s: %s", session.table_id, error)
        self.refresh(session, final)

    def refresh(self, session: TableSession, final: Drawn | None = None) -> None:
        """Bring the table message up to date in the background (see :class:`_Refresher`).

        ``final`` replaces the message for good (a closed table).
        """
        refresher = self._refreshers.get(session.table_id)
        if refresher is None:
            refresher = self._refreshers[session.table_id] = _Refresher(self, session)
        refresher.request(final)

    async def edits_done(self, session: TableSession) -> None:
        """Wait until no edit of ``session``'s table message is under way or wanted."""
        refresher = self._refreshers.get(session.table_id)
        while refresher is not None and refresher.editing:
            assert refresher.task is not None
            await asyncio.wait({refresher.task})

    def refresher_done(self, session: TableSession) -> None:
        """The last edit of a closed table is done: forget its refresher."""
        self._refreshers.pop(session.table_id, None)
        self.permission_warned.discard(session.table_id)
        self._forget_pictures(session)
        self.pacing.forget(session.table_id)
        self.ids.forget(session.table_id)

    def refresh_if_editing(self, session: TableSession, final: Drawn | None = None) -> None:
        """After answering a press with the new table: a plain edit still in flight would land after the
        answer with an older state, so follow it with one more."""
        refresher = self._refreshers.get(session.table_id)
        if refresher is not None and refresher.editing:
            refresher.request(final)

    async def edit(self, session: TableSession, final: Drawn | None = None) -> None:
        """Bring the table message up to date with a plain edit.

        A deleted message is posted again; an edit Discord keeps refusing (5xx, rate limits beyond
        discord.py's own retries) is tried three times, then the table is posted again; a message older
        than ``max_age_seconds`` moves to a fresh message (Discord throttles edits of messages older than
        an hour) and the old one loses its buttons; a missing permission is told to the host once, in
        plain words. None of this touches the game. A picture the message shows already is kept, not
        uploaded again.
        """
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        posted_at = self.ids.posted_at(session.table_id)
        age = None if posted_at is None else (now() - posted_at).total_seconds()
        if (
            final is None
            and self.message_id(session) is not None
            and age is not None
            and age > self.max_age_seconds
            and session.phase is not TablePhase.CLOSED
        ):
            await self._move(session, channel)
            return
        for attempt in range(EDIT_ATTEMPTS):
            drawn = await self._as_stored(session, final)
            try:
                if self.message_id(session) is None:
                    await self._post(session, channel, drawn)
                else:
                    await self._edit(session, channel, drawn)
                return
            except discord.NotFound:
                log.info("The table message of %s was deleted: posting it again", session.table_id)
                self.ids.message_gone(session)
            except discord.Forbidden as error:
                await self._tell_host_about_permissions(session, error)
                return
            except discord.HTTPException as error:
                log.warning("Editing the table message of %s failed (%s); retrying", session.table_id, error)
                await asyncio.sleep(EDIT_RETRY_SECONDS * (attempt + 1))
        if self.message_id(session) is not None and final is None:
            log.warning("Giving up editing the table message of %s: posting it again", session.table_id)
            await self._move(session, channel)

    async def _as_stored(self, session: TableSession, final: Drawn | None = None) -> Drawn:
        """The table message to send now: ``final`` (a closed table's), or the table as it is now, which is
        as it is stored: a move becomes the table only once it is stored
        (:meth:`~engine.tables.session.TableSession.swap`), so a background edit never shows a move a failed
        save dropped or a crash lost, without waiting for the table's lock. A picture the message does not
        show yet is drawn first, in a worker thread (:func:`~cogs.tables.drawn.draw_in_thread`); if the
        table moved meanwhile, it is drawn again as it is then (at most :data:`REDRAWS` times), so that the
        edit sends no older table than it could."""
        drawn = render.current_message(session) if final is None else final
        for _ in range(REDRAWS):
            if drawn.keeps(self._pictures_of(session).shown(self.message_id(session))):
                return drawn
            revision = session.revision
            await draw_in_thread(drawn.attachments)
            if final is not None or session.revision == revision:
                return drawn
            drawn = render.current_message(session)
        return drawn

    async def _edit(self, session: TableSession, channel: discord.PartialMessageable, drawn: Drawn) -> None:
        """Edit the table message into ``drawn``, keeping a picture it shows already; what it shows then
        is learnt from Discord's answer, unless a press's answer began before the edit ended (its pictures
        are drawn already: :meth:`_as_stored`)."""
        pictures = self._pictures_of(session)
        message_id = self.message_id(session)
        shown = pictures.shown(message_id)
        quiet = pictures.writing == 0
        answers = pictures.answers
        pictures.begin(answer=False)
        try:
            message = await channel.get_partial_message(message_id).edit(**drawn.edit_kwargs(shown))
        finally:
            pictures.writing -= 1
        if quiet and pictures.answers == answers:
            pictures.learn(message.id, attachments_on(message))

    async def _post(self, session: TableSession, channel: discord.PartialMessageable, drawn: Drawn) -> None:
        pictures = self._pictures_of(session)
        pictures.begin(answer=False)
        try:
            message = await channel.send(**drawn.send_kwargs())
        finally:
            pictures.writing -= 1
        self.note_posted(session, message.id)  # stored unless the table is closed
        pictures.learn(message.id, attachments_on(message))

    async def _move(self, session: TableSession, channel: discord.PartialMessageable) -> None:
        """Post the table as a new message and leave the old one as a pointer without buttons."""
        old_id = self.message_id(session)
        try:
            await self._post(session, channel, await self._as_stored(session))
        except discord.Forbidden as error:
            await self._tell_host_about_permissions(session, error)
            return
        except discord.HTTPException:
            log.warning("Could not move the table message of %s", session.table_id, exc_info=True)
            return
        if old_id is not None:
            moved = render.moved_message(session, self.jump_url(session))
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old_id).edit(**moved.edit_kwargs())

    async def _tell_host_about_permissions(self, session: TableSession, error: discord.Forbidden) -> None:
        """Tell the host once, by DM, that the bot lacks a permission in the table's channel."""
        log.warning(
            "Missing permission in channel %s for table %s: %s", session.channel_id, session.table_id, error
        )
        if session.table_id in self.permission_warned:
            return
        self.permission_warned.add(session.table_id)
        await send_dm(
            self.client,
            session.host_id,
            content=(
                f"I can't update your {session.rules.display_name} table in <#{session.channel_id}>: "
                f"Discord says I am missing a permission there ({error.text or 'Missing Permissions'}). "
                f"I need {', '.join(REQUIRED_PERMISSIONS.values())} in that channel; a server "
                "admin can grant them in the channel's settings. The game itself is safe and goes on."
            ),
        )


class _Pictures:
    """What one table's message shows, to keep a picture an edit does not change (see
    :meth:`cogs.tables.drawn.Drawn.keeps`): the names of its files (``names``) on message ``message_id``,
    as the last write known to have landed last left them (none: unknown). A write (a press's answer or a
    plain edit) that overlapped another learns nothing: which of the two Discord applied last is unknown.
    """

    def __init__(self) -> None:
        self.message_id: int | None = None
        self.names: tuple[str, ...] = ()
        self.answers = 0  # press answers begun
        self.edits = 0  # plain edits begun
        self.writing = 0  # writes under way

    def shown(self, message_id: int | None) -> tuple[str, ...]:
        """The names of the files ``message_id`` shows, as far as known (none: unknown)."""
        return self.names if message_id is not None and message_id == self.message_id else ()

    def begin(self, *, answer: bool) -> None:
        """A write begins: what the message shows is unknown until it is learnt again."""
        self.message_id, self.names = None, ()
        self.writing += 1
        if answer:
            self.answers += 1
        else:
            self.edits += 1

    def learn(self, message_id: int | None, names: tuple[str, ...]) -> None:
        """Message ``message_id`` shows the files ``names``."""
        self.message_id, self.names = message_id, names


class _Refresher:
    """Keeps one table's public message up to date with plain edits (no interaction to answer).

    Edits run one at a time in a background task, outside the table's lock but for the drawing, which takes
    it (a commit holds it from its move until the move is stored, so an edit never shows a move that a
    failed save could undo or a crash lose), and each renders the state as it is when it runs: requests
    made while an edit is under way or waiting for its turn (:class:`~cogs.tables.edit_pacing.EditPacing`)
    collapse into one more edit, so the message never goes back to an older state, its last edit shows the
    latest table, and a slow, rate-limited or paced edit never blocks the game.
    """

    def __init__(self, messages: TableMessages, session: TableSession) -> None:
        self.messages = messages
        self.session = session
        self.final: Drawn | None = None
        self.wanted = False
        self.task: asyncio.Task | None = None
        self._nudged = asyncio.Event()  # set when the wait for a turn should be worked out again

    @property
    def editing(self) -> bool:
        """True while an edit is under way (or waiting for its turn)."""
        return self.task is not None and not self.task.done()

    def request(self, final: Drawn | None = None) -> None:
        """Ask for an edit (``final``: the table is closed; show this for good)."""
        if final is not None:
            self.final = final
        self.wanted = True
        self._nudged.set()
        if not self.editing:
            what = f"table message edit of {self.session.table_id}"
            self.task = self.messages.tasks.spawn(self._run(), what)

    def nudge(self) -> None:
        """Work the wait of an edit waiting for its turn out again (the table was pressed)."""
        self._nudged.set()

    async def _run(self) -> None:
        try:
            while self.wanted:
                await self._turn()
                self.wanted = False
                edit = self.messages.pacing.going(self.session)
                try:
                    await self.messages.edit(self.session, self.final)
                finally:
                    self.messages.pacing.landed(edit)
        finally:
            if not self.messages.is_live(self.session) and not self.wanted:
                self.messages.refresher_done(self.session)

    async def _turn(self) -> None:
        """Wait until the pacing lets the next edit go, working the wait out again whenever the table is
        pressed or another edit is asked for (a final one waits less)."""
        pacing = self.messages.pacing
        while (wait := pacing.wait_seconds(self.session, final=self.final is not None)) > 0:
            self._nudged.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._nudged.wait(), wait)
