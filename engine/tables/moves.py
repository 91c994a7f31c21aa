"""Every move a table takes, whoever makes it: a person's press or slash command, a clock running out, an
AI seat, a player taken over or leaving, an admin. A move is a small value; :meth:`Move.apply` checks it
and changes a draft of the table (or raises), and says what it did (:class:`Change`).
:func:`engine.tables.step.step` is the one place that applies a move, and
:meth:`~engine.tables.runtime.TableRuntime.commit` the one place that calls it for a live table.
"""

from __future__ import annotations

import abc
import logging
from dataclasses import dataclass
from datetime import datetime

from engine import Event, GameState, IllegalAction
from engine.core import plural, strong
from engine.lobby import RematchChoice
from engine.tables import ai_seats, lobby_options
from engine.tables.table import TableDraft, TableError, TablePhase, TableQuestions

log = logging.getLogger(__name__)


class Unchanged(TableError):
    """A move that turned out to change nothing: the table is gone, a clock fired with nothing due, an AI
    thought for a state the game has left. ``str(error)`` is written for the player, if one asked."""


@dataclass(frozen=True)
class Change:
    """What a move did, for the runtime: ``note`` is the words for whoever made it ("You joined the
    table."); ``close`` the reason the table closes (it never finished a game), if it does;
    ``end_scoreboard`` whether the "Play again" choice is over; ``quiet`` that the change is stored but
    neither shown nor followed by anything (a hint counted)."""

    note: str = "Done."
    close: str | None = None
    end_scoreboard: bool = False
    quiet: bool = False


class Move(abc.ABC):
    """One move at a table."""

    @abc.abstractmethod
    def apply(self, table: TableDraft, now: datetime) -> Change:
        """Check the move and change ``table``, a draft (``now``: UTC).

        Raises
        ------
        TableError
            The table refuses it (words for the player); nothing changed.
        IllegalAction
            The game refuses it; nothing changed.
        """


# -- the lobby -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Join(Move):
    """``user_id`` (shown as ``name``) takes a seat in the lobby."""

    user_id: int
    name: str

    def apply(self, table: TableDraft, now: datetime) -> Change:
        table.join(self.user_id, self.name)
        return Change("You joined the table.")


@dataclass(frozen=True)
class LeaveLobby(Move):
    """``user_id`` leaves the lobby; a lobby of AIs only closes, and an AI never hosts."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        table.leave(self.user_id)
        ai_seats.after_lobby_leave(table)
        if table.phase is TablePhase.CLOSED:
            return Change(close="Everyone left, so the table closed.")
        return Change("You left the table.")


@dataclass(frozen=True)
class Cancel(Move):
    """The host closes the lobby."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        table.cancel(self.user_id)
        return Change(close="The host cancelled the table.")


@dataclass(frozen=True)
class ChooseOption(Move):
    """The host chose ``values`` in lobby menu ``menu`` (see :func:`engine.tables.lobby_options.choose`)."""

    user_id: int
    menu: str
    values: tuple[str, ...]

    def apply(self, table: TableDraft, now: datetime) -> Change:
        lobby_options.choose(table, self.user_id, self.menu, list(self.values))
        return Change("Option set.")


@dataclass(frozen=True)
class AddAI(Move):
    """The host seats an AI player."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        ai_seats.add_ai(table, self.user_id)
        return Change("AI player added.")


@dataclass(frozen=True)
class RemoveAI(Move):
    """The host unseats the AI player seated last."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        ai_seats.remove_ai(table, self.user_id)
        return Change("AI player removed.")


@dataclass(frozen=True)
class Start(Move):
    """The host deals the game from ``seed``."""

    user_id: int
    seed: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        table.start(self.user_id, self.seed, now)
        return Change("The game has started.")


@dataclass(frozen=True)
class LobbyIdle(Move):
    """The idle lobby's clock ran out after ``minutes``: the lobby closes (if it still is one)."""

    minutes: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        if table.phase is not TablePhase.LOBBY:
            raise Unchanged("The game has started.")
        return Change(
            close=f"Nobody started the game for {plural(self.minutes, 'minute')}, so the table closed."
        )


# -- the game --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play(Move):
    """``user_id`` takes game action ``code``, pressed on a message drawn at state ``version``."""

    user_id: int
    version: int
    code: str

    def apply(self, table: TableDraft, now: datetime) -> Change:
        table.act(self.user_id, self.version, self.code, now)
        return Change("Done.")


@dataclass(frozen=True, eq=False)
class AIPlay(Move):
    """The AI playing ``seat`` chose ``code`` thinking on ``state`` at ``version``. Dropped
    (:class:`Unchanged`) if the game or the seat moved on meanwhile; an action the game refuses (a bug in
    the AI) is replaced by the seat's default action, so the game goes on."""

    seat: int
    version: int
    code: str
    state: GameState

    def apply(self, table: TableDraft, now: datetime) -> Change:
        if not is_current(table, self.state, self.version, self.seat):
            raise Unchanged("That AI move is for an earlier turn.")
        user_id = table.players[self.seat]
        try:
            table.act(user_id, self.version, self.code, now, by_ai=True)
        except (TableError, IllegalAction) as refusal:
            log.error(
                "%s AI chose %r, refused (%s): playing the default", table.rules.key, self.code, refusal
            )
            table.act(user_id, self.version, self.state.default_action(self.seat), now, by_ai=True)
        return Change("Done.")


def is_current(table: TableQuestions, state: GameState, version: int, seat: int) -> bool:
    """True while an AI may still play ``seat`` on ``state`` at ``version``: nobody moved (the table's game is
    at that version: a game's state at a version is its seed and its log up to it, which only a move
    changes) and an AI still plays the seat."""
    return (
        table.phase is TablePhase.PLAYING
        and table.state is not None
        and table.state.version == version
        and state.version == version
        and seat in state.seats_to_act()
        and ai_seats.ai_plays(table, seat)
    )


@dataclass(frozen=True)
class TimeOut(Move):
    """The turn clock ran out: the default action of each seat whose own clock has run out."""

    def apply(self, table: TableDraft, now: datetime) -> Change:
        if table.phase is not TablePhase.PLAYING or table.state is None:
            raise Unchanged("The game is not running.")
        if not table.time_out(table.state.version, now):
            raise Unchanged("Nothing is due yet.")
        return Change("Time ran out.")


@dataclass(frozen=True)
class ComeBack(Move):
    """``user_id`` pressed "I'm back": their seat is theirs again."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        ai_seats.come_back(table, self.user_id)
        return Change("Welcome back: your seat is yours again.")


@dataclass(frozen=True)
class ChooseAlerts(Move):
    """``user_id`` chooses how their turns at this table find them (``mode``: one of
    :data:`~engine.tables.session.ALERT_MODES`); stored with the table, so it holds after a restart."""

    user_id: int
    mode: str

    def apply(self, table: TableDraft, now: datetime) -> Change:
        table.choose_alerts(self.user_id, self.mode)
        return Change("Done.")


@dataclass(frozen=True)
class LeaveGame(Move):
    """``user_id`` leaves the running game: an AI plays their seat to the end."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        ai_seats.leave_game(table, self.user_id)
        return Change("You left the game: an AI plays your seat to the end.")


@dataclass(frozen=True)
class EndTable(Move):
    """``user_id`` ends a running game that no person plays any more (no result)."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        if not ai_seats.may_end(table, self.user_id):
            raise TableError(
                "Only the host (or, if the host left, a player still seated) can end a table, and only "
                "once no person plays any seat."
            )
        name = table.names.get(self.user_id, "a player")
        return Change(
            close=f"{name} ended the table: nobody played any seat any more. No result was recorded."
        )


@dataclass(frozen=True)
class AdminEnd(Move):
    """A server admin (shown as ``admin_name``) ends the table, whatever its phase, without a result."""

    admin_name: str

    def apply(self, table: TableDraft, now: datetime) -> Change:
        return Change(close=f"An admin ({self.admin_name}) ended this table; no result was recorded.")


@dataclass(frozen=True)
class CountHint(Move):
    """The coach answered ``user_id`` a hint: counted with the table (:func:`engine.tables.ai_seats.
    count_hint`). A hint is no move of the game: nothing is logged or shown."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        ai_seats.count_hint(table, self.user_id)
        return Change("Hint counted.", quiet=True)


@dataclass(frozen=True)
class WantDMs(Move):
    """``user_id``, seated, turns their private view by DM on (``wanted``) or off."""

    user_id: int
    wanted: bool

    def apply(self, table: TableDraft, now: datetime) -> Change:
        if self.user_id not in table.seated_users():
            raise TableError("Join the table first.")
        if self.wanted:
            table.dm_wanted.add(self.user_id)
            return Change("I will DM you your hand.")
        table.dm_wanted.discard(self.user_id)
        return Change("OK: I will not DM you your hand.")


@dataclass(frozen=True)
class DMsRefused(Move):
    """Discord does not deliver ``user_id``'s DMs: they are no longer sent, and the table says so once."""

    user_id: int

    def apply(self, table: TableDraft, now: datetime) -> Change:
        if self.user_id not in table.dm_wanted:
            raise Unchanged("DMs were off already.")
        table.dm_wanted.discard(self.user_id)
        seat = table.seat_of(self.user_id)
        table.events.append(Event(seat, f"can't get DMs from me: use {strong('My hand')} instead."))
        return Change("DMs are off.")


# -- the scoreboard --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChooseRematch(Move):
    """``user_id`` chose "Play again" or "Leave" on the scoreboard; once everyone chose, it ends."""

    user_id: int
    choice: RematchChoice

    def apply(self, table: TableDraft, now: datetime) -> Change:
        table.choose_rematch(self.user_id, self.choice)
        assert table.rematch is not None
        return Change("Noted.", end_scoreboard=table.rematch.everyone_chose)


@dataclass(frozen=True)
class RematchWindowClosed(Move):
    """The "Play again" window ran out: the scoreboard ends with the choices made."""

    def apply(self, table: TableDraft, now: datetime) -> Change:
        if table.phase is not TablePhase.SCOREBOARD:
            raise Unchanged("The scoreboard has ended.")
        return Change("Noted.", end_scoreboard=True)
