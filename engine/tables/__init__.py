"""The table runtime: a table's whole life without Discord (lobby, seats, moves, clocks, AI turns, storing).
It may import the games (``engine``), ``storage`` and APScheduler; never ``cogs``, ``bot`` or ``discord``."""
