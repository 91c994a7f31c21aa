"""Each player's private view of a table: the ephemeral "My hand" message kept live while the game moves,
the same view by DM (on request, and whenever it becomes the player's turn), and paging through its
action menus."""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.tables import render
from cogs.tables.direct_messages import send_dm
from cogs.tables.drawn import Drawn, answer_press, attachments_on
from cogs.tables.table_message import TableMessages
from engine import Event
from engine.tables.session import Phase, TableError, TableSession
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)

PRIVATE_VIEW_LIVE_SECONDS = 14 * 60  # Discord allows edits of an interaction's message for 15 minutes


class PrivateViews:
    """The private views of every table's players."""

    def __init__(self, client: discord.Client, tasks: Supervisor, messages: TableMessages) -> None:
        self.client = client
        self.tasks = tasks
        self.messages = messages
        # Live views by table, then player: a move looks only at its own table's (never at every table's).
        self.live: dict[str, dict[int, _LiveView]] = {}

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
        if session.phase is Phase.LOBBY:
            if user_id not in session.lobby.players:
                raise TableError("Join the table first.")
            raise TableError("The game has not started yet: your hand comes when it starts.")
        if session.seat_of(user_id) is None:
            raise TableError("You are not playing at this table.")
        if session.seat_of(user_id) in session.left_seats:
            raise TableError("You left this game: an AI plays your seat to the end.")
        if session.phase is not Phase.PLAYING:
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
        if session.phase is Phase.PLAYING:
            self.track(session, interaction)
        else:
            self.drop_view(session.table_id, interaction.user.id)

    async def answer_move(self, interaction: discord.Interaction, session: TableSession) -> None:
        """Answer a move pressed in a private view by redrawing that view: the new state, or the final
        scores when the move ended the game (the table message is refreshed apart)."""
        user_id = interaction.user.id
        try:
            if session.phase is Phase.PLAYING:
                drawn = self.message(session, user_id, offer_dm=interaction.guild_id is not None)
            else:
                drawn = render.private_scoreboard(session)
            picture = await self._answer_view(interaction, session, drawn)
        except discord.HTTPException as error:
            log.warning("Could not refresh a private view of table %s: %s", session.table_id, error)
        else:
            if session.phase is Phase.PLAYING:
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
        offered out of turn), in the background, coalesced per player."""
        views = self.live.get(session.table_id)
        if not views:
            return
        now = asyncio.get_running_loop().time()
        for user_id, live in list(views.items()):
            if now - live.shown_at > PRIVATE_VIEW_LIVE_SECONDS or session.phase not in (
                Phase.PLAYING,
                Phase.SCOREBOARD,
            ):
                self.drop_view(session.table_id, user_id)
                continue
            if live.signature() != live.shown:
                live.request()
            if session.phase is Phase.SCOREBOARD:
                self.drop_view(session.table_id, user_id)

    def forget(self, session: TableSession) -> None:
        """The table closed: stop following its private views."""
        self.live.pop(session.table_id, None)

    # -- DMs -------------------------------------------------------------------------------------------

    async def dm_hand(self, interaction: discord.Interaction, session: TableSession) -> None:
        """Turn on DMs for this player and send the private view (or, in the lobby, a confirmation); in the
        lobby, a second press turns them off.

        Runs outside the table's lock (DMs may be slow). An undelivered DM is explained ephemerally,
        with the private view shown there instead.
        """
        user_id = interaction.user.id
        in_lobby = session.phase is Phase.LOBBY
        if in_lobby and user_id in session.dm_wanted:
            session.dm_wanted.discard(user_id)
            await self.messages.answer_with_table(interaction, session, "OK: I will not DM you your hand.")
            return
        if not in_lobby:
            self.check(session, user_id)
        elif user_id not in session.lobby.players:
            raise TableError("Join the table first.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if in_lobby:
            why_not = await send_dm(
                self.client,
                user_id,
                content=f"I will send your hand here when the {session.rules.display_name} game starts: "
                f"{self.messages.jump_url(session)}",
            )
        else:
            why_not = await self.dm_view(session, user_id, "Your hand:")
        if why_not is None:
            session.dm_wanted.add(user_id)
            await interaction.edit_original_response(
                content="✉️ Check your DMs: I will also DM you whenever it is your turn."
            )
            if in_lobby:
                self.messages.refresh(session)
            return
        session.dm_wanted.discard(user_id)
        if in_lobby or session.phase is not Phase.PLAYING:
            await interaction.edit_original_response(content=why_not)
            return
        drawn = self.message(session, user_id).with_content(f"{why_not} Here is your hand instead:")
        await interaction.edit_original_response(**drawn.edit_kwargs())

    def dm_turn_later(self, session: TableSession, user_id: int, intro: str = "It is your turn.") -> None:
        """DM the player their private view in the background (it is their turn, or the game started)."""
        self.tasks.spawn(self._dm_turn(session, user_id, intro), f"turn DM for table {session.table_id}")

    async def _dm_turn(self, session: TableSession, user_id: int, intro: str) -> None:
        if session.phase is not Phase.PLAYING:
            return
        if await self.dm_view(session, user_id, intro) is not None:
            session.dm_wanted.discard(user_id)
            session.events.append(
                Event(session.seat_of(user_id), "can't get DMs from me: use **My hand** instead.")
            )

    async def dm_view(self, session: TableSession, user_id: int, intro: str) -> str | None:
        """DM the private view; ``None`` once delivered, else why not (see :func:`send_dm`)."""
        drawn = self.message(session, user_id).with_content(intro)
        return await send_dm(self.client, user_id, **drawn.send_kwargs())


class _LiveView:
    """A player's ephemeral private view that follows the game: edited in the background when the
    player's view changes, one edit at a time, each showing the state as it is when it runs (at the page
    the player last chose)."""

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
            signature = self.signature()
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
