"""Supervised background work of the tables: DMs and plain edits of messages, never awaited by a press."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import discord

log = logging.getLogger(__name__)


class Supervisor:
    """Runs background coroutines and tells a bug apart from an expected Discord refusal."""

    def __init__(self) -> None:
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
            if isinstance(error, discord.HTTPException):
                log.warning("Discord refused %s: %s", what, error)
            elif error is not None:
                log.error("Bug in %s", what, exc_info=error)

        task.add_done_callback(done)
        return task

    def cancel_all(self) -> None:
        """Cancel everything still running (the extension unloads)."""
        for task in list(self.tasks):
            task.cancel()
