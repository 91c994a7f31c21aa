"""Ratings and per-player aggregates: how a stored result moves them (SQL on the database thread).

A rating is openskill's Plackett–Luce model, one per (server, season, game, player). The rules, decided
here and documented for players in ``docs/playing.md``:

- **What counts.** AI seats are never rated and have no rows. A game with an AI seat counts for its humans
  (rating and aggregates: games, wins, placements) only if the server counts games against AIs
  (``guild_settings.count_ai_games``, NULL or 1: yes). The setting applies to the games recorded while it
  is set: each stored human seat keeps whether it counted (``player_results.counted``); changing the
  setting never re-rates what is stored (ratings are a history, not a query).
- **How a game with AI seats is rated.** The AIs take no part in the ranking: the humans are ranked among
  themselves by their places in the game (a human who finished ahead of another stays ahead; ties share a
  rank). With fewer than two humans nothing is rated (the aggregates still count the game), so beating
  AIs cannot inflate a rating.
- **Ties** share a rank: openskill is given the stored ranks as they are.
- **Seasons.** The current season is ``guild_settings.season`` (NULL: 1). Results count in the season that
  is current when they are stored; ``/table season`` closes it (its rows stay, the archive) and the next
  season starts with no ratings.

Everything here runs inside the transaction of the caller (the one that stores the result, or the
migration that rates the results already stored), so a result and its rating changes are stored together.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from storage.backend import POSTGRESQL
from storage.connection import dialect_of

DEFAULT_MIN_GAMES = 5
"""Games a player needs in a game (this season) before its rating leaderboard ranks them among the
established players (with fewer they are provisional, listed below)."""

MODEL = PlackettLuce()
"""openskill's Plackett–Luce model with its default parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""


@dataclass
class Standing:
    """A player's rating and aggregates in one game, server and season (a ``ratings`` row).

    ``mu``/``sigma``: openskill's rating; ``games``, ``wins`` (rank 1), ``placement_sum`` (sum of ranks)
    count the games that counted; ``last_game_id`` is the last of them (``games.id``).
    """

    display_name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    placement_sum: int = 0
    last_game_id: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` (openskill's ``ordinal()``)."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class HumanSeat:
    """A human seat of a finished game as rating needs it: seat index, Discord user id, name, rank
    (1 = won)."""

    seat: int
    user_id: int
    display_name: str
    rank: int


def new_standing(display_name: str) -> Standing:
    """A player's standing before their first counted game (openskill's default rating)."""
    rating = MODEL.rating()
    return Standing(display_name, float(rating.mu), float(rating.sigma))


def settle_game(
    standings: dict[int, Standing], humans: Sequence[HumanSeat], game_id: int, counted: bool
) -> dict[int, float | None]:
    """Apply one finished game to the standings of its humans (``standings``: user id -> standing in this
    game, server and season; players missing from it are added).

    Returns each human seat's rating (ordinal) after the game, ``None`` for a game that does not count.
    The humans are rated among themselves by their ranks (ties share a rank) when there are at least two
    distinct players; aggregates count every counted game.
    """
    if not counted:
        return {human.seat: None for human in humans}
    players: dict[int, HumanSeat] = {}
    for human in humans:  # one rating per player, even if a player somehow held two seats
        players.setdefault(human.user_id, human)
    for human in players.values():
        standing = standings.get(human.user_id)
        if standing is None:
            standing = standings[human.user_id] = new_standing(human.display_name)
        standing.display_name = human.display_name
    if len(players) >= 2:
        ordered = list(players.values())
        teams = [
            [MODEL.create_rating([standings[h.user_id].mu, standings[h.user_id].sigma])] for h in ordered
        ]
        rated = MODEL.rate(teams, ranks=[float(h.rank) for h in ordered])
        for human, team in zip(ordered, rated, strict=True):
            standings[human.user_id].mu = float(team[0].mu)
            standings[human.user_id].sigma = float(team[0].sigma)
    for human in players.values():
        standing = standings[human.user_id]
        standing.games += 1
        standing.wins += human.rank == 1
        standing.placement_sum += human.rank
        standing.last_game_id = game_id
    return {human.seat: standings[human.user_id].ordinal for human in humans}


def lock_guild(connection: sqlite3.Connection, guild_id: int) -> None:
    """PostgreSQL: take this server's advisory lock until the transaction ends, so its results (read-modify-
    write of its ratings and aggregates), season changes and forgotten members are applied one at a time,
    from any connection or process, as if stored one after another. SQLite: nothing (one writer)."""
    if dialect_of(connection) == POSTGRESQL:
        connection.execute("SELECT pg_advisory_xact_lock(?)", (guild_id,))


def guild_rules(connection: sqlite3.Connection, guild_id: int) -> tuple[bool, int]:
    """``(count_ai_games, current season)`` of a server, with their defaults (yes, 1)."""
    row = connection.execute(
        "SELECT count_ai_games, season FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ).fetchone()
    if row is None:
        return True, 1
    return row[0] is None or bool(row[0]), int(row[1] or 1)


def _load_standings(
    connection: sqlite3.Connection, guild_id: int, season: int, game: str, user_ids: Iterable[int]
) -> dict[int, Standing]:
    found = {}
    for user_id in set(user_ids):
        row = connection.execute(
            "SELECT display_name, mu, sigma, games, wins, placement_sum, last_game_id FROM ratings"
            " WHERE guild_id = ? AND season = ? AND game = ? AND user_id = ?",
            (guild_id, season, game, user_id),
        ).fetchone()
        if row is not None:
            found[user_id] = Standing(*row)
    return found


def _write_standings(
    connection: sqlite3.Connection, rows: Iterable[tuple[tuple[int, int, str, int], Standing]]
) -> None:
    connection.executemany(
        "INSERT INTO ratings (guild_id, season, game, user_id, display_name, mu, sigma, ordinal, games,"
        " wins, placement_sum, last_game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET display_name = excluded.display_name,"
        " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,"
        " wins = excluded.wins, placement_sum = excluded.placement_sum, last_game_id = excluded.last_game_id",
        [
            (*key, s.display_name, s.mu, s.sigma, s.ordinal, s.games, s.wins, s.placement_sum, s.last_game_id)
            for key, s in rows
        ],
    )


_INSERT_PLAYER_RESULT = (
    "INSERT INTO player_results (game_id, seat, guild_id, user_id, game, season, rank, seats, counted,"
    " ordinal, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def rate_result(
    connection: sqlite3.Connection,
    game_id: int,
    guild_id: int,
    game: str,
    finished_at: str,
    seats: Sequence[tuple[int, int, str, int, bool]],
) -> None:
    """Rate one result just stored (inside its transaction): ``seats`` are ``(seat, user id, display name,
    rank, is_ai)``. Updates the humans' ``ratings`` rows and writes their ``player_results`` rows."""
    count_ai, season = guild_rules(connection, guild_id)
    human_ids = (user for _, user, _, _, is_ai in seats if not is_ai)
    standings = _load_standings(connection, guild_id, season, game, human_ids)
    counted, rows = _settle_result(standings, game_id, guild_id, game, season, finished_at, seats, count_ai)
    if counted:
        _write_standings(
            connection, (((guild_id, season, game, user_id), s) for user_id, s in standings.items())
        )
    connection.executemany(_INSERT_PLAYER_RESULT, rows)


def _settle_result(
    standings: dict[int, Standing],
    game_id: int,
    guild_id: int,
    game: str,
    season: int,
    finished_at: str,
    seats: Sequence[tuple[int, int, str, int, bool]],
    count_ai: bool,
) -> tuple[bool, list[tuple]]:
    """Settle one result into ``standings`` (its humans' standings in that server, season and game,
    changed in place) and return whether it counted and its ``player_results`` rows. ``seats`` are
    ``(seat, user id, display name, rank, is_ai)``; a game with AI seats counts only if ``count_ai``."""
    humans = [HumanSeat(seat, user, name, rank) for seat, user, name, rank, is_ai in seats if not is_ai]
    counted = count_ai or len(humans) == len(seats)
    after = settle_game(standings, humans, game_id, counted)
    rows = [
        (
            game_id,
            h.seat,
            guild_id,
            h.user_id,
            game,
            season,
            h.rank,
            len(seats),
            int(counted),
            after[h.seat],
            finished_at,
        )
        for h in humans
    ]
    return counted, rows


def rate_stored_results(connection: sqlite3.Connection, batch: int = 20_000) -> float:
    """Rate every stored result in the order they were played (``finished_at``, then storage order), as
    if each had been rated when it was stored, with each server's setting of today for games with AI
    seats and everything in season 1. Runs inside the migration's transaction; the standings are kept in
    memory and written once at the end.

    Returns the seconds it took (the migration logs it; ``bench/ratings.py`` measures it on a million).
    """
    started = time.perf_counter()
    # Millions of rows inserted into indexes keyed by player land all over them (minutes of page
    # churn); built afterwards, each index is one sort. The SQL file stays the one place they are defined.
    indexes = connection.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'player_results'"
        " AND indexname NOT LIKE '%_pkey'"
        if dialect_of(connection) == POSTGRESQL
        else "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'player_results'"
        " AND sql IS NOT NULL"
    ).fetchall()
    for name, _sql in indexes:
        connection.execute(f'DROP INDEX "{name}"')
    rules: dict[int, bool] = {}
    standings: dict[tuple[int, int, str], dict[int, Standing]] = {}
    rows = connection.execute(
        "SELECT g.id, g.guild_id, g.game, g.finished_at, s.seat, s.user_id, s.display_name, s.rank, s.is_ai"
        " FROM games g JOIN game_seats s ON s.game_id = g.id ORDER BY g.finished_at, g.id, s.seat"
    )
    pending: list[tuple] = []
    current: list[tuple] = []

    def settle(seats: list[tuple]) -> None:
        game_id, guild_id, game, finished_at = seats[0][:4]
        if guild_id not in rules:
            rules[guild_id] = guild_rules(connection, guild_id)[0]
        in_game = standings.setdefault((guild_id, 1, game), {})
        seat_rows = [row[4:9] for row in seats]
        _, rows = _settle_result(in_game, game_id, guild_id, game, 1, finished_at, seat_rows, rules[guild_id])
        pending.extend(rows)

    while chunk := rows.fetchmany(batch):
        for row in chunk:
            if current and current[0][0] != row[0]:
                settle(current)
                current = []
            current.append(row)
        if len(pending) >= batch:
            connection.executemany(_INSERT_PLAYER_RESULT, pending)
            pending.clear()
    if current:
        settle(current)
    connection.executemany(_INSERT_PLAYER_RESULT, pending)
    for _name, sql in indexes:
        connection.execute(sql)
    _write_standings(
        connection,
        (
            ((guild_id, season, game, user_id), standing)
            for (guild_id, season, game), players in standings.items()
            for user_id, standing in players.items()
        ),
    )
    return time.perf_counter() - started
