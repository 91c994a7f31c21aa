"""The seat buttons a table shows besides the game's actions: "I'm back" and "End table" on the table
message, "I'm back", "Hint" and "Leave game" in a player's private view (who may press them is
:mod:`engine.tables.ai_seats`'s to say)."""

from __future__ import annotations

from cogs.tables import custom_ids as ids
from engine.tables.ai_seats import ends_possible, hints_offered
from engine.tables.session import TablePhase, TableSession


def table_controls(session: TableSession) -> list[tuple[str, str]]:
    """``(verb, label)`` of the seat buttons the table message shows beside "My hand" while playing:
    "I'm back" while a player is away, "End table" when no person plays any seat but one could end it."""
    controls = []
    if session.idle_seats:
        controls.append((ids.BACK, "I'm back"))
    if ends_possible(session):
        controls.append((ids.END, "End table"))
    return controls


def private_controls(session: TableSession, user_id: int) -> list[tuple[str, str]]:
    """``(verb, label)`` of the seat buttons of a player's private view: "I'm back" while away, "Hint" when
    the coach may answer (:func:`~engine.tables.ai_seats.hints_offered`), and "Leave game"."""
    seat = session.seat_of(user_id)
    if seat is None or session.phase is not TablePhase.PLAYING or seat in session.left_seats:
        return []
    hint = [(ids.HINT, "Hint")] if hints_offered(session, user_id) else []
    back = [(ids.BACK, "I'm back")] if seat in session.idle_seats else []
    return back + hint + [(ids.LEAVE_GAME, "Leave game")]
