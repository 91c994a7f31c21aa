"""A picture drawn for its upload (``cogs.tables.drawn.draw_in_thread``): in a worker thread, once per file
name while it is being drawn, however many uploads wait for it."""

from __future__ import annotations

import asyncio
import functools
import threading

import pytest

from cogs.tables.drawn import Attachment, draw_in_thread


async def test_a_picture_is_drawn_once_in_a_worker_thread_for_uploads_at_the_same_time() -> None:
    threads: list[str] = []
    release = threading.Event()

    @functools.cache
    def slow_png() -> bytes:
        threads.append(threading.current_thread().name)
        release.wait(5)
        return b"png"

    picture = Attachment("table-ahead.png", slow_png)
    uploads = [asyncio.ensure_future(draw_in_thread([picture])) for _ in range(2)]
    await asyncio.sleep(0.05)
    assert not any(upload.done() for upload in uploads)  # both wait for the one drawing
    release.set()
    await asyncio.gather(*uploads)
    assert threads == [threads[0]] and threads[0] != threading.main_thread().name
    assert picture.data == b"png" and len(threads) == 1  # the upload finds the bytes drawn


async def test_a_drawing_that_fails_is_drawn_again_by_its_upload() -> None:
    calls = []

    def broken() -> bytes:
        calls.append(1)
        raise KeyError("no such card")

    picture = Attachment("table-broken.png", broken)
    await draw_in_thread([picture])
    with pytest.raises(KeyError, match="no such card"):
        _ = picture.data  # the upload draws it again, and raises
    assert len(calls) == 2
