"""The bot's health report, for Docker's HEALTHCHECK (``cardtable health``) and for admins.

The running bot writes a small JSON file next to the SQLite database, or in ``DATA_DIR`` with PostgreSQL
(``Settings.health_path``), every
:data:`REPORT_SECONDS`: whether it is connected to Discord and whether its database takes a write (a
write transaction is begun and committed, waiting at most :data:`PROBE_WAIT_SECONDS` for a lock). A clean
stop writes a last report saying it stopped. :func:`check` reads the report: healthy means connected,
writable and fresher than :data:`STALE_SECONDS` (a hung or killed bot stops refreshing it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from engine.core import plural

if TYPE_CHECKING:
    from storage import Database

log = logging.getLogger(__name__)

REPORT_SECONDS = 10.0
STALE_SECONDS = 60.0
PROBE_WAIT_SECONDS = 0.5


class ReportedBot(Protocol):
    """What the health report reads of the bot (``bot.bot.CardTableBot``): whether it is connected and not
    stopping, and its database."""

    draining: bool

    @property
    def db(self) -> Database: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...


class HealthReporter:
    """Writes the bot's health report every :data:`REPORT_SECONDS` while it runs."""

    def __init__(self, bot: ReportedBot, path: Path) -> None:
        self.bot = bot
        self.path = path
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._loop())

    def report_soon(self) -> None:
        """Write a report now (e.g. just connected) instead of at the next interval."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop reporting and write a last report saying the bot stopped."""
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        self._write({"connected": False, "database_writable": False, "stopped": True})

    async def _loop(self) -> None:
        while True:
            self._wake.clear()  # before the report: a wake-up during it asks for another
            try:
                await self.report()
            except Exception:
                log.exception("Could not write the health report %s", self.path)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), REPORT_SECONDS)

    async def report(self) -> dict:
        """Probe the connection and the database and write the report; returns it."""
        bot = self.bot
        connected = bot.is_ready() and not bot.is_closed() and not bot.draining
        problem = await bot.db.write_problem(PROBE_WAIT_SECONDS)
        report = {"connected": connected, "database_writable": problem is None}
        if problem is not None:
            report["database_problem"] = problem
        self._write(report)
        return report

    def _write(self, report: dict) -> None:
        report = {**report, "at": time.time(), "pid": os.getpid()}
        partial = self.path.with_name(self.path.name + ".partial")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)  # DATA_DIR may not exist yet (PostgreSQL)
            partial.write_text(json.dumps(report), encoding="utf-8")
            partial.replace(self.path)
        except OSError as error:
            log.warning("Could not write the health report %s: %s", self.path, error)


def check(path: Path, now: float | None = None) -> tuple[bool, str]:
    """Read the health report at ``path``: ``(healthy, one line saying why)``."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, f"no health report at {path}: is the bot running?"
    except (OSError, ValueError) as error:
        return False, f"cannot read the health report {path}: {error}"
    age = (time.time() if now is None else now) - float(report.get("at", 0))
    if report.get("stopped"):
        return False, "the bot has stopped"
    if age > STALE_SECONDS:
        return (
            False,
            f"the bot's last health report is {plural(round(age), 'second')} old: it is not running or hangs",
        )
    if not report.get("connected"):
        return False, "the bot is not connected to Discord"
    if not report.get("database_writable"):
        return False, f"the database is not writable: {report.get('database_problem', 'unknown')}"
    return True, "healthy: connected to Discord, database writable"
