"""PostgreSQL answers a COMMIT in a transaction that an error aborted with ROLLBACK, not with an error: a
transaction whose work caught a failed statement must fail, not pass for stored (SQLite raises by itself)."""

from __future__ import annotations

import psycopg
import pytest

from storage.connection import in_transaction
from storage.postgres import PostgresConnection


def _swallowing_work(connection: PostgresConnection) -> None:
    connection.execute("INSERT INTO kept (n) VALUES (1)")
    try:
        connection.execute("SELECT 1 / 0")
    except psycopg.errors.DivisionByZero:
        pass  # a bug of this kind: the transaction is aborted, and COMMIT would quietly roll it back


def test_a_transaction_aborted_by_a_caught_error_is_not_reported_as_committed(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("CREATE TABLE kept (n INTEGER)")
        connection = PostgresConnection(raw)
        with pytest.raises(psycopg.DatabaseError, match="rolled back at COMMIT"):
            in_transaction(connection, _swallowing_work)
        assert raw.execute("SELECT COUNT(*) FROM kept").fetchone() == (0,)
        in_transaction(connection, lambda c: c.execute("INSERT INTO kept (n) VALUES (2)"))  # usable again
        assert raw.execute("SELECT n FROM kept").fetchall() == [(2,)]
