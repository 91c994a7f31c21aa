"""One live table: :class:`TableSession` holds the table's current value (an immutable
:class:`~engine.tables.table.Table`) and the lock its moves are committed under. Where the Discord layer
shows it (its messages) is the Discord layer's, kept by table id, never on the table. The runtime's commit
replaces the value (:meth:`TableSession.swap`) once a move's new table is stored; anyone else only reads
it. Reading an attribute of the session reads it of the current table.

The table's types are :mod:`engine.tables.table`'s, named here too for those who import them from here.
"""

from __future__ import annotations

import asyncio
from typing import Any

from engine import GameRules, LegalAction, SeatView
from engine.tables.table import (
    ALERT_MODES,
    BY_DM,
    BY_MENTION,
    EVENT_LOG_LENGTH,
    I_AM_BACK,
    NOT_TOLD,
    Table,
    TableDraft,
    TableError,
    TablePhase,
    TableQuestions,
    TableSettings,
)

__all__ = [
    "ALERT_MODES",
    "BY_DM",
    "BY_MENTION",
    "EVENT_LOG_LENGTH",
    "I_AM_BACK",
    "NOT_TOLD",
    "Table",
    "TableDraft",
    "TableError",
    "TablePhase",
    "TableSession",
    "TableSettings",
]


class TableSession(TableQuestions):
    """A live table: its current :class:`~engine.tables.table.Table` (:attr:`value`) and what goes with it
    while it is live. Every other attribute read is the current table's (``session.phase`` is
    ``session.value.phase``: the current table's fields are mirrored on the live table, so that reading one
    is a plain attribute read), and none of those can be assigned: a table changes only by a move. The
    questions of :class:`~engine.tables.table.TableQuestions` (``seat_of``, ``deadline``, ...) are asked of
    the current table too.

    Parameters
    ----------
    table:
        The table (a draft given is frozen: a new table).

    Attributes
    ----------
    value:
        The table as it is now (stored: a move's table becomes it only once stored).
    lock:
        Held by the runtime while a move of this table is committed.
    revision:
        How many moves this process has made the table take (:meth:`swap`), from 0 when it was opened or
        restored: whoever drew the table at one revision can tell whether it changed since. Not stored.
    """

    def __init__(self, table: Table | TableDraft) -> None:
        value = table.freeze() if isinstance(table, TableDraft) else table
        self._mirror(value)
        object.__setattr__(self, "lock", asyncio.Lock())
        object.__setattr__(self, "revision", 0)

    @classmethod
    def new(
        cls,
        table_id: str,
        guild_id: int,
        channel_id: int,
        rules: GameRules,
        settings: TableSettings,
        host_id: int,
        host_name: str,
        **seated: Any,
    ) -> TableSession:
        """A new table's lobby, live (see :class:`~engine.tables.table.TableDraft` for the parameters)."""
        return cls(TableDraft(table_id, guild_id, channel_id, rules, settings, host_id, host_name, **seated))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a table is a value: {name} changes only by a move (engine.tables.step)")

    def swap(self, new: Table) -> None:
        """Make ``new`` (a move's table, stored) the table, one :attr:`revision` later.

        Raises
        ------
        ValueError
            If ``new`` is another table's.
        """
        if new.table_id != self.value.table_id:
            raise ValueError("a live table takes only its own table's next value")
        self._mirror(new)
        object.__setattr__(self, "revision", self.revision + 1)

    def _mirror(self, value: Table) -> None:
        """Make ``value`` the table, its fields read straight off the live table."""
        fields = self.__dict__
        fields.update(value.__dict__)
        del fields["_derived"]
        fields["value"] = value

    def view(self, seat: int | None) -> SeatView:
        """The current table's :meth:`~engine.tables.table.Table.view` of ``seat`` (computed once a table)."""
        return self.value.view(seat)

    def public_actions(self) -> tuple[LegalAction, ...]:
        """The current table's :meth:`~engine.tables.table.Table.public_actions`."""
        return self.value.public_actions()

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        """The current table's :meth:`~engine.tables.table.Table.legal_actions` of ``seat``."""
        return self.value.legal_actions(seat)

    def __repr__(self) -> str:
        return f"<TableSession {self.value.table_id} {self.value.rules.key} {self.value.phase.value}>"
