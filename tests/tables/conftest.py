"""Fixtures of the table tests: the card emojis of every face."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from art.faces import all_faces
from cogs.card_emojis import CARD_EMOJIS


class EveryFaceApplication:
    """Stands in for the bot's client in a card emoji sync: the application has an emoji for every face
    already (ids of 19 digits, as Discord's snowflakes today)."""

    def __init__(self) -> None:
        self.emojis = [
            SimpleNamespace(name=face.emoji_name(), id=1_300_000_000_000_000_000 + index)
            for index, face in enumerate(all_faces())
        ]

    async def fetch_application_emojis(self) -> list[SimpleNamespace]:
        return self.emojis


@pytest.fixture
def card_emojis():
    """Every card face has its application emoji (:data:`cogs.card_emojis.CARD_EMOJIS`, filled by its own
    sync), until the test ends."""
    with ThreadPoolExecutor(1) as thread:  # a loop of its own: an async test's loop may be running
        report = thread.submit(asyncio.run, CARD_EMOJIS.sync(EveryFaceApplication(), all_faces())).result()
    assert (report.found, report.failure) == (len(all_faces()), None)
    yield CARD_EMOJIS
    CARD_EMOJIS.clear()
