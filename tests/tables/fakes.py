"""Stand-ins for what the table runtime is given, so it is tested without Discord, a database or real time:
a database kept in dicts (:class:`MemoryDatabase`), a scheduler whose clocks fire when the test says
(:class:`ManualScheduler`), a clock the test moves (:class:`ManualClock`) and a presenter that keeps what it
was asked to show (:class:`RecordingPresenter`); :func:`make_runtime` puts them together."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from engine.ai.core import AIPlayer, RandomPlayer
from engine.tables.outcome import Outcome
from engine.tables.registry import TableRegistry
from engine.tables.runtime import TableRuntime
from engine.tables.session import TableSession
from engine.tables.store import TableStore
from engine.tables.tasks import Supervisor
from storage import GameResult, StoredAction, StoredEngineSnapshot, StoredTable, StoredTableLog

START = datetime(2026, 11, 26, 20, 0, tzinfo=timezone.utc)


class DatabaseDown(Exception):
    """What :class:`MemoryDatabase` raises while ``failing``."""


class MemoryDatabase:
    """The live-table calls of :class:`storage.Database`, in memory. ``failing``: every write raises."""

    def __init__(self) -> None:
        self.tables: dict[str, tuple[int, int, str, str]] = {}  # id -> guild, channel, game, snapshot JSON
        self.actions: dict[str, list[StoredAction]] = {}
        self.engines: dict[str, StoredEngineSnapshot] = {}  # id -> engine snapshot
        self.results: list[GameResult] = []
        self.logged: list[int] = []  # the length of the saved table's action log, after each save
        self.failing = False

    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        game: str,
        snapshot: dict | str,
        new_actions: Sequence[StoredAction] = (),
        result: GameResult | None = None,
        *,
        replace_log: bool = False,
        seated_users: Sequence[int] | None = None,
        engine_snapshot: StoredEngineSnapshot | None = None,
    ) -> None:
        if self.failing:
            raise DatabaseDown("the database is down")
        text = snapshot if isinstance(snapshot, str) else json.dumps(snapshot)
        self.tables[table_id] = (guild_id, channel_id, game, text)
        log = [] if replace_log else self.actions.get(table_id, [])
        self.actions[table_id] = log + list(new_actions)
        if replace_log:
            self.engines.pop(table_id, None)
        if engine_snapshot is not None:
            self.engines[table_id] = engine_snapshot
        if result is not None:
            assert all(stored.table_id != result.table_id for stored in self.results), "result stored twice"
            self.results.append(result)
        self.logged.append(len(self.actions[table_id]))

    async def delete_table(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.actions.pop(table_id, None)
        self.engines.pop(table_id, None)

    async def load_table(self, table_id: str) -> StoredTable | None:
        if table_id not in self.tables:
            return None
        guild_id, channel_id, game, text = self.tables[table_id]
        return StoredTable(
            table_id,
            guild_id,
            channel_id,
            game,
            json.loads(text),
            list(self.actions[table_id]),
            self.engines.get(table_id),
        )

    async def load_table_logs(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[StoredTableLog]:
        return [
            StoredTableLog(
                table.table_id,
                table.guild_id,
                table.snapshot,
                [(action.seat, action.code, action.timed_out) for action in table.actions],
                table.engine_snapshot,
            )
            for table in [await self.load_table(table_id) for table_id in self.tables]
            if table is not None and (guild_filter is None or guild_filter(table.guild_id))
        ]


class ManualClock:
    """The runtime's clock: it moves only when the test moves it."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class _Job:
    func: Callable
    args: tuple
    next_run_time: datetime
    scheduler: ManualScheduler = field(repr=False)

    def modify(self, next_run_time: datetime) -> None:
        self.next_run_time = next_run_time


class ManualScheduler:
    """The part of APScheduler the clocks use; jobs run only in :meth:`run_due`."""

    def __init__(self) -> None:
        self.jobs: dict[str, _Job] = {}

    def get_job(self, job_id: str) -> _Job | None:
        return self.jobs.get(job_id)

    def add_job(self, func: Callable, trigger: str, *, run_date: datetime, id: str, args: tuple, **_: object):
        self.jobs[id] = _Job(func, args, run_date, self)

    def remove_job(self, job_id: str) -> None:
        del self.jobs[job_id]

    async def run_due(self, now: datetime) -> list[str]:
        """Run every job due at ``now`` (each once, removed first as APScheduler's date jobs are)."""
        due = sorted(
            (job.next_run_time, job_id) for job_id, job in self.jobs.items() if job.next_run_time <= now
        )
        for _, job_id in due:
            job = self.jobs.pop(job_id)
            await job.func(*job.args)
        return [job_id for _, job_id in due]


class RecordingPresenter:
    """Keeps every outcome shown, table forgotten, table posted (``message_ids``: the message that shows each
    table, by table id, as the Discord layer keeps it) and notice said."""

    def __init__(self) -> None:
        self.shown: list[Outcome] = []
        self.forgotten: list[str] = []
        self.posted: list[tuple[str, str]] = []
        self.notices: list[str] = []
        self.next_message_id = 1000
        self.message_ids: dict[str, int] = {}

    def show(self, outcome: Outcome) -> None:
        self.shown.append(outcome)

    def forget(self, table: TableSession) -> None:
        self.forgotten.append(table.table_id)

    async def post_table(self, table: TableSession, intro: str) -> None:
        self.posted.append((table.table_id, intro))
        self.next_message_id += 1
        self.message_ids[table.table_id] = self.next_message_id

    async def notice(self, table: TableSession, text: str) -> None:
        self.notices.append(text)


@dataclass
class World:
    """A runtime with its stand-ins."""

    runtime: TableRuntime
    db: MemoryDatabase  # or the database the runtime was given
    clock: ManualClock
    scheduler: ManualScheduler
    presenter: RecordingPresenter


def make_runtime(
    *,
    player: AIPlayer | None = None,
    ai_pause_seconds: float = 0.0,
    unattended_pause_seconds: float = 0.001,
    lobby_idle_seconds: float = 900,
    db: object | None = None,
    now: datetime = START,
) -> World:
    """A runtime on a :class:`MemoryDatabase` (or ``db``, e.g. a real :class:`storage.Database`), a
    :class:`ManualClock` at ``now`` and a :class:`ManualScheduler`, whose AI seats play ``player`` (default:
    random legal moves)."""
    db = MemoryDatabase() if db is None else db
    clock, scheduler, presenter = ManualClock(now), ManualScheduler(), RecordingPresenter()
    registry = TableRegistry()
    store = TableStore(db, registry, shutting_down=lambda: False)  # type: ignore[arg-type]
    chosen = player or RandomPlayer()
    runtime = TableRuntime(
        registry,
        store,
        scheduler,  # type: ignore[arg-type]
        presenter,
        Supervisor(),
        lobby_idle_seconds=lobby_idle_seconds,
        ai_pause_seconds=ai_pause_seconds,
        unattended_pause_seconds=unattended_pause_seconds,
        player_for=lambda key, level: chosen,
        now=clock,
    )
    return World(runtime, db, clock, scheduler, presenter)
