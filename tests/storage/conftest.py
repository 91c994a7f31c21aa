"""The storage suite runs on both databases: ``database_url`` is a SQLite file in the test's folder or an
empty PostgreSQL database of the test's own (the throwaway server of ``tests/conftest.py``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from storage import database_path
from storage.postgres import postgresql_sql


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A ``sqlite:///`` URL of a new file, or a ``postgresql://`` URL of an empty database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'bot.db'}"
    return str(request.getfixturevalue("postgres_url"))


def query(url: str, sql: str, parameters: Any = ()) -> list[tuple]:
    """Rows of ``sql`` (SQLite's placeholders) read over a connection of its own, as another program would
    (SQLite's file directly, or a new PostgreSQL connection)."""
    if url.startswith("sqlite:"):
        with sqlite3.connect(database_path(url)) as raw:
            return raw.execute(sql, parameters).fetchall()
    with psycopg.connect(url) as raw:
        return raw.execute(postgresql_sql(sql, bool(parameters)), parameters or None).fetchall()


@pytest.fixture
def rows_of(database_url: str) -> Callable[..., list[tuple]]:
    """``rows_of(sql, parameters)``: :func:`query` on the test's database."""
    return lambda sql, parameters=(): query(database_url, sql, parameters)
