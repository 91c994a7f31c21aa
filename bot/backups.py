"""Database backups: a consistent copy (SQLite's online backup) into the backup folder, newest kept.

Used by the bot (one at start, then every ``BACKUP_INTERVAL_MINUTES``) and by ``cardtable backup``.
"""

from __future__ import annotations

import asyncio
import sqlite3
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
    target = _new_name(folder)
    await database.backup_to(target)
    _prune(folder, keep)
    return target


async def back_up_file(database: Path, folder: Path, keep: int) -> Path:
    """:func:`take_backup` of the database file at ``database`` without opening it as the bot does (no
    migration, no write): ``cardtable backup``, also while the bot runs or when the file is read-only."""
    target = _new_name(folder)
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    await asyncio.to_thread(_copy, database, partial)
    partial.replace(target)
    _prune(folder, keep)
    return target


def _copy(source_path: Path, target: Path) -> None:
    source = sqlite3.connect(f"{source_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        source.execute("PRAGMA busy_timeout = 5000")
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()


def _new_name(folder: Path) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    return folder / f"cardtable-{stamp}.sqlite3"


def _prune(folder: Path, keep: int) -> None:
    for old in sorted(folder.glob(PATTERN))[:-keep]:
        old.unlink(missing_ok=True)
