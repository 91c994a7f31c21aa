"""A token bucket, the one rate limit of the Discord layer: a member's presses (:mod:`cogs.press_limits`)
and the edits of the tables with no person seated (:mod:`cogs.tables.edit_pacing`)."""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens a second, at most ``capacity``, full at first; each use takes its cost in tokens.

    ``clock()`` is the time in seconds (monotonic).

    Raises
    ------
    ValueError
        If ``rate`` is not positive or ``capacity`` holds less than one token.
    """

    def __init__(self, rate: float, capacity: float, clock: Callable[[], float]) -> None:
        if rate <= 0 or capacity < 1:
            raise ValueError("a bucket needs a positive rate and room for one token")
        self.rate = rate
        self.capacity = capacity
        self.clock = clock
        self.tokens = float(capacity)
        self.updated = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def wait_seconds(self, cost: float = 1.0) -> float:
        """Seconds until ``cost`` tokens are there (0: now)."""
        self._refill()
        return 0.0 if self.tokens >= cost else (cost - self.tokens) / self.rate

    def take(self, cost: float = 1.0) -> None:
        """Take ``cost`` tokens (call only once :meth:`wait_seconds` says 0)."""
        self._refill()
        self.tokens -= cost

    def try_take(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens and return True if they are there; else take nothing and return False."""
        if self.wait_seconds(cost) > 0:
            return False
        self.tokens -= cost
        return True
