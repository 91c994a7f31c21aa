"""V006's Python step: the seats of the tables live at the migration, read from their snapshots (after
``V006__live_table_seats.sql``, in the same transaction)."""

from __future__ import annotations

import json
import sqlite3


def seated_in_snapshot(snapshot: dict) -> set[int]:
    """The human users seated at a stored table: its lobby's players while it is a lobby, else its game's
    players (AI seats, negative ids, left out)."""
    key = "lobby_players" if snapshot.get("phase") == "lobby" else "players"
    return {int(user) for user in snapshot.get(key) or () if int(user) > 0}


def migrate(connection: sqlite3.Connection) -> None:
    """Fill ``live_table_seats`` from ``live_tables.snapshot``."""
    rows = []
    for table_id, text in connection.execute("SELECT table_id, snapshot FROM live_tables").fetchall():
        try:
            users = seated_in_snapshot(json.loads(text))
        except (ValueError, TypeError, AttributeError):  # unreadable: its next save writes its seats
            continue
        rows.extend((table_id, user) for user in sorted(users))
    if rows:
        connection.executemany("INSERT INTO live_table_seats (table_id, user_id) VALUES (?, ?)", rows)
