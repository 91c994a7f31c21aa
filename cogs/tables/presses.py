"""What each table press does: join, leave, start, cancel, a game action, "My hand", "DM me", "Play
again" / "Leave", a lobby option, a page of menus. :class:`TablePresses` is the
:class:`~cogs.tables.press_handler.PressHandler` the table components hand their presses to.

Each press is answered once, within Discord's 3 seconds: through its own interaction response, with the
new table message where the press was on it, and everything a player may not do gets an ephemeral answer
that changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from cogs import quick_answer
from cogs.tables import ai_seats, lobby_options, prompts, render, render_json
from cogs.tables import custom_ids as ids
from cogs.tables.after_move import AfterMove
from cogs.tables.clocks import TableClocks
from cogs.tables.closing import TableCloser
from cogs.tables.private_views import PrivateViews
from cogs.tables.registry import TableRegistry
from cogs.tables.seat_presses import SeatPresses
from cogs.tables.session import Phase, TableError, TableSession
from cogs.tables.store import TableStore
from cogs.tables.table_message import TableMessages, now
from engine import IllegalAction
from engine.lobby import RematchChoice

log = logging.getLogger(__name__)

LOCK_WAIT_SECONDS = 2.0  # a press waits at most this long for the table, so it is still answered in time


@asynccontextmanager
async def locked(session: TableSession) -> AsyncIterator[None]:
    """Hold the table's lock; refuse (politely) if another action holds it too long."""
    if session.lock.locked():  # wait, at most LOCK_WAIT_SECONDS (a free lock is taken at once, no timer)
        try:
            await asyncio.wait_for(session.lock.acquire(), timeout=LOCK_WAIT_SECONDS)
        except TimeoutError:
            raise TableError("The table is busy: press again in a moment.") from None
    else:
        await session.lock.acquire()
    try:
        yield
    finally:
        session.lock.release()


async def reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, as the response or, if the interaction was answered already, a followup."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


WINDOW_CLOSED = "The **Play again** window has closed: `/play` opens a new table."


def in_private_view(interaction: discord.Interaction) -> bool:
    """True if the press came from a message only its presser sees (an ephemeral message, or a DM), so
    answering it with the presser's private view shows that view to nobody else."""
    message = interaction.message
    return message is not None and (interaction.guild_id is None or message.flags.ephemeral)


class TablePresses:
    """Handles the presses of every table (a :class:`~cogs.tables.press_handler.PressHandler`)."""

    def __init__(
        self,
        registry: TableRegistry,
        store: TableStore,
        clocks: TableClocks,
        messages: TableMessages,
        private_views: PrivateViews,
        after_move: AfterMove,
        closer: TableCloser,
    ) -> None:
        self.registry = registry
        self.store = store
        self.clocks = clocks
        self.messages = messages
        self.private_views = private_views
        self.after_move = after_move
        self.closer = closer
        self.seats = SeatPresses(store, clocks, messages, after_move, closer, private_views.answer_move)

    async def on_option_select(
        self, interaction: discord.Interaction, table_id: str, field: str, values: list[str]
    ) -> None:
        """The host chose option values in the lobby: check them, store them, show the new lobby."""
        session = self.registry.get(table_id)
        if session is None:
            await reply(interaction, self.registry.gone_reason(table_id))
            return
        try:
            async with locked(session):
                lobby_options.choose(session, interaction.user.id, field, values)
                await self.store.persist(session)
                await self.messages.answer_with_table(interaction, session, "Option set.")
        except TableError as refusal:
            await reply(interaction, str(refusal))

    async def on_table_button(self, interaction: discord.Interaction, target: ids.TableCustomId) -> None:
        """Handle a press on any table button: check it, apply it, answer it."""
        session = self.registry.get(target.table_id)
        if session is None:
            if target.verb in (ids.AGAIN, ids.QUIT) and not in_private_view(interaction):
                # A scoreboard whose "Play again" window ran out keeps its buttons until a press like this
                # one takes them away, in the press's own answer.
                await interaction.response.edit_message(
                    content=WINDOW_CLOSED, view=render.replay_view(target.table_id)
                )
                return
            await reply(interaction, self.registry.gone_reason(target.table_id))
            return
        try:
            if target.verb == ids.DM:
                await self.private_views.dm_hand(interaction, session)  # DMs may be slow: not under the lock
            elif target.page is not None:
                async with locked(session):  # a move being stored is not shown before it is stored
                    await self._show_page(interaction, session, target.page)
            else:
                async with locked(session):
                    await self._press(interaction, session, target)
        except (TableError, IllegalAction) as refusal:
            await reply(interaction, str(refusal))
        except discord.HTTPException:
            log.exception("Discord refused an answer for table %s", session.table_id)
        except Exception:
            log.exception("Bug while handling %s on table %s", target, session.table_id)
            await reply(interaction, "Something went wrong on my side. Please try again.")

    async def _show_page(self, interaction: discord.Interaction, session: TableSession, page: int) -> None:
        """Show another page of the menus of the message pressed on; the game does not change."""
        if in_private_view(interaction):
            await self.private_views.show_page(interaction, session, page)
        elif not self.messages.is_table_message(interaction, session):
            raise TableError("That button is not one of this message's: nothing happened.")
        elif session.phase is Phase.PLAYING and interaction.type is discord.InteractionType.component:
            embed, components = render_json.table_message_json(session, page)
            await quick_answer.edit_message_json(
                interaction, embed=embed, components=components, attachments=render.table_files(session)
            )
        elif session.phase is Phase.PLAYING:
            embed, view = render.table_message(session, page)
            await quick_answer.edit_message(
                interaction, embed=embed, view=view, attachments=render.table_files(session)
            )
        else:
            await self.messages.answer_with_table(interaction, session, "The table has moved on.")

    async def _press(
        self, interaction: discord.Interaction, session: TableSession, target: ids.TableCustomId
    ) -> None:
        user = interaction.user
        answer = self.messages.answer_with_table
        if target.action is not None:
            await self._play(interaction, session, target)
        elif target.verb == ids.JOIN:
            session.join(user.id, user.display_name)
            await self.store.persist(session)
            self.clocks.arm_lobby(session)
            await answer(interaction, session, "You joined the table.")
        elif target.verb == ids.LEAVE:
            session.leave(user.id)
            ai_seats.after_lobby_leave(session)  # AIs alone do not keep a lobby, nor host it
            if session.phase is Phase.CLOSED:
                await self.closer.close(session, "Everyone left, so the table closed.", interaction)
            else:
                await self.store.persist(session)
                self.clocks.arm_lobby(session)
                await answer(interaction, session, "You left the table.")
        elif target.verb == ids.CANCEL:
            session.cancel(user.id)
            await self.closer.close(session, "The host cancelled the table.", interaction)
        elif target.verb == ids.START:
            session.start(user.id, secrets.randbits(63), now())
            await self.store.persist(session)
            self.clocks.disarm_lobby(session)
            self.after_move(session, before=set())
            await answer(interaction, session, "The game has started.")
        elif target.verb in ids.SEAT_VERBS:
            await self.seats.press(interaction, session, target.verb)
        elif target.verb == ids.HAND:
            await self.private_views.show(interaction, session)
        elif target.verb in (ids.AGAIN, ids.QUIT):
            choice = RematchChoice.PLAY_AGAIN if target.verb == ids.AGAIN else RematchChoice.LEAVE
            session.choose_rematch(user.id, choice)
            await self.store.persist(session)
            assert session.rematch is not None
            if session.rematch.everyone_chose:
                await self.closer.end_rematch(session, interaction)
            else:
                await answer(interaction, session, "Noted.")
        else:
            raise TableError("That button is not one I know: nothing happened.")

    async def _play(
        self, interaction: discord.Interaction, session: TableSession, target: ids.TableCustomId
    ) -> None:
        """A game action: apply, store, follow up, then answer with the new table (one request) where the
        press was on the table message, else with the presser's redrawn private view (where only they see
        it) and an edit of the table message."""
        assert target.action is not None
        before = set(session.users_with_actions())
        session.act(interaction.user.id, target.version, target.action, now())
        await self.store.persist(session)  # stored before anyone sees it (a failed save undoes the move)
        private = in_private_view(interaction) and not self.messages.is_table_message(interaction, session)
        reveal = not private and prompts.shows_presser_more(session, interaction.user.id)
        if private or reveal:
            self.private_views.answering(session, interaction)
        # The move stands whatever happens to the answer below: clocks and DMs first.
        self.after_move(session, before)
        if private:
            await self.private_views.answer_move(interaction, session)
            self.messages.refresh(session)
        elif reveal:  # e.g. a card looked at: the presser sees it in the answer, the table is edited apart
            await self.private_views.show(interaction, session)
            self.messages.refresh(session)
        else:  # the table message answers (one request), or a note if pressed elsewhere
            await self.messages.answer_with_table(interaction, session, "Done.")
