"""Game nights (``engine.nights``, ``docs/rules/nights.md``): table sizes, points per place, standings and
their tie-breaks, the first round balanced by rating, a Foist night of 9 players re-seated by standings,
a knockout to its final, casual nights, leavers and late arrivals. The properties are in
``test_nights_properties.py``."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from engine import GAMES
from engine.nights import (
    DEFAULT_SCORING,
    Format,
    NightRules,
    Player,
    RoundResult,
    Scoring,
    Seating,
    Table,
    TableResult,
    TableSizes,
    is_over,
    match_quality,
    meetings,
    placement_points,
    repeats,
    seat_by_rating,
    seat_round,
    seat_snake,
    standings,
    swiss_seating,
    table_sizes,
)
from engine.nights.rating import MODEL, table_quality
from engine.nights.seat import strongest_first

FOIST = GAMES["foist"]


def ranked(seating: Seating, order_of_places) -> RoundResult:
    """Each table's places given by ``order_of_places(players)``: the players best first (AI seats
    after them)."""
    results = []
    for table in seating.tables:
        best_first = order_of_places(table.players)
        ranks = tuple(best_first.index(p) + 1 for p in table.players) + tuple(
            range(len(table.players) + 1, table.seats + 1)
        )
        results.append(TableResult.of(table, ranks))
    return RoundResult(tuple(results))


# -- table sizes -------------------------------------------------------------------------------------------


def test_nine_foist_players_make_a_table_of_five_and_one_of_four() -> None:
    assert table_sizes(9, FOIST.min_seats, FOIST.max_seats, False) == TableSizes((5, 4), (0, 0))
    assert table_sizes(9, 3, 7, False, target=3) == TableSizes((3, 3, 3), (0, 0, 0))
    assert table_sizes(200, 3, 7, False).players == (7,) * 26 + (6,) * 3


def test_a_short_table_is_filled_with_ai_seats_or_its_last_players_wait() -> None:
    assert table_sizes(2, 3, 7, True) == TableSizes((2,), (1,))
    assert table_sizes(6, 4, 4, True) == TableSizes((3, 3), (1, 1))
    assert table_sizes(6, 4, 4, False) == TableSizes((4,), (0,), waiting=2)
    with pytest.raises(ValueError, match="2 players cannot fill a table of at least 3"):
        table_sizes(2, 3, 7, False)
    with pytest.raises(ValueError, match="no range"):
        table_sizes(5, 4, 3, True)


# -- points per place --------------------------------------------------------------------------------------


def test_places_are_scaled_to_the_table_and_ties_share_the_places_they_cover() -> None:
    assert placement_points((1, 2, 3, 4)) == (60, 40, 20, 0)
    assert placement_points((3, 1, 2)) == (0, 60, 30)
    assert placement_points((1, 2, 3, 4, 5)) == (60, 45, 30, 15, 0)
    assert placement_points((1, 1, 3, 4)) == (50, 50, 20, 0)
    assert placement_points((1, 2, 2, 2, 5)) == (60, 30, 30, 30, 0)
    assert placement_points((1, 1)) == (30, 30)
    assert placement_points((1, 2, 2), Scoring(fixed=(5, 3, 1))) == (5, 2, 2)
    assert placement_points((1, 2, 3, 4), Scoring(fixed=(3, 1))) == (3, 1, 0, 0)
    assert placement_points((1, 1, 1), Scoring(fixed=(3, 1))) == (Fraction(4, 3),) * 3


def test_a_ranking_that_cannot_be_is_refused() -> None:
    for ranks in ((1, 1, 2), (2, 3), (0, 1)):
        with pytest.raises(ValueError, match="not a ranking"):
            placement_points(ranks)
    with pytest.raises(ValueError):
        Scoring(fixed=(1, 3))


# -- standings and tie-breaks ------------------------------------------------------------------------------


def test_tie_breaks_wins_then_opponents_points_then_rating_then_sign_up_order() -> None:
    players = [Player(1), Player(2), Player(3), Player(4), Player(5, mu=30.0), Player(6), Player(7)]
    rounds = [
        RoundResult((TableResult((1, 2, 3), (1, 2, 3)), TableResult((4, 5, 6, 7), (1, 2, 3, 4)))),
        RoundResult((TableResult((2, 3, 1), (1, 2, 3)), TableResult((6, 7, 4, 5), (1, 2, 3, 4)))),
    ]
    lines = {line.player: line for line in standings(players, rounds)}
    # 1 won, then was last: 60 and a win; 3 was last, then second: 30 and no win; 2: 30 + 60.
    assert [(lines[p].points, lines[p].wins) for p in (1, 2, 3)] == [(60, 1), (90, 1), (30, 0)]
    # 4 and 6: 80 points and a win each, and the same opponents twice (5 and 7: 40 each; each other: 80).
    assert (lines[4].points, lines[6].points, lines[4].wins, lines[6].wins) == (80, 80, 1, 1)
    assert lines[4].opponents_points == lines[6].opponents_points == 2 * (40 + 40 + 80)
    assert lines[4].place < lines[6].place  # everything equal: who signed up first
    assert lines[7].points == lines[5].points == 40 and lines[5].place < lines[7].place  # 5's rating
    heavier = [Player(6), Player(4, mu=20.0), *[p for p in players if p.id not in (4, 6)]]
    again = {line.player: line.place for line in standings(heavier, rounds)}
    assert again[6] < again[4]  # 4 rated lower now
    assert sum(line.points for line in lines.values()) == 2 * (60 + 30 + 0) + 2 * (60 + 40 + 20 + 0)
    assert [line.place for line in standings(players, rounds)] == list(range(1, 8))


def test_the_same_points_and_wins_go_to_whoever_met_stronger_opponents() -> None:
    players = [Player(1), Player(2), Player(3), Player(4)]
    rounds = [
        RoundResult((TableResult((1, 2), (1, 2)), TableResult((3, 4), (1, 2)))),
        RoundResult((TableResult((1, 3), (1, 2)), TableResult((2, 4), (2, 1)))),
    ]
    lines = {line.player: line for line in standings(players, rounds)}
    assert [(lines[p].points, lines[p].wins) for p in (3, 4)] == [(60, 1), (60, 1)]
    assert (lines[3].opponents_points, lines[4].opponents_points) == (120 + 60, 60 + 0)
    assert [line.player for line in standings(players, rounds)] == [1, 3, 4, 2]


def test_standings_refuse_a_player_who_did_not_sign_up() -> None:
    with pytest.raises(ValueError, match="did not sign up"):
        standings([Player(1), Player(2)], [RoundResult((TableResult((1, 2, 3), (1, 2, 3)),))])


def test_ai_seats_take_their_places_and_score_for_nobody() -> None:
    result = RoundResult((TableResult.of(Table((1, 2), 2), (2, 4, 1, 3)),))
    lines = {line.player: line for line in standings([Player(1), Player(2)], [result])}
    assert (lines[1].points, lines[2].points) == (40, 0)
    assert lines[1].opponents_points == 0 and lines[1].wins == 0


# -- the first round ---------------------------------------------------------------------------------------


def test_match_quality_is_openskill_s_predict_draw() -> None:
    players = [Player(1, 31.0, 4.0), Player(2, 22.0, 7.5), Player(3), Player(4, 18.0, 2.0)]
    teams = [[MODEL.create_rating([p.mu, p.sigma])] for p in players]
    assert match_quality(players) == pytest.approx(MODEL.predict_draw(teams), rel=1e-12)
    assert table_quality(players) == pytest.approx(MODEL.predict_draw(teams), rel=1e-12)


def test_the_four_strongest_never_sit_at_one_table_of_four() -> None:
    for count in (8, 12, 16, 20):
        players = [Player(100 + i, mu=40.0 - i, sigma=2.0) for i in range(count)]
        sizes = table_sizes(count, 3, 7, False, target=4)
        assert set(sizes.seats) == {4}
        for seed in range(10):
            seating = seat_by_rating(players, sizes, seed)
            tables = {seating.table_of(p.id) for p in players[:4]}
            assert len(tables) == min(4, len(sizes.players)), (count, seed, seating)


def test_the_first_round_swaps_raise_its_least_even_table_above_the_plain_draft() -> None:
    players = [Player(i, mu=25.0 + (i % 7) * 2.5 - (i % 3) * 3.0, sigma=3.0 + i % 4) for i in range(24)]
    sizes = table_sizes(24, 3, 7, False, target=4)
    seating = seat_by_rating(players, sizes, 7)
    by_id = {p.id: p for p in players}
    drafted = seat_snake([p.id for p in strongest_first(players, 7)], sizes)

    def least_even(seated: Seating) -> float:
        return min(match_quality([by_id[p] for p in t.players]) for t in seated.tables)

    assert least_even(seating) > least_even(drafted)
    # The swaps stay within a tier of the draft: each table keeps one of the six strongest.
    strongest = {p.id for p in strongest_first(players, 7)[:6]}
    assert all(len(strongest & set(t.players)) == 1 for t in seating.tables)
    assert seating == seat_by_rating(players, sizes, 7)


# -- a Foist night of 9 players, re-seated by standings ----------------------------------------------------


def test_a_foist_night_of_nine_players_over_three_rounds_re_seated_by_standings() -> None:
    players = [Player(i, mu=20.0 + i, sigma=3.0) for i in range(1, 10)]
    rules = NightRules(FOIST.min_seats, FOIST.max_seats, Format.SWISS, rounds=3, target=4)
    played: list[RoundResult] = []

    first = seat_round(rules, players, played, seed=11)
    assert [t.seats for t in first.tables] == [5, 4] and first.waiting == ()
    assert sorted(first.seated) == list(range(1, 10))
    assert {first.table_of(9), first.table_of(8)} == {0, 1}  # the two strongest apart
    played.append(ranked(first, lambda seated: sorted(seated)))  # lowest id first

    after_one = standings(players, played)
    assert [line.points for line in after_one][:2] == [60, 60]  # the two table winners
    second = seat_round(rules, players, played, seed=11)
    assert sorted(second.seated) == list(range(1, 10))
    # Who met before is kept apart as far as any seating can.
    met = meetings(played)
    fewest = min(
        repeats(Seating((Table(top), Table(tuple(p for p in range(1, 10) if p not in top)))), met)
        for top in itertools.combinations(range(1, 10), 5)
    )
    assert repeats(second, met) == fewest
    # 9 leaves during the second round: an AI finishes the seat, and 9 is in no later round.
    second_result = ranked(second, lambda seated: sorted(seated, reverse=True))
    played.append(RoundResult(second_result.tables, left=frozenset({9})))

    third = seat_round(rules, players, played, seed=11)
    assert 9 not in third.seated and sorted(third.seated) == list(range(1, 9))
    assert [t.seats for t in third.tables] == [4, 4]
    played.append(ranked(third, lambda seated: sorted(seated, key=lambda p: (p % 3, p))))
    assert is_over(rules, played)
    with pytest.raises(ValueError, match="over"):
        seat_round(rules, players, played, seed=11)

    final = standings(players, played)
    assert [line.place for line in final] == list(range(1, 10))
    assert sum(line.points for line in final) == 2 * (60 + 45 + 30 + 15) + 2 * (60 + 40 + 20) + 2 * 120
    nine = next(line for line in final if line.player == 9)
    assert nine.left and nine.rounds == 2
    keys = [(-line.points, -line.wins, -line.opponents_points, -line.rating, line.order) for line in final]
    assert keys == sorted(keys)
    assert seat_round(rules, players, played[:2], seed=11) == third  # the same night, the same seating


def test_swiss_seats_by_standings_when_nobody_has_met() -> None:
    seating = swiss_seating(list(range(1, 13)), TableSizes((4, 4, 4), (0, 0, 0)), set())
    assert [t.players for t in seating.tables] == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]


# -- knockout and casual nights ----------------------------------------------------------------------------


def test_a_knockout_sends_each_table_s_winner_through_until_one_final_table() -> None:
    players = [Player(i, mu=25.0 + (i * 7) % 11, sigma=4.0) for i in range(1, 36)]
    rules = NightRules(FOIST.min_seats, FOIST.max_seats, Format.KNOCKOUT)
    played: list[RoundResult] = []
    counts = []
    while not is_over(rules, played):
        seating = seat_round(rules, players, played, seed=3)
        counts.append([t.seats for t in seating.tables])
        if played:
            winners = {t.players[t.ranks.index(1)] for t in played[-1].tables}
            assert set(seating.seated) == winners
        played.append(ranked(seating, lambda seated: sorted(seated, reverse=True)))
    assert counts == [[7, 7, 7, 7, 7], [5]]
    assert standings(players, played)[0].player == 35  # the highest id won every table it sat at
    with pytest.raises(ValueError, match="over"):
        seat_round(rules, players, played, seed=3)


def test_a_knockout_that_would_knock_nobody_out_is_refused() -> None:
    players = [Player(i) for i in range(1, 7)]
    rules = NightRules(3, 3, Format.KNOCKOUT, advance=3)
    first = seat_round(rules, players, [], seed=1)
    with pytest.raises(ValueError, match="nobody is knocked out"):
        seat_round(rules, players, [ranked(first, sorted)], seed=1)


def test_a_casual_night_seats_every_round_at_random_from_its_seed() -> None:
    players = [Player(i) for i in range(1, 17)]
    rules = NightRules(3, 5, Format.RANDOM, rounds=2, target=4)
    first = seat_round(rules, players, [], seed=5)
    assert first == seat_round(rules, players, [], seed=5)
    assert {seat_round(rules, players, [], seed=s) for s in range(6)} != {first}
    second = seat_round(rules, players, [ranked(first, sorted)], seed=5)
    assert sorted(second.seated) == list(range(1, 17)) and second != first


# -- late arrivals, waiting, absence -----------------------------------------------------------------------


def test_a_late_arrival_joins_the_next_round_of_a_swiss_night_but_not_a_knockout() -> None:
    early = [Player(i) for i in range(1, 7)]
    late = [*early, Player(7)]
    swiss = NightRules(3, 4)
    first = seat_round(swiss, early, [], seed=2)
    played = [ranked(first, sorted)]
    assert 7 in seat_round(swiss, late, played, seed=2).seated
    assert next(line for line in standings(late, played) if line.player == 7).points == 0
    knockout = NightRules(3, 4, Format.KNOCKOUT)
    assert 7 not in seat_round(knockout, late, played, seed=2).seated


def test_without_ai_seats_whoever_sat_out_plays_first_next_round() -> None:
    players = [Player(i) for i in range(1, 6)]
    rules = NightRules(4, 4, ai_fill=False)
    first = seat_round(rules, players, [], seed=1)
    assert first.waiting == (5,)
    second = seat_round(rules, players, [ranked(first, sorted)], seed=1)
    assert 5 in second.seated and len(second.waiting) == 1
    absent = seat_round(rules, players, [ranked(first, sorted)], seed=1, absent={5})
    assert 5 not in absent.seated and 5 not in absent.waiting and absent.waiting == ()


def test_too_few_players_and_no_ai_fill_cannot_be_seated() -> None:
    with pytest.raises(ValueError, match="cannot fill"):
        seat_round(NightRules(3, 7, ai_fill=False), [Player(1), Player(2)], [], seed=0)
    alone = seat_round(NightRules(3, 7), [Player(1), Player(2)], [], seed=0)
    assert alone.tables == (Table((2, 1), 1),) or alone.tables == (Table((1, 2), 1),)
    assert DEFAULT_SCORING.top == 60


def test_in_a_knockout_the_next_at_the_table_goes_through_for_a_winner_who_left() -> None:
    players = [Player(i, mu=20.0 + i, sigma=3.0) for i in range(1, 15)]
    rules = NightRules(FOIST.min_seats, FOIST.max_seats, Format.KNOCKOUT, advance=2)
    first = seat_round(rules, players, [], seed=4)
    assert [t.seats for t in first.tables] == [7, 7]
    result = ranked(first, lambda seated: sorted(seated, reverse=True))
    winner = max(first.tables[0].players)
    second = seat_round(rules, players, [RoundResult(result.tables, left=frozenset({winner}))], seed=4)
    through = {p for t in first.tables for p in sorted(t.players, reverse=True)[:3] if p != winner}
    expected = {
        p for t in first.tables for p in sorted((q for q in t.players if q != winner), reverse=True)[:2]
    }
    assert set(second.seated) == expected and expected <= through and winner not in second.seated
    assert len(second.tables) == 1  # four players through: the final
