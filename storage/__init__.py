"""Everything the bot keeps in its database: SQLite (a file, one connection on a thread of its own) or
PostgreSQL (a server several bot processes share, over a pool of connections). All SQL of the project lives
here."""

from storage.backend import DatabaseTarget, database_path, database_target, error_line, redacted_database_url
from storage.connection import DatabaseError, IntegrityError, is_locked
from storage.database import (
    DEFAULT_POOL_SIZE,
    Database,
    DatabaseUnwritable,
    GameResult,
    LeaderboardRow,
    SeatResult,
    StoredAction,
    StoredGame,
    StoredTable,
    press_write_deadline,
)

__all__ = [
    "DEFAULT_POOL_SIZE",
    "Database",
    "DatabaseError",
    "DatabaseTarget",
    "DatabaseUnwritable",
    "GameResult",
    "IntegrityError",
    "LeaderboardRow",
    "SeatResult",
    "StoredAction",
    "StoredGame",
    "StoredTable",
    "database_path",
    "database_target",
    "error_line",
    "is_locked",
    "press_write_deadline",
    "redacted_database_url",
]
