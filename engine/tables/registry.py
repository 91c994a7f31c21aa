"""The live tables: by table id, by channel (one open table per channel) and by player; and the reasons
remembered for tables that are gone, so a late press on one gets a polite answer."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable

from engine.tables.session import Phase, TableSession

REMEMBER_GONE_TABLES = 5000


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
    """

    def __init__(self) -> None:
        self.tables: dict[str, TableSession] = {}
        self.channel_tables: dict[int, str] = {}
        self.gone: OrderedDict[str, str] = OrderedDict()
        self._on_forget: list[Callable[[TableSession], None]] = []

    def on_forget(self, hook: Callable[[TableSession], None]) -> None:
        """Call ``hook(session)`` whenever a table is forgotten (its clocks, its live views go too)."""
        self._on_forget.append(hook)

    def get(self, table_id: str) -> TableSession | None:
        """The live table ``table_id``, or ``None``."""
        return self.tables.get(table_id)

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
            if table_id not in self.tables and table_id not in self.gone:
                return table_id

    def register(self, session: TableSession) -> None:
        """Add a live table; it holds its channel unless it shows a scoreboard."""
        self.tables[session.table_id] = session
        if session.phase is Phase.SCOREBOARD:
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
        """The table open in ``channel_id``, or ``None``."""
        table_id = self.channel_tables.get(channel_id)
        return self.tables.get(table_id) if table_id else None

    def table_of_player(self, user_id: int, channel_id: int | None) -> TableSession | None:
        """The table of ``channel_id`` if ``user_id`` sits at it; in a DM (``channel_id=None``), the running
        table where the user plays (one where it is their turn first)."""
        if channel_id is not None:
            session = self.channel_table(channel_id)
            if session is None or user_id not in session.seated_users():
                return None
            return session
        playing = [
            s for s in self.tables.values() if s.phase is Phase.PLAYING and s.seat_of(user_id) is not None
        ]
        playing.sort(key=lambda s: user_id not in s.users_to_act())
        return playing[0] if playing else None
