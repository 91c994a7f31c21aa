"""Who must be told of a change of a running game, beyond the table message: the people whose turn it
newly is (a mention, or a DM, as each chose), and players an AI just took over. The runtime puts them in
the move's :class:`~engine.tables.outcome.Outcome`; the Discord layer sends them."""

from __future__ import annotations

from engine.tables import ai_seats
from engine.tables.session import TablePhase, TableSession


def newly_waiting(table: TableSession, waited_before: frozenset[int]) -> tuple[int, ...]:
    """The people a change made the game wait for (user ids, seat order): a new turn of theirs. Each
    user the game waits for now who was not waited for before the change (``waited_before``), whose seat no
    AI plays (an AI seat, a player away or gone). Whether and how each is told is their choice (the
    presenter's, see :data:`~engine.tables.session.ALERT_MODES`)."""
    if table.phase is not TablePhase.PLAYING:
        return ()
    return tuple(
        user
        for user in table.users_to_act()
        if user not in waited_before and not ai_seats.ai_plays(table, table.players.index(user))
    )


class AwayNotices:
    """Tells each player once that an AI took over their seat: which seats were told, by table id. A table
    restored at start counts its players away as told (:meth:`restored`)."""

    def __init__(self) -> None:
        self.told: dict[str, set[int]] = {}

    def restored(self, table: TableSession) -> None:
        """A table came back after a restart: its players away were told before."""
        self.told[table.table_id] = set(table.idle_seats)

    def forget(self, table: TableSession) -> None:
        """The table closed."""
        self.told.pop(table.table_id, None)

    def newly_away(self, table: TableSession) -> tuple[int, ...]:
        """After a change: the players newly taken over who asked for DMs (user ids), each told once (a
        player back, then away again, is told again)."""
        told = self.told.setdefault(table.table_id, set())
        told &= table.idle_seats
        users = []
        for seat in sorted(table.idle_seats - told):
            told.add(seat)
            user_id = table.players[seat]
            if user_id in table.dm_wanted and not ai_seats.is_ai(user_id):
                users.append(user_id)
        return tuple(users)
