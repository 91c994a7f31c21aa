"""Supervised background work of the tables (AI turns, and the Discord layer's DMs and edits): never
awaited by a move, and a failure is logged, never lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

log = logging.getLogger(__name__)


class Supervisor:
    """Runs background coroutines and tells a bug apart from an expected refusal.

    ``expected``: exception types that are no bug (e.g. Discord refusing a request), logged as a warning
    in one line; anything else is logged as a bug with its traceback.
    """

    def __init__(self, expected: tuple[type[BaseException], ...] = ()) -> None:
        self.expected = expected
        self.tasks: set[asyncio.Task] = set()

    def spawn(self, coroutine: Awaitable[None], what: str) -> asyncio.Task:
        """Run ``coroutine`` in the background; ``what`` names it in the log if it fails."""
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)

        def done(finished: asyncio.Task) -> None:
            self.tasks.discard(finished)
            if finished.cancelled():
                return
            error = finished.exception()
            if self.expected and isinstance(error, self.expected):
                log.warning("Refused: %s: %s", what, error)
            elif error is not None:
                log.error("Bug in %s", what, exc_info=error)

        task.add_done_callback(done)
        return task

    def cancel_all(self) -> None:
        """Cancel everything still running (the tables unload)."""
        for task in list(self.tasks):
            task.cancel()
