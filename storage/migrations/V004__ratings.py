"""V004's Python step: rate the results already stored, in the order they were played (after
``V004__ratings.sql``, in the same transaction)."""

from __future__ import annotations

import logging
import sqlite3

from storage.ratings import rate_stored_results

log = logging.getLogger(__name__)


def migrate(connection: sqlite3.Connection) -> None:
    """Fill ``ratings`` and ``player_results`` from ``games`` and ``game_seats``."""
    seconds = rate_stored_results(connection)
    log.info("Rated the stored results in %.1f s", seconds)
