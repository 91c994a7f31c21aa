"""One table in one channel: its lobby, its running game, its scoreboard, and its turn clock's rules.

``TableSession`` is Discord-free bookkeeping: the cog calls its methods, which check the request, change
the table or raise :class:`TableError` (words for the player; nothing changes), and tells the cog what to
show. Discord I/O, timers and storage are the cog's job (:mod:`cogs.tables.cog`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from engine import Event, GameRules, GameState, Standing
from engine.lobby import Lobby, LobbyError, Rematch, RematchChoice

EVENT_LOG_LENGTH = 6


class TableError(Exception):
    """A request the table refuses; ``str(error)`` is written for the player. Nothing changed."""


class Phase(Enum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    SCOREBOARD = "scoreboard"
    CLOSED = "closed"


@dataclass(frozen=True)
class TableSettings:
    """Timing rules of a table, in seconds."""

    turn_seconds: int
    idle_turn_seconds: int
    idle_after_timeouts: int


class TableSession:
    """A table: lobby, then a game, then the scoreboard with "Play again".

    Attributes
    ----------
    table_id:
        Short unique id carried by every custom_id of this table.
    guild_id, channel_id:
        Where the table is.
    rules:
        The game played.
    message_id:
        The public table message (``None`` until it is sent).
    players:
        User ids by seat (fixed when the game starts).
    names:
        Display names by user id, as they were when the player joined.
    dm_wanted:
        Users who asked for their private view by DM.
    events:
        The latest lines of the table's log, oldest first.
    deadline:
        When the current decision's clock runs out (UTC), while playing.
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
        self.phase = Phase.LOBBY
        self.lobby = Lobby(host_id, rules.min_seats, rules.max_seats, list(players or [host_id]))
        self.names: dict[int, str] = dict(names or {})
        self.names[host_id] = host_name
        self.dm_wanted: set[int] = set(dm_wanted or ())
        self.message_id: int | None = None
        self.state: GameState | None = None
        self.players: list[int] = []
        self.events: deque[Event] = deque(maxlen=EVENT_LOG_LENGTH)
        self.deadline: datetime | None = None
        self.started_at: datetime | None = None
        self.finished_at: datetime | None = None
        self.timeouts_in_row: dict[int, int] = {}
        self.idle_seats: set[int] = set()
        self.rematch: Rematch | None = None
        self.lock = asyncio.Lock()

    # -- who is who ------------------------------------------------------------------------------

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
        return list(self.lobby.players) if self.phase is Phase.LOBBY else list(self.players)

    def users_to_act(self) -> list[int]:
        """Users whose decision it is now."""
        if self.phase is not Phase.PLAYING or self.state is None:
            return []
        return [self.players[seat] for seat in self.state.seats_to_act()]

    # -- lobby -----------------------------------------------------------------------------------

    def _require(self, phase: Phase, wrong: str) -> None:
        if self.phase is not phase:
            raise TableError(wrong)

    def join(self, user_id: int, name: str) -> None:
        """Seat a player in the lobby.

        Raises
        ------
        TableError
            Not in the lobby phase, already seated, or the table is full.
        """
        self._require(Phase.LOBBY, "This table is not taking players now.")
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
        self._require(Phase.LOBBY, "The game has started: you can't leave the lobby now.")
        try:
            self.lobby.leave(user_id)
        except LobbyError as error:
            raise TableError(str(error)) from None
        self.dm_wanted.discard(user_id)
        if self.lobby.is_empty:
            self.phase = Phase.CLOSED

    def cancel(self, user_id: int) -> None:
        """Close the lobby (host only).

        Raises
        ------
        TableError
            Not in the lobby phase, or ``user_id`` is not the host.
        """
        self._require(Phase.LOBBY, "Only a table that has not started can be cancelled.")
        try:
            self.lobby.check_host(user_id, "cancel")
        except LobbyError as error:
            raise TableError(str(error)) from None
        self.phase = Phase.CLOSED

    def start(self, user_id: int, seed: int, now: datetime) -> None:
        """Deal the game (host only, with at least the minimum of players); seats in join order.

        Raises
        ------
        TableError
            Not in the lobby phase, not the host, or too few players.
        """
        self._require(Phase.LOBBY, "This table has already started.")
        try:
            self.lobby.check_can_start(user_id)
        except LobbyError as error:
            raise TableError(str(error)) from None
        self.players = list(self.lobby.players)
        self.state = self.rules.new_game(len(self.players), seed)
        self.phase = Phase.PLAYING
        self.started_at = now
        self.timeouts_in_row = {seat: 0 for seat in range(len(self.players))}
        self.events.append(Event(None, f"The game begins with {len(self.players)} players."))
        self._arm_deadline(now)

    # -- play ------------------------------------------------------------------------------------

    def check_version(self, version: int) -> None:
        """Refuse a press from a message of an earlier turn.

        Raises
        ------
        TableError
            If the game is not running or ``version`` is not the current state version.
        """
        if self.phase is Phase.SCOREBOARD:
            raise TableError("This game is over: see the final scores on the table message.")
        self._require(Phase.PLAYING, "This game has not started yet.")
        assert self.state is not None
        if version != self.state.version:
            raise TableError("That button is from an earlier turn: the table has moved on.")

    def act(self, user_id: int, version: int, code: str, now: datetime) -> list[Event]:
        """Apply ``user_id``'s action ``code`` pressed on a message of state ``version``.

        A player who acts is no longer idle.

        Raises
        ------
        TableError
            Not seated, the game is not running, or the press is from an earlier turn.
        IllegalAction
            The engine refuses the action (out of turn, illegal). Nothing changes.
        """
        seat = self.seat_of(user_id)
        if seat is None or self.phase is Phase.LOBBY:
            raise TableError("You are not playing at this table.")
        self.check_version(version)
        assert self.state is not None
        events = self.state.apply(seat, code)
        self.timeouts_in_row[seat] = 0
        self.idle_seats.discard(seat)
        self._after_change(events, now)
        return events

    def time_out(self, version: int, now: datetime) -> list[Event]:
        """The clock ran out on state ``version``: play each waiting seat's default action.

        Returns the events, or ``[]`` when the state has moved on since (a stale timer: nothing changes).
        A seat that times out ``idle_after_timeouts`` times in a row is marked idle, and its later turns
        last ``idle_turn_seconds``.
        """
        if self.phase is not Phase.PLAYING or self.state is None or self.state.version != version:
            return []
        events: list[Event] = []
        for seat in tuple(self.state.seats_to_act()):
            if seat not in self.state.seats_to_act():  # an earlier default may have settled it
                continue
            code = self.state.default_action(seat)
            events.append(Event(seat, "ran out of time."))
            events.extend(self.state.apply(seat, code))
            self.timeouts_in_row[seat] += 1
            if (
                self.timeouts_in_row[seat] >= self.settings.idle_after_timeouts
                and seat not in self.idle_seats
            ):
                self.idle_seats.add(seat)
                events.append(Event(seat, "is marked idle: their turns are now played quickly for them."))
        self._after_change(events, now)
        return events

    def _after_change(self, events: list[Event], now: datetime) -> None:
        self.events.extend(events)
        assert self.state is not None
        if self.state.is_terminal():
            self.phase = Phase.SCOREBOARD
            self.finished_at = now
            self.deadline = None
            self.rematch = Rematch(players=list(self.players), host_id=self.host_id)
        else:
            self._arm_deadline(now)

    def _arm_deadline(self, now: datetime) -> None:
        assert self.state is not None
        waiting = self.state.seats_to_act()
        all_idle = bool(waiting) and all(seat in self.idle_seats for seat in waiting)
        seconds = self.settings.idle_turn_seconds if all_idle else self.settings.turn_seconds
        self.deadline = now + timedelta(seconds=seconds)

    # -- end -------------------------------------------------------------------------------------

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

    def choose_rematch(self, user_id: int, choice: RematchChoice) -> None:
        """Record "Play again" or "Leave" on the scoreboard.

        Raises
        ------
        TableError
            Not on the scoreboard, not a player of the game, or everyone has chosen already.
        """
        self._require(Phase.SCOREBOARD, "The choice to play again is closed.")
        assert self.rematch is not None
        try:
            self.rematch.choose(user_id, choice)
        except LobbyError as error:
            raise TableError(str(error)) from None

    def close(self) -> None:
        """Mark the table closed (the cog forgets it)."""
        self.phase = Phase.CLOSED
        self.deadline = None
