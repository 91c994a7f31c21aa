"""The engine's fields of a seat's view as a card's fields within a message's budget of text: the public
table's and a seat's own (:func:`state_fields`), those that fit (:func:`fitting_fields`), and what a private
view shows of them, in the channel (:func:`own_fields`) or by DM (:func:`with_table`)."""

from __future__ import annotations

from cogs.tables import house_rules
from cogs.tables.layouts import Card, CardField
from cogs.tables.lengths import (
    FIELD_NAME_MAX,
    FIELD_VALUE_MAX,
    LAST_LINE_MIN,
    clip,
    field_size,
    layout_length,
)
from cogs.tables.table_text import players_field, with_latest_events, with_names
from engine import Field, SeatView
from engine.tables.session import TableSession


def state_fields(
    session: TableSession, fields: tuple[Field, ...], *, brief: bool = False, private: bool = False
) -> list[CardField]:
    """The view's public fields (``private``: the seat's own) as a card's fields (at most 20), house rules
    marked in public ones; ``brief`` (a crowded message): each its brief value (``Field.brief``), those
    whose brief is ``""`` left out."""
    game = session.rules.key
    shown_fields = []
    for shown in fields[:20]:
        value = shown.brief if brief and shown.brief is not None else shown.value
        name = with_names(session, shown.name)
        if value:
            shown_fields.append(
                CardField(
                    clip(name if private else house_rules.marked(game, name), FIELD_NAME_MAX),
                    clip(with_names(session, value), FIELD_VALUE_MAX),
                )
            )
    return shown_fields


def fitting_fields(
    session: TableSession, fields: tuple[Field, ...], room: int
) -> tuple[list[CardField], int]:
    """The public ``fields`` (as :func:`state_fields`), each where it fits in ``room`` characters of
    text, its brief value (``Field.brief``) if only that fits; and the room left."""
    kept = []
    for shown in fields:
        for choice in state_fields(session, (shown,)) + state_fields(session, (shown,), brief=True):
            size = field_size(choice)
            if size <= room:
                kept.append(choice)
                room -= size
                break
    return kept, room


OWN_LINE = "You"
"""The private view's field of the seat's own line of "Players" (its score, its cards in front of it)."""


def own_fields(session: TableSession, view: SeatView, room: int) -> list[CardField]:
    """What is the seat's alone, for the ephemeral private view, within ``room`` characters of text: its
    own fields (their brief values if the full ones do not fit), the table's fields it reads to take a
    decision it has now (``Field.for_decision``), and its own line of "Players" (:data:`OWN_LINE`). The
    rest of the table is on the table message, just above."""
    fields = state_fields(session, view.private, private=True)
    used = sum(map(field_size, fields))
    if used > room:  # the seat's fields' brief values
        fields = state_fields(session, view.private, brief=True, private=True)
        used = sum(map(field_size, fields))
    room -= used
    if view.legal_actions:
        needed = tuple(shown for shown in view.table if shown.for_decision)
        decision, room = fitting_fields(session, needed, room)
        fields.extend(decision)
    own = next((line for line in view.seats if line.seat == view.seat), None)
    if own is not None and own.summary:
        line = CardField(OWN_LINE, clip(with_names(session, own.summary), FIELD_VALUE_MAX))
        if field_size(line) <= room:
            fields.append(line)
    return fields


def with_table(session: TableSession, view: SeatView, text: Card, budget: int) -> None:
    """Fill the DM's private view ``text`` (changed in place) within ``budget``: the seat's own fields
    (brief if need be), then the table's fields and "Players" each where it still fits, then the latest
    moves in what is left."""
    last_move = len("\nLast move: ") + LAST_LINE_MIN if session.events else 0
    text.fields = state_fields(session, view.private, private=True)
    if layout_length(text) + last_move > budget:  # the seat's fields' brief values (``Field.brief``)
        text.fields = state_fields(session, view.private, brief=True, private=True)
    fields = text.fields
    room = budget - layout_length(text) - last_move
    shown, room = fitting_fields(session, view.table, room)  # the rest: on the table message (title's link)
    fields.extend(shown)
    for brief in (False, True):
        players = CardField(*players_field(session, view, brief=brief), False)
        if field_size(players) <= room:
            fields.append(players)
            break
    label = "Last move: " if text.description else ""
    with_latest_events(session, text, budget, label)
