"""A table as a value: :class:`Table`, immutable, and :class:`TableDraft`, the table being changed by one
move inside :func:`engine.tables.step.step` (the only place a draft becomes a table again).

A :class:`Table` is everything about one table in one channel: its lobby, its running game, its scoreboard,
its turn clock's rules, and what the store needs to know of it. It never changes: assigning to one raises
``AttributeError``, and what it holds is immutable (tuples, frozensets, read-only mappings) but for its
game's state, which nothing applies a move to once it is in a table (a draft copies it first). What the
engine says of its state (views, legal actions) is computed once per table and kept with it.

:class:`TableDraft` holds the same fields in mutable form, with the rules of every change: its methods
check a request and change the draft or raise :class:`TableError` (words for the player). Showing a table
(the Discord layer), timers (:mod:`engine.tables.clocks`) and storage (:mod:`engine.tables.store`) are not
their business; the stored form is :mod:`engine.tables.snapshot`'s.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from types import MappingProxyType
from typing import Any

from engine import Event, GameRules, GameState, LegalAction, SeatView, Standing
from engine.core import plural, strong
from engine.lobby import Lobby, LobbyError, Rematch, RematchChoice, is_ai
from engine.tables import time_control
from engine.tables.time_control import SeatBank, TimeControl

EVENT_LOG_LENGTH = 6
FORCED_IN_A_ROW = 64
"""The most actions with nothing to choose a table plays at once after one move (a bound: a game whose
every decision were forced would still wait for a press now and then)."""
BY_MENTION, BY_DM, NOT_TOLD = "channel", "dm", "off"
ALERT_MODES = (BY_MENTION, BY_DM, NOT_TOLD)
"""How a player's turn finds them: a mention in the table's channel (the default), a DM, or not at all."""
I_AM_BACK = strong("I'm back")
"""The button a player an AI took over presses to play again, as the table's text names it."""


class TableError(Exception):
    """A request the table refuses; ``str(error)`` is written for the player. Nothing changed."""


class TablePhase(Enum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    SCOREBOARD = "scoreboard"
    CLOSED = "closed"


@dataclass(frozen=True)
class TableSettings:
    """Timing rules of a table, in seconds (``idle_after_timeouts``: a count of turns; ``time_control``:
    fixed clock, time bank or slow mode, see :mod:`engine.tables.time_control`)."""

    turn_seconds: int
    idle_turn_seconds: int
    idle_after_timeouts: int
    rematch_seconds: int = 180
    time_control: TimeControl = TimeControl()


class TableQuestions:
    """What anyone may ask of a table, a value or a draft: who is who, whose turn it is, the clock."""

    table_id: str
    guild_id: int
    channel_id: int
    rules: GameRules
    settings: TableSettings
    phase: TablePhase
    lobby: Lobby
    state: GameState | None
    players: Any  # user ids by seat: a tuple in a table, a list in a draft
    names: Any
    noted_decisions: Any
    seat_deadlines: Any
    finished_at: datetime | None
    rematch: Rematch | None
    timed_out_positions: Any
    saved_actions: int

    @property
    def host_id(self) -> int:
        """The user who may start or cancel the table."""
        return self.lobby.host_id

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` in the running or finished game, or ``None``."""
        return self.players.index(user_id) if user_id in self.players else None

    def name_of_seat(self, seat: int) -> str:
        """Display name of the player in ``seat``."""
        return self.names.get(self.players[seat], f"Seat {seat + 1}")

    def seated_users(self) -> list[int]:
        """Everyone at the table now: lobby players, or the game's players."""
        return list(self.lobby.players) if self.phase is TablePhase.LOBBY else list(self.players)

    def users_to_act(self) -> list[int]:
        """Users whose decision it is now."""
        if self.phase is not TablePhase.PLAYING or self.state is None:
            return []
        return [self.players[seat] for seat in self.state.seats_to_act()]

    def users_with_actions(self) -> list[int]:
        """Users who may act now: those the game waits for, and any with an optional out-of-turn action
        (from the decisions noted after the last change, not computed again)."""
        if self.phase is not TablePhase.PLAYING or self.state is None:
            return []
        return [user for seat, user in enumerate(self.players) if self.noted_decisions[seat][1]]

    @property
    def deadline(self) -> datetime | None:
        """When the earliest running clock runs out (UTC), while playing: the earliest of
        :attr:`seat_deadlines` (``None`` when no clock runs, or the game is not being played)."""
        if self.phase is not TablePhase.PLAYING or not self.seat_deadlines:
            return None
        return min(self.seat_deadlines.values())

    def _require(self, phase: TablePhase, wrong: str) -> None:
        if self.phase is not phase:
            raise TableError(wrong)

    def check_version(self, version: int, seat: int | None = None) -> None:
        """Refuse a press from a message drawn before ``seat``'s decision last changed.

        With ``seat=None`` only the current version is current.

        Raises
        ------
        TableError
            If the game is not running or the press is stale.
        """
        if self.phase is TablePhase.SCOREBOARD:
            raise TableError("This game is over: see the final scores on the table message.")
        self._require(TablePhase.PLAYING, "This game has not started yet.")
        assert self.state is not None
        oldest = self.state.version if seat is None else self.seat_versions[seat]
        if not oldest <= version <= self.state.version:
            raise TableError("That button is from an earlier turn: the table has moved on.")

    def rematch_closes_at(self) -> datetime | None:
        """When the "Play again" window of a finished game closes (``None`` before the game ends)."""
        if self.finished_at is None:
            return None
        return self.finished_at + timedelta(seconds=self.settings.rematch_seconds)

    def rematch_open(self) -> bool:
        """True while someone on the scoreboard may still choose "Play again" or "Leave" (not once every
        player has chosen: every person left, say)."""
        rematch = self.rematch
        return self.phase is TablePhase.SCOREBOARD and rematch is not None and not rematch.everyone_chose

    def standings(self) -> tuple[Standing, ...]:
        """Final standings of the finished game.

        Raises
        ------
        TableError
            If the game is not over.
        """
        if self.state is None or not self.state.is_terminal():
            raise TableError("The game is not over.")
        return self.state.standings()

    # -- storage ---------------------------------------------------------------------------------

    def stored_log(self) -> list[tuple[int, str, bool]]:
        """The whole action log as stored, ``(seat, code, timed_out)`` per action."""
        if self.state is None:
            return []
        timed_out = self.timed_out_positions
        return [
            (seat, code, position in timed_out) for position, (seat, code) in enumerate(self.state.history)
        ]

    def unsaved_actions(self) -> list[tuple[int, int, str, bool]]:
        """Actions applied since the table was last stored (:attr:`saved_actions` of them were), as
        ``(position, seat, code, timed_out)``."""
        return self.actions_since(self.saved_actions)

    def actions_since(self, position: int) -> list[tuple[int, int, str, bool]]:
        """The game's actions from log position ``position`` on, as ``(position, seat, code, timed_out)``."""
        if self.state is None:
            return []
        timed_out = self.timed_out_positions
        return [
            (at, seat, code, at in timed_out)
            for at, (seat, code) in enumerate(self.state.history[position:], position)
        ]


class TableDraft(TableQuestions):
    """A table being changed: the fields of :class:`Table` in mutable form and the rules of every change.
    A new table starts as a draft (a lobby, its host seated); :meth:`freeze` makes it a :class:`Table`,
    and :meth:`Table.draft` a table a draft again, inside :func:`engine.tables.step.step`.

    Attributes
    ----------
    table_id:
        Short unique id carried by every custom_id of this table.
    guild_id, channel_id:
        Where the table is.
    rules:
        The game played.
    players:
        User ids by seat (fixed when the game starts).
    names:
        Display names by user id, as they were when the player joined.
    dm_wanted:
        Users who asked for their private view by DM.
    alert_modes:
        How each player who chose it for this table is told of their turn (user id to one of
        :data:`ALERT_MODES`); the others follow their server choice.
    ai_levels:
        The level of each AI seat that has one other than normal, by its identity (see
        :mod:`engine.tables.ai_seats`).
    hints:
        True if the players may ask the coach for hints (set when the table opens by
        :func:`engine.tables.ai_seats.allow_hints`; see :func:`engine.tables.ai_seats.hint_seat`).
    hints_rated:
        True if hints are on at a table whose results are rated (the server turned them on for all): the
        scoreboard shows how many hints each player used.
    hint_counts:
        How many hints the coach answered each player at this table, by user id (a hint is no move: it is
        not in the game's action log).
    events:
        The latest lines of the table's log, oldest first.
    log_events:
        The latest lines its action log alone gives (the game's events, and "ran out of time."), oldest
        first: :attr:`events` without the table's own lines (a player away, back, or gone). A restart
        shows these (a replay of the log makes them), and an engine snapshot stores them
        (:func:`engine.tables.snapshot.engine_snapshot_of`).
    options:
        The game options the host chose in the lobby (field name to value; unset fields take the game's
        defaults).
    seat_deadlines:
        When each waiting seat's clock runs out (UTC). A seat's clock restarts only when its own decision
        changes, so a simultaneous decision keeps one clock per seat.
    seat_versions:
        Per seat, the state version at which its decision last changed (it acted, or its legal actions
        changed). A press drawn at ``version`` is current for a seat if ``seat_versions[seat] <= version``:
        other seats' moves do not make its buttons stale, its own moves do.
    noted_decisions:
        Per seat, its decision as noted after the last change: ``(GameState.decision_key, has_decision)``.
    saved_actions, stored_log_outdated, result_saved:
        What the database holds of the table: how many of its log's actions, whether that log was written
        by an older engine (the next save replaces it), whether the finished game's result.
    """

    def __init__(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        rules: GameRules,
        settings: TableSettings,
        host_id: int,
        host_name: str,
        *,
        players: list[int] | None = None,
        names: dict[int, str] | None = None,
        dm_wanted: set[int] | None = None,
    ) -> None:
        self.table_id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.rules = rules
        self.settings = settings
        self.phase = TablePhase.LOBBY
        self.lobby = Lobby(host_id, rules.min_seats, rules.max_seats, list(players or [host_id]))
        self.names: dict[int, str] = dict(names or {})
        self.names[host_id] = host_name
        self.dm_wanted: set[int] = set(dm_wanted or ())
        self.alert_modes: dict[int, str] = {}
        self.ai_levels: dict[int, str] = {}
        self.hints = False
        self.hints_rated = False
        self.hint_counts: dict[int, int] = {}
        self.state: GameState | None = None
        self.players: list[int] = []
        self.events: deque[Event] = deque(maxlen=EVENT_LOG_LENGTH)
        self.log_events: deque[Event] = deque(maxlen=EVENT_LOG_LENGTH)
        self.options: dict[str, object] = {}
        self.seat_deadlines: dict[int, datetime] = {}
        self.banks: list[SeatBank] = []  # each seat's time bank, on a bank table (else empty)
        self.clock_names: dict[int, str | None] = {}
        self.seat_versions: list[int] = []
        self.noted_decisions: list[tuple[object, bool]] = []
        self.started_at: datetime | None = None
        self.finished_at: datetime | None = None
        self.timeouts_in_row: dict[int, int] = {}
        self.idle_seats: set[int] = set()  # taken over by an AI until "I'm back" (engine.tables.ai_seats)
        self.left_seats: set[int] = set()  # their player left: an AI plays them to the end
        self.rematch: Rematch | None = None
        self.result_saved = False
        self.timed_out_positions: set[int] = set()
        self.saved_actions = 0
        self.stored_log_outdated = False

    def view(self, seat: int | None) -> SeatView:
        """The engine's view of the draft's state for ``seat`` (``None``: the public view)."""
        assert self.state is not None
        return self.state.view(seat)

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        """The engine's legal actions of ``seat`` (a seat index) in the draft's state."""
        assert self.state is not None
        return self.state.legal_actions(seat)

    def public_actions(self) -> tuple[LegalAction, ...]:
        """The engine's public actions of the draft's state."""
        assert self.state is not None
        return self.state.public_actions()

    def freeze(self) -> Table:
        """This draft as a :class:`Table`: every field in immutable form (the game state itself, which the
        draft must not change any more). The draft is not to be used after."""
        table = object.__new__(Table)
        fields = dict(self.__dict__)  # the immutable fields as they are
        for name, frozen in _FREEZE.items():
            fields[name] = frozen(fields[name])
        fields["_derived"] = {}
        object.__setattr__(table, "__dict__", fields)
        return table

    def choose_alerts(self, user_id: int, mode: str) -> None:
        """Record how ``user_id``'s turns at this table find them (one of :data:`ALERT_MODES`).

        Raises
        ------
        TableError
            The user is not seated at the table, or the mode is not one of :data:`ALERT_MODES`.
        """
        if mode not in ALERT_MODES:
            raise TableError("That is not a way I can tell you of your turn.")
        if user_id not in self.seated_users() or self.phase in (TablePhase.SCOREBOARD, TablePhase.CLOSED):
            raise TableError("You are not playing at this table.")
        self.alert_modes[user_id] = mode

    # -- lobby -----------------------------------------------------------------------------------

    def join(self, user_id: int, name: str) -> None:
        """Seat a player in the lobby.

        Raises
        ------
        TableError
            Not in the lobby phase, already seated, or the table is full.
        """
        self._require(TablePhase.LOBBY, "This table is not taking players now.")
        try:
            self.lobby.join(user_id)
        except LobbyError as error:
            raise TableError(str(error)) from None
        self.names[user_id] = name

    def leave(self, user_id: int) -> None:
        """Unseat a player from the lobby; the table closes when the last one leaves.

        Raises
        ------
        TableError
            Not in the lobby phase, or not seated.
        """
        self._require(TablePhase.LOBBY, "The game has started: you can't leave the lobby now.")
        try:
            self.lobby.leave(user_id)
        except LobbyError as error:
            raise TableError(str(error)) from None
        self.dm_wanted.discard(user_id)
        if self.lobby.is_empty:
            self.phase = TablePhase.CLOSED

    def cancel(self, user_id: int) -> None:
        """Close the lobby (host only).

        Raises
        ------
        TableError
            Not in the lobby phase, or ``user_id`` is not the host.
        """
        self._require(TablePhase.LOBBY, "Only a table that has not started can be cancelled.")
        try:
            self.lobby.check_host(user_id, "cancel this table")
        except LobbyError as error:
            raise TableError(str(error)) from None
        self.phase = TablePhase.CLOSED

    def start(self, user_id: int, seed: int, now: datetime) -> None:
        """Deal the game (host only, with at least the minimum of players); seats in join order.

        Raises
        ------
        TableError
            Not in the lobby phase, not the host, or too few players.
        """
        self._require(TablePhase.LOBBY, "This table has already started.")
        try:
            self.lobby.check_can_start(user_id)
        except LobbyError as error:
            raise TableError(str(error)) from None
        players = list(self.lobby.players)
        try:
            state = self.rules.new_game(len(players), seed, dict(self.options))
        except ValueError as error:
            raise TableError(f"These options don't work together: {error}") from None
        self.players = players
        self.state = state
        self.phase = TablePhase.PLAYING
        self.started_at = now
        self.timeouts_in_row = {seat: 0 for seat in range(len(self.players))}
        self.seat_versions = [0] * len(self.players)
        self.note_legal_actions()
        begins = Event(None, f"The game begins with {plural(len(self.players), 'player')}.")
        self.events.append(begins)
        self.log_events.append(begins)
        self._arm_deadline(now, changed=set(range(len(self.players))))

    def set_option(self, user_id: int, name: str, value: object) -> None:
        """Set a game option in the lobby (host only); the value is checked against the options model.

        Raises
        ------
        TableError
            Not in the lobby, not the host, an unknown option or a value the model refuses.
        """
        self._require(TablePhase.LOBBY, "Options can only be changed before the game starts.")
        try:
            self.lobby.check_host(user_id, "change the options")
        except LobbyError as error:
            raise TableError(str(error)) from None
        fields = self.rules.options_model.model_fields
        if name not in fields:
            raise TableError("That option is not one of this game's.")
        candidate = {**self.options, name: value}
        try:
            self.rules.options_model.model_validate(candidate)
        except ValueError:
            raise TableError("That value is not allowed for this option.") from None
        self.options = candidate

    # -- play ------------------------------------------------------------------------------------

    def act(self, user_id: int, version: int, code: str, now: datetime, *, by_ai=False) -> list[Event]:
        """Apply ``user_id``'s action ``code`` pressed on a message of state ``version``.

        A player who acts is no longer idle; ``by_ai``: an AI plays the seat (engine.tables.ai_turns).

        Raises
        ------
        TableError
            Not seated, left the game, the game is not running, or the press is from an earlier turn.
        IllegalAction
            The engine refuses the action (out of turn, illegal). Nothing changes.
        """
        seat = self.seat_of(user_id)
        if seat is None or self.phase is TablePhase.LOBBY or (seat in self.left_seats and not by_ai):
            raise TableError("You are not playing at this table.")
        self.check_version(version, seat)
        assert self.state is not None
        events = self.state.apply(seat, code)
        self.log_events.extend(events)
        if not by_ai:  # the player's own move: they are back, if they were away
            self.timeouts_in_row[seat], self.idle_seats = 0, self.idle_seats - {seat}
        self._after_change(events, now, acted={seat})
        return events

    def time_out(self, version: int, now: datetime) -> list[Event]:
        """The clock ran out on state ``version``: play the default action of each seat whose own clock
        has run out (within a second of ``now``).

        Returns the events, or ``[]`` when the state has moved on since (a stale timer: nothing changes).
        A player who misses ``idle_after_timeouts`` turns in a row is away: an AI plays the seat until they
        press "I'm back" (``idle_seats``). Turns are counted, not decisions: a decision that times out right
        after the same seat's timed-out decision (a Declare turn's throw, then its pick) is the same turn.
        """
        if self.phase is not TablePhase.PLAYING or self.state is None or self.state.version != version:
            return []
        events: list[Event] = []
        acted: set[int] = set()
        due = now + timedelta(seconds=1)
        for seat in tuple(self.state.seats_to_act()):
            if seat not in self.state.seats_to_act():  # an earlier default may have settled it
                continue
            if self.seat_deadlines.get(seat, now) > due:
                continue
            acted.add(seat)
            self.banks = time_control.run_out(self.banks, seat, due)
            code = self.state.default_action(seat)
            position = self.state.version
            same_turn = self._timed_out_just_before(seat, position)
            self.timed_out_positions.add(position)
            played = [Event(seat, "ran out of time."), *self.state.apply(seat, code)]
            events.extend(played)
            self.log_events.extend(played)
            if not same_turn:  # missed turns are counted, not decisions (a turn may be several)
                self.timeouts_in_row[seat] += 1
            away = self.timeouts_in_row[seat] >= self.settings.idle_after_timeouts
            if away and not is_ai(self.players[seat]):
                if seat not in self.idle_seats | self.left_seats:
                    self.idle_seats.add(seat)
                    events.append(Event(seat, f"is away: an AI plays for them until they press {I_AM_BACK}."))
        if acted:
            self._after_change(events, now, acted=acted)
        return events

    def _timed_out_just_before(self, seat: int, position: int) -> bool:
        """True if the action before log position ``position`` was ``seat``'s and its clock ran out: a
        timeout at ``position`` then goes on the same missed turn."""
        assert self.state is not None
        before = position - 1
        return before in self.timed_out_positions and self.state.history[before][0] == seat

    def _after_change(self, events: list[Event], now: datetime, acted: set[int]) -> None:
        assert self.state is not None
        self.events.extend(events)
        self._play_forced_actions()
        changed = self._note_changed_decisions(acted)
        if self.state.is_terminal():
            self.phase = TablePhase.SCOREBOARD
            self.finished_at = now
            self.seat_deadlines = {}
            leavers = {self.players[seat]: RematchChoice.LEAVE for seat in self.left_seats}
            self.rematch = Rematch([p for p in self.players if not is_ai(p)], self.host_id, leavers)
        else:
            self._arm_deadline(now, changed, acted)

    def _play_forced_actions(self) -> None:
        """Play at once every action a seat to act must take with nothing to choose
        (``GameState.forced_action``), in turn, until each seat to act has a choice or the game is over.
        Each is a move of the game's log like any other, by the seat it was forced on."""
        state = self.state
        assert state is not None
        for _ in range(FORCED_IN_A_ROW):
            if state.is_terminal():
                return
            forced = next(
                ((seat, code) for seat in state.seats_to_act() if (code := state.forced_action(seat))), None
            )
            if forced is None:
                return
            played = state.apply(*forced)
            self.events.extend(played)
            self.log_events.extend(played)

    def note_legal_actions(self) -> None:
        """Note every seat's decision now (the game was dealt or rebuilt), to tell later changes: its
        ``GameState.decision_key`` and whether it has one (``GameState.has_decision``)."""
        state = self.state
        assert state is not None
        self.noted_decisions = [
            (state.decision_key(seat), state.has_decision(seat)) for seat in range(len(self.players))
        ]

    def _note_changed_decisions(self, acted: set[int]) -> set[int]:
        """Bump the seat version of every seat that acted or whose decision changed (its
        ``GameState.decision_key`` did, without building its legal actions); return them."""
        state = self.state
        assert state is not None
        changed = set(acted)
        noted = self.noted_decisions
        for seat in range(len(self.players)):
            key = state.decision_key(seat)
            if key != noted[seat][0]:
                changed.add(seat)
                noted[seat] = (key, state.has_decision(seat))  # equal keys: equal actions, same answer
        for seat in changed:
            self.seat_versions[seat] = self.state.version
        return changed

    def _seconds_for(self, seat: int) -> float:
        assert self.state is not None
        fixed = self.state.decision_seconds(seat)
        if fixed is not None:
            return fixed
        turn = self.settings.time_control.turn_seconds(self.settings.turn_seconds)
        return self.settings.idle_turn_seconds if seat in self.idle_seats else turn

    def _arm_deadline(self, now: datetime, changed: set[int], acted: set[int] | None = None) -> None:
        """Start the clock of every seat that is newly waiting or whose decision changed; keep the rest. On
        a bank table the banks are settled first (``acted`` moved) and a seat's bank gives its deadline."""
        assert self.state is not None
        control = self.settings.time_control
        self.banks = time_control.charge_banks(control, self.banks, self.state, now, acted or ())
        waiting = self.state.seats_to_act()
        deadlines = {}
        clock_names = {}
        for seat in waiting:
            clock = clock_names[seat] = self.state.decision_clock(seat)
            same_clock = clock is not None and self.clock_names.get(seat) == clock
            idle = self.settings.idle_turn_seconds if seat in self.idle_seats else None
            if (banked := time_control.bank_deadline(control, self.banks, seat, idle)) is not None:
                deadlines[seat] = banked
            elif seat in self.seat_deadlines and (seat not in changed or same_clock):
                deadlines[seat] = self.seat_deadlines[seat]
            else:
                deadlines[seat] = now + timedelta(seconds=self._seconds_for(seat))
        self.clock_names = clock_names
        self.seat_deadlines = deadlines

    # -- end -------------------------------------------------------------------------------------

    def choose_rematch(self, user_id: int, choice: RematchChoice) -> None:
        """Record "Play again" or "Leave" on the scoreboard.

        Raises
        ------
        TableError
            Not on the scoreboard, not a player of the game, or everyone has chosen already.
        """
        self._require(TablePhase.SCOREBOARD, "The choice to play again is closed.")
        assert self.rematch is not None
        try:
            self.rematch.choose(user_id, choice)
        except LobbyError as error:
            raise TableError(str(error)) from None

    def close(self) -> None:
        """Mark the table closed (the cog forgets it)."""
        self.phase = TablePhase.CLOSED


class Table(TableQuestions):
    """A table, immutable: made by :meth:`TableDraft.freeze` (a new table, or a move's result in
    :func:`engine.tables.step.step`); its fields are :class:`TableDraft`'s, as tuples, frozensets and
    read-only mappings. What the engine says of its state is computed once and kept with it.

    Raises
    ------
    AttributeError
        On any assignment or deletion: a table changes only by a move, which makes a new one.
    """

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a table is a value: {name} changes only by a move (engine.tables.step)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a table is a value: {name} changes only by a move (engine.tables.step)")

    def __copy__(self) -> Table:
        return self

    def __deepcopy__(self, memo: dict) -> Table:
        return self

    def draft(self) -> TableDraft:
        """A draft of this table for one move to change: every field copied in mutable form, the game state
        copied (``GameState.copy``). Changing the draft never changes this table."""
        draft = object.__new__(TableDraft)
        fields = dict(self.__dict__)
        del fields["_derived"]
        for name, thawed in _THAW.items():
            fields[name] = thawed(fields[name])
        draft.__dict__.update(fields)
        return draft

    def fingerprint(self) -> tuple:
        """Everything this table holds, as plain comparable values (the game by its seed, version and log):
        equal before and after anything that must not change it."""
        state = self.state
        game = None if state is None else (state.seed, state.version, tuple(state.history))
        return tuple(
            (name, game if name == "state" else _plain(value))
            for name, value in sorted(self.__dict__.items())
            if name != "_derived"
        )

    def view(self, seat: int | None) -> SeatView:
        """The engine's view of the state for ``seat`` (``None``: the public view), computed once
        (``GameState.view``)."""
        key = ("view", seat)
        view = self._derived.get(key)
        if view is None:
            assert self.state is not None
            view = self.state.view(seat)
            shared = next((kept.scene for name, kept in self._derived.items() if name[0] == "view"), None)
            if shared is not None and shared is not view.scene and shared == view.scene:
                # Every view of a state shows the same scene: the views kept share one (memory per table).
                view = dataclasses.replace(view, scene=shared)
            self._derived[key] = view
        return view

    def public_actions(self) -> tuple[LegalAction, ...]:
        """The engine's public actions of the state, computed once (``GameState.public_actions``)."""
        actions = self._derived.get(("public",))
        if actions is None:
            assert self.state is not None
            actions = self._derived[("public",)] = self.state.public_actions()
        return actions

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        """The engine's legal actions of ``seat`` (a seat index), computed once (``GameState.legal_actions``;
        what the seat's view offers, without drawing the view)."""
        key = ("legal", seat)
        actions = self._derived.get(key)
        if actions is None:
            assert self.state is not None
            actions = self._derived[key] = self.state.legal_actions(seat)
        return actions


def _copied(value: Any, **fields: Any) -> Any:
    """A shallow copy of the dataclass ``value`` with ``fields`` replaced (no ``__post_init__``)."""
    other = object.__new__(type(value))
    other.__dict__.update(value.__dict__, **fields)
    return other


def _frozen_lobby(lobby: Lobby) -> Lobby:
    return _copied(lobby, players=tuple(lobby.players))


def _thawed_lobby(lobby: Lobby) -> Lobby:
    return _copied(lobby, players=list(lobby.players))


def _frozen_rematch(rematch: Rematch | None) -> Rematch | None:
    if rematch is None:
        return None
    return _copied(rematch, players=tuple(rematch.players), choices=MappingProxyType(dict(rematch.choices)))


def _thawed_rematch(rematch: Rematch | None) -> Rematch | None:
    if rematch is None:
        return None
    return _copied(rematch, players=list(rematch.players), choices=dict(rematch.choices))


def _read_only(mapping: dict) -> MappingProxyType:
    return MappingProxyType(dict(mapping))


def _log(lines: Any) -> deque[Event]:
    return deque(lines, maxlen=EVENT_LOG_LENGTH)


def _copied_state(state: GameState | None) -> GameState | None:
    return None if state is None else state.copy()


_LISTS = ("players", "seat_versions", "banks", "noted_decisions")
_SETS = ("dm_wanted", "idle_seats", "left_seats", "timed_out_positions")
_MAPPINGS = (
    "names",
    "alert_modes",
    "ai_levels",
    "hint_counts",
    "options",
    "seat_deadlines",
    "clock_names",
    "timeouts_in_row",
)
_FREEZE: dict[str, Callable[[Any], Any]] = {
    **dict.fromkeys(_LISTS, tuple),
    **dict.fromkeys(_SETS, frozenset),
    **dict.fromkeys(_MAPPINGS, _read_only),
    "events": tuple,
    "log_events": tuple,
    "lobby": _frozen_lobby,
    "rematch": _frozen_rematch,
}
"""How :meth:`TableDraft.freeze` makes each mutable field immutable (any other field is immutable already)."""
_THAW: dict[str, Callable[[Any], Any]] = {
    **dict.fromkeys(_LISTS, list),
    **dict.fromkeys(_SETS, set),
    **dict.fromkeys(_MAPPINGS, dict),
    "events": _log,
    "log_events": _log,
    "lobby": _thawed_lobby,
    "rematch": _thawed_rematch,
    "state": _copied_state,
}
"""How :meth:`Table.draft` copies each field back into mutable form."""


def _plain(value: Any) -> Any:
    if isinstance(value, MappingProxyType | dict):
        return tuple(sorted(((key, _plain(item)) for key, item in value.items()), key=repr))
    if isinstance(value, frozenset | set):
        return tuple(sorted(value, key=repr))
    if isinstance(value, Lobby):
        return ("lobby", value.host_id, tuple(value.players))
    if isinstance(value, Rematch):
        return ("rematch", value.host_id, tuple(value.players), _plain(value.choices))
    if isinstance(value, list | deque):
        return tuple(value)
    return value
