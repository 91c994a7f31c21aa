"""V012's Python step: the table messages and live DMs of the tables live at the migration, moved out of
their snapshots (after ``V012__table_messages.sql``, in the same transaction). Each snapshot is written back
without the three fields (``message_id``, ``message_posted_at``, ``live_dms``), which every shape of
snapshot ever written names so."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from typing import Any

SHOWN_FIELDS = ("message_id", "message_posted_at", "live_dms")
"""The snapshot's fields that said where the Discord layer showed the table."""


def shown_in_snapshot(
    snapshot: dict[str, Any],
) -> tuple[int | None, str | None, dict[int, tuple[int, int]]]:
    """Where a stored snapshot says its table is shown: the table message's id (``None``: none), when it
    was posted (ISO-8601 UTC text, ``None``: unknown) and the live DMs, ``(channel id, message id)`` by user
    id.

    Raises
    ------
    ValueError, TypeError
        If a field does not read.
    """
    message_id = snapshot.get("message_id")
    posted_at = snapshot.get("message_posted_at")
    posted = None if posted_at is None else datetime.fromisoformat(str(posted_at))
    if posted is not None and posted.tzinfo is None:
        posted = posted.replace(tzinfo=timezone.utc)
    dms = {
        int(user): (int(where[0]), int(where[1])) for user, where in (snapshot.get("live_dms") or {}).items()
    }
    return (
        None if message_id is None else int(message_id),
        None if posted is None else posted.astimezone(timezone.utc).isoformat(),
        dms,
    )


def migrate(connection: sqlite3.Connection) -> None:
    """Fill ``table_messages`` and ``table_dms`` from ``live_tables.snapshot``, and take the fields out of
    the snapshots."""
    messages, dms, rewritten = [], [], []
    for table_id, text in connection.execute("SELECT table_id, snapshot FROM live_tables").fetchall():
        try:
            snapshot = json.loads(text)
            message_id, posted_at, live_dms = shown_in_snapshot(snapshot)
        except (ValueError, TypeError, AttributeError, IndexError):  # unreadable: left as it is
            continue
        if message_id is not None or posted_at is not None:
            messages.append((table_id, message_id, posted_at))
        dms.extend((table_id, user, *where) for user, where in sorted(live_dms.items()))
        if any(name in snapshot for name in SHOWN_FIELDS):
            kept = {name: value for name, value in snapshot.items() if name not in SHOWN_FIELDS}
            rewritten.append((json.dumps(kept, separators=(",", ":")), table_id))
    if messages:
        connection.executemany(
            "INSERT INTO table_messages (table_id, message_id, posted_at) VALUES (?, ?, ?)", messages
        )
    if dms:
        connection.executemany(
            "INSERT INTO table_dms (table_id, user_id, channel_id, message_id) VALUES (?, ?, ?, ?)", dms
        )
    if rewritten:
        connection.executemany("UPDATE live_tables SET snapshot = ? WHERE table_id = ?", rewritten)
