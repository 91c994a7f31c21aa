"""Who a queue seats together: pure matching of the members waiting for one game in one channel.

A member waiting asks for a table size (``players``, within the game's range). The rule, simple to
tell players: **a table opens when as many members wait who asked for the same size as that size**; the
longest waiting of them are seated, the longest waiting of all hosts. Several sizes ready at once (it
cannot happen one join at a time, but a restart may find it so) open the largest first.

After the server's wait (``queue_ai_after``), a queue whose first member has waited that long opens a
table with AI seats instead: everyone waiting for the game (the longest waiting first, at most the game's
largest table), AI seats filling it to the game's smallest table.

Nothing here knows Discord or a clock: times are given (aware datetimes, UTC).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Waiting:
    """A member waiting: ``user_id`` (a Discord user id), shown as ``name``, for a table of ``players``
    seats, since ``since`` (UTC)."""

    user_id: int
    name: str
    players: int
    since: datetime


@dataclass(frozen=True)
class Match:
    """A table to open: ``seated``, the members it seats in seat order (the first hosts), and ``bots``,
    the AI seats beside them (0 unless the queue waited past the server's wait)."""

    seated: tuple[Waiting, ...]
    bots: int = 0


def in_order(waiting: Sequence[Waiting]) -> list[Waiting]:
    """``waiting`` longest waiting first (ties by user id, so the order is the same after a restart)."""
    return sorted(waiting, key=lambda member: (member.since, member.user_id))


def find_match(waiting: Sequence[Waiting], min_seats: int, max_seats: int) -> Match | None:
    """The table the members ``waiting`` for one game (range ``min_seats`` to ``max_seats``) fill now, by
    the module's rule, or ``None``: for the largest size with as many members asking it, those members,
    longest waiting first. A size outside the range is never matched."""
    ordered = in_order(waiting)
    for size in range(max_seats, min_seats - 1, -1):
        asking = [member for member in ordered if member.players == size]
        if len(asking) >= size:
            return Match(tuple(asking[:size]))
    return None


def ai_fill_due(
    waiting: Sequence[Waiting], after_minutes: int | None, minute_seconds: float = 60.0
) -> datetime | None:
    """When the queue ``waiting`` is due an AI-filled table (UTC): its longest waiting member's ``since``
    plus ``after_minutes`` (each of ``minute_seconds`` seconds); ``None`` if nobody waits or AI fill is off
    (``after_minutes`` ``None`` or 0)."""
    if not waiting or not after_minutes:
        return None
    return in_order(waiting)[0].since + timedelta(seconds=after_minutes * minute_seconds)


def ai_fill_match(waiting: Sequence[Waiting], min_seats: int, max_seats: int) -> Match | None:
    """The AI-filled table of the queue ``waiting`` (see the module): everyone waiting, longest first, at
    most ``max_seats``, and AI seats up to ``min_seats``; ``None`` if nobody waits."""
    seated = tuple(in_order(waiting)[:max_seats])
    if not seated:
        return None
    return Match(seated, max(0, min_seats - len(seated)))
