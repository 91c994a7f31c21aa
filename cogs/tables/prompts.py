"""Who must decide in their private view: a player to act whose legal actions are not all offered on the
public table message (a card in hand, a throw, a Declare), so the table tells them by name to open
**My hand** rather than leave them looking for buttons that are not there."""

from __future__ import annotations

from collections import OrderedDict

from cogs.tables.session import TableSession

_KEPT = 4096
_deciders: OrderedDict[str, tuple[int, list[int]]] = OrderedDict()
"""The last answer of :func:`private_deciders` by table id, with the state version it is for (a table is
drawn again and again at one version: its message, live private views)."""


def private_deciders(session: TableSession) -> list[int]:
    """The users to act now who have a choice only their private view offers, in seat order.

    What is offered publicly (``public_actions``) reveals nothing by construction; a seat to act that has
    actions beyond it decides in private (engines mark those actions ``secret``)."""
    if session.state is None:
        return []
    version = session.state.version
    known = _deciders.get(session.table_id)
    if known is not None and known[0] == version:
        return known[1]
    deciders = _find_private_deciders(session)
    _deciders[session.table_id] = (version, deciders)
    if len(_deciders) > _KEPT:
        _deciders.popitem(last=False)
    return deciders


def _find_private_deciders(session: TableSession) -> list[int]:
    public = {action.code for action in session.public_actions()}  # the same move may be worded apart
    deciders = []
    for user in session.users_to_act():
        seat = session.seat_of(user)
        if seat is not None and any(action.code not in public for action in session.view(seat).legal_actions):
            deciders.append(user)
    return deciders


PROMPT = "open **My hand** to make your move"
"""What the table tells a player whose choice is private (after their name)."""


def shows_presser_more(session: TableSession, user_id: int) -> bool:
    """True if, after a move pressed on the table message, the presser still has a decision and their own
    board shows what the public one does not (a card they just looked at, in Deluxe Memory): the press is
    then answered with their private view, so they see it at once."""
    seat = session.seat_of(user_id)
    if session.state is None or seat is None or user_id not in session.users_to_act():
        return False
    own = session.view(seat).board
    return own is not None and own != session.view(None).board
