"""The start of a night as a member types it in ``/gamenight create start:`` (and ``/gamenight edit``).

Two forms, both read in UTC:

- a date and a time: ``2026-12-11 20:00`` (also ``2026-12-11T20:00``, seconds allowed, and an offset such
  as ``2026-12-11 20:00+01:00`` for another time zone);
- a time from now: ``in 2h``, ``in 90m``, ``in 1h30m``, ``in 2 days``, ``in 45 minutes`` (units: d, h, m
  and their words).

A start in the past, or more than :data:`FURTHEST` ahead, is refused.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

HELP = "When it starts: a UTC date and time like 2026-12-11 20:00, or a time from now like in 2h"
"""The option's description (Discord shows at most 100 characters)."""
FURTHEST = timedelta(days=365)
"""A night starts within a year: further than that is almost surely a typo."""

_UNITS = {"d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}
_RELATIVE = re.compile(r"in\s+(?P<parts>(?:\d+\s*[a-z]+\s*)+)", re.IGNORECASE)
_PART = re.compile(r"(?P<count>\d+)\s*(?P<unit>[a-z]+)", re.IGNORECASE)
_WORDS = {
    "d": "d", "day": "d", "days": "d",
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
}  # fmt: skip


class StartTimeError(ValueError):
    """A start the bot cannot read, or one it refuses; ``str()`` is the sentence for the member."""


def parse_start(text: str, now: datetime) -> datetime:
    """The start ``text`` names (module docstring), an aware UTC datetime rounded down to the minute.

    Parameters
    ----------
    text:
        What the member typed.
    now:
        The present moment (aware).

    Raises
    ------
    StartTimeError
        If ``text`` is in neither form, names a unit the bot does not know, or a start in the past or more
        than a year ahead.
    """
    given = text.strip()
    relative = _RELATIVE.fullmatch(given)
    if relative is not None:
        span = timedelta()
        for part in _PART.finditer(relative["parts"]):
            unit = _WORDS.get(part["unit"].lower())
            if unit is None:
                raise StartTimeError(
                    f"I don't know the unit **{part['unit']}**: write it in days, hours or minutes "
                    "(like `in 1h30m`)."
                )
            span += int(part["count"]) * _UNITS[unit]
        start = now + span
    else:
        try:
            start = datetime.fromisoformat(given.replace(" ", "T", 1) if "T" not in given else given)
        except ValueError:
            raise StartTimeError(
                f"I can't read **{given[:40]}** as a time. Write a UTC date and time like "
                "`2026-12-11 20:00`, or a time from now like `in 2h`."
            ) from None
        if start.tzinfo is None:
            start = start.replace(tzinfo=timezone.utc)
    start = start.astimezone(timezone.utc).replace(second=0, microsecond=0)
    if start <= now:
        raise StartTimeError("That time has already passed: a night starts in the future.")
    if start - now > FURTHEST:
        raise StartTimeError("That is more than a year away: a night starts within a year.")
    return start
