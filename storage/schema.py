"""The schema's migrations, on either database.

Migrations are the numbered files ``storage/migrations/V<NNN>__<name>.sql``; where PostgreSQL needs other
SQL, ``V<NNN>__<name>.postgresql.sql`` beside it is run there instead. The applied version is SQLite's
``PRAGMA user_version``, or the one row of PostgreSQL's ``schema_version`` table. Each pending migration runs
in one transaction together with the version bump, so a crash leaves the database at the old or the new
version, never between (PostgreSQL's whole run also holds an advisory lock: :mod:`storage.postgres`). A
migration that needs Python (V004 rates the results already stored) has a module of the same name beside
its SQL file, ``V<NNN>__<name>.py`` with ``migrate(connection)``, run after the SQL in that same
transaction, on either database.

These are work functions: plain functions of a connection, run on a database's thread.
"""

from __future__ import annotations

import importlib
import re
import sqlite3
from collections.abc import Callable
from importlib import resources
from typing import Any

from storage.backend import POSTGRESQL, SQLITE, Dialect
from storage.connection import dialect_of

_MIGRATION_NAME = re.compile(r"^V(?P<version>\d{3})__\w+\.sql$")

Migration = tuple[int, str, str]
"""``(version, file name, SQL)``."""


def migrations(dialect: Dialect = SQLITE) -> list[Migration]:
    """``(version, file name, SQL)`` of every migration, in version order, for ``dialect``: a
    ``V<NNN>__<name>.postgresql.sql`` file replaces ``V<NNN>__<name>.sql`` on PostgreSQL.

    Raises
    ------
    RuntimeError
        If the versions are not 1, 2, 3, ... without gaps.
    """
    folder = resources.files("storage.migrations")
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            own = folder.joinpath(entry.name.removesuffix(".sql") + f".{dialect}.sql")
            text = (own if dialect != SQLITE and own.is_file() else entry).read_text(encoding="utf-8")
            found.append((int(match["version"]), entry.name, text))
    found.sort()
    versions = [version for version, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3, ... without gaps, found {versions}")
    return found


def schema_version(connection: Any) -> int:
    """The applied migration version (0 for an empty database)."""
    if dialect_of(connection) == POSTGRESQL:
        (exists,) = connection.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
        if not exists:
            return 0
        row = connection.execute("SELECT version FROM schema_version").fetchone()
        return 0 if row is None else int(row[0])
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    return int(version)


def rewrite_version(connection: Any) -> None:
    """Write the schema version unchanged: a write that proves the database takes writes."""
    if dialect_of(connection) == POSTGRESQL:
        connection.execute("UPDATE schema_version SET version = version")
        return
    connection.execute(f"PRAGMA user_version = {schema_version(connection)}")


def refuse_newer(current: int, known: list[Migration]) -> None:
    """Raise :class:`RuntimeError` if the database's version ``current`` is newer than this code knows
    (a downgrade)."""
    if current > len(known):
        raise RuntimeError(f"the database is at version {current}, newer than this bot's {len(known)}")


def python_step(name: str) -> Callable[[sqlite3.Connection], Any] | None:
    """``migrate(connection)`` of the module with the SQL file's name (``V004__ratings.py``), if there is
    one: the part of a migration SQL cannot do (rating stored results), run after the SQL."""
    stem = name.removesuffix(".sql")
    if not resources.files("storage.migrations").joinpath(stem + ".py").is_file():
        return None
    return importlib.import_module(f"storage.migrations.{stem}").migrate


def apply_migration(
    connection: Any,
    version: int,
    sql: str,
    step: Callable[[sqlite3.Connection], Any] | None = None,
) -> None:
    """Run one migration's statements, then its Python ``step`` if any, then set the version to
    ``version`` (the caller holds the transaction)."""
    for statement in split_statements(sql):
        connection.execute(statement)
    if step is not None:
        step(connection)
    if dialect_of(connection) == POSTGRESQL:
        connection.execute("UPDATE schema_version SET version = ?", (int(version),))
    else:
        connection.execute(f"PRAGMA user_version = {int(version)}")


def split_statements(sql: str) -> list[str]:
    """Statements of a migration file (split at ``;`` ending a line; migrations hold no triggers)."""
    without_comments = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [statement.strip() for statement in without_comments.split(";") if statement.strip()]
