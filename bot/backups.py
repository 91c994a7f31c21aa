"""Database backups: a consistent copy (SQLite's online backup) into the backup folder, newest kept.

Used by the bot (one at start, then every ``BACKUP_INTERVAL_MINUTES``) and by ``cardtable backup``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from storage import Database

PATTERN = "cardtable-*.sqlite3"
"""File names of backups: ``cardtable-<UTC time>.sqlite3``, so sorting by name sorts by age."""


async def take_backup(database: Database, folder: Path, keep: int) -> Path:
    """Write a consistent copy of ``database`` to ``folder`` as ``cardtable-<UTC time>.sqlite3`` and
    delete all but the newest ``keep`` backups there. Returns the new file.

    Raises
    ------
    OSError, sqlite3.Error
        If the folder or the copy cannot be written (nothing is deleted then).
    """
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    target = folder / f"cardtable-{stamp}.sqlite3"
    await database.backup_to(target)
    for old in sorted(folder.glob(PATTERN))[:-keep]:
        old.unlink(missing_ok=True)
    return target
