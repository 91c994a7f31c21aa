"""A table's time control: how long a seat has for a decision, and the time bank of each seat.

Three kinds, chosen by the host in the lobby (or with ``/play clock:``):

- ``fixed``: every decision has the table's turn length (``TableSettings.turn_seconds``), as before;
- ``bank``: each seat has a bank of time (``bank_seconds`` at the start). While the game waits for the
  seat, its bank runs down; when the seat moves, the bank falls by the time it used, then gains
  ``increment_seconds``, never above ``cap_seconds`` (the "Fischer" clock of chess and online board-game
  sites). A seat whose bank runs out has its default action played, as a fixed clock's timeout, and its
  bank is empty then gains the increment like after any move. In a simultaneous decision every waiting
  seat's bank runs at once, each spending only its own;
- ``slow``: a fixed clock of ``slow_seconds`` (hours) per decision for games that run over days, and the
  player to act is sent a "your turn" DM each time.

A decision whose length the game itself fixes (``GameState.decision_seconds``: Deluxe Memory's one-minute
Jokin' Around rearrangement) keeps its own clock in every kind: a bank is paused meanwhile, neither spent
nor credited.

Pure functions of times and banks: no Discord, no clock read (``now`` is always passed in). A bank is
stored as its remaining seconds as of its last change plus the moment its clock started running, so a
restart restores it exactly and the time the bot was down counts, as it does for a fixed deadline.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from engine import GameState

FIXED, BANK, SLOW = "fixed", "bank", "slow"
ClockKind = Literal["fixed", "bank", "slow"]
KINDS: tuple[ClockKind, ...] = (FIXED, BANK, SLOW)


@dataclass(frozen=True)
class TimeControl:
    """The clock a table plays with (see the module's text); all times in seconds.

    ``kind`` is chosen by the host; the numbers are the bot's settings when the table opened (stored with
    the table, so a change of settings does not alter a running game).
    """

    kind: ClockKind = FIXED
    bank_seconds: float = 300.0
    increment_seconds: float = 10.0
    cap_seconds: float = 600.0
    slow_seconds: float = 86400.0

    def with_kind(self, kind: str) -> TimeControl:
        """The same numbers with another kind.

        Raises
        ------
        ValueError
            If ``kind`` is not one of :data:`KINDS`.
        """
        if kind not in KINDS:
            raise ValueError(f"unknown clock {kind!r}")
        return replace(self, kind=kind)  # type: ignore[arg-type]

    def turn_seconds(self, fixed_seconds: float) -> float:
        """Seconds per decision of a clock that is not a bank: ``fixed_seconds`` (the table's turn
        length) for ``fixed``, ``slow_seconds`` for ``slow`` (a bank's seat uses its bank instead)."""
        return self.slow_seconds if self.kind == SLOW else fixed_seconds

    def label(self, kind: str, fixed_seconds: float) -> str:
        """Words for clock ``kind`` with these numbers, e.g. "bank 5 min + 10 s per move (cap 10 min)"."""
        if kind == BANK:
            return (
                f"bank {duration(self.bank_seconds)} + {duration(self.increment_seconds)} per move "
                f"(cap {duration(self.cap_seconds)})"
            )
        if kind == SLOW:
            return f"slow: {duration(self.slow_seconds)} per decision, DM on your turn"
        return f"fixed {duration(fixed_seconds)} per decision"


@dataclass(frozen=True)
class SeatBank:
    """One seat's time bank: ``remaining`` seconds as of ``running_since`` (when its clock started
    running, UTC) or, while stopped (``running_since is None``), as of its last move."""

    remaining: float
    running_since: datetime | None = None

    def left(self, now: datetime) -> float:
        """Seconds left at ``now`` (0 once run out)."""
        if self.running_since is None:
            return self.remaining
        return max(0.0, self.remaining - (now - self.running_since).total_seconds())

    def deadline(self) -> datetime | None:
        """When a running bank runs out, or ``None`` while it is stopped."""
        if self.running_since is None:
            return None
        return self.running_since + timedelta(seconds=self.remaining)


def duration(seconds: float) -> str:
    """A length of time in words: "45 s", "5 min", "1 min 30 s", "24 h", "1 h 30 min"."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else "", f"{secs} s" if secs else ""]
    return " ".join(part for part in parts if part) or "0 s"


def clock_face(seconds: float) -> str:
    """Time left as a clock shows it, whole seconds rounded down: "4:05", "0:02", "23:59:59"."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def banked_seats(state: GameState) -> set[int]:
    """Seats whose bank runs now: those the game waits for, except in a decision whose length the game
    fixes (``GameState.decision_seconds``)."""
    return {seat for seat in state.seats_to_act() if state.decision_seconds(seat) is None}


def charge_banks(
    control: TimeControl,
    banks: list[SeatBank],
    state: GameState,
    now: datetime,
    moved: Collection[int],
) -> list[SeatBank]:
    """The banks after a change of the game at ``now`` (``moved``: the seats that made a move, by a press
    or a timeout; empty at the start).

    Each seat that moved with its bank running is charged the time it used (never below 0) and credited
    ``increment_seconds``, capped at ``cap_seconds``; a running bank of a seat the game no longer waits for
    (or now in a fixed-length decision) is charged and stops, with no increment; then every bank of a seat
    the game waits for starts running at ``now`` (a bank that kept running keeps its start). Banks that
    are missing (the game just started) start at ``bank_seconds``. Returns ``banks`` unchanged (``[]``)
    unless the table plays with a bank.
    """
    if control.kind != BANK:
        return banks
    seats = range(state.num_seats)
    current = (
        banks if len(banks) == state.num_seats else [SeatBank(float(control.bank_seconds)) for _ in seats]
    )
    running = banked_seats(state)
    settled = []
    for seat, bank in enumerate(current):
        if bank.running_since is not None and (seat in moved or seat not in running):
            left = bank.left(now)
            if seat in moved:
                left = float(min(control.cap_seconds, left + control.increment_seconds))
            bank = SeatBank(left)
        if seat in running and bank.running_since is None:
            bank = SeatBank(bank.remaining, now)
        settled.append(bank)
    return settled


def run_out(banks: list[SeatBank], seat: int, due: datetime) -> list[SeatBank]:
    """The banks after ``seat``'s clock ran out at ``due``: if its bank runs out by then, it is empty (it
    still runs until :func:`charge_banks` charges the move); a shorter turn of an idle seat spends only the
    time it used."""
    if seat >= len(banks) or (deadline := banks[seat].deadline()) is None or deadline > due:
        return banks
    return [replace(bank, remaining=0.0) if index == seat else bank for index, bank in enumerate(banks)]


def bank_deadline(
    control: TimeControl, banks: list[SeatBank], seat: int, idle_seconds: float | None = None
) -> datetime | None:
    """When ``seat``'s clock runs out if it runs on its bank, else ``None`` (not a bank table, or the bank
    is paused). ``idle_seconds``: an idle seat's turn is at most that long (from its bank's start)."""
    if control.kind != BANK or seat >= len(banks):
        return None
    bank = banks[seat]
    deadline = bank.deadline()
    if deadline is None or bank.running_since is None or idle_seconds is None:
        return deadline
    return min(deadline, bank.running_since + timedelta(seconds=idle_seconds))


def seat_clock(control: TimeControl, banks: list[SeatBank], seat: int) -> str:
    """A seat's bank for the table message (" ⏳ 4:05", as of its last move: a running bank's live
    countdown is the turn line's), or ``""`` when the table has no banks."""
    if control.kind != BANK or seat >= len(banks):
        return ""
    return f" ⏳ {clock_face(banks[seat].remaining)}"
