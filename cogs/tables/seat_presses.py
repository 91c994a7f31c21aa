"""The presses that change who plays a seat: "Add AI player" / "Remove AI player" (the host, in the lobby),
"I'm back" (a player an AI took over), "Leave game" with its confirmation (a player hands their seat to an
AI for the rest of the game) and "End table" (a running game no person plays any more).

:class:`~cogs.tables.presses.TablePresses` hands them here under the table's lock; every refusal is a
:class:`~cogs.tables.session.TableError` with words for the player, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from cogs.tables import ai_seats, idle_takeover
from cogs.tables import custom_ids as ids
from cogs.tables.clocks import TableClocks
from cogs.tables.closing import TableCloser
from cogs.tables.components import TableButton, TableView
from cogs.tables.session import Phase, TableError, TableSession
from cogs.tables.store import TableStore
from cogs.tables.table_message import TableMessages
from engine import Event

LEAVE_QUESTION = (
    "Leave this game? An AI plays your seat to the end, and you are ranked where your seat finishes. "
    "You can't come back to this game."
)


def leave_game(session: TableSession, user_id: int) -> int:
    """``user_id`` leaves the running game: an AI plays their seat to the end (they keep the seat's
    result). Returns the seat.

    Raises
    ------
    TableError
        The game is not running, or ``user_id`` does not play at it (or left it already).
    """
    seat = session.seat_of(user_id)
    if session.phase is not Phase.PLAYING or seat is None or seat in session.left_seats:
        raise TableError("You are not playing at this table.")
    session.left_seats.add(seat)
    session.idle_seats.discard(seat)
    session.dm_wanted.discard(user_id)
    session.events.append(Event(seat, "left the game: an AI plays their seat to the end."))
    return seat


class SeatPresses:
    """Handles the seat presses (see the module); ``after_move(session, before)`` follows a change of who
    plays, as a move is followed (the AI seats' turns start from there); ``redraw_private(interaction,
    session)`` answers a press in a private view with that view redrawn."""

    def __init__(
        self,
        store: TableStore,
        clocks: TableClocks,
        messages: TableMessages,
        after_move: Callable[[TableSession, set[int]], None],
        closer: TableCloser,
        redraw_private: Callable[[discord.Interaction, TableSession], Awaitable[None]],
    ) -> None:
        self.store = store
        self.clocks = clocks
        self.messages = messages
        self.after_move = after_move
        self.closer = closer
        self.redraw_private = redraw_private

    async def press(self, interaction: discord.Interaction, session: TableSession, verb: str) -> None:
        """Handle seat press ``verb`` (one of :data:`~cogs.tables.custom_ids.SEAT_VERBS`)."""
        user_id = interaction.user.id
        answer = self.messages.answer_with_table
        if verb in (ids.ADD_AI, ids.REMOVE_AI):
            if verb == ids.ADD_AI:
                ai_seats.add_ai(session, user_id)
            else:
                ai_seats.remove_ai(session, user_id)
            await self.store.persist(session)
            self.clocks.arm_lobby(session)
            note = "AI player added." if verb == ids.ADD_AI else "AI player removed."
            await answer(interaction, session, note)
        elif verb == ids.BACK:
            before = set(session.users_with_actions())
            idle_takeover.come_back(session, user_id)
            await self._store_and_follow(session, before)
            if self._in_private_view(interaction, session):
                await self.redraw_private(interaction, session)
            else:
                await answer(interaction, session, "Welcome back: your seat is yours again.")
        elif verb == ids.LEAVE_GAME:
            seat = session.seat_of(user_id)
            if session.phase is not Phase.PLAYING or seat is None or seat in session.left_seats:
                raise TableError("You are not playing at this table.")
            view = TableView()
            target = ids.TableCustomId(session.table_id, 0, ids.LEAVE_SURE)
            view.add_item(TableButton(target, label="Yes, leave the game", style=discord.ButtonStyle.danger))
            await interaction.response.send_message(LEAVE_QUESTION, view=view, ephemeral=True)
        elif verb == ids.LEAVE_SURE:
            before = set(session.users_with_actions())
            leave_game(session, user_id)
            await self._store_and_follow(session, before)
            await interaction.response.edit_message(
                content="You left the game: an AI plays your seat to the end.", view=None
            )
            self.messages.refresh(session)
        elif verb == ids.END:
            if not ai_seats.may_end(session, user_id):
                raise TableError(
                    "Only the host (or, if the host left, a player still seated) can end a table, and only "
                    "once no person plays any seat."
                )
            name = session.names.get(user_id, "a player")
            reason = f"{name} ended the table: nobody played any seat any more. No result was recorded."
            await self.closer.close(session, reason, interaction)
        else:
            raise TableError("That button is not one I know: nothing happened.")

    async def _store_and_follow(self, session: TableSession, before: set[int]) -> None:
        await self.store.persist(session)
        self.after_move(session, before)

    def _in_private_view(self, interaction: discord.Interaction, session: TableSession) -> bool:
        message = interaction.message
        return (
            message is not None
            and (interaction.guild_id is None or message.flags.ephemeral)
            and not self.messages.is_table_message(interaction, session)
            and session.phase is Phase.PLAYING
        )
