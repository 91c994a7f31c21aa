"""Who must be told of a change of a running game, beyond the table message: players who asked for their
private view by DM, slow mode's "your turn" notices, and players an AI just took over. The runtime puts
them in the move's :class:`~engine.tables.outcome.Outcome`; the Discord layer sends them."""

from __future__ import annotations

from engine.tables import ai_seats
from engine.tables.outcome import TurnDM
from engine.tables.session import Phase, TableSession
from engine.tables.time_control import SLOW


def turn_dms(table: TableSession, before: frozenset[int], *, started: bool) -> tuple[TurnDM, ...]:
    """The players who asked for DMs and may act now but could not ``before`` (user ids), by DM; when
    the game has just ``started``, everyone who asked gets their hand. A seat an AI plays gets none."""
    waited_for = set(table.users_to_act())
    with_actions = table.users_with_actions()
    dms = []
    for user_id in with_actions:
        seat = table.seat_of(user_id)
        wanted = user_id in table.dm_wanted and user_id not in before
        if wanted and seat is not None and not ai_seats.ai_plays(table, seat):  # not away, not left
            dms.append(TurnDM(user_id, "turn" if user_id in waited_for else "may_act"))
    if started:
        dms += [
            TurnDM(user_id, "started")
            for user_id in table.players
            if user_id in table.dm_wanted and user_id not in with_actions
        ]
    return tuple(dms)


def users_to_notify(table: TableSession, before: frozenset[int] | set[int]) -> list[int]:
    """Who gets a "your turn" notice after a change: on a slow table, each user the game now waits for who
    could not act before (``before``), has not asked for their hand by DM, and whose seat no AI plays."""
    if table.phase is not Phase.PLAYING or table.settings.time_control.kind != SLOW:
        return []
    return [
        user
        for user in table.users_to_act()
        if user not in before
        and user not in table.dm_wanted
        and not ai_seats.ai_plays(table, table.players.index(user))  # an AI seat, away, or left
    ]


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
