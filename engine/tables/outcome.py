"""What a committed move hands the layer that shows tables (:class:`Outcome`: what changed and who must see
what), and what the runtime needs of that layer (:class:`Presenter`). The runtime never draws a message:
the Discord layer implements :class:`Presenter` (``cogs.tables.presenter``), a test can implement it with
a list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.tables.moves import Move
from engine.tables.session import TableSession


@dataclass(frozen=True)
class Outcome:
    """A committed move: stored, its clocks and AI turns scheduled, and what must be shown.

    Attributes
    ----------
    table:
        The live table (its value is the table as it is after the move, or later).
    move:
        The move.
    note:
        Words for whoever made the move ("You joined the table.", "Done.").
    before:
        The users who could act before the move (user ids; AI seats are negative).
    answered:
        True if whoever made the move answers it with the new table themselves (a press's own answer), so
        the presenter does not redraw the table message in the background.
    closed:
        Why the table closed (it never finished a game), or ``None``.
    scoreboard_ended:
        True when the "Play again" choice ended (the table is gone; a rematch lobby may follow).
    rematch:
        True when a rematch lobby follows a scoreboard that ended.
    turn_alerts:
        The people whose new turn it is (user ids, no AI seat): each is told as they chose (a mention in
        the table's channel, a DM, or not at all), and that line is removed once the turn is over.
    newly_away:
        Players an AI just took over who asked for DMs, to tell once (user ids).
    """

    table: TableSession
    move: Move
    note: str
    before: frozenset[int] = frozenset()
    answered: bool = False
    closed: str | None = None
    scoreboard_ended: bool = False
    rematch: bool = False
    turn_alerts: tuple[int, ...] = ()
    newly_away: tuple[int, ...] = ()


class Presenter(Protocol):
    """What the runtime needs of the layer that shows tables (Discord)."""

    def show(self, outcome: Outcome) -> None:
        """Show a committed move, in the background (never awaited by a move): the table message unless
        ``outcome.answered``, live private views, DMs and notices; a closed table's last message."""

    def forget(self, table: TableSession) -> None:
        """The table is gone from the runtime: stop following its messages and views."""

    async def post_table(self, table: TableSession, intro: str) -> None:
        """Post a new table message for ``table`` (a rematch lobby) with ``intro`` above it (which message
        shows it is the layer's to keep). Raises whatever the layer raises when it cannot post."""

    async def notice(self, table: TableSession, text: str) -> None:
        """Say ``text`` in the table's channel (failures are the presenter's to log)."""
