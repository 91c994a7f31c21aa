"""Ratings on a real SQLite file and a real PostgreSQL database: openskill's own numbers, what counts,
seasons, forgetting a member, a server's data kept to itself, and the V004 migration rating the results
already stored."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import psycopg
import pytest
from openskill.models import PlackettLuce

from storage import Database, GameResult, SeatResult, database_path
from storage.postgres import PostgresConnection, migrate_postgresql
from storage.schema import apply_migration, migrations
from storage.stats import FORMER_MEMBER
from tests.storage.conftest import query

START = datetime(2026, 11, 1, 20, 0, tzinfo=timezone.utc)
GUILD, OTHER_GUILD = 100, 200


def result(
    table_id: str,
    ranks: dict[int, int],
    *,
    guild: int = GUILD,
    game: str = "foist",
    minutes: int = 0,
    ais: dict[int, int] | None = None,
) -> GameResult:
    """A finished game: user ``u`` got rank ``ranks[u]``; ``ais`` maps AI ids (negative) to their ranks."""
    seats = [
        SeatResult(i, user, f"user{user}", rank * 10, rank) for i, (user, rank) in enumerate(ranks.items())
    ]
    for ai, rank in (ais or {}).items():
        seats.append(SeatResult(len(seats), ai, f"AI {ai}", rank * 10, rank, is_ai=True))
    return GameResult(
        table_id=table_id,
        guild_id=guild,
        channel_id=7,
        game=game,
        options={"rounds": 1},
        seed=42,
        actions=[(0, "take"), (1, "pass")],
        started_at=START + timedelta(minutes=minutes),
        finished_at=START + timedelta(minutes=minutes + 20),
        seats=seats,
    )


@pytest.fixture
async def db(database_url: str):
    database = await Database.open(database_url)
    await database.set_min_rated_games(GUILD, 1)
    yield database
    await database.close()


def url_of(database: Database) -> str:
    return f"sqlite:///{database.path}" if database.path is not None else str(database.target.url)


def ratings_rows(database: Database, guild: int = GUILD) -> dict[tuple[str, int], tuple]:
    """The ``ratings`` rows of ``guild``, read over a connection of their own."""
    rows = query(
        url_of(database),
        "SELECT game, user_id, season, mu, sigma, ordinal, games, wins, placement_sum FROM ratings"
        " WHERE guild_id = ?",
        (guild,),
    )
    return {(row[0], row[1]): row[2:] for row in rows}


async def test_ratings_are_openskills_plackett_luce_numbers_with_ties_sharing_a_rank(db: Database) -> None:
    await db.record_result(result("a", {1: 1, 2: 1, 3: 2}))  # a tie for first
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 1, 2])
    rows = ratings_rows(db)
    for user, team in zip((1, 2, 3), expected, strict=True):
        _season, mu, sigma, ordinal, *_ = rows[("foist", user)]
        assert mu == pytest.approx(team[0].mu) and sigma == pytest.approx(team[0].sigma)
        assert ordinal == pytest.approx(team[0].ordinal())
    # openskill 6.2's numbers for this game, written out: tied winners gain alike, the loser drops.
    assert rows[("foist", 1)][1:3] == pytest.approx((25.717262170187357, 8.205243377397993))
    assert rows[("foist", 3)][1:3] == pytest.approx((23.565475659625285, 8.205243377397993))

    # A second game starts from the ratings the first left.
    await db.record_result(result("b", {3: 1, 1: 2}, minutes=30))
    second = model.rate(
        [
            [model.create_rating([expected[2][0].mu, expected[2][0].sigma])],
            [model.create_rating([expected[0][0].mu, expected[0][0].sigma])],
        ],
        ranks=[1, 2],
    )
    rows = ratings_rows(db)
    assert rows[("foist", 3)][1] == pytest.approx(second[0][0].mu)
    assert rows[("foist", 1)][1] == pytest.approx(second[1][0].mu)
    assert rows[("foist", 1)][4:] == (2, 1, 3)  # games, wins, sum of placements
    assert rows[("foist", 2)][4:] == (1, 1, 1)


@pytest.mark.parametrize(
    "ranks",
    [[1, 2], [1, 1], [1, 2, 3, 4], [1, 2, 2, 4], [2, 1, 1, 3, 5], [1, 1, 1, 1], [3, 1, 2]],
    ids=lambda ranks: "-".join(map(str, ranks)),
)
async def test_every_rank_pattern_gives_openskills_numbers(db: Database, ranks: list[int]) -> None:
    # Two games in a row, so the second starts from ratings other than the default.
    model = PlackettLuce()
    users = list(range(1, len(ranks) + 1))
    ratings = {user: model.rating() for user in users}
    for number, order in enumerate((ranks, ranks[::-1])):
        await db.record_result(
            result(f"g{number}", dict(zip(users, order, strict=True)), minutes=30 * number)
        )
        rated = model.rate([[ratings[user]] for user in users], ranks=order)
        ratings = {user: team[0] for user, team in zip(users, rated, strict=True)}
    rows = ratings_rows(db)
    for user in users:
        _season, mu, sigma, ordinal, *_ = rows[("foist", user)]
        assert (mu, sigma, ordinal) == pytest.approx(
            (ratings[user].mu, ratings[user].sigma, ratings[user].ordinal()), rel=1e-12
        )


async def test_the_leaderboard_ranks_by_ordinal_among_players_with_enough_games(db: Database) -> None:
    for minute in range(3):
        await db.record_result(result(f"g{minute}", {1: 1, 2: 2, 3: 3}, minutes=minute * 30))
    await db.record_result(result("once", {4: 1, 3: 2}, minutes=200))
    board = await db.rating_leaderboard(GUILD, "foist")
    # One win in one game (4) ranks below a steady second place (2): the ordinal is conservative.
    assert [row.user_id for row in board.rows] == [1, 2, 4, 3]
    assert board.rows[0].games == 3 and board.rows[0].wins == 3
    assert [row.ordinal for row in board.rows] == sorted((row.ordinal for row in board.rows), reverse=True)

    await db.set_min_rated_games(GUILD, 2)
    board = await db.rating_leaderboard(GUILD, "foist")
    assert [row.user_id for row in board.rows] == [1, 2, 3] and board.min_games == 2
    assert [(row.user_id, row.games) for row in board.provisional] == [(4, 1)]  # below, though rated higher
    await db.set_min_rated_games(GUILD, None)
    board = await db.rating_leaderboard(GUILD, "foist")  # default 5: nobody established yet
    assert board.rows == [] and [row.user_id for row in board.provisional] == [1, 2, 4, 3]
    assert [row.games for row in board.provisional] == [3, 3, 1, 4]
    assert len((await db.rating_leaderboard(GUILD, "foist", limit=2)).provisional) == 2


async def test_provisional_players_fill_the_board_only_below_the_established_ones(db: Database) -> None:
    await db.set_min_rated_games(GUILD, 2)
    for minute in range(2):  # 1 and 2 established in Foist; 1 provisional in Minimize
        await db.record_result(result(f"f{minute}", {1: 1, 2: 2}, minutes=minute * 30))
    await db.record_result(result("m", {1: 1, 3: 2, 4: 3}, game="minimize", minutes=100))
    await db.record_result(result("d", {5: 1, 3: 2}, game="declare", minutes=130))
    board = await db.rating_leaderboard(GUILD)
    # Each player's best game: 1 and 2 by their Foist; 3, 4 and 5 have no game with 2 and are provisional
    # (3 in their better rated game); 1's provisional Minimize never shows.
    assert [(row.user_id, row.game) for row in board.rows] == [(1, "foist"), (2, "foist")]
    # (3's second place of three in Minimize rates higher than their second of two in Declare.)
    provisional = [(row.user_id, row.game, row.games) for row in board.provisional]
    assert provisional == [(5, "declare", 1), (3, "minimize", 1), (4, "minimize", 1)]
    ordinals = [row.ordinal for row in board.provisional]
    assert ordinals == sorted(ordinals, reverse=True) and ordinals[0] > board.rows[-1].ordinal
    full = await db.rating_leaderboard(GUILD, limit=2)  # a full board lists no provisional player
    assert [row.user_id for row in full.rows] == [1, 2] and full.provisional == []
    partly = await db.rating_leaderboard(GUILD, limit=3)
    assert len(partly.rows) == 2 and partly.provisional == board.provisional[:1]
    minimize = await db.rating_leaderboard(GUILD, "minimize")
    assert minimize.rows == [] and [row.user_id for row in minimize.provisional] == [1, 3, 4]


async def test_stats_count_the_rated_games_before_the_leaderboard(db: Database) -> None:
    await db.set_min_rated_games(GUILD, 3)
    await db.record_result(result("f", {1: 1, 2: 2}))
    await db.record_result(result("m1", {1: 1, 2: 2}, game="minimize", minutes=30))
    await db.record_result(result("m2", {2: 1, 1: 2}, game="minimize", minutes=60))
    stats = await db.player_stats(GUILD, 1)
    assert stats.min_games == 3 and stats.games_to_leaderboard == (1, "minimize")  # the closest game
    assert (await db.player_stats(GUILD, 1, "foist")).games_to_leaderboard == (2, "foist")
    await db.record_result(result("m3", {2: 1, 1: 2}, game="minimize", minutes=90))
    assert (await db.player_stats(GUILD, 1)).games_to_leaderboard is None  # established in Minimize
    assert (await db.player_stats(GUILD, 1, "foist")).games_to_leaderboard == (2, "foist")
    assert (await db.player_stats(GUILD, 9)).games_to_leaderboard is None  # no rated game at all


async def test_without_a_game_each_player_shows_their_best_game(db: Database) -> None:
    await db.record_result(result("f1", {1: 1, 2: 2}))
    await db.record_result(result("f2", {1: 1, 2: 2}, minutes=30))
    await db.record_result(result("m1", {2: 1, 1: 2}, game="minimize", minutes=60))
    board = await db.rating_leaderboard(GUILD)
    assert [(row.user_id, row.game) for row in board.rows] == [(1, "foist"), (2, "minimize")]
    assert len((await db.rating_leaderboard(GUILD, limit=1)).rows) == 1


async def test_ais_are_not_rated_and_humans_are_ranked_among_themselves(db: Database) -> None:
    await db.record_result(result("ai", {1: 2, 2: 3}, ais={-1: 1}))
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[2, 3])
    rows = ratings_rows(db)
    assert set(rows) == {("foist", 1), ("foist", 2)}
    assert rows[("foist", 1)][1] == pytest.approx(expected[0][0].mu)
    assert rows[("foist", 1)][4:] == (1, 0, 2)  # counted: one game, no win, placed 2nd

    # One human among AIs: the game counts, the rating does not move.
    await db.record_result(result("solo", {3: 1}, ais={-1: 2, -2: 3}, minutes=30))
    solo = ratings_rows(db)[("foist", 3)]
    assert solo[1:3] == pytest.approx((model.rating().mu, model.rating().sigma)) and solo[4:] == (1, 1, 1)


async def test_the_ai_setting_applies_to_games_recorded_while_it_is_set(db: Database) -> None:
    await db.set_guild_counts_ai_games(GUILD, False)
    await db.record_result(result("ai", {1: 1, 2: 2}, ais={-1: 3}))
    assert ratings_rows(db) == {}
    history = await db.player_history(GUILD, 1)
    assert [(entry.rank, entry.seats, entry.counted) for entry in history] == [(1, 3, False)]
    await db.set_guild_counts_ai_games(GUILD, True)  # later games count; the stored one stays uncounted
    await db.record_result(result("ai2", {1: 1, 2: 2}, ais={-1: 3}, minutes=30))
    assert ratings_rows(db)[("foist", 1)][4:] == (1, 1, 1)
    stats = await db.player_stats(GUILD, 1)
    assert stats.games == 1 and stats.wins == 1


async def test_stats_and_history(db: Database) -> None:
    await db.record_result(result("f1", {1: 1, 2: 2, 3: 3}))
    await db.record_result(result("f2", {1: 3, 2: 1, 3: 2}, minutes=30))
    await db.record_result(result("m1", {1: 1, 2: 2}, game="minimize", minutes=60))
    stats = await db.player_stats(GUILD, 1)
    assert (stats.games, stats.wins) == (3, 2)
    assert stats.average_placement == pytest.approx((1 + 3 + 1) / 3)
    assert stats.best is not None and stats.chart_game == stats.best.game
    assert stats.form == [(1, 2), (3, 3), (1, 3)]
    foist = await db.player_stats(GUILD, 1, "foist")
    assert [s.game for s in foist.standings] == ["foist"] and len(foist.chart) == 2
    assert foist.chart[-1] == pytest.approx(foist.standings[0].ordinal)
    history = await db.player_history(GUILD, 1, limit=2)
    assert [(entry.game, entry.rank) for entry in history] == [("minimize", 1), ("foist", 3)]
    assert history[0].finished_at == START + timedelta(minutes=80)
    nobody = await db.player_stats(GUILD, 99)
    assert nobody.games == 0 and nobody.best is None and nobody.chart == []


async def test_a_servers_data_never_shows_in_another(db: Database) -> None:
    await db.record_result(result("here", {1: 1, 2: 2}))
    await db.record_result(result("there", {1: 2, 2: 1}, guild=OTHER_GUILD))
    await db.set_min_rated_games(OTHER_GUILD, 1)
    here, there = await db.rating_leaderboard(GUILD), await db.rating_leaderboard(OTHER_GUILD)
    assert [row.user_id for row in here.rows] == [1, 2] and [row.user_id for row in there.rows] == [2, 1]
    assert (await db.player_stats(GUILD, 1)).wins == 1 and (await db.player_stats(OTHER_GUILD, 1)).wins == 0
    assert [entry.rank for entry in await db.player_history(OTHER_GUILD, 1)] == [2]
    game_id = (await db.player_history(GUILD, 1))[0].game_id
    assert await db.finished_game(OTHER_GUILD, game_id) is None
    stored = await db.finished_game(GUILD, game_id)
    assert stored is not None and stored.seed == 42 and stored.options == {"rounds": 1}
    assert stored.actions == [(0, "take"), (1, "pass")] and [s.user_id for s in stored.seats] == [1, 2]


async def test_a_new_season_archives_the_ratings(db: Database) -> None:
    await db.record_result(result("s1", {1: 1, 2: 2}))
    before = await db.rating_leaderboard(GUILD)
    assert await db.start_season(GUILD) == 2 and await db.current_season(GUILD) == 2
    assert (await db.rating_leaderboard(GUILD)).rows == []
    archived = await db.rating_leaderboard(GUILD, season=1)
    assert archived.rows == before.rows and not archived.current
    await db.record_result(result("s2", {2: 1, 1: 2}, minutes=30))
    now = await db.rating_leaderboard(GUILD)
    assert now.season == 2 and [row.user_id for row in now.rows] == [2, 1] and now.rows[0].games == 1
    assert (await db.player_stats(GUILD, 2)).games == 1  # stats are this season's
    assert len(await db.player_history(GUILD, 2)) == 2  # history is every season's


async def test_forgetting_a_member_keeps_the_others_results(db: Database) -> None:
    await db.record_result(result("a", {1: 1, 2: 2, 3: 3}))
    await db.record_result(result("b", {1: 1, 2: 2}, guild=OTHER_GUILD))
    others = {key: value for key, value in ratings_rows(db).items() if key[1] != 2}
    assert await db.forget_member(GUILD, 2) == 1
    assert ratings_rows(db) == others
    assert await db.player_history(GUILD, 2) == [] and (await db.player_stats(GUILD, 2)).games == 0
    game_id = (await db.player_history(GUILD, 1))[0].game_id
    stored = await db.finished_game(GUILD, game_id)
    assert stored is not None
    assert [(s.user_id, s.display_name) for s in stored.seats] == [
        (1, "user1"),
        (0, FORMER_MEMBER),
        (3, "user3"),
    ]
    assert [row.user_id for row in (await db.rating_leaderboard(GUILD)).rows] == [1, 3]
    assert len(await db.player_history(OTHER_GUILD, 2)) == 1  # another server's data is its own


# -- the migration ------------------------------------------------------------------------------

GAMES_PLAYED = [  # (table, guild, game, ranks, AIs, minutes): stored in this order, played in another
    ("t1", GUILD, "foist", {1: 1, 2: 2, 3: 3}, None, 50),
    ("t2", GUILD, "foist", {1: 2, 2: 1, 3: 2}, None, 10),
    ("t3", GUILD, "minimize", {3: 1, 4: 2}, None, 30),
    ("t4", OTHER_GUILD, "foist", {1: 1, 5: 2}, None, 20),
    ("t5", GUILD, "foist", {4: 1, 1: 2}, {-1: 3}, 40),
    ("t6", GUILD, "foist", {2: 1, 4: 2, 1: 3}, None, 0),
    ("t7", OTHER_GUILD, "foist", {5: 1, 1: 2}, {-2: 3}, 60),  # that server does not count games with AIs
    ("t8", OTHER_GUILD, "foist", {5: 1, 1: 2}, None, 70),
]


def store_at_v003(url: str) -> None:
    """A database as the bot before V004 wrote it: migrations 1-3 and the results, by plain SQL."""
    if url.startswith("sqlite:"):
        path = database_path(url)
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = sqlite3.connect(path, isolation_level=None)
        for version, _name, sql in migrations()[:3]:
            apply_migration(raw, version, sql)
    else:
        raw = PostgresConnection(psycopg.connect(url, autocommit=True))
        migrate_postgresql(raw, migrations("postgresql")[:3])
    raw.execute("INSERT INTO guild_settings (guild_id, count_ai_games) VALUES (?, 0)", (OTHER_GUILD,))
    for table, guild, game, ranks, ais, minutes in GAMES_PLAYED:
        r = result(table, ranks, guild=guild, game=game, minutes=minutes, ais=ais)
        (game_id,) = raw.execute(
            "INSERT INTO games (table_id, guild_id, channel_id, game, options, seed, actions, started_at,"
            " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (table, guild, 7, game, "{}", 1, "[]", r.started_at.isoformat(), r.finished_at.isoformat()),
        ).fetchone()
        raw.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, display_name, points, rank, is_ai)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.display_name, s.points, s.rank, int(s.is_ai)) for s in r.seats],
        )
    (raw.raw if isinstance(raw, PostgresConnection) else raw).close()


async def test_the_migration_rates_stored_results_as_if_rated_one_by_one(
    database_url: str, tmp_path: Path
) -> None:
    store_at_v003(database_url)
    migrated = await Database.open(database_url)
    live = await Database.open(tmp_path / "live.db")
    await live.set_guild_counts_ai_games(OTHER_GUILD, False)
    for table, guild, game, ranks, ais, minutes in sorted(GAMES_PLAYED, key=lambda g: g[5]):
        await live.record_result(result(table, ranks, guild=guild, game=game, minutes=minutes, ais=ais))
    try:
        for database in (migrated, live):
            for guild in (GUILD, OTHER_GUILD):
                await database.set_min_rated_games(guild, 1)
        for guild in (GUILD, OTHER_GUILD):
            for game in (None, "foist", "minimize"):
                expected = await live.rating_leaderboard(guild, game)
                assert await migrated.rating_leaderboard(guild, game) == expected
                assert expected.rows or (guild, game) == (OTHER_GUILD, "minimize")
            for user in (1, 2, 3, 4, 5):
                assert await migrated.player_stats(guild, user) == await live.player_stats(guild, user)
        assert ratings_rows(migrated) == ratings_rows(live)
        assert ratings_rows(migrated, OTHER_GUILD) == ratings_rows(live, OTHER_GUILD)
        assert ratings_rows(live, OTHER_GUILD)[("foist", 5)][4:] == (2, 1, 3)  # t4, t8; not t7
        for database in (migrated, live):
            history = await database.player_history(OTHER_GUILD, 5)
            assert [(entry.seats, entry.counted) for entry in history] == [(2, True), (3, False), (2, True)]
    finally:
        await migrated.close()
        await live.close()
