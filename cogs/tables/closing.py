"""The end of a table: closing one that never finished a game (cancelled, abandoned, ended by an admin,
idle), and ending a scoreboard when everyone chose or the "Play again" window closed."""

from __future__ import annotations

from collections.abc import Callable

import discord

from cogs.tables import render
from cogs.tables.opening import TableOpener
from cogs.tables.registry import TableRegistry
from cogs.tables.session import TableSession
from cogs.tables.store import TableStore
from cogs.tables.table_message import TableMessages

OVER = "This game is over: see the final scores on the table message."


class TableCloser:
    """Closes tables and ends scoreboards."""

    def __init__(
        self, registry: TableRegistry, store: TableStore, messages: TableMessages, opener: TableOpener
    ) -> None:
        self.registry = registry
        self.store = store
        self.messages = messages
        self.opener = opener
        self.table_closed: Callable[[TableSession], None] = lambda session: None
        """Called once a table is closed or its scoreboard ended (the runtime archives its thread)."""

    async def close(
        self, session: TableSession, reason: str, interaction: discord.Interaction | None = None
    ) -> None:
        """Close a table that never finished a game, and turn its message into a closed notice."""
        session.close()
        self.registry.forget(session, "This table is closed.")
        await self.store.delete(session)
        closed = render.closed_message(session, reason)
        await self.messages.answer_with_table(interaction, session, reason, final_embed=closed)
        self.messages.release(session)
        self.table_closed(session)

    async def end_rematch(
        self, session: TableSession, interaction: discord.Interaction | None = None
    ) -> None:
        """Close the scoreboard; those who chose "Play again" go back to a new lobby in the channel."""
        assert session.rematch is not None
        session.rematch.close()
        lobby = session.rematch.next_lobby(session.rules.min_seats, session.rules.max_seats)
        session.close()
        self.registry.forget(session, OVER)
        await self.store.delete(session)
        if interaction is not None or lobby is not None:
            final_scores, _ = render.scoreboard_message(session)
            await self.messages.answer_with_table(interaction, session, "Noted.", final_embed=final_scores)
        # Else the window ran out with nobody choosing: the scoreboard stays as it is (it says until when
        # "Play again" was open), with no edit of its own; a late press on it takes its buttons away.
        self.messages.release(session)
        if lobby is not None:
            await self.opener.open_rematch(session, lobby)
        self.table_closed(session)
