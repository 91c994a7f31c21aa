"""The thread(s) the database work runs on, fed from the event loop without ``run_in_executor``."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")


class DatabaseThreads:
    """The thread(s) the database work runs on: ``count`` threads take the work handed over from one
    queue, in order, and hand each result (or error) back to the event loop that awaits it. SQLite has one
    (its one connection lives there, and the work runs strictly one at a time); PostgreSQL one per
    connection of its pool.

    A plain queue and ``call_soon_threadsafe``, not ``loop.run_in_executor``: the executor's bookkeeping
    (work items, locks, a future chained to a future) cost about as much CPU again as this whole hop,
    once per move.
    """

    def __init__(self, count: int = 1) -> None:
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        # Daemons: a process that exits without closing its database does not hang on these threads
        # (close() finishes every call handed over before it).
        names = ["database"] if count == 1 else [f"database-{n}" for n in range(count)]
        self._threads = [threading.Thread(target=self._serve, name=name, daemon=True) for name in names]
        self._closed = False
        for thread in self._threads:
            thread.start()

    def submit(self, call: Callable[[], _T]) -> asyncio.Future[_T]:
        """Queue ``call`` for the thread; the returned future (of the running loop) gets its result."""
        if self._closed:  # as an executor would: nothing would ever run it
            raise RuntimeError("the database thread is shut down")
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._queue.put((call, future))
        return future

    def shutdown(self, wait: bool = True) -> None:
        """Stop the threads once the calls already queued are done (``wait``: until then)."""
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            for thread in self._threads:
                thread.join()

    def _serve(self) -> None:
        while (item := self._queue.get()) is not None:
            call, future = item
            try:
                value, error = call(), None
            except BaseException as raised:  # handed to the awaiting coroutine, as an executor would
                value, error = None, raised
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody awaits it any more
                future.get_loop().call_soon_threadsafe(_settle, future, value, error)
            del item, call, future, value, error


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


