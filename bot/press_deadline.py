"""How long the database writes an interaction leads to may wait: each press is answered within Discord's 3
seconds even while another program holds the database's write lock.

:func:`start` sets ``storage.press_write_deadline`` (a context variable) for the rest of the calling task:
the bot calls it from discord.py's public hooks that run first in an interaction's own task (the command
tree's and the table components' ``interaction_check``, the component listeners) and for an interaction
another process relayed, so the callback, and every task it starts, sees the deadline.
"""

from __future__ import annotations

import time

from storage import press_write_deadline

PRESS_WRITE_SECONDS = 1.5
"""How long a press's database writes may wait for a database locked by another program before they give
up (the press is then told the database is busy), so every press is answered within Discord's 3 seconds.
"""


def start() -> float:
    """Give the database writes of the calling task (and of the tasks it starts from now on) until
    :data:`PRESS_WRITE_SECONDS` from now to wait for a lock; returns that deadline (``time.monotonic()``).

    An asyncio task runs in a copy of the context it was created in, so the deadline ends with the task that
    handles the interaction and never reaches the event loop's other work."""
    deadline = time.monotonic() + PRESS_WRITE_SECONDS
    press_write_deadline.set(deadline)
    return deadline
