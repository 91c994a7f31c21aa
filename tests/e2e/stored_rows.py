"""Reading and changing the bot's database from a test, on either backend, with the same SQL.

The end-to-end tests check what the bot stored by running SQL of their own on its database: a SQLite file
(``sqlite:///...`` URL, or the path of a file such as a backup) or a PostgreSQL database
(``postgresql://...`` URL). The SQL must be portable: write placeholders as ``?`` (they become ``%s`` for
PostgreSQL) and use no dialect's own functions or pragmas (a test of a SQLite-only feature, such as the
backup files, runs on SQLite only).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

Where = str | Path
"""A database: a ``sqlite:///`` or ``postgresql://`` URL, or the path of a SQLite file."""


def _is_postgres(where: Where) -> bool:
    return isinstance(where, str) and where.startswith(("postgresql://", "postgres://"))


def _sqlite_file(where: Where) -> Path:
    if isinstance(where, Path):
        return where
    from storage import database_path

    return database_path(where)


def _postgres_sql(sql: str) -> str:
    """``sql`` with its ``?`` placeholders as psycopg's ``%s`` (the tests' SQL has no literal ``?`` or
    ``%``)."""
    if "%" in sql:
        raise ValueError(f"a literal % in test SQL would be read as a placeholder: {sql}")
    return sql.replace("?", "%s")


def stored(where: Where, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
    """The rows of the query ``sql`` (``?`` placeholders bound to ``params``) on the database ``where``,
    as a list of tuples, read in a transaction of its own."""
    if _is_postgres(where):
        import psycopg

        with psycopg.connect(where, autocommit=True) as db:
            return [tuple(row) for row in db.execute(_postgres_sql(sql), tuple(params)).fetchall()]
    with closing(sqlite3.connect(_sqlite_file(where))) as db:
        return db.execute(sql, tuple(params)).fetchall()


def change(where: Where, steps: Iterable[tuple[str, Iterable[Sequence[Any]]]]) -> None:
    """Run ``steps`` on the database ``where`` in one transaction: each is ``(sql, rows)``, the statement
    run once for each row of parameters (``[()]`` to run it once without any)."""
    if _is_postgres(where):
        import psycopg

        with psycopg.connect(where) as db, db.transaction():  # commits on leaving, rolls back on error
            with db.cursor() as cursor:
                for sql, rows in steps:
                    cursor.executemany(_postgres_sql(sql), [tuple(row) for row in rows])
        return
    with closing(sqlite3.connect(_sqlite_file(where))) as db, db:  # commits on leaving, rolls back on error
        for sql, rows in steps:
            db.executemany(sql, [tuple(row) for row in rows])
