"""Reading ratings, stats and history, and the server admin's changes to them (seasons, forgetting a
member): the methods :class:`storage.Database` gets from :class:`StatsReads`.

Every read names its server: a server's data never shows in another. The reads are served by the indexes
of ``V004__ratings.sql`` (a leaderboard walks ``ratings`` by ordinal; a player's stats read at most a few
``ratings`` rows and the last :data:`CHART_POINTS` of their ``player_results``), so they cost the same with
a million results as with ten (``bench/ratings.py``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

from storage.ratings import DEFAULT_MIN_GAMES, lock_guild

_T = TypeVar("_T")

CHART_POINTS = 100
"""The most recent games whose ratings a player's chart draws."""

FORM_GAMES = 10
"""The most recent games a player's form shows."""

FORMER_MEMBER = "Former member"
"""The name a forgotten member's seats keep (their user id becomes 0)."""


@dataclass(frozen=True)
class RatingRow:
    """One player on a rating leaderboard: ``ordinal`` is the conservative rating (mu - 3 sigma, points of
    openskill's scale), ``games`` and ``wins`` (rank 1, shared first places included) in that game."""

    user_id: int
    display_name: str
    game: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True)
class RatingBoard:
    """A rating leaderboard: the ``season`` shown, whether it is the current one, the ``min_games`` a
    player needs to be established, the established players' ``rows`` best first, then the
    ``provisional`` players (fewer than ``min_games`` rated games in the game; without a game, in every
    game), best first, ranked below every established player; the two lists hold at most the board's
    limit together."""

    season: int
    current: bool
    min_games: int
    rows: list[RatingRow]
    provisional: list[RatingRow]


@dataclass(frozen=True)
class GameStanding:
    """A player's record in one game this season: rating, games, wins, sum of placements (ranks)."""

    game: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    wins: int
    placement_sum: int

    @property
    def average_placement(self) -> float:
        """The mean rank (1 = won every game)."""
        return self.placement_sum / self.games if self.games else 0.0


@dataclass(frozen=True)
class PlayerStats:
    """A player's stats in one server and season, in one game (``game``) or all (``game`` is ``None``).

    ``standings``: per game, best rating first (one item when ``game`` is given). ``chart_game``: the game
    whose rating ``chart`` shows (``game``, else the best one); ``chart``: ratings (ordinals) after each
    counted game, oldest first, at most :data:`CHART_POINTS`. ``form``: ``(rank, seats)`` of the most
    recent counted games, newest first. ``min_games``: the server's minimum of rated games in a game
    before the leaderboard ranks a player among the established ones.
    """

    user_id: int
    season: int
    game: str | None
    standings: list[GameStanding]
    chart_game: str | None
    chart: list[float]
    form: list[tuple[int, int]]
    min_games: int

    @property
    def games(self) -> int:
        """Counted games in the scope."""
        return sum(s.games for s in self.standings)

    @property
    def wins(self) -> int:
        """Games won (rank 1) in the scope."""
        return sum(s.wins for s in self.standings)

    @property
    def average_placement(self) -> float:
        """Mean rank over the scope's counted games (0.0 with none)."""
        games = self.games
        return sum(s.placement_sum for s in self.standings) / games if games else 0.0

    @property
    def best(self) -> GameStanding | None:
        """The game with the best rating, or ``None`` with no counted game."""
        return self.standings[0] if self.standings else None

    @property
    def games_to_leaderboard(self) -> tuple[int, str] | None:
        """While the player is provisional in the scope (no game of it with ``min_games``): the rated
        games still missing in the game closest to the minimum (the better rated of equals), and that
        game; ``None`` once established, or with no counted game."""
        if not self.standings or any(s.games >= self.min_games for s in self.standings):
            return None
        closest = max(self.standings, key=lambda s: s.games)  # max keeps the first, best rated, of equals
        return self.min_games - closest.games, closest.game


@dataclass(frozen=True)
class HistoryEntry:
    """One game in a player's history: the stored game's ``game_id``, engine key, ``rank`` of ``seats``,
    when it finished, and whether it counted for ratings (see :mod:`storage.ratings`)."""

    game_id: int
    game: str
    rank: int
    seats: int
    finished_at: datetime
    counted: bool


class StatsReads:
    """Rating leaderboards, seasons, player stats and history, and forgetting a member: the part of
    :class:`storage.Database` that :mod:`storage.ratings` fills. (A stored game for a replay is
    :meth:`storage.Database.finished_game`.)"""

    if TYPE_CHECKING:

        async def _run(self, work: Callable[..., _T], *args: Any) -> _T: ...

        async def _transact(self, work: Callable[..., _T], *args: Any) -> _T: ...

    async def current_season(self, guild_id: int) -> int:
        """The server's current season (1 until an admin starts a new one)."""
        return await self._run(_current_season, guild_id)

    async def start_season(self, guild_id: int, now: datetime | None = None) -> int:
        """Close the current season (its ratings stay, shown by ``season=``) and start the next one, with
        no ratings yet. Returns the new season's number."""
        ended = _iso(now or datetime.now(timezone.utc))
        return await self._transact(_start_season, guild_id, ended)

    async def min_rated_games(self, guild_id: int) -> int:
        """Games a player needs in a game this season before its leaderboard ranks them among the
        established players rather than as provisional (default 5)."""
        return await self._run(_min_games, guild_id)

    async def set_min_rated_games(self, guild_id: int, games: int | None) -> None:
        """Set (``None``: back to the default) the games a leaderboard needs from a player."""
        await self._transact(
            _execute,
            "INSERT INTO guild_settings (guild_id, min_rated_games) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET min_rated_games = excluded.min_rated_games",
            (guild_id, games),
        )

    async def rating_leaderboard(
        self, guild_id: int, game: str | None = None, season: int | None = None, limit: int = 10
    ) -> RatingBoard:
        """The server's best players by rating (openskill's ordinal): those with at least the server's
        minimum of games, then, where fewer than ``limit`` have it, the provisional players below them; in
        ``game``, or (``None``) each player's best game. ``season``: a past season, or ``None`` for the
        current one."""
        return await self._run(_rating_board, guild_id, game, season, limit)

    async def player_stats(self, guild_id: int, user_id: int, game: str | None = None) -> PlayerStats:
        """A player's stats this season in one server, in ``game`` or in all games."""
        return await self._run(_player_stats, guild_id, user_id, game)

    async def player_history(self, guild_id: int, user_id: int, limit: int = 10) -> list[HistoryEntry]:
        """A player's most recent games in one server (all seasons), newest first."""
        rows = await self._run(
            _fetch_all,
            "SELECT game_id, game, rank, seats, finished_at, counted FROM player_results"
            " WHERE guild_id = ? AND user_id = ? ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [
            HistoryEntry(int(g), str(k), int(r), int(n), datetime.fromisoformat(f), bool(c))
            for g, k, r, n, f, c in rows
        ]

    async def forget_member(self, guild_id: int, user_id: int) -> int:
        """Erase a member's data from one server: their ratings (every season) and history rows are
        deleted, and their seats in the server's stored games are anonymised (user id 0, name
        :data:`FORMER_MEMBER`), so the games and the other players' results and ratings stay as they
        were. Returns how many seats were anonymised."""
        return await self._transact(_forget_member, guild_id, user_id)


# -- on the database thread ----------------------------------------------------------------------


def _execute(connection: sqlite3.Connection, sql: str, parameters: Any) -> None:
    connection.execute(sql, parameters)


def _fetch_all(connection: sqlite3.Connection, sql: str, parameters: Any) -> list[tuple]:
    return connection.execute(sql, parameters).fetchall()


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _current_season(connection: sqlite3.Connection, guild_id: int) -> int:
    row = connection.execute("SELECT season FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 1


def _min_games(connection: sqlite3.Connection, guild_id: int) -> int:
    row = connection.execute(
        "SELECT min_rated_games FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    return int(row[0]) if row is not None and row[0] is not None else DEFAULT_MIN_GAMES


def _start_season(connection: sqlite3.Connection, guild_id: int, ended_at: str) -> int:
    lock_guild(connection, guild_id)  # no result of this server is rated meanwhile (PostgreSQL)
    season = _current_season(connection, guild_id)
    connection.execute(
        "INSERT INTO seasons (guild_id, season, ended_at) VALUES (?, ?, ?)", (guild_id, season, ended_at)
    )
    connection.execute(
        "INSERT INTO guild_settings (guild_id, season) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET season = excluded.season",
        (guild_id, season + 1),
    )
    return season + 1


_BOARD_COLUMNS = "user_id, display_name, game, ordinal, mu, sigma, games, wins"


def _rating_board(
    connection: sqlite3.Connection, guild_id: int, game: str | None, season: int | None, limit: int
) -> RatingBoard:
    """The established players best first, then, only where they leave room on the board, the
    provisional ones: a server past its first nights fills its top ten from the top of the index and never
    looks for provisional players; a board with room left has read every established row already, so
    the provisional walk over the rest of the season costs no more than that one did."""
    current = _current_season(connection, guild_id)
    shown = current if season is None else season
    min_games = _min_games(connection, guild_id)
    rows = _board_walk(connection, (guild_id, shown, game), "games >= ?", min_games, limit, set())
    provisional: list[tuple] = []
    if len(rows) < limit:
        established = {row[0] for row in rows}
        provisional = _board_walk(
            connection, (guild_id, shown, game), "games < ?", min_games, limit - len(rows), established
        )
    return RatingBoard(
        shown,
        shown == current,
        min_games,
        [_rating_row(row) for row in rows],
        [_rating_row(row) for row in provisional],
    )


def _board_walk(
    connection: sqlite3.Connection,
    scope: tuple[int, int, str | None],
    games_test: str,
    min_games: int,
    limit: int,
    skipped: set[int],
) -> list[tuple]:
    """At most ``limit`` rows of ``ratings`` in ``scope`` (server, season, game or ``None`` for every
    game) whose games pass ``games_test`` against ``min_games``, best ordinal first, one per player (their
    best) and none of a ``skipped`` player's: read from the top of an ordinal index, stopping once
    enough. (A game has one row per player, so only the walk over every game skips.)"""
    guild_id, season, game = scope
    if game is not None:
        return connection.execute(
            f"SELECT {_BOARD_COLUMNS} FROM ratings INDEXED BY ratings_by_game_ordinal WHERE guild_id = ?"
            f" AND season = ? AND game = ? AND {games_test} ORDER BY ordinal DESC LIMIT ?",
            (guild_id, season, game, min_games, limit),
        ).fetchall()
    cursor = connection.execute(
        f"SELECT {_BOARD_COLUMNS} FROM ratings INDEXED BY ratings_by_ordinal"
        f" WHERE guild_id = ? AND season = ? AND {games_test} ORDER BY ordinal DESC",
        (guild_id, season, min_games),
    )
    rows, seen = [], set(skipped)
    while len(rows) < limit and (row := cursor.fetchone()) is not None:
        if row[0] not in seen:
            seen.add(row[0])
            rows.append(row)
    cursor.close()
    return rows


def _rating_row(row: tuple) -> RatingRow:
    user_id, name, game, ordinal, mu, sigma, games, wins = row
    return RatingRow(int(user_id), str(name), str(game), float(ordinal), float(mu), float(sigma), games, wins)


def _player_stats(
    connection: sqlite3.Connection, guild_id: int, user_id: int, game: str | None
) -> PlayerStats:
    season = _current_season(connection, guild_id)
    rows = connection.execute(
        "SELECT game, ordinal, mu, sigma, games, wins, placement_sum"
        " FROM ratings INDEXED BY ratings_by_player"
        " WHERE guild_id = ? AND user_id = ? AND season = ? ORDER BY ordinal DESC",
        (guild_id, user_id, season),
    ).fetchall()
    standings = [GameStanding(*row) for row in rows if game is None or row[0] == game]
    chart_game = game if game is not None else (standings[0].game if standings else None)
    chart: list[float] = []
    if chart_game is not None:
        chart = [
            float(row[0])
            for row in connection.execute(
                "SELECT ordinal FROM player_results INDEXED BY player_results_by_player_game"
                " WHERE guild_id = ? AND user_id = ? AND season = ?"
                " AND game = ? AND counted = 1 ORDER BY finished_at DESC, game_id DESC LIMIT ?",
                (guild_id, user_id, season, chart_game, CHART_POINTS),
            )
        ][::-1]
    if game is None:
        form_rows = connection.execute(
            "SELECT rank, seats FROM player_results INDEXED BY player_results_by_player"
            " WHERE guild_id = ? AND user_id = ? AND season = ? AND counted = 1"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, season, FORM_GAMES),
        ).fetchall()
    else:
        form_rows = connection.execute(
            "SELECT rank, seats FROM player_results INDEXED BY player_results_by_player_game"
            " WHERE guild_id = ? AND user_id = ? AND season = ? AND game = ? AND counted = 1"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            (guild_id, user_id, season, game, FORM_GAMES),
        ).fetchall()
    form = [(int(rank), int(seats)) for rank, seats in form_rows]
    min_games = _min_games(connection, guild_id)
    return PlayerStats(user_id, season, game, standings, chart_game, chart, form, min_games)


def _forget_member(connection: sqlite3.Connection, guild_id: int, user_id: int) -> int:
    lock_guild(connection, guild_id)
    cursor = connection.execute(
        "UPDATE game_seats SET user_id = 0, display_name = ? WHERE user_id = ? AND is_ai = 0"
        " AND EXISTS (SELECT 1 FROM games g WHERE g.id = game_seats.game_id AND g.guild_id = ?)",
        (FORMER_MEMBER, user_id, guild_id),
    )
    connection.execute("DELETE FROM player_results WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    connection.execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    return cursor.rowcount
