"""Where each decision is taken: which actions the public table message offers (:func:`table_actions`), and
who must decide in their private view: a player to act whose legal actions are not all offered on the
table message (a card in hand, a throw, a Declare, any pick of Deluxe Memory's grid), so the table tells
them by name to open **My hand** rather than leave them looking for buttons that are not there."""

from __future__ import annotations

import weakref

from engine import LegalAction, SeatView
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


def table_actions(session: TableSession) -> tuple[LegalAction, ...]:
    """The actions the public table message offers: the engine's public actions (``public_actions``),
    except in a game played on a board (Deluxe Memory's grid), whose every decision is taken in the
    player's private view: a pick there shows the picker at once what they looked at, and one place to
    pick from means no row chosen on the shared message for everyone."""
    if session.state is None or session.view(None).board is not None:
        return ()
    return session.public_actions()


def _find_private_deciders(session: TableSession) -> list[int]:
    public = {action.code for action in table_actions(session)}  # the same move may be worded apart
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
