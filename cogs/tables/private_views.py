"""Each player's private view of a table: the ephemeral "My hand" message kept live while the game moves
(for as long as Discord lets it be edited), the same view by DM on request (one live DM per table and
player, edited as the game moves, its id stored with the table), and paging through its action menus."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs.tables import render
from cogs.tables.direct_messages import deliver_dm
from cogs.tables.drawn import Drawn, answer_press, attachments_on
from cogs.tables.table_message import TableMessages
from cogs.tables.table_text import TABLE_LINK, masked_link
from engine.tables.moves import DMsRefused, Move, WantDMs
from engine.tables.outcome import Outcome
from engine.tables.session import TableError, TablePhase, TableSession
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)

PRIVATE_VIEW_LIVE_SECONDS = 14 * 60  # Discord allows edits of an interaction's message for 15 minutes


class PrivateViews:
    """The private views of every table's players."""

    def __init__(self, client: discord.Client, tasks: Supervisor, messages: TableMessages) -> None:
        self.client = client
        self.tasks = tasks
        self.messages = messages
        self.live_seconds: float = PRIVATE_VIEW_LIVE_SECONDS  # how long an ephemeral view is edited
        # Live views by table, then player: a move looks only at its own table's (never at every table's).
        self.live: dict[str, dict[int, _LiveView]] = {}
        self.dms: dict[str, dict[int, _LiveDM]] = {}  # each DM player's one live DM, by table then player
        # How a move is committed (the runtime's one commit), set once the runtime is made: who wants DMs is
        # the table's, changed by a move like any other.
        self.commit: Callable[..., Awaitable[Outcome]] | None = None

    async def _commit(self, session: TableSession, move: Move, **how: Any) -> Outcome:
        assert self.commit is not None, "PrivateViews.commit is set when the parts are assembled"
        return await self.commit(session, move, **how)

    def drop_view(self, table_id: str, user_id: int) -> None:
        """Stop following the live view of ``user_id`` at table ``table_id`` (if it is followed)."""
        views = self.live.get(table_id)
        if views is not None:
            views.pop(user_id, None)
            if not views:
                del self.live[table_id]

    def message(
        self,
        session: TableSession,
        user_id: int,
        *,
        offer_dm: bool = False,
        page: int = 0,
        row: int | None = None,
    ) -> Drawn:
        """A player's private view at ``page`` of its menus (and ``row`` of the board, if chosen), with the
        link back to the table message."""
        jump_url = self.messages.jump_url(session)
        return render.private_message(
            session, user_id, jump_url=jump_url, offer_dm=offer_dm, page=page, row=row
        )

    @staticmethod
    def check(session: TableSession, user_id: int) -> None:
        """Refuse a private view to someone without one (not seated, no game running).

        Raises
        ------
        TableError
            With the reason, for the player.
        """
        if session.phase is TablePhase.LOBBY:
            if user_id not in session.lobby.players:
                raise TableError("Join the table first.")
            raise TableError("The game has not started yet: your hand comes when it starts.")
        if session.seat_of(user_id) is None:
            raise TableError("You are not playing at this table.")
        if session.seat_of(user_id) in session.left_seats:
            raise TableError("You left this game: an AI plays your seat to the end.")
        if session.phase is not TablePhase.PLAYING:
            raise TableError("This game is over: see the final scores on the table message.")

    async def show(self, interaction: discord.Interaction, session: TableSession) -> None:
        """Answer with the player's private view, ephemerally, and keep it live."""
        user_id = interaction.user.id
        self.check(session, user_id)
        drawn = self.message(session, user_id, offer_dm=True)
        await interaction.response.send_message(**drawn.send_kwargs(), ephemeral=True)
        self.track(session, interaction, picture=drawn.filenames())

    async def show_page(self, interaction: discord.Interaction, session: TableSession, page: int) -> None:
        """Redraw the private view the press came from at ``page`` of its menus (nothing else changes)."""
        user_id = interaction.user.id
        self.check(session, user_id)
        drawn = self.message(session, user_id, offer_dm=interaction.guild_id is not None, page=page)
        picture = await self._answer_view(interaction, session, drawn)
        self.track(session, interaction, page, picture=picture)

    async def show_row(self, interaction: discord.Interaction, session: TableSession, row: int) -> None:
        """Redraw the private view the press came from with the choices in ``row`` of the board (the first
        press of a pick; nothing else changes)."""
        drawn = self.message(session, interaction.user.id, offer_dm=interaction.guild_id is not None, row=row)
        picture = await self._answer_view(interaction, session, drawn)
        self.track(session, interaction, picture=picture)

    async def _answer_view(
        self, interaction: discord.Interaction, session: TableSession, drawn: Drawn
    ) -> tuple[str, ...]:
        """Answer a press in a private view with ``drawn`` (:func:`answer_press`); the names of the files
        the view shows now, or none (unknown) when a background edit of the presser's live view was under
        way before or during the answer (which of the two Discord applied last is unknown).

        Raises
        ------
        discord.HTTPException
            Discord refused the answer.
        """
        live = self.live.get(session.table_id, {}).get(interaction.user.id)
        quiet = live is None or not live.editing
        edits = live.edits if live is not None else 0
        await answer_press(interaction, drawn)
        if live is not None and (live.editing or live.edits != edits):
            return ()
        return drawn.filenames() if quiet else ()

    def answering(self, session: TableSession, interaction: discord.Interaction) -> None:
        """A move pressed in this private view will be answered by :meth:`answer_move`: call it before
        :meth:`refresh`, so the view is not also redrawn by a background edit (one request, not two)."""
        if session.phase is TablePhase.PLAYING:
            self.track(session, interaction)
        else:
            self.drop_view(session.table_id, interaction.user.id)

    async def answer_move(self, interaction: discord.Interaction, session: TableSession) -> None:
        """Answer a move pressed in a private view by redrawing that view: the new state, or the final
        scores when the move ended the game (the table message is refreshed apart)."""
        user_id = interaction.user.id
        try:
            if session.phase is TablePhase.PLAYING:
                drawn = self.message(session, user_id, offer_dm=interaction.guild_id is not None)
            else:
                drawn = render.private_scoreboard(session)
            picture = await self._answer_view(interaction, session, drawn)
        except discord.HTTPException as error:
            log.warning("Could not refresh a private view of table %s: %s", session.table_id, error)
        else:
            if session.phase is TablePhase.PLAYING:
                self.track(session, interaction, picture=picture)

    def track(
        self,
        session: TableSession,
        interaction: discord.Interaction,
        page: int = 0,
        *,
        picture: tuple[str, ...] = (),
    ) -> None:
        """Remember the ephemeral message that now shows this player's private view, to keep it live, and
        the names of the files it was just answered with (``picture``; none: unknown).

        Only ephemeral views in the server count (a DM is a new message each turn). Discord lets the bot
        edit an interaction's message for 15 minutes; after that the view is no longer kept up to date.
        """
        if interaction.guild_id is None:
            return
        views = self.live.setdefault(session.table_id, {})
        live = views.get(interaction.user.id)
        if live is None:
            live = views[interaction.user.id] = _LiveView(self, session, interaction.user.id)
        live.picture = picture
        live.interaction = interaction
        live.page = page
        live.shown_at = asyncio.get_running_loop().time()
        live.shown = live.signature()

    def refresh(self, session: TableSession) -> None:
        """After a move: edit every live private view of this table whose content changed (hands, actions
        offered out of turn), in the background, coalesced per player; none of a player who left the game,
        and none while the table is unwatched with no person seated
        (:meth:`~cogs.tables.edit_pacing.EditPacing.unwatched`)."""
        views = self.live.get(session.table_id)
        if not views or self.messages.pacing.unwatched(session):
            return  # an unwatched table with no person seated: the views wait (see cogs.tables.edit_pacing)
        now = asyncio.get_running_loop().time()
        for user_id, live in list(views.items()):
            seat = session.seat_of(user_id)
            if (
                now - live.shown_at > self.live_seconds
                or session.phase not in (TablePhase.PLAYING, TablePhase.SCOREBOARD)
                or (seat is not None and seat in session.left_seats)  # left the game: no view of it
            ):
                self.drop_view(session.table_id, user_id)
                continue
            if live.signature() != live.shown:
                live.request()
            if session.phase is TablePhase.SCOREBOARD:
                self.drop_view(session.table_id, user_id)

    def forget(self, session: TableSession) -> None:
        """The table closed: stop following its private views."""
        self.live.pop(session.table_id, None)

    def editable(self, table_id: str, user_id: int) -> bool:
        """True if the player's ephemeral view of table ``table_id`` is followed and can still be edited
        (Discord allows it for 15 minutes; the bot stops at ``live_seconds``)."""
        live = self.live.get(table_id, {}).get(user_id)
        now = asyncio.get_running_loop().time()
        return live is not None and now - live.shown_at <= self.live_seconds

    # -- DMs -------------------------------------------------------------------------------------------

    async def dm_hand(self, interaction: discord.Interaction, session: TableSession) -> None:
        """Turn on DMs for this player and send the private view (or, in the lobby, a confirmation); in the
        lobby, a second press turns them off.

        Runs outside the table's lock (DMs may be slow). An undelivered DM is explained ephemerally,
        with the private view shown there instead.
        """
        user_id = interaction.user.id
        in_lobby = session.phase is TablePhase.LOBBY
        if in_lobby and user_id in session.dm_wanted:

            async def answer(outcome: Outcome) -> None:
                await self.messages.answer_with_table(interaction, session, outcome.note)

            await self._commit(session, WantDMs(user_id, False), answer)
            return
        if not in_lobby:
            self.check(session, user_id)
        elif user_id not in session.lobby.players:
            raise TableError("Join the table first.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if in_lobby:  # this DM becomes the hand when the game starts: one live DM per table
            text = (
                f"I will show your hand here when the {session.rules.display_name} game starts.\n"
                f"{masked_link(TABLE_LINK, self.messages.jump_url(session))}"
            )
            why_not = await self.live_dm(session, user_id).replace(Drawn(content=text), None)
        else:
            why_not = await self.dm_view(session, user_id, "Your hand:")
        if why_not is None:
            try:
                await self._commit(session, WantDMs(user_id, True))  # shown as any move is
            except TableError as refusal:
                await interaction.edit_original_response(content=str(refusal))
                return
            await interaction.edit_original_response(
                content="✉️ Check your DMs: I keep your hand there up to date and tell you of your turns."
            )
            return
        if user_id in session.dm_wanted:
            with contextlib.suppress(TableError):
                await self._commit(session, WantDMs(user_id, False), wait=None)
        if in_lobby or session.phase is not TablePhase.PLAYING:
            await interaction.edit_original_response(content=why_not)
            return
        drawn = self.message(session, user_id).with_content(f"{why_not} Here is your hand instead:")
        await interaction.edit_original_response(**drawn.edit_kwargs())

    async def dm_view(self, session: TableSession, user_id: int, intro: str) -> str | None:
        """DM the private view, as the player's one live DM of this table (an earlier one is deleted);
        ``None`` once delivered, else why not (see :func:`send_dm`)."""
        live = self.live_dm(session, user_id)
        return await live.replace(self.message(session, user_id).with_content(intro), live.signature())

    def live_dm(self, session: TableSession, user_id: int) -> "_LiveDM":
        """The player's live DM of this table (made, with no message yet, if there is none)."""
        dms = self.dms.setdefault(session.table_id, {})
        live = dms.get(user_id)
        if live is None:
            live = dms[user_id] = _LiveDM(self, session, user_id)
        return live

    def has_live_dm(self, table_id: str, user_id: int) -> bool:
        """True if the player's view of table ``table_id`` is kept live by DM."""
        live = self.dms.get(table_id, {}).get(user_id)
        return live is not None and live.message is not None

    def refresh_dms(self, session: TableSession) -> None:
        """After a change: bring each DM player's one live DM of this table up to date (sent if there is
        none yet: the game started, or the bot restarted), in the background, coalesced per player; a
        finished game's becomes the final scores, a closed table's says so. Nothing else is sent, and
        nothing while the table is unwatched with no person seated
        (:meth:`~cogs.tables.edit_pacing.EditPacing.unwatched`)."""
        if session.phase is TablePhase.LOBBY or self.messages.pacing.unwatched(session):
            return
        dms = self.dms.get(session.table_id, {})
        playing = session.phase in (TablePhase.PLAYING, TablePhase.SCOREBOARD)
        wanted = session.dm_wanted if playing else set()
        for user_id in sorted(wanted | set(dms)):
            seat = session.seat_of(user_id)
            if user_id in wanted and seat is not None and seat not in session.left_seats:
                live = self.live_dm(session, user_id)
                if live.signature() != live.shown:
                    live.request()
            elif dms[user_id].message is None:
                continue  # its first DM is on its way ("DM me" pressed): the player is not in dm_wanted yet
            elif session.phase is not TablePhase.PLAYING:
                dms[user_id].request()  # the last edit: the scores, or the table closed
            else:
                dms.pop(user_id)  # DMs turned off, or the player left: the DM stays as it was
        if session.phase is not TablePhase.PLAYING:
            self.dms.pop(session.table_id, None)  # their last edits hold their own reference

    def dm_refused(self, session: TableSession, user_id: int) -> None:
        """Discord does not deliver the player's DMs: stop sending them; the table says so once."""
        self.dms.get(session.table_id, {}).pop(user_id, None)
        self.messages.ids.dm_gone(session, user_id)
        if user_id in session.dm_wanted:
            self.tasks.spawn(self._dms_refused(session, user_id), f"DMs refused at table {session.table_id}")

    async def _dms_refused(self, session: TableSession, user_id: int) -> None:
        with contextlib.suppress(TableError):  # gone, or not stored: the next DM refused says it again
            await self._commit(session, DMsRefused(user_id), wait=None)


class _LiveView:
    """A player's ephemeral private view that follows the game: edited in the background when the
    player's view changes, one edit at a time, each showing the state as it is when it runs (at the page
    the player last chose). The table it draws is as stored (a move becomes the table only once stored), so
    it never shows a move not stored yet, and it waits for no lock."""

    def __init__(self, views: PrivateViews, session: TableSession, user_id: int) -> None:
        self.views = views
        self.session = session
        self.user_id = user_id
        self.interaction: discord.Interaction | None = None
        self.page = 0
        self.shown_at = 0.0
        self.shown: object = None
        self.picture: tuple[str, ...] = ()  # the names of the files the view shows (none: unknown)
        self.edits = 0  # background edits begun
        self.wanted = False
        self.task: asyncio.Task | None = None

    @property
    def editing(self) -> bool:
        """True while a background edit of the view is under way."""
        return self.task is not None and not self.task.done()

    def signature(self) -> object:
        """What the view shows, to tell whether it changed."""
        seat = self.session.seat_of(self.user_id)
        if self.session.state is None or seat is None:
            return None
        return (self.session.phase, self.session.view(seat), self.session.seat_versions[seat])

    def request(self) -> None:
        """Ask for an edit of the view."""
        self.wanted = True
        if not self.editing:
            what = f"private view edit on table {self.session.table_id}"
            self.task = self.views.tasks.spawn(self._run(), what)

    async def _run(self) -> None:
        while self.wanted and self.interaction is not None:
            self.wanted = False
            signature = self.signature()  # the table is as stored: a move becomes it only once stored
            drawn = self.views.message(self.session, self.user_id, offer_dm=True, page=self.page)
            interaction, shown = self.interaction, self.picture
            self.picture = ()  # unknown until Discord answers
            self.edits += 1
            try:
                message = await interaction.edit_original_response(**drawn.edit_kwargs(shown))
            except discord.NotFound:  # dismissed by the player, or too old
                self.views.drop_view(self.session.table_id, self.user_id)
                return
            if self.interaction is interaction:  # no press answered in the view meanwhile (see _answer_view)
                self.picture = attachments_on(message)
            self.shown = signature


def live_dm_intro(session: TableSession) -> str:
    """The line above the private view in a player's live DM of the table: which game, in which channel."""
    return f"Your hand at the **{session.rules.display_name}** table in <#{session.channel_id}>:"


class _LiveDM:
    """A DM player's one live DM of a table: their private view, edited in the background when it changes
    (one edit at a time, each showing the table as stored when it runs); the final scores once the game is
    over, a line once the table closed. A DM Discord refuses (closed DMs) stops the DMs, nothing else."""

    def __init__(self, views: PrivateViews, session: TableSession, user_id: int) -> None:
        self.views = views
        self.session = session
        self.user_id = user_id
        self.message: discord.Message | discord.PartialMessage | None = None
        stored = views.messages.ids.live_dm(session.table_id, user_id)  # sent before a restart: edited
        if stored is not None:
            self.message = views.client.get_partial_messageable(stored[0]).get_partial_message(stored[1])
        self.shown: object = None
        self.wanted = False
        self.task: asyncio.Task | None = None

    def signature(self) -> object:
        """What the DM shows, to tell whether it changed."""
        seat = self.session.seat_of(self.user_id)
        if self.session.state is None or seat is None or self.session.phase is not TablePhase.PLAYING:
            return self.session.phase
        return (self.session.phase, self.session.view(seat), self.session.seat_versions[seat])

    def drawn(self) -> Drawn:
        """The DM as the table is now."""
        session = self.session
        if session.phase is TablePhase.PLAYING:
            return self.views.message(session, self.user_id).with_content(live_dm_intro(session))
        if session.phase is TablePhase.SCOREBOARD:
            return render.dm_scoreboard(session).with_content("The game is over.")
        table = f"The {session.rules.display_name} table in <#{session.channel_id}>"
        return render.text_message(f"{table} is closed.")

    async def replace(self, drawn: Drawn, signature: object) -> str | None:
        """Send ``drawn`` as a new live DM and delete the one before; ``None`` once delivered, else why not
        (see :func:`send_dm`)."""
        old = self.message
        sent = await deliver_dm(self.views.client, self.user_id, **drawn.send_kwargs())
        if isinstance(sent, str):
            return sent
        self.message, self.shown = sent, signature
        self.views.messages.ids.dm_sent(self.session, self.user_id, sent.channel.id, sent.id)  # and stored
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await old.delete()
        return None

    def request(self) -> None:
        """Ask for an edit (or the first send) of the DM."""
        self.wanted = True
        if self.task is None or self.task.done():
            self.task = self.views.tasks.spawn(self._run(), f"live DM on table {self.session.table_id}")

    async def _run(self) -> None:
        while self.wanted:
            self.wanted = False
            signature = self.signature()  # the table is as stored: a move becomes it only once stored
            drawn = self.drawn()
            if self.message is not None:
                try:
                    self.message = await self.message.edit(**drawn.edit_kwargs())
                    self.shown = signature
                    continue
                except discord.NotFound:  # gone: send it again
                    self.message = None
                    self.views.messages.ids.dm_gone(self.session, self.user_id)
                except discord.HTTPException as error:
                    log.info("Could not edit the live DM of table %s: %s", self.session.table_id, error)
                    continue
            if self.session.phase is not TablePhase.PLAYING:
                return
            if await self.replace(drawn, signature) is not None:
                self.views.dm_refused(self.session, self.user_id)
                return
