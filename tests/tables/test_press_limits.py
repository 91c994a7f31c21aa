"""A member's press limit (:mod:`cogs.press_limits`) on a clock the test moves: a burst, then the refill
rate, the costlier presses, members apart, and a refused press spending nothing."""

from __future__ import annotations

from cogs.press_limits import COSTS, PressLimits


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_refill_rate_and_members_apart() -> None:
    clock = Clock()
    limits = PressLimits(burst=8, per_second=4, clock=clock)
    assert all(limits.allow(1) for _ in range(8))
    assert not limits.allow(1)  # the ninth press at once
    assert limits.allow(2)  # another member has a bucket of their own
    clock.now += 0.25  # one token back
    assert limits.allow(1) and not limits.allow(1)


def test_a_dm_costs_more_and_a_refused_press_spends_nothing() -> None:
    clock = Clock()
    limits = PressLimits(burst=8, per_second=4, clock=clock)
    assert COSTS["dm"] == 3
    assert limits.allow(1, "dm") and limits.allow(1, "dm")  # 6 of 8 spent
    assert not limits.allow(1, "dm")  # 2 left: refused, and nothing spent
    assert limits.allow(1) and limits.allow(1) and not limits.allow(1)


def test_a_bucket_untouched_for_a_minute_is_full_again() -> None:
    clock = Clock()
    limits = PressLimits(burst=2, per_second=0.01, clock=clock)
    assert limits.allow(1) and limits.allow(1) and not limits.allow(1)
    clock.now += 61
    assert limits.allow(1) and limits.allow(1)
