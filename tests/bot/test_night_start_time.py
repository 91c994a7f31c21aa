"""The start of a night as typed: a UTC date and time (an offset allowed), or a time from now; a time in
the past, a year away or unreadable refused with words for the member."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from cogs.nights.start_time import HELP, StartTimeError, parse_start

NOW = datetime(2026, 12, 8, 18, 30, 15, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("2026-12-11 20:00", datetime(2026, 12, 11, 20, 0, tzinfo=timezone.utc)),
        ("2026-12-11T20:00:30", datetime(2026, 12, 11, 20, 0, tzinfo=timezone.utc)),
        ("2026-12-11 20:00+01:00", datetime(2026, 12, 11, 19, 0, tzinfo=timezone.utc)),
        ("in 2h", datetime(2026, 12, 8, 20, 30, tzinfo=timezone.utc)),
        ("in 1h30m", datetime(2026, 12, 8, 20, 0, tzinfo=timezone.utc)),
        ("In 2 days", datetime(2026, 12, 10, 18, 30, tzinfo=timezone.utc)),
        ("in 45 minutes", datetime(2026, 12, 8, 19, 15, tzinfo=timezone.utc)),
    ],
)
def test_both_forms_are_read_in_utc(text: str, start: datetime) -> None:
    assert parse_start(text, NOW) == start


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2026-12-01 20:00", "already passed"),
        ("in 0m", "already passed"),
        ("2028-01-01 20:00", "more than a year"),
        ("friday evening", "can't read"),
        ("in 2 weeks", "don't know the unit"),
    ],
)
def test_unreadable_past_or_far_starts_are_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(StartTimeError, match=words):
        parse_start(text, NOW)


def test_the_option_s_help_fits_discord() -> None:
    assert len(HELP) <= 100
