"""What a game night's pure logic costs the event loop (``engine.nights``): seating 200 signed-up players
at tables, re-seating them by standings (Swiss), and the standings of 200 players over 5 rounds. On demand:

    python3 bench/night_seating.py            # 30 seeded nights
    python3 bench/night_seating.py --quick    # 5 nights

Each night draws 200 ratings from a seed (mu around 25, sigma from 2 to the default 25/3) and plays 5
rounds of Foist (3 to 7 seats) with seeded random places, a tie now and then. Timed with
``time.perf_counter`` (wall) and ``time.process_time`` (CPU) per call, one call after the other in
this process: the first round's seating by
rating (tables as big as the game allows, and aiming at tables of 4), each Swiss re-seating, and the
standings after the fifth round. Each figure is the median and the worst over the calls, in ms and as a
ratio of its budget: 50 ms of the event loop for a seating, 5 ms (a press's share) for the standings.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.nights import (  # noqa: E402
    NightRules,
    Player,
    RoundResult,
    TableResult,
    seat_round,
    standings,
)

PLAYERS = 200
ROUNDS = 5
SEATING_BUDGET_MS = 50.0
STANDINGS_BUDGET_MS = 5.0


def players_of(seed: int) -> list[Player]:
    rng = random.Random(seed)
    return [Player(10_000 + i, rng.gauss(25.0, 4.0), rng.uniform(2.0, 25.0 / 3.0)) for i in range(PLAYERS)]


def ranks_of(seats: int, rng: random.Random) -> tuple[int, ...]:
    """Seeded places at a table of ``seats``: a shuffle, the last two tied one table in five."""
    order = list(range(seats))
    rng.shuffle(order)
    ranks = [0] * seats
    for place, seat in enumerate(order, 1):
        ranks[seat] = place
    if rng.random() < 0.2:
        worst = [seat for seat in range(seats) if ranks[seat] >= seats - 1]
        for seat in worst:
            ranks[seat] = seats - 1
    return tuple(ranks)


def timed(call) -> tuple[tuple[float, float], object]:
    """(wall ms, CPU ms) of ``call()``, and its value."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = call()
    return ((time.perf_counter() - wall) * 1000.0, (time.process_time() - cpu) * 1000.0), value


def night(seed: int, figures: dict[str, list[tuple[float, float]]]) -> None:
    players = players_of(seed)
    rng = random.Random(seed)
    rules = NightRules(3, 7, rounds=ROUNDS)
    ms, _ = timed(lambda: seat_round(NightRules(3, 7, target=4), players, [], seed))
    figures["first round, tables of 4"].append(ms)
    played: list[RoundResult] = []
    for number in range(ROUNDS):
        ms, seating = timed(lambda: seat_round(rules, players, played, seed))
        figures["first round, tables of 7" if number == 0 else "Swiss re-seating"].append(ms)
        played.append(
            RoundResult(tuple(TableResult.of(table, ranks_of(table.seats, rng)) for table in seating.tables))
        )
    ms, _ = timed(lambda: standings(players, played))
    figures["standings after 5 rounds"].append(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nights", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="5 nights")
    args = parser.parse_args()
    nights = 5 if args.quick else args.nights
    figures: dict[str, list[tuple[float, float]]] = {
        "first round, tables of 7": [],
        "first round, tables of 4": [],
        "Swiss re-seating": [],
        "standings after 5 rounds": [],
    }
    for seed in range(nights):
        night(seed, figures)
    print(f"{nights} nights of {PLAYERS} players, {ROUNDS} rounds of Foist (3 to 7 seats)")
    header = ("median ms", "worst ms", "budget ms", "median/budget", "worst/budget")
    print(f"{'what':<28} {'clock':<5} " + " ".join(f"{word:>13}" for word in header))
    for what, values in figures.items():
        budget = STANDINGS_BUDGET_MS if what.startswith("standings") else SEATING_BUDGET_MS
        for clock, column in (("wall", 0), ("CPU", 1)):
            times = [value[column] for value in values]
            median, worst = statistics.median(times), max(times)
            print(
                f"{what:<28} {clock:<5} {median:>13.2f} {worst:>13.2f} {budget:>13.1f}"
                f" {median / budget:>13.2f} {worst / budget:>13.2f}"
            )


if __name__ == "__main__":
    main()
