"""Everything the bot keeps on disk, in SQLite (one connection on a thread of its own). All SQL
of the project lives here."""

from storage.database import (
    Database,
    DatabaseUnwritable,
    GameResult,
    LeaderboardRow,
    SeatResult,
    StoredAction,
    StoredGame,
    StoredTable,
    database_path,
    is_locked,
    press_write_deadline,
)

__all__ = [
    "Database",
    "DatabaseUnwritable",
    "GameResult",
    "LeaderboardRow",
    "SeatResult",
    "StoredAction",
    "StoredGame",
    "StoredTable",
    "database_path",
    "is_locked",
    "press_write_deadline",
]
