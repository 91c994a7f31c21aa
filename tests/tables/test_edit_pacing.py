"""The pacing of table message edits (:mod:`cogs.tables.edit_pacing`) on a clock the test moves: the
channel's window, the shared budget of tables with no person seated, unwatched tables redrawn seldom, and
their end shown at once."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from cogs.tables.edit_pacing import EditPacing, no_person_seated
from cogs.token_bucket import TokenBucket
from engine.tables.session import TablePhase


class Clock:
    """Seconds the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Seated:
    """What the pacing reads of a table: its id, channel, phase and who plays its seats."""

    table_id: str
    channel_id: int
    players: list[int]
    phase: TablePhase = TablePhase.PLAYING
    left_seats: frozenset[int] = frozenset()
    idle_seats: frozenset[int] = frozenset()
    ai_levels: dict[int, str] = field(default_factory=dict)


def person_table(table_id: str = "p", channel_id: int = 1) -> Seated:
    return Seated(table_id, channel_id, [111, -1, -2])


def all_ai_table(table_id: str = "a", channel_id: int = 2) -> Seated:
    return Seated(table_id, channel_id, [111, -1, -2], left_seats=frozenset({0}))


def edits_going(pacing: EditPacing, clock: Clock, table: Seated, seconds: float, step: float = 0.01) -> list:
    """Ask for an edit of ``table`` every ``step`` seconds for ``seconds``; the times the edits went."""
    went = []
    end = clock.now + seconds
    while clock.now < end:
        if pacing.wait_seconds(table) <= 0:  # type: ignore[arg-type]
            pacing.landed(pacing.going(table))  # type: ignore[arg-type]
            went.append(clock.now)
        clock.now += step
    return went


def most_in_a_window(times: list[float], window: float) -> int:
    return max((sum(1 for t in times if start <= t < start + window) for start in times), default=0)


def test_who_is_seated() -> None:
    assert not no_person_seated(person_table())  # type: ignore[arg-type]
    assert no_person_seated(all_ai_table())  # type: ignore[arg-type]
    away = Seated("w", 3, [111, -1], idle_seats=frozenset({0}))
    assert no_person_seated(away)  # type: ignore[arg-type]  # taken over while away: no person plays
    assert not no_person_seated(Seated("l", 4, [111, -1], phase=TablePhase.LOBBY))  # type: ignore[arg-type]


def test_a_channel_gets_at_most_five_edits_in_any_five_seconds() -> None:
    clock = Clock()
    pacing = EditPacing(clock=clock)
    went = edits_going(pacing, clock, person_table(), 30)
    assert most_in_a_window(went, 5.0) == 5
    assert len(went) >= 25  # paced, not starved: about five per window
    assert went[:5] == pytest.approx([1000.0] * 5, abs=0.05)  # a burst of five goes at once


def test_tables_in_one_channel_share_its_window() -> None:
    clock = Clock()
    pacing = EditPacing(clock=clock)
    one, two = person_table("one", 7), person_table("two", 7)
    went = []
    for _ in range(2000):
        for table in (one, two):
            if pacing.wait_seconds(table) <= 0:  # type: ignore[arg-type]
                pacing.going(table)  # type: ignore[arg-type]
                went.append(clock.now)
        clock.now += 0.01
    assert most_in_a_window(went, 5.0) == 5


def test_an_edit_counts_in_its_channel_from_when_its_answer_came_back() -> None:
    clock = Clock()
    pacing = EditPacing(clock=clock)
    table = person_table()
    slow = pacing.going(table)  # type: ignore[arg-type]
    clock.now += 1
    for _ in range(4):
        pacing.landed(pacing.going(table))  # type: ignore[arg-type]
    clock.now += 1
    pacing.landed(slow)  # Discord answered the first one two seconds after it went
    clock.now += 3.5  # five and a half seconds after the first went, four and a half after the others
    assert pacing.wait_seconds(table) == pytest.approx(0.5)  # type: ignore[arg-type]  # six after the others


def test_without_pacing_every_edit_goes() -> None:
    clock = Clock()
    pacing = EditPacing(clock=clock, enabled=False)
    assert len(edits_going(pacing, clock, all_ai_table(), 5, step=0.1)) == 50


def test_tables_with_no_person_share_one_budget_and_people_never_wait_for_it() -> None:
    clock = Clock()
    pacing = EditPacing(clock=clock, unattended_edits_per_second=10, unattended_burst=10)
    unattended = [all_ai_table(f"ai{i}", 100 + i) for i in range(30)]
    for table in unattended:
        pacing.pressed(table.table_id)  # watched: only the budget and the channel hold them back
    went = 0
    person = person_table("person", 1)
    person_waits = []
    for _ in range(1000):  # ten seconds
        for table in unattended:
            if pacing.wait_seconds(table) <= 0:  # type: ignore[arg-type]
                pacing.going(table)  # type: ignore[arg-type]
                went += 1
        person_waits.append(pacing.wait_seconds(person))  # type: ignore[arg-type]
        clock.now += 0.01
    assert went <= 10 + 10 * 10 + 1  # the burst, then ten a second for all thirty together
    assert went >= 100
    assert person_waits == [0.0] * len(person_waits)


def test_an_unwatched_table_is_redrawn_every_thirty_seconds_and_its_end_at_once() -> None:
    clock = Clock()
    pacing = EditPacing(clock=clock, watched_seconds=60, unwatched_redraw_seconds=30)
    table = all_ai_table()
    pacing.pressed(table.table_id)
    watched = edits_going(pacing, clock, table, 59, step=0.1)
    assert len(watched) > 50  # watched: as often as the channel allows
    clock.now += 1  # a minute after the last press
    unwatched = edits_going(pacing, clock, table, 120, step=0.1)
    gaps = [later - earlier for earlier, later in zip(unwatched, unwatched[1:], strict=False)]
    assert 4 <= len(unwatched) <= 5 and all(gap >= 30 - 1e-6 for gap in gaps), unwatched
    assert pacing.wait_seconds(table) > 0  # type: ignore[arg-type]
    assert pacing.wait_seconds(table, final=True) == 0  # type: ignore[arg-type]  # the end goes at once
    table.phase = TablePhase.SCOREBOARD
    assert pacing.wait_seconds(table) == 0  # type: ignore[arg-type]  # a game no longer playing too
    table.phase = TablePhase.PLAYING
    pacing.pressed(table.table_id)
    assert pacing.wait_seconds(table) == 0  # type: ignore[arg-type]  # a press: watched again at once


def test_a_person_s_table_is_never_held_as_unwatched() -> None:
    clock = Clock()
    pacing = EditPacing(clock=clock, watched_seconds=60, unwatched_redraw_seconds=30)
    went = edits_going(pacing, clock, person_table(), 120, step=2.0)
    assert len(went) == 60  # one every two seconds, never pressed: within the channel's window, all go


def test_a_bucket_refills_at_its_rate_up_to_its_size() -> None:
    clock = Clock()
    bucket = TokenBucket(2.0, 3, clock)
    for _ in range(3):
        assert bucket.wait_seconds() == 0
        bucket.take()
    assert bucket.wait_seconds() == pytest.approx(0.5)
    clock.now += 100
    assert bucket.tokens <= 3 and bucket.wait_seconds() == 0
    bucket.take()
    assert bucket.tokens == pytest.approx(2)
