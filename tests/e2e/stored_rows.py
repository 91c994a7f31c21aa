"""Reading and changing the bot's database from a test, on either backend, with the same SQL.

The end-to-end tests check what the bot stored by running SQL of their own on its database: a SQLite file
(``sqlite:///...`` URL, or the path of a file such as a backup) or a PostgreSQL database
(``postgresql://...`` URL). The SQL must be portable: write placeholders as ``?`` (translated for
PostgreSQL as the bot's own SQL is, by :func:`storage.postgres.postgresql_sql`) and use no dialect's own
functions or pragmas (a test of a SQLite-only feature, such as the backup files, runs on SQLite only).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg

from storage.backend import database_target
from storage.postgres import postgresql_sql

Where = str | Path
"""A database: a ``sqlite:///`` or ``postgresql://`` URL, or the path of a SQLite file."""


def stored(where: Where, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
    """The rows of the query ``sql`` (``?`` placeholders bound to ``params``) on the database ``where``,
    as a list of tuples, read in a transaction of its own."""
    found = database_target(where)
    if found.url is not None:
        with psycopg.connect(found.url, autocommit=True) as db:
            return [tuple(row) for row in db.execute(postgresql_sql(sql), tuple(params)).fetchall()]
    with closing(sqlite3.connect(found.path)) as db:
        return db.execute(sql, tuple(params)).fetchall()


def change(where: Where, steps: Iterable[tuple[str, Iterable[Sequence[Any]]]]) -> None:
    """Run ``steps`` on the database ``where`` in one transaction: each is ``(sql, rows)``, the statement
    run once for each row of parameters (``[()]`` to run it once without any)."""
    found = database_target(where)
    if found.url is not None:
        with psycopg.connect(found.url) as db, db.transaction():  # commits on leaving, rolls back on error
            with db.cursor() as cursor:
                for sql, rows in steps:
                    cursor.executemany(postgresql_sql(sql), [tuple(row) for row in rows])
        return
    with closing(sqlite3.connect(found.path)) as db, db:  # commits on leaving, rolls back on error
        for sql, rows in steps:
            db.executemany(sql, [tuple(row) for row in rows])
