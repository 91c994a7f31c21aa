"""Who a queue seats together (engine/matching.py): a table opens when as many members wait who asked for
the same size as that size, the longest waiting first and hosting; the largest ready size first; AI fill
seats everyone waiting (at most the game's largest table) and fills to its smallest."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.matching import Match, Waiting, ai_fill_due, ai_fill_match, find_match

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def waiting(*sizes: int) -> list[Waiting]:
    """Members 1, 2, ... asking for ``sizes``, member 1 the longest waiting."""
    return [Waiting(n, f"p{n}", size, T0 + timedelta(seconds=n)) for n, size in enumerate(sizes, 1)]


def ids(match: Match | None) -> list[int] | None:
    return None if match is None else [member.user_id for member in match.seated]


def test_a_table_opens_when_as_many_wait_as_they_asked_for() -> None:
    assert find_match(waiting(3, 3), 3, 7) is None
    assert ids(find_match(waiting(3, 3, 3), 3, 7)) == [1, 2, 3]
    assert find_match(waiting(3, 4, 3, 4, 4), 3, 7) is None  # two asked 3, three asked 4
    assert ids(find_match(waiting(3, 4, 3, 4, 4, 4), 3, 7)) == [2, 4, 5, 6]


def test_the_longest_waiting_are_seated_first_and_the_first_hosts() -> None:
    members = list(reversed(waiting(3, 3, 3, 3)))  # in any order: ordered by the time they joined
    assert ids(find_match(members, 3, 7)) == [1, 2, 3]


def test_the_largest_ready_size_opens_first_and_sizes_out_of_range_never() -> None:
    assert ids(find_match(waiting(3, 3, 3, 4, 4, 4, 4), 3, 7)) == [4, 5, 6, 7]
    assert find_match(waiting(2, 2), 3, 7) is None
    assert find_match(waiting(9, 9, 9, 9, 9, 9, 9, 9, 9), 3, 7) is None


def test_ai_fill_is_due_after_the_first_members_wait_and_fills_to_the_smallest_table() -> None:
    members = waiting(4, 3)
    assert (
        ai_fill_due(members, None) is None and ai_fill_due(members, 0) is None and ai_fill_due([], 5) is None
    )
    assert ai_fill_due(members, 5) == T0 + timedelta(seconds=1, minutes=5)
    assert ai_fill_due(members, 2, minute_seconds=0.5) == T0 + timedelta(seconds=2)
    assert ai_fill_match(members, 3, 7) == Match(tuple(members), 1)
    assert ai_fill_match(waiting(3), 3, 7) == Match(tuple(waiting(3)), 2)
    assert ids(ai_fill_match(waiting(*[3] * 9), 3, 7)) == [1, 2, 3, 4, 5, 6, 7]
    assert ai_fill_match([], 3, 7) is None
