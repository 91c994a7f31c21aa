"""Everything the bot keeps in its database, SQLite or PostgreSQL: all SQL of the project lives here.
It may import nothing of the bot's other packages (no engine, cogs, bot, discord)."""

from storage.backend import DatabaseTarget, database_path, database_target, error_line, redacted_database_url
from storage.connection import DatabaseError, IntegrityError, is_locked, is_unreachable, press_write_deadline
from storage.database import (
    Database,
    GameResult,
    LeaderboardRow,
    SeatResult,
    StoredAction,
    StoredEngineSnapshot,
    StoredGame,
    StoredTable,
    StoredTableLog,
)
from storage.nights import StoredNight, StoredNightTable, StoredSignup
from storage.postgres import DEFAULT_POOL_SIZE
from storage.queues import StoredQueueBoard, StoredQueuePlayer
from storage.sqlite import DatabaseUnwritable
from storage.table_messages import StoredTableMessages
from storage.turn_notices import StoredTurnNotice

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
    "StoredEngineSnapshot",
    "StoredGame",
    "StoredNight",
    "StoredNightTable",
    "StoredQueueBoard",
    "StoredQueuePlayer",
    "StoredSignup",
    "StoredTable",
    "StoredTableLog",
    "StoredTableMessages",
    "StoredTurnNotice",
    "database_path",
    "database_target",
    "error_line",
    "is_locked",
    "is_unreachable",
    "press_write_deadline",
    "redacted_database_url",
]
