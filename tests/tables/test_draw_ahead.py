"""A picture drawn ahead (``cogs.tables.drawn.draw_ahead``): in a worker thread, once per file name while it
is being drawn, and waited for by its upload (``drawn_ahead``)."""

from __future__ import annotations

import functools
import threading

import pytest

from cogs.tables.drawn import Attachment, draw_ahead, drawn_ahead


async def test_a_picture_is_drawn_once_in_a_worker_thread_and_its_upload_waits_for_it() -> None:
    threads: list[str] = []
    release = threading.Event()

    @functools.cache
    def slow_png() -> bytes:
        threads.append(threading.current_thread().name)
        release.wait(5)
        return b"png"

    picture = Attachment("table-ahead.png", slow_png)
    draw_ahead([picture])
    draw_ahead([picture])  # already being drawn: not again
    release.set()
    await drawn_ahead([picture])
    assert threads == [threads[0]] and threads[0] != threading.main_thread().name
    assert picture.data == b"png" and len(threads) == 1  # the upload finds the bytes drawn
    await drawn_ahead([picture, Attachment("table-other.png", bytes)])  # nothing being drawn: at once


async def test_a_drawing_that_fails_is_drawn_again_by_its_upload() -> None:
    calls = []

    def broken() -> bytes:
        calls.append(1)
        raise KeyError("no such card")

    picture = Attachment("table-broken.png", broken)
    draw_ahead([picture])
    await drawn_ahead([picture])
    with pytest.raises(KeyError, match="no such card"):
        _ = picture.data  # the upload draws it again, and raises
    assert len(calls) == 2
