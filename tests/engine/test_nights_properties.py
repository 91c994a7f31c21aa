"""Properties of game nights (``engine.nights``) on hypothesis' nights: table sizes within the range and
as even as can be; every present player seated exactly once a round, nobody who left; a Swiss round with
as few repeated meetings as any seating (brute force on small nights); standings that add up to the
points the tables handed out; the same seed, the same night."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES
from engine.nights import (
    DEFAULT_SCORING,
    Format,
    NightRules,
    Player,
    RoundResult,
    Seating,
    Table,
    TableResult,
    TableSizes,
    is_over,
    placement_points,
    repeats,
    seat_by_rating,
    seat_round,
    standings,
    swiss_seating,
    table_sizes,
)
from engine.nights.rating import MODEL, table_quality
from engine.nights.round import EXACT_SWISS
from engine.nights.seat import strongest_first

FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RANGES = sorted({(rules.min_seats, rules.max_seats) for rules in GAMES.values()})

ratings = st.builds(
    lambda mu, sigma: (mu, sigma),
    st.floats(10.0, 40.0, allow_nan=False),
    st.floats(0.5, 25.0 / 3.0, allow_nan=False),
)


@st.composite
def players_of(draw, min_size: int = 1, max_size: int = 40) -> list[Player]:
    rated = draw(st.lists(ratings, min_size=min_size, max_size=max_size))
    return [Player(1000 + i, mu, sigma) for i, (mu, sigma) in enumerate(rated)]


@st.composite
def random_ranks(draw, seats: int) -> tuple[int, ...]:
    """A competition ranking of ``seats``: scores drawn from a few values, so ties happen."""
    scores = draw(st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
    return tuple(1 + sum(other > score for other in scores) for score in scores)


@FEW
@given(
    players=st.integers(0, 80),
    seat_range=st.sampled_from([*RANGES, (4, 4), (1, 3), (2, 2), (5, 9)]),
    ai_fill=st.booleans(),
    target=st.none() | st.integers(2, 8),
)
def test_table_sizes_are_within_the_range_and_as_even_as_possible(
    players, seat_range, ai_fill, target
) -> None:
    low, high = seat_range
    fits = any(k * low <= players <= k * high for k in range(1, players + 1))
    try:
        sizes = table_sizes(players, low, high, ai_fill, target=target)
    except ValueError:
        assert players == 0 or (players < low and not ai_fill)
        return
    assert all(low <= seats <= high for seats in sizes.seats)
    assert max(sizes.players) - min(sizes.players) <= 1
    assert sizes.seated + sizes.waiting == players
    assert all(ai == max(0, low - count) for count, ai in zip(sizes.players, sizes.ai_seats, strict=True))
    if fits:
        assert sizes.ai_seats == (0,) * len(sizes.players) and sizes.waiting == 0
    if ai_fill:
        assert sizes.waiting == 0
    else:
        assert sum(sizes.ai_seats) == 0
        fewer_wait = [
            m
            for m in range(sizes.seated + 1, players + 1)
            if any(k * low <= m <= k * high for k in range(1, m + 1))
        ]
        assert fewer_wait == []


@FEW
@given(ranks=st.integers(1, 10).flatmap(random_ranks))
def test_ties_share_and_keep_the_table_s_total(ranks) -> None:
    points = placement_points(ranks)
    assert sum(points) == sum(DEFAULT_SCORING.place(p, len(ranks)) for p in range(1, len(ranks) + 1))
    for a, b in itertools.combinations(range(len(ranks)), 2):
        assert (ranks[a] < ranks[b]) == (points[a] > points[b]) or ranks[a] == ranks[b]
        assert ranks[a] != ranks[b] or points[a] == points[b]


@FEW
@given(players=players_of(min_size=2, max_size=8))
def test_a_table_s_quality_is_openskill_s_predict_draw(players) -> None:
    teams = [[MODEL.create_rating([p.mu, p.sigma])] for p in players]
    assert abs(table_quality(players) - MODEL.predict_draw(teams)) < 1e-12


@FEW
@given(
    players=players_of(min_size=1, max_size=60), seed=st.integers(0, 2**32), target=st.sampled_from([None, 4])
)
def test_the_first_round_seats_everyone_once_and_spreads_the_strongest(players, seed, target) -> None:
    sizes = table_sizes(len(players), 3, 7, True, target=target)
    seating = seat_by_rating(players, sizes, seed)
    assert sorted(seating.seated) == sorted(p.id for p in players)
    assert [t.seats for t in seating.tables] == list(sizes.seats)
    # One of the strongest T at each of the T tables: with tables of 4, never the four strongest together.
    strongest = [p.id for p in strongest_first(players, seed)[: len(seating.tables)]]
    assert len({seating.table_of(p) for p in strongest}) == len(strongest)
    assert seating == seat_by_rating(players, sizes, seed)


@st.composite
def small_swiss(draw):
    count = draw(st.integers(2, EXACT_SWISS - 1))
    low = draw(st.integers(2, 3))
    high = draw(st.integers(low, 5))
    sizes = table_sizes(count, low, high, True)
    pairs = list(itertools.combinations(range(count), 2))
    met = draw(st.sets(st.sampled_from(pairs))) if pairs else set()
    return count, sizes, met


def _moved(seating: Seating, capacities: tuple[int, ...]) -> int:
    """How far players sit from their table by standings (player ``i`` is ``i``-th in the standings)."""
    natural = [t for t, count in enumerate(capacities) for _ in range(count)]
    return sum(abs(t - natural[p]) for t, table in enumerate(seating.tables) for p in table.players)


def _best_by_brute_force(count: int, capacities: tuple[int, ...], met) -> tuple[int, int]:
    """The fewest repeated pairs, then the least moving, over every way to seat ``count`` players at tables
    of ``capacities``."""
    best = None

    def place(rest: tuple[int, ...], tables: list[tuple[int, ...]]) -> None:
        nonlocal best
        if len(tables) == len(capacities):
            seating = Seating(tuple(Table(t) for t in tables))
            found = (repeats(seating, met), _moved(seating, capacities))
            best = found if best is None else min(best, found)
            return
        for chosen in itertools.combinations(rest, capacities[len(tables)]):
            place(tuple(p for p in rest if p not in chosen), [*tables, chosen])

    place(tuple(range(count)), [])
    return best


@FEW
@given(case=small_swiss())
def test_a_small_swiss_round_has_the_fewest_repeats_of_any_seating(case) -> None:
    count, sizes, met = case
    seating = swiss_seating(list(range(count)), TableSizes(sizes.players, sizes.ai_seats), met)
    assert sorted(seating.seated) == list(range(count))
    found = (repeats(seating, met), _moved(seating, sizes.players))
    assert found == _best_by_brute_force(count, sizes.players, met)
    if not met:
        assert seating.seated == tuple(range(count))  # nobody met: the standings' order


@FEW
@given(count=st.integers(EXACT_SWISS + 1, 60), seed=st.integers(0, 2**16))
def test_a_big_swiss_round_has_no_more_repeats_than_the_standings_cut(count, seed) -> None:
    rng = random.Random(seed)
    pairs = list(itertools.combinations(range(count), 2))
    met = set(rng.sample(pairs, len(pairs) // 6))
    sizes = table_sizes(count, 3, 5, True)
    seating = swiss_seating(list(range(count)), TableSizes(sizes.players, sizes.ai_seats), met)
    cut, start = [], 0
    for size in sizes.players:
        cut.append(Table(tuple(range(start, start + size))))
        start += size
    assert sorted(seating.seated) == list(range(count))
    assert repeats(seating, met) <= repeats(Seating(tuple(cut)), met)


@st.composite
def nights(draw):
    """A whole night: its rules, players, a seed, and per round the places, late arrivals, leavers and
    absentees."""
    low, high = draw(st.sampled_from(RANGES))
    form = draw(st.sampled_from(list(Format)))
    rules = NightRules(
        low,
        high,
        form,
        rounds=draw(st.integers(1, 4)),
        ai_fill=draw(st.booleans()),
        target=draw(st.none() | st.integers(low, high)),
    )
    players = draw(players_of(min_size=1, max_size=30))
    late = draw(players_of(min_size=0, max_size=4))
    late = [Player(5000 + i, p.mu, p.sigma) for i, p in enumerate(late)]
    return rules, players, late, draw(st.integers(0, 2**32)), draw(st.randoms(use_true_random=False))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(night=nights())
def test_a_night_seats_every_present_player_once_a_round_and_nobody_who_left(night) -> None:
    rules, players, late, seed, rng = night
    signed = list(players)
    played: list[RoundResult] = []
    gone: set[int] = set()
    awarded = 0
    for number in range(6):
        if is_over(rules, played):
            break
        if number == 1:
            signed.extend(late)
        absent = {p.id for p in signed if rng.random() < 0.1}
        present = [p for p in signed if p.id not in gone and p.id not in absent]
        knocked = rules.format is Format.KNOCKOUT and played
        try:
            seating = seat_round(rules, signed, played, seed, absent=absent)
        except ValueError as refused:
            if "nobody is knocked out" in str(refused) or (knocked and "Nobody" in str(refused)):
                break  # a knockout whose players going through all left or are away
            assert not present or (not rules.ai_fill and (knocked or len(present) < rules.min_seats)), refused
            break
        assert seating == seat_round(rules, signed, played, seed, absent=absent)  # the same seed
        seated = seating.seated
        assert len(seated) == len(set(seated)) and not set(seated) & set(seating.waiting)
        assert not (set(seated) | set(seating.waiting)) & (gone | absent)
        if not knocked:
            assert sorted([*seated, *seating.waiting]) == sorted(p.id for p in present)
        else:
            assert set(seated) <= {p.id for p in present} and not seating.waiting
        assert all(rules.min_seats <= t.seats <= rules.max_seats for t in seating.tables)
        counts = [len(t.players) for t in seating.tables]
        assert max(counts) - min(counts) <= 1
        assert all(t.ai_seats == max(0, rules.min_seats - len(t.players)) for t in seating.tables)
        results = []
        for table in seating.tables:
            ranks = tuple(rng.choice(range(1, table.seats + 1)) for _ in range(table.seats))
            ranks = tuple(1 + sum(other < rank for other in ranks) for rank in ranks)
            result = TableResult.of(table, ranks)
            awarded += sum(
                pt for p, pt in zip(result.seats, placement_points(ranks), strict=True) if p is not None
            )
            results.append(result)
        leaving = frozenset(p for p in seated if rng.random() < 0.1)
        gone |= leaving
        played.append(RoundResult(tuple(results), leaving))
        lines = standings(signed, played)
        assert sum(line.points for line in lines) == awarded
        assert sorted(line.player for line in lines) == sorted(p.id for p in signed)
        assert [line.place for line in lines] == list(range(1, len(signed) + 1))
        assert {line.player for line in lines if line.left} == gone
