"""How many tables a server holds: the limits a server's admins set in ``/table defaults`` (open lobbies
per member, tables per server, tables at which no person sits), checked whenever a table would open
(``/play``, a rematch's "Play again") or lose its last person (the last player leaving a running game).

The counts are the live and waiting tables of this process's registry, plus the openings under way (a
``/play`` in a thread holds its place while Discord starts the thread), so concurrent ``/play`` by one
member in many channels never go past the limit: the count and the registration happen with no wait
between (:meth:`OpeningLimits.hold`). Exact per process; with several processes (shards), each counts
the tables of its own servers, which is all of them, since a server's tables live in its shard's process.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core import plural
from engine.tables import ai_seats
from engine.tables.registry import TableRegistry
from engine.tables.session import TablePhase, TableSession

if TYPE_CHECKING:
    from storage import Database

MEMBER_LOBBIES = 3
"""Open lobbies one member may host on a server, by default (enough for a lobby per channel they use)."""
SERVER_TABLES = 200
"""Tables (lobbies and games) a server may have at once, by default: well below the 1,000 active threads
Discord allows a server, so the server's own threads keep room."""
AI_TABLES = 10
"""Running games at which no person sits any more (AI players finish them) a server may have, by default."""


@dataclass(frozen=True)
class TableLimits:
    """A server's limits (counts; 0: no limit): open lobbies per member, tables, tables with no person."""

    member_lobbies: int = MEMBER_LOBBIES
    tables: int = SERVER_TABLES
    ai_tables: int = AI_TABLES

    def with_stored(
        self, member_lobbies: int | None, tables: int | None, ai_tables: int | None
    ) -> TableLimits:
        """These limits (the bot's defaults) with a server's stored columns over them (``None``: not set)."""
        return TableLimits(
            self.member_lobbies if member_lobbies is None else member_lobbies,
            self.tables if tables is None else tables,
            self.ai_tables if ai_tables is None else ai_tables,
        )


def _reached(limit: int, count: int) -> bool:
    return 0 < limit <= count


class OpeningLimits:
    """Counts a process's tables per server and member, and refuses an opening past a server's limits
    (``defaults``: the limits of a server whose admins set none, the bot's settings)."""

    def __init__(
        self, registry: TableRegistry, db: "Database", defaults: TableLimits = TableLimits()
    ) -> None:
        self.registry = registry
        self.db = db
        self.defaults = defaults
        self._opening: set[Opening] = set()

    async def limits(self, guild_id: int) -> TableLimits:
        """The server's limits: those its admins stored, else the bot's (one read of the database)."""
        return self.defaults.with_stored(*await self.db.guild_table_limits(guild_id))

    # -- counting (no await: a count and what follows it see the same tables) -----------------------------

    def _tables(self, guild_id: int) -> list[TableSession]:
        return [
            s
            for s in self.registry.tables.values()
            if s.guild_id == guild_id and s.phase is not TablePhase.SCOREBOARD
        ]

    def tables(self, guild_id: int) -> int:
        """The server's lobbies and games (waiting ones too; not the scoreboards), and openings under way."""
        waiting = sum(
            1
            for w in self.registry.waiting.values()
            if w.stored.get("guild_id") == guild_id and w.phase is not TablePhase.SCOREBOARD
        )
        opening = sum(1 for held in self._under_way() if held.guild_id == guild_id)
        return len(self._tables(guild_id)) + waiting + opening

    def lobbies(self, guild_id: int, user_id: int) -> int:
        """The open lobbies ``user_id`` hosts on the server, and their openings under way."""
        hosted = sum(
            1 for s in self._tables(guild_id) if s.phase is TablePhase.LOBBY and s.host_id == user_id
        )
        under_way = self._under_way()
        return hosted + sum(1 for held in under_way if (held.guild_id, held.host_id) == (guild_id, user_id))

    def _under_way(self) -> list[Opening]:
        """The openings held whose table is not registered yet (a registered one is counted as a table)."""
        return [held for held in self._opening if held.table_id not in self.registry.tables]

    def person_less(self, guild_id: int) -> int:
        """The server's running games at which no person sits any more."""
        return sum(
            1 for s in self._tables(guild_id) if s.phase is TablePhase.PLAYING and ai_seats.nobody_left(s)
        )

    def opening_refusal(self, limits: TableLimits, guild_id: int, host_id: int) -> str | None:
        """Why ``host_id`` may not open a lobby on the server now (words for them), or ``None``."""
        lobbies = self.lobbies(guild_id, host_id)
        if _reached(limits.member_lobbies, lobbies):
            return (
                f"You have {plural(lobbies, 'open lobby', 'open lobbies')} on this server, the most a member "
                "may have: start or cancel one first."
            )
        tables = self.tables(guild_id)
        if _reached(limits.tables, tables):
            return (
                f"This server has {plural(tables, 'table')} open, the most it allows: join one of them, or "
                "wait for a game to end. A server admin can raise the limit with `/table defaults`."
            )
        return None

    async def rematch_refusal(self, lobby: TableSession) -> str | None:
        """Why the rematch lobby ``lobby`` ("Play again") may not open (words for its channel), or ``None``;
        counted after the last wait, so the runtime registers it before any other opening counts."""
        limits = await self.limits(lobby.guild_id)
        lobbies = self.lobbies(lobby.guild_id, lobby.host_id)
        if _reached(limits.member_lobbies, lobbies):
            name = lobby.names.get(lobby.host_id, "The host")
            return (
                f"No rematch table was opened: {name} has "
                f"{plural(lobbies, 'open lobby', 'open lobbies')} on this server, the most a member may have."
            )
        tables = self.tables(lobby.guild_id)
        if _reached(limits.tables, tables):
            return (
                f"No rematch table was opened: this server has {plural(tables, 'table')} open, the most it "
                "allows. Join one of them, or wait for a game to end."
            )
        return None

    def leaving_refusal(self, limits: TableLimits, session: TableSession, user_id: int) -> str | None:
        """Why ``user_id`` may not leave the running game ``session`` now (they are its last person, and
        the server has as many games with no person as it allows), or ``None``."""
        seat = session.seat_of(user_id)
        if session.phase is not TablePhase.PLAYING or seat is None:
            return None
        others = [s for s in ai_seats.human_seats(session) if s != seat]
        if others or ai_seats.nobody_left(session):
            return None
        games = self.person_less(session.guild_id)
        if not _reached(limits.ai_tables, games):
            return None
        return (
            f"This server has {plural(games, 'game')} that AI players finish with no person seated, the most "
            "it allows: play on, or end the game for everyone with the host's **End** once nobody plays."
        )

    @contextlib.contextmanager
    def hold(self, limits: TableLimits, guild_id: int, host_id: int) -> Iterator[Opening]:
        """Check an opening by ``host_id`` on the server and, if allowed, hold its place until the block
        ends: open the table inside it, having set the hold's ``table_id`` before registering it. Yields
        the :class:`Opening`; its ``refusal`` says why not (words for the member), or is ``None``."""
        held = Opening(guild_id, host_id, self.opening_refusal(limits, guild_id, host_id))
        if held.refusal is not None:
            yield held
            return
        self._opening.add(held)
        try:
            yield held
        finally:
            self._opening.discard(held)


@dataclass(eq=False)
class Opening:
    """A table being opened on server ``guild_id`` by ``host_id``: ``refusal`` (words) if it may not,
    and ``table_id`` once its table is made."""

    guild_id: int
    host_id: int
    refusal: str | None
    table_id: str | None = None
