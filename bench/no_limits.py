"""The bot's limits on members and servers lifted, for a benchmark: its simulated members press at machine
speed (past :mod:`cogs.press_limits`) and open more tables than a server may by default
(:mod:`cogs.tables.table_limits`)."""

from __future__ import annotations

NO_LIMITS = {
    "presses_per_second": 1000,
    "default_member_lobbies": 0,
    "default_max_tables": 0,
    "default_ai_tables": 0,
}
"""Settings of :class:`bot.settings.Settings` (0: no limit)."""


def no_limits_environment() -> dict[str, str]:
    """:data:`NO_LIMITS` as the environment variables of a bot started as its own process."""
    return {name.upper(): str(value) for name, value in NO_LIMITS.items()}
