"""Game nights as stored (``V014__nights.sql``): each night (its server, channel, games, start, format,
rounds, the Discord scheduled event and the bot's messages, its state), who signed up (in, out, interested
through the event, left) and each round's tables (seats, the runtime's table and thread, the places once
played). Standings are not stored: they follow from the places (:mod:`engine.nights.standings`). The
methods :class:`storage.Database` gets from :class:`NightRows`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

_T = TypeVar("_T")

SCHEDULED, RUNNING, OVER, CANCELED = "scheduled", "running", "over", "canceled"
"""A night's states: before its start, between its start and its last table's end, played, canceled."""

IN, OUT, INTERESTED, LEFT = "in", "out", "interested", "left"
"""A sign-up's statuses: pressed I'm in; pressed Not this time; marked Interested on the event (and pressed
nothing); left during a round (``left_round`` says which)."""

_NIGHT_COLUMNS = (
    "night_id, guild_id, channel_id, games, starts_at, format, rounds, ai_fill, remind_minutes, seed,"
    " created_by, event_id, signup_message_id, standings_message_id, reminder_message_id, state, round_number"
)


@dataclass(frozen=True)
class StoredNight:
    """A night: ``night_id`` (a snowflake), the server ``guild_id``, the channel ``channel_id`` whose
    threads hold its tables, the game keys ``games`` (the first is played), its start ``starts_at`` (UTC),
    ``format`` (``swiss``, ``knockout``, ``random``), ``rounds`` to play, ``ai_fill`` (AI seats fill a
    short table), ``remind_minutes`` before the start (0: no reminder), the seating's ``seed``, the member
    ``created_by``, the Discord ids ``event_id``, ``signup_message_id``, ``standings_message_id``,
    ``reminder_message_id`` (``None`` until made), ``state`` (:data:`SCHEDULED`...) and ``round_number``,
    the round being played (0 before the start)."""

    night_id: int
    guild_id: int
    channel_id: int
    games: tuple[str, ...]
    starts_at: datetime
    format: str
    rounds: int
    ai_fill: bool
    remind_minutes: int
    seed: int
    created_by: int
    event_id: int | None = None
    signup_message_id: int | None = None
    standings_message_id: int | None = None
    reminder_message_id: int | None = None
    state: str = SCHEDULED
    round_number: int = 0

    def but(self, **changes: Any) -> StoredNight:
        """This night with ``changes`` (field names and values)."""
        return replace(self, **changes)


@dataclass(frozen=True)
class StoredSignup:
    """One member of a night: ``user_id``, their display ``name``, ``status`` (:data:`IN`...), ``since``
    (UTC) when they first signed up, and ``left_round``, the round they left during (``None``)."""

    user_id: int
    name: str
    status: str
    since: datetime
    left_round: int | None = None


@dataclass(frozen=True)
class StoredNightTable:
    """One table of a round: ``round_number`` (1, 2...), ``table_index`` (0 the top table), the players'
    user ids ``players`` in seat order, ``ai_seats`` after them, the runtime's ``table_id`` and its
    ``thread_id`` once opened, and ``ranks``, each seat's rank once played (``None`` before)."""

    round_number: int
    table_index: int
    players: tuple[int, ...]
    ai_seats: int
    table_id: str | None = None
    thread_id: int | None = None
    ranks: tuple[int, ...] | None = None


class NightRows:
    """The nights' rows (see the module)."""

    if TYPE_CHECKING:

        async def _run(self, work: Callable[..., _T], *args: Any) -> _T: ...

        async def _transact(self, work: Callable[..., _T], *args: Any) -> _T: ...

    async def put_night(self, night: StoredNight) -> None:
        """Store ``night``, replacing the stored one of the same id (its sign-ups and tables are kept)."""
        await self._transact(_put_night, night)

    async def night(self, night_id: int) -> StoredNight | None:
        """The night ``night_id``, or ``None``."""
        rows = await self._run(_fetch, f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE night_id = ?", (night_id,))
        return _night(rows[0]) if rows else None

    async def nights(
        self,
        states: tuple[str, ...] = (SCHEDULED, RUNNING),
        guild_filter: Callable[[int], bool] | None = None,
    ) -> list[StoredNight]:
        """The nights in ``states`` (with ``guild_filter``, of the servers it accepts), by start."""
        marks = ", ".join("?" for _ in states)
        rows = await self._run(
            _fetch,
            f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE state IN ({marks}) ORDER BY starts_at, night_id",
            tuple(states),
        )
        found = [_night(row) for row in rows]
        return [night for night in found if guild_filter is None or guild_filter(night.guild_id)]

    async def guild_nights(self, guild_id: int) -> list[StoredNight]:
        """Every night of the server, the latest start first."""
        rows = await self._run(
            _fetch,
            f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE guild_id = ? ORDER BY starts_at DESC, night_id DESC",
            (guild_id,),
        )
        return [_night(row) for row in rows]

    async def put_signup(self, night_id: int, signup: StoredSignup) -> None:
        """Store ``signup`` for the night, replacing the member's (their first ``since`` is kept)."""
        await self._transact(
            _write,
            "INSERT INTO night_signups (night_id, user_id, name, status, since, left_round)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (night_id, user_id) DO UPDATE SET"
            " name = excluded.name, status = excluded.status, left_round = excluded.left_round",
            (night_id, signup.user_id, signup.name, signup.status, _text(signup.since), signup.left_round),
        )

    async def signups(self, night_id: int) -> list[StoredSignup]:
        """The night's members, in sign-up order (first ``since``, then user id)."""
        rows = await self._run(
            _fetch,
            "SELECT user_id, name, status, since, left_round FROM night_signups WHERE night_id = ?"
            " ORDER BY since, user_id",
            (night_id,),
        )
        return [
            StoredSignup(
                int(user), str(name), str(status), _moment(since), None if left is None else int(left)
            )
            for user, name, status, since, left in rows
        ]

    async def put_night_round(self, night: StoredNight, tables: list[StoredNightTable]) -> None:
        """Store ``night`` (its round and state) and the round's ``tables`` together, in one transaction."""
        await self._transact(_put_round, night, tables)

    async def put_night_table(self, night_id: int, table: StoredNightTable) -> None:
        """Store one table of a round (opened, or played), replacing the stored one."""
        await self._transact(_put_tables, night_id, [table])

    async def night_tables(self, night_id: int) -> list[StoredNightTable]:
        """Every table of the night, by round then index."""
        rows = await self._run(
            _fetch,
            "SELECT round_number, table_index, players, ai_seats, table_id, thread_id, ranks"
            " FROM night_tables WHERE night_id = ? ORDER BY round_number, table_index",
            (night_id,),
        )
        return [
            StoredNightTable(
                int(number),
                int(index),
                _ints(players),
                int(ai),
                None if table is None else str(table),
                None if thread is None else int(thread),
                None if ranks is None else _ints(ranks),
            )
            for number, index, players, ai, table, thread, ranks in rows
        ]

    async def night_ratings(self, guild_id: int, game: str) -> dict[int, tuple[float, float]]:
        """The openskill ``(mu, sigma)`` of every rated player of ``game`` on the server, this season, by
        user id (a player with no rating is absent)."""
        rows = await self._run(_ratings, guild_id, game)
        return {int(user): (float(mu), float(sigma)) for user, mu, sigma in rows}

    async def night_of_table(self, table_id: str) -> tuple[int, StoredNightTable] | None:
        """The night id and night table that the runtime's table ``table_id`` is, or ``None``."""
        rows = await self._run(
            _fetch,
            "SELECT night_id, round_number, table_index FROM night_tables WHERE table_id = ?",
            (table_id,),
        )
        if not rows:
            return None
        night_id, number, index = (int(value) for value in rows[0])
        for table in await self.night_tables(night_id):
            if (table.round_number, table.table_index) == (number, index):
                return night_id, table
        return None


def _ratings(connection: Any, guild_id: int, game: str) -> list[tuple]:
    row = connection.execute("SELECT season FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone()
    season = int(row[0]) if row is not None and row[0] is not None else 1
    return connection.execute(
        "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND season = ? AND game = ?",
        (guild_id, season, game),
    ).fetchall()


def _put_night(connection: Any, night: StoredNight) -> None:
    marks = ", ".join("?" for _ in _NIGHT_COLUMNS.split(","))
    updates = ", ".join(f"{name.strip()} = excluded.{name.strip()}" for name in _NIGHT_COLUMNS.split(",")[1:])
    connection.execute(
        f"INSERT INTO nights ({_NIGHT_COLUMNS}) VALUES ({marks})"
        f" ON CONFLICT (night_id) DO UPDATE SET {updates}",
        (
            night.night_id,
            night.guild_id,
            night.channel_id,
            ",".join(night.games),
            _text(night.starts_at),
            night.format,
            night.rounds,
            int(night.ai_fill),
            night.remind_minutes,
            night.seed,
            night.created_by,
            night.event_id,
            night.signup_message_id,
            night.standings_message_id,
            night.reminder_message_id,
            night.state,
            night.round_number,
        ),
    )


def _put_round(connection: Any, night: StoredNight, tables: list[StoredNightTable]) -> None:
    _put_night(connection, night)
    _put_tables(connection, night.night_id, tables)


def _put_tables(connection: Any, night_id: int, tables: list[StoredNightTable]) -> None:
    for table in tables:
        connection.execute(
            "INSERT INTO night_tables (night_id, round_number, table_index, players, ai_seats, table_id,"
            " thread_id, ranks) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (night_id, round_number,"
            " table_index) DO UPDATE SET players = excluded.players, ai_seats = excluded.ai_seats,"
            " table_id = excluded.table_id, thread_id = excluded.thread_id, ranks = excluded.ranks",
            (
                night_id,
                table.round_number,
                table.table_index,
                ",".join(str(player) for player in table.players),
                table.ai_seats,
                table.table_id,
                table.thread_id,
                None if table.ranks is None else ",".join(str(rank) for rank in table.ranks),
            ),
        )


def _night(row: tuple) -> StoredNight:
    (night_id, guild, channel, games, starts, fmt, rounds, ai, remind, seed, by, event, signup, standings,
     reminder, state, number) = row  # fmt: skip
    return StoredNight(
        int(night_id),
        int(guild),
        int(channel),
        tuple(str(games).split(",")),
        _moment(starts),
        str(fmt),
        int(rounds),
        bool(ai),
        int(remind),
        int(seed),
        int(by),
        *(None if value is None else int(value) for value in (event, signup, standings, reminder)),
        str(state),
        int(number),
    )


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in str(text).split(",") if part)


def _text(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat()


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(str(text))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _fetch(connection: Any, sql: str, parameters: tuple) -> list[tuple]:
    return connection.execute(sql, parameters).fetchall()


def _write(connection: Any, sql: str, parameters: tuple) -> None:
    connection.execute(sql, parameters)
