"""The live tables: by table id, by channel (one open table per channel) and by player; the tables stored
at the last stop whose games are not replayed yet (:class:`WaitingTable`); and the reasons remembered for
tables that are gone, so a late press on one gets a polite answer.

After a restart a table's game is replayed the first time anything asks the registry for it (:meth:`
TableRegistry.get`, :meth:`~TableRegistry.channel_table`, :meth:`~TableRegistry.table_of_player`: a press,
a clock, ``/hand``), or by the runtime in the background, whichever comes first; either way through the
one :attr:`TableRegistry.restorer`, so a table replayed on demand is the table replayed in the background.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from engine.lobby import is_ai
from engine.tables.session import TablePhase, TableSession
from engine.tables.snapshot import TableSnapshot
from storage import StoredEngineSnapshot

StoredLog = list[tuple[int, str, bool]]
"""A stored action log: ``(seat, code, timed_out)`` per action."""

REMEMBER_GONE_TABLES = 5000


@dataclass(eq=False)
class WaitingTable:
    """A table stored when the bot last stopped, whose game is not replayed yet: its stored snapshot (the
    JSON-ready data, read into a :class:`TableSnapshot` only when the table is replayed), action log and
    engine snapshot (``engine``, if one is stored: read only when the table is replayed), and what the
    registry and the clocks must know of it before.

    Attributes
    ----------
    phase:
        The stored phase.
    seated:
        Everyone seated (user ids; AI seats' negative identities included).
    has_ai:
        True if an AI plays a seat (whose turn may be pending: such a table is replayed first).
    clock:
        ``(kind, when)`` of the clock the table would arm (``"turn"`` at the earliest stored seat deadline,
        ``"rematch"`` when the "Play again" window closes; UTC), or ``None``.
    """

    table_id: str
    channel_id: int
    phase: TablePhase
    seated: frozenset[int]
    has_ai: bool
    clock: tuple[str, datetime] | None
    stored: dict[str, Any]
    actions: StoredLog
    engine: StoredEngineSnapshot | None = None

    @classmethod
    def of(
        cls, stored: dict[str, Any], actions: StoredLog, engine: StoredEngineSnapshot | None = None
    ) -> WaitingTable:
        """The waiting table of a stored snapshot (any schema version), log and engine snapshot, read
        without validating the whole snapshot (:meth:`snapshot` does that).

        Raises
        ------
        KeyError, ValueError, TypeError
            If the snapshot lacks its table id, channel or phase, or holds a malformed time.
        """
        phase = TablePhase(stored["phase"])
        players = stored.get("players") or []
        clock = None
        deadlines = stored.get("seat_deadlines") or {}
        if phase is TablePhase.PLAYING and deadlines:
            clock = ("turn", min(_utc(when) for when in deadlines.values()))
        elif phase is TablePhase.SCOREBOARD:
            settings = stored.get("settings")
            seconds = settings.get("rematch_seconds", 180) if isinstance(settings, dict) else 180
            finished = stored.get("finished_at")
            clock = ("rematch", _utc(finished) + timedelta(seconds=seconds) if finished else _EARLIEST)
        return cls(
            table_id=str(stored["table_id"]),
            channel_id=int(stored["channel_id"]),
            phase=phase,
            seated=frozenset(int(user) for user in players or stored.get("lobby_players") or []),
            has_ai=any(is_ai(int(user)) for user in players) or bool(stored.get("left_seats")),
            clock=clock,
            stored=stored,
            actions=actions,
            engine=engine,
        )

    @property
    def needs_replay(self) -> bool:
        """True if the table has a game (a lobby has none: it is restored at once)."""
        return self.stored.get("seed") is not None

    def snapshot(self) -> TableSnapshot:
        """The stored snapshot, validated.

        Raises
        ------
        pydantic.ValidationError
            If it is not a snapshot of a known version.
        """
        return TableSnapshot.from_stored(self.stored)


_EARLIEST = datetime.min.replace(tzinfo=timezone.utc)


def _utc(when: Any) -> datetime:
    """A stored time (ISO text or a datetime) as an aware UTC datetime."""
    moment = when if isinstance(when, datetime) else datetime.fromisoformat(str(when))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


class TableRegistry:
    """Every live table of the bot.

    Attributes
    ----------
    tables:
        Live tables by table id (lobbies, games, and scoreboards still offering "Play again").
    channel_tables:
        The table id open in each channel. A scoreboard frees its channel, so a new ``/play`` may open
        while it shows.
    gone:
        Why each recently closed table is gone, by table id (the newest :data:`REMEMBER_GONE_TABLES`).
    waiting:
        Tables stored at the last stop whose games are not replayed yet, by table id; each holds its
        channel in :attr:`channel_tables` as a live table would.
    restorer:
        Replays a waiting table and registers it (the runtime's); returns ``None`` if it does not replay
        (then it is :attr:`gone`).
    """

    def __init__(self) -> None:
        self.tables: dict[str, TableSession] = {}
        self.channel_tables: dict[int, str] = {}
        self.gone: OrderedDict[str, str] = OrderedDict()
        self.waiting: dict[str, WaitingTable] = {}
        self.restorer: Callable[[WaitingTable], TableSession | None] | None = None
        self._waiting_players: dict[int, set[str]] = {}  # user id -> ids of waiting tables they sit at
        self._on_forget: list[Callable[[TableSession], None]] = []

    def on_forget(self, hook: Callable[[TableSession], None]) -> None:
        """Call ``hook(session)`` whenever a table is forgotten (its clocks, its live views go too)."""
        self._on_forget.append(hook)

    def get(self, table_id: str) -> TableSession | None:
        """The live table ``table_id`` (replayed now if it was waiting), or ``None``."""
        session = self.tables.get(table_id)
        if session is None and table_id in self.waiting:
            return self.restore(table_id)
        return session

    def add_waiting(self, table: WaitingTable) -> None:
        """Hold a stored table until its game is replayed (:meth:`restore`); it holds its channel unless it
        shows a scoreboard."""
        self.waiting[table.table_id] = table
        if table.phase is not TablePhase.SCOREBOARD:
            self.channel_tables[table.channel_id] = table.table_id
        for user in table.seated:
            self._waiting_players.setdefault(user, set()).add(table.table_id)

    def restore(self, table_id: str) -> TableSession | None:
        """Replay the waiting table ``table_id`` through :attr:`restorer` and return it live; ``None`` if it
        is not waiting (any more) or does not replay."""
        table = self.waiting.pop(table_id, None)
        if table is None:
            return None
        for user in table.seated:
            tables = self._waiting_players[user]
            tables.discard(table_id)
            if not tables:
                del self._waiting_players[user]
        if self.channel_tables.get(table.channel_id) == table_id:
            del self.channel_tables[table.channel_id]  # registered again with the live table
        assert self.restorer is not None, "the runtime sets the restorer before tables wait"
        return self.restorer(table)

    def gone_reason(self, table_id: str) -> str:
        """Why table ``table_id`` is not live, in words for the player."""
        return self.gone.get(table_id, "This table no longer exists.")

    def is_live(self, session: TableSession) -> bool:
        """True while ``session`` is the registered table of its id."""
        return self.tables.get(session.table_id) is session

    def new_table_id(self) -> str:
        """A fresh table id, used by no live or remembered table."""
        while True:
            table_id = secrets.token_hex(5)
            if table_id not in self.tables and table_id not in self.gone and table_id not in self.waiting:
                return table_id

    def register(self, session: TableSession) -> None:
        """Add a live table; it holds its channel unless it shows a scoreboard."""
        self.tables[session.table_id] = session
        if session.phase is TablePhase.SCOREBOARD:
            self.free_channel(session)
        else:
            self.channel_tables[session.channel_id] = session.table_id

    def free_channel(self, session: TableSession) -> None:
        """Let a new table open in ``session``'s channel (the game is over)."""
        if self.channel_tables.get(session.channel_id) == session.table_id:
            del self.channel_tables[session.channel_id]

    def forget(self, session: TableSession, reason: str) -> None:
        """Drop a table (closed, or never stored); later presses on it are told ``reason``."""
        self.tables.pop(session.table_id, None)
        self.free_channel(session)
        self.gone[session.table_id] = reason
        while len(self.gone) > REMEMBER_GONE_TABLES:
            self.gone.popitem(last=False)
        for hook in self._on_forget:
            hook(session)

    def channel_table(self, channel_id: int) -> TableSession | None:
        """The table open in ``channel_id`` (replayed now if it was waiting), or ``None``."""
        table_id = self.channel_tables.get(channel_id)
        return self.get(table_id) if table_id else None

    def has_table_in(self, channel_id: int) -> bool:
        """True if a live or waiting table (a scoreboard too) is in ``channel_id``; replays nothing."""
        return any(s.channel_id == channel_id for s in self.tables.values()) or any(
            w.channel_id == channel_id for w in self.waiting.values()
        )

    def channels_of_player(self, user_id: int) -> list[int]:
        """The channels of the live and waiting tables where ``user_id`` is seated; replays nothing."""
        channels = [s.channel_id for s in self.tables.values() if user_id in s.seated_users()]
        return channels + [self.waiting[t].channel_id for t in self._waiting_players.get(user_id, ())]

    def table_of_player(self, user_id: int, channel_id: int | None) -> TableSession | None:
        """The table of ``channel_id`` if ``user_id`` sits at it; in a DM (``channel_id=None``), the running
        table where the user plays (one where it is their turn first). Replays the waiting tables it needs
        to tell."""
        if channel_id is not None:
            session = self.channel_table(channel_id)
            if session is None or user_id not in session.seated_users():
                return None
            return session
        for table_id in list(self._waiting_players.get(user_id, ())):
            if self.waiting[table_id].phase is TablePhase.PLAYING:
                self.restore(table_id)
        playing = [
            s
            for s in self.tables.values()
            if s.phase is TablePhase.PLAYING and s.seat_of(user_id) is not None
        ]
        playing.sort(key=lambda s: user_id not in s.users_to_act())
        return playing[0] if playing else None
