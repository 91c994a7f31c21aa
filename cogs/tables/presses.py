"""What each table press does: the component's custom_id becomes a move of :mod:`engine.tables.moves`,
committed by the runtime's one :meth:`~engine.tables.runtime.TableRuntime.commit`, and answered. Presses
that change nothing (a page of menus, "My hand", "DM me my hand", the question before leaving, a Hint)
are answered here. :class:`TablePresses` is the :class:`~cogs.tables.press_handler.PressHandler` the table
components hand their presses to.

Each press is answered once, within Discord's 3 seconds: through its own interaction response, with the
new table message where the press was on it, and everything a player may not do gets an ephemeral answer
that changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable

import discord

from cogs.tables import action_menus, late_presses, prompts, render
from cogs.tables import custom_ids as ids
from cogs.tables.drawn import answer_press, attachments_on, layout_on
from cogs.tables.private_views import PrivateViews
from cogs.tables.rules_in_play import rules_in_play
from cogs.tables.table_message import TableMessages
from cogs.tables.table_text import with_names
from engine import IllegalAction
from engine.ai import coach
from engine.ai.core import InformationSet
from engine.lobby import RematchChoice
from engine.tables import ai_seats, moves
from engine.tables.outcome import Outcome
from engine.tables.runtime import LOCK_WAIT_SECONDS, Answer, TableRuntime, locked
from engine.tables.session import TableError, TablePhase, TableSession

log = logging.getLogger(__name__)

Answering = Callable[[discord.Interaction, Outcome], Awaitable[None]]
"""How a press whose table goes on is answered (a move in a private view, "I'm back", leaving)."""


async def reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, as the response or, if the interaction was answered or acknowledged already, a
    followup (:func:`cogs.tables.late_presses.send_private`)."""
    await late_presses.send_private(interaction, content=text)


def in_private_view(interaction: discord.Interaction) -> bool:
    """True if the press came from a message only its presser sees (an ephemeral message, or a DM), so
    answering it with the presser's private view shows that view to nobody else."""
    message = interaction.message
    return message is not None and (interaction.guild_id is None or message.flags.ephemeral)


class TablePresses:
    """Handles the presses of every table (a :class:`~cogs.tables.press_handler.PressHandler`)."""

    def __init__(self, runtime: TableRuntime, messages: TableMessages, private_views: PrivateViews) -> None:
        self.runtime = runtime
        self.registry = runtime.registry
        self.messages = messages
        self.private_views = private_views

    async def on_option_select(
        self, interaction: discord.Interaction, table_id: str, field: str, values: list[str]
    ) -> None:
        """The host chose option values in the lobby: check them, store them, show the new lobby."""
        session = self.registry.get(table_id)
        if session is None:
            await reply(interaction, self.registry.gone_reason(table_id))
            return
        self.messages.pressed(session)
        move = moves.ChooseOption(interaction.user.id, field, tuple(values))
        try:
            async with late_presses.turn(interaction):  # a move waits for the table and the save
                await self.runtime.commit(session, move, self._answer(interaction), wait=LOCK_WAIT_SECONDS)
        except TableError as refusal:
            await reply(interaction, str(refusal))

    async def on_table_button(self, interaction: discord.Interaction, target: ids.TableCustomId) -> None:
        """Handle a press on any table button: check it, apply it, answer it."""
        session = self.registry.get(target.table_id)
        if session is None:
            if target.verb in (ids.AGAIN, ids.QUIT) and not in_private_view(interaction):
                # A scoreboard whose "Play again" window ran out keeps its buttons until a press like this
                # one takes them away, in the press's own answer.
                message = interaction.message
                closed = render.window_closed(target.table_id, layout_on(message), attachments_on(message))
                await answer_press(interaction, closed)
                return
            await reply(interaction, self.registry.gone_reason(target.table_id))
            return
        self.messages.pressed(session)  # someone is watching: its message is redrawn as it moves
        try:
            if target.verb == ids.DM:
                await self.private_views.dm_hand(interaction, session)  # DMs may be slow: not under the lock
            elif target.verb == ids.HINT:
                await self._hint(interaction, session)
            elif (
                target.verb in (ids.HAND, ids.LEAVE_GAME, ids.RULES)
                or target.page is not None
                or target.row is not None
            ):
                async with locked(session, LOCK_WAIT_SECONDS):  # a move being stored is not shown before
                    await self._look(interaction, session, target)
            else:
                async with late_presses.turn(interaction):  # a move waits for the table and the save
                    move, how = self._move(interaction, session, target)
                    await self.runtime.commit(
                        session, move, self._answer(interaction, how), wait=LOCK_WAIT_SECONDS
                    )
        except (TableError, IllegalAction) as refusal:
            await reply(interaction, str(refusal))
        except discord.HTTPException:
            log.exception("Discord refused an answer for table %s", session.table_id)
        except Exception:
            log.exception("Bug while handling %s on table %s", target, session.table_id)
            await reply(interaction, "Something went wrong on my side. Please try again.")

    # -- presses that change nothing -----------------------------------------------------------------

    async def _look(self, interaction: discord.Interaction, session: TableSession, target: ids.TableCustomId):
        """A page of menus, a row of the board, "My hand", "Rules in play", or the question before "Leave
        game": the table does not change."""
        if target.page is not None:
            await self._show_page(interaction, session, target.page)
        elif target.row is not None:
            await self._show_row(interaction, session, target)
        elif target.verb == ids.RULES:
            await self._rules_in_play(interaction, session)
        elif target.verb == ids.HAND:
            await self.private_views.show(interaction, session)
        else:
            seat = session.seat_of(interaction.user.id)
            if session.phase is not TablePhase.PLAYING or seat is None or seat in session.left_seats:
                raise TableError("You are not playing at this table.")
            question = render.leave_question(session)
            await interaction.response.send_message(**question.send_kwargs(), ephemeral=True)

    @staticmethod
    async def _rules_in_play(interaction: discord.Interaction, session: TableSession) -> None:
        """ "Rules in play": the table's rules, to the presser alone (anyone may read them, seated or not);
        the table does not change.

        Raises
        ------
        TableError
            No game has started at the table (its lobby lists the options).
        """
        if session.state is None:
            raise TableError("No game has started at this table yet: its options are on the lobby message.")
        drawn = rules_in_play(session)
        await interaction.response.send_message(**drawn.send_kwargs(), ephemeral=True)

    async def _hint(self, interaction: discord.Interaction, session: TableSession) -> None:
        """The coach: what the hard AI would play for the presser's seat, from the seat's information only
        (made under the table's lock, searched in a worker thread), answered ephemerally with its reason,
        then counted for the presser (the scoreboard of a rated table with hints shows the count).

        Raises
        ------
        TableError
            The presser may have no hint now (:func:`~engine.tables.ai_seats.hint_seat`).
        """
        async with locked(session, LOCK_WAIT_SECONDS):
            seat = ai_seats.hint_seat(session, interaction.user.id)
            state = session.state
            assert state is not None
            seen = await asyncio.to_thread(InformationSet.of, state, seat)
        hint = await asyncio.to_thread(coach.hint, session.rules.key, seen, state.seed)
        await reply(interaction, f"💡 {with_names(session, hint.reason)}")
        await self.runtime.count_hint(session, interaction.user.id)

    async def _show_page(self, interaction: discord.Interaction, session: TableSession, page: int) -> None:
        """Show another page of the menus of the message pressed on; the game does not change."""
        if in_private_view(interaction):
            await self.private_views.show_page(interaction, session, page)
        elif not self.messages.is_table_message(interaction, session):
            raise TableError("That button is not one of this message's: nothing happened.")
        elif session.phase is TablePhase.PLAYING:
            await self.messages.answer_on_table(interaction, session, render.table_message(session, page))
        else:
            await self.messages.answer_with_table(interaction, session, "The table has moved on.")

    async def _show_row(
        self, interaction: discord.Interaction, session: TableSession, target: ids.TableCustomId
    ) -> None:
        """The first press of a pick on the board (Deluxe Memory's grid): redraw the message pressed on
        with the choices in row ``target.row``; the game does not change.

        Raises
        ------
        TableError
            The message is from an earlier turn, the presser has no such choice to make there (not their
            view, not their turn), or the row holds no choice now (a forged custom_id).
        """
        user_id = interaction.user.id
        private = in_private_view(interaction)
        if private:
            self.private_views.check(session, user_id)
            seat = session.seat_of(user_id)
            session.check_version(target.version, seat)
            view = session.view(seat)
            actions, board = view.legal_actions, view.board
        elif not self.messages.is_table_message(interaction, session):
            raise TableError("That button is not one of this message's: nothing happened.")
        else:
            session.check_version(target.version)
            if user_id not in session.users_to_act():
                raise TableError("It is not your turn: nothing happened.")
            actions, board = prompts.table_actions(session), session.view(None).board
        grid = action_menus.grid_pick(actions, board)
        if grid is None or target.row not in grid.rows():
            raise TableError("No card in that row can be picked now: nothing happened.")
        if private:
            await self.private_views.show_row(interaction, session, target.row)
        else:
            await self.messages.answer_on_table(
                interaction, session, render.table_message(session, row=target.row)
            )

    # -- presses that are moves ----------------------------------------------------------------------

    def _move(
        self, interaction: discord.Interaction, session: TableSession, target: ids.TableCustomId
    ) -> tuple[moves.Move, Answering | None]:
        """The move a press asks for, and how to answer it when the table goes on (``None``: with the
        table).

        Raises
        ------
        TableError
            A verb no table knows (a forged custom_id).
        """
        user = interaction.user
        with_table = None  # answered with the table (see _answer)
        if target.action is not None:
            return moves.Play(user.id, target.version, target.action), self._played
        verb = target.verb
        if verb == ids.JOIN:
            return moves.Join(user.id, user.display_name), with_table
        if verb == ids.LEAVE:
            return moves.LeaveLobby(user.id), with_table
        if verb == ids.CANCEL:
            return moves.Cancel(user.id), with_table
        if verb == ids.START:
            return moves.Start(user.id, secrets.randbits(63)), with_table
        if verb == ids.ADD_AI:
            return moves.AddAI(user.id), with_table
        if verb == ids.REMOVE_AI:
            return moves.RemoveAI(user.id), with_table
        if verb == ids.BACK:
            return moves.ComeBack(user.id), self._came_back
        if verb == ids.LEAVE_SURE:
            return moves.LeaveGame(user.id), self._left
        if verb == ids.END:
            return moves.EndTable(user.id), with_table
        if verb in (ids.AGAIN, ids.QUIT):
            choice = RematchChoice.PLAY_AGAIN if verb == ids.AGAIN else RematchChoice.LEAVE
            return moves.ChooseRematch(user.id, choice), with_table
        raise TableError("That button is not one I know: nothing happened.")

    def _in_own_view(self, interaction: discord.Interaction, table: TableSession) -> bool:
        """True if the press came from the presser's private view of ``table`` (an ephemeral message or a
        DM that is not the table message), so its answer redraws that view."""
        return in_private_view(interaction) and not self.messages.is_table_message(interaction, table)

    def _answer(self, interaction: discord.Interaction, how: Answering | None = None) -> Answer:
        """How the commit answers this press: a table that closed, or a scoreboard that ended, for good
        (whatever the press was); else by ``how``, or with the new table (one request) where the press was on
        the table message, else with the move's note and an edit of the table message."""

        async def answer(outcome: Outcome) -> None:
            table = outcome.table
            final = None
            if outcome.closed is not None:
                final = render.closed_message(table, outcome.closed)
            elif outcome.scoreboard_ended:
                final = render.final_scoreboard(table)
            if final is None and how is not None:
                await how(interaction, outcome)
            else:
                await self.messages.answer_with_table(interaction, table, outcome.note, final=final)

        return answer

    async def _played(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """A game action: answer with the new table where the press was on the table message, else with the
        presser's redrawn private view (where only they see it) and an edit of the table message."""
        table = outcome.table
        if self._in_own_view(interaction, table):
            self.private_views.answering(table, interaction)
            await self.private_views.answer_move(interaction, table)
            self.messages.refresh(table)
        else:
            await self.messages.answer_with_table(interaction, table, outcome.note)

    async def _came_back(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """ "I'm back": redraw the private view it was pressed in, else answer with the table."""
        table = outcome.table
        if self._in_own_view(interaction, table) and table.phase is TablePhase.PLAYING:
            await self.private_views.answer_move(interaction, table)
            self.messages.refresh(table)
        else:
            await self.messages.answer_with_table(interaction, table, outcome.note)

    async def _left(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """ "Yes, leave the game": the question becomes the answer; the table message is edited apart."""
        await answer_press(interaction, render.text_message(outcome.note))
        self.messages.refresh(outcome.table)
