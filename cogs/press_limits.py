"""A per-member limit on presses: a member pressing far faster than a person can (a script, a stuck key)
is answered one polite ephemeral sentence per press, and the press does nothing else: no database, no
table lock, no drawing.

Each member has a token bucket per bot: :data:`BURST` tokens, refilled at :data:`PER_SECOND` tokens a
second; a press spends its cost (:data:`COSTS`: 1, more for the presses that cost the bot more, such as a
hand sent by DM or a replay's step, which replays the game). A press the bucket cannot pay is refused and
spends nothing. A person clicking as fast as they can reads nothing between their clicks; a person playing
never comes near.

Every press of a table component (:mod:`cogs.tables.components`, through :class:`LimitedPresses`) and of a
replay button (:mod:`cogs.replay`) is counted, by :func:`press_limits_of` the bot's one
:class:`PressLimits`.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from cogs.token_bucket import TokenBucket

if TYPE_CHECKING:
    import discord

    from cogs.host import Host

BURST = 8.0
"""Tokens a member's bucket holds by default (the setting ``press_burst``): presses in a row at full
speed, more than any turn needs."""
PER_SECOND = 4.0
"""Tokens a second a member's bucket gets back by default (the setting ``presses_per_second``)."""
COSTS = {"dm": 3.0, "replay": 2.0}
"""What a press costs beyond 1, by kind: "DM me my hand" (a DM posted and the old one deleted), a replay
step (the game replayed up to it)."""
TOO_FAST = "You are pressing faster than I can keep up: wait a moment, then press again."
"""The answer to a press the member's bucket cannot pay."""
FORGET_AFTER_SECONDS = 60.0
"""A bucket untouched this long is full again and is dropped (so the buckets kept are the last minute's)."""


class PressLimits:
    """The token buckets of one bot's members (see the module's docstring). ``clock``: seconds,
    monotonic."""

    def __init__(
        self,
        *,
        burst: float = BURST,
        per_second: float = PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: dict[int, TokenBucket] = {}
        self._swept = clock()

    def allow(self, user_id: int, kind: str = "press") -> bool:
        """Spend the cost of a press of ``kind`` ("press", "dm", "replay") from ``user_id``'s bucket and
        return True; False (nothing spent) if the bucket holds less than that cost."""
        self._sweep(self.clock())
        bucket = self._buckets.get(user_id)
        if bucket is None:
            bucket = self._buckets[user_id] = TokenBucket(self.per_second, self.burst, self.clock)
        return bucket.try_take(COSTS.get(kind, 1.0))

    def _sweep(self, now: float) -> None:
        """Drop the buckets untouched for :data:`FORGET_AFTER_SECONDS` (full again by then)."""
        if now - self._swept < FORGET_AFTER_SECONDS:
            return
        self._swept = now
        for user_id in [u for u, b in self._buckets.items() if now - b.updated >= FORGET_AFTER_SECONDS]:
            del self._buckets[user_id]


_OF_BOT: "weakref.WeakKeyDictionary[Host, PressLimits]" = weakref.WeakKeyDictionary()


def press_limits_of(bot: "Host") -> PressLimits:
    """The one :class:`PressLimits` of ``bot`` (made at the first call, with its settings ``press_burst``
    and ``presses_per_second``), shared by its cogs."""
    limits = _OF_BOT.get(bot)
    if limits is None:
        settings = bot.settings
        limits = _OF_BOT[bot] = PressLimits(
            burst=settings.press_burst, per_second=settings.presses_per_second
        )
    return limits


async def admit_press(bot: "Host", interaction: "discord.Interaction") -> bool:
    """The checks in front of a press on one of a cog's dynamic items: the bot's gate (``Host.admit``:
    "restarting" while it stops, answered there), then the member's press limit (:func:`press_limits_of`: a
    member pressing too fast is answered :data:`TOO_FAST`, nothing changed). True if the press goes on."""
    if not await bot.admit(interaction):
        return False
    if not press_limits_of(bot).allow(interaction.user.id):
        await interaction.response.send_message(TOO_FAST, ephemeral=True)
        return False
    return True
