"""The games' shared flat determinised Monte Carlo search (:mod:`engine.ai.monte_carlo`): it keeps the
candidate with the best mean over the worlds, not the best in one world; ties go to the candidate listed
first; it searches exactly ``worlds`` worlds in a fixed order of draws; its CPU guard stops it early, never
before ``min_worlds``, with the best of what it searched; and on a real game's position it finds the move a
player would."""

from __future__ import annotations

import random
import time

import pytest

from engine.ai.monte_carlo import FlatMonteCarlo, SearchResult, first_best
from engine.foist import PAY, TAKE, FoistState
from engine.foist.ai import outcome, play_out

# A tiny hand-built game: a world is one number; a candidate's playout ends in (world, candidate), worth
# PAYOFF[candidate][world] to the seat. "steady" is never best in a world but best on average.
PAYOFF = {
    "gamble": [10.0, -9.0, -9.0, 10.0, -9.0],
    "steady": [2.0, 2.0, 2.0, 2.0, 2.0],
    "lucky": [-8.0, 9.0, -5.0, -1.0, -1.0],
}


def tiny_search(
    candidates, worlds: int, log: list | None = None, payoff: dict = PAYOFF, **budget
) -> FlatMonteCarlo:
    """A search of the tiny game whose worlds are 0, 1, 2, ... in turn (``log``: every call, in order)."""

    def determinise(number: int, rng: random.Random) -> int:
        if log is not None:
            log.append(("world", number))
        return number % 5

    def playout(world: int, candidate: str, rng: random.Random) -> tuple[int, str]:
        if log is not None:
            log.append(("playout", world, candidate))
        return world, candidate

    def evaluate(end: tuple[int, str]) -> float:
        world, candidate = end
        return payoff[candidate][world]

    return FlatMonteCarlo(candidates, determinise, playout, evaluate, worlds=worlds, **budget)


def test_it_keeps_the_candidate_with_the_best_mean_over_the_worlds() -> None:
    result = tiny_search(["gamble", "lucky", "steady"], worlds=5).run(random.Random(1))
    assert result.best == "steady"
    assert result.totals == (-7.0, -6.0, 10.0)
    assert result.means == (-1.4, -1.2, 2.0)
    assert result.outcomes[0] == (10.0, -8.0, 2.0)  # world 0 alone would pick the gamble
    assert tiny_search(["gamble", "lucky", "steady"], worlds=1).run(random.Random(1)).best == "gamble"


def test_it_plays_every_candidate_in_each_world_in_order_and_searches_exactly_the_worlds_asked() -> None:
    log: list = []
    result = tiny_search(["lucky", "gamble"], worlds=3, log=log).run(random.Random(1))
    assert log == [
        ("world", 0),
        ("playout", 0, "lucky"),
        ("playout", 0, "gamble"),
        ("world", 1),
        ("playout", 1, "lucky"),
        ("playout", 1, "gamble"),
        ("world", 2),
        ("playout", 2, "lucky"),
        ("playout", 2, "gamble"),
    ]
    assert result.worlds == 3 and len(result.outcomes) == 3
    assert result.candidates == ("lucky", "gamble")


def test_ties_go_to_the_candidate_listed_first() -> None:
    assert first_best([1.0, 3.0, 3.0, 2.0]) == 1
    assert first_best([-1.0]) == 0
    result = SearchResult(("b", "a", "c"), (4.0, 4.0, 1.0), ((4.0, 4.0, 1.0),))
    assert result.best == "b"
    # Candidates with the same payoff in every world: the first listed wins, whichever it is.
    twins = {**PAYOFF, "twin": list(PAYOFF["steady"])}
    assert tiny_search(["twin", "steady"], worlds=5, payoff=twins).run(random.Random(1)).best == "twin"
    assert tiny_search(["steady", "twin"], worlds=5, payoff=twins).run(random.Random(1)).best == "steady"


def test_its_generator_is_the_decision_s_so_the_same_generator_gives_the_same_search() -> None:
    def search() -> FlatMonteCarlo:
        return FlatMonteCarlo(
            candidates=[0, 1, 2],
            determinise=lambda number, rng: rng.random(),
            playout=lambda world, candidate, rng: world * rng.random() + candidate * 0.1,
            evaluate=lambda end: end,
            worlds=6,
        )

    one, two = search().run(random.Random(7)), search().run(random.Random(7))
    assert one == two
    assert one.outcomes != search().run(random.Random(8)).outcomes
    drawn = random.Random(7)
    world = drawn.random()
    assert one.outcomes[0] == tuple(world * drawn.random() + candidate * 0.1 for candidate in (0, 1, 2))


def busy(seconds: float) -> None:
    """Use ``seconds`` of this thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_the_cpu_guard_stops_the_search_early_but_not_before_min_worlds() -> None:
    def slow_search(min_worlds: int, cpu_seconds: float | None) -> FlatMonteCarlo:
        def playout(world: int, candidate: str, rng: random.Random) -> tuple[int, str]:
            busy(0.002)
            return world, candidate

        return FlatMonteCarlo(
            candidates=["gamble", "steady"],
            determinise=lambda number, rng: number % 5,
            playout=playout,
            evaluate=lambda end: PAYOFF[end[1]][end[0]],
            worlds=10_000,
            min_worlds=min_worlds,
            cpu_seconds=cpu_seconds,
        )

    spent = slow_search(min_worlds=3, cpu_seconds=0.0).run(random.Random(1))
    assert spent.worlds == 3  # the guard is passed from the start: only the worlds it must search
    assert spent.totals == (10.0 - 9.0 - 9.0, 6.0) and spent.best == "steady"
    capped = slow_search(min_worlds=1, cpu_seconds=0.05).run(random.Random(1))
    assert 1 <= capped.worlds < 1000  # about 12 worlds of 4 ms in 50 ms, on any sane machine
    assert capped.totals == tuple(
        sum(PAYOFF[candidate][number % 5] for number in range(capped.worlds))
        for candidate in ("gamble", "steady")
    )
    assert capped.best == ("steady" if capped.means[1] >= capped.means[0] else "gamble")
    unspent = tiny_search(["gamble", "steady"], worlds=5, cpu_seconds=60.0).run(random.Random(1))
    assert unspent.worlds == 5  # a guard not passed stops nothing


def test_it_refuses_a_search_without_a_candidate_or_a_world() -> None:
    with pytest.raises(ValueError):
        tiny_search([], worlds=5).run(random.Random(1))
    with pytest.raises(ValueError):
        tiny_search(["steady"], worlds=0).run(random.Random(1))
    with pytest.raises(ValueError):
        tiny_search(["steady"], worlds=3, min_worlds=0).run(random.Random(1))
    with pytest.raises(ValueError):
        first_best([])


def test_on_a_foist_position_it_refuses_a_costly_card_in_whichever_order_it_weighs_the_moves() -> None:
    """Foist's playouts and outcome through the shared search: 33 up with no token on it and seat 0's
    eleven tokens to pay with; paying is better in the mean, and the worlds it played in are unchanged."""
    state = FoistState.scripted(3, [33, 3, 4, 5, 6, 7, 8, 9])
    drawn: list[FoistState] = []

    def determinise(number: int, rng: random.Random) -> FoistState:
        drawn.append(state.resample_hidden(0, rng))
        return drawn[-1]

    for order in ((TAKE, PAY), (PAY, TAKE)):
        drawn.clear()
        result = FlatMonteCarlo(
            candidates=order,
            determinise=determinise,
            playout=lambda world, code, rng: play_out(world, 0, code, rng),
            evaluate=lambda game: outcome([game.score(other) for other in range(3)], 0),
            worlds=16,
        ).run(random.Random(1))
        assert result.best == PAY
        means = dict(zip(order, result.means, strict=True))
        assert means[PAY] > means[TAKE]
        assert len(drawn) == 16 and all(world.card_up == 33 and world.tokens_on_card == 0 for world in drawn)
