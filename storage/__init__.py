"""Everything the bot keeps on disk, in SQLite (one connection on a thread of its own). All SQL
of the project lives here."""

from storage.database import (
    Database,
    GameResult,
    LeaderboardRow,
    SeatResult,
    StoredAction,
    StoredTable,
    database_path,
)

__all__ = [
    "Database",
    "GameResult",
    "LeaderboardRow",
    "SeatResult",
    "StoredAction",
    "StoredTable",
    "database_path",
]
