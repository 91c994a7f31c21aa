"""Who must decide in their private view: a player to act whose legal actions are not all offered on the
public table message (a card in hand, a throw, a Declare), so the table tells them by name to open
**My hand** rather than leave them looking for buttons that are not there."""

from __future__ import annotations

import weakref

from engine import SeatView
from engine.tables import ai_seats
from engine.tables.session import TableSession

_deciders: weakref.WeakKeyDictionary[
    TableSession, tuple[SeatView, tuple[frozenset[int], frozenset[int]], list[int]]
] = weakref.WeakKeyDictionary()
"""The last answer of :func:`private_deciders` for each live table, with the public view and the seats
away and left it was worked out with: the session draws that view once per state (a new state, a new
view), and the table is drawn again and again in one state (its message, live private views)."""


def private_deciders(session: TableSession) -> list[int]:
    """The users to act now who have a choice only their private view offers, in seat order.

    What is offered publicly (``public_actions``) reveals nothing by construction; a seat to act that has
    actions beyond it decides in private (engines mark those actions ``secret``). A seat an AI plays (an AI
    seat, a player away or one who left: :func:`engine.tables.ai_seats.ai_plays`) is never prompted."""
    if session.state is None:
        return []
    stamp = session.view(None)
    away = (frozenset(session.idle_seats), frozenset(session.left_seats))  # change without a move
    known = _deciders.get(session)
    if known is not None and known[0] is stamp and known[1] == away:
        return known[2]
    deciders = _find_private_deciders(session)
    _deciders[session] = (stamp, away, deciders)
    return deciders


def _find_private_deciders(session: TableSession) -> list[int]:
    public = {action.code for action in session.public_actions()}  # the same move may be worded apart
    deciders = []
    for user in session.users_to_act():
        seat = session.seat_of(user)
        if seat is None or ai_seats.ai_plays(session, seat):
            continue
        if any(action.code not in public for action in session.legal_actions(seat)):
            deciders.append(user)
    return deciders


PROMPT = "open **My hand** to make your move"
"""What the table tells a player whose choice is private (after their name)."""


def shows_presser_more(session: TableSession, user_id: int) -> bool:
    """True if, after a move pressed on the table message, the presser still has a decision and their own
    board shows what the public one does not (a card they just looked at, in Deluxe Memory): the press is
    then answered with their private view, so they see it at once."""
    seat = session.seat_of(user_id)
    if session.state is None or seat is None or session.view(None).board is None:  # no board, nothing to see
        return False
    return user_id in session.users_to_act() and session.view(seat).board != session.view(None).board
