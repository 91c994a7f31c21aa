"""What a move costs as a value: :func:`engine.tables.step.step` (a draft of the table, the move, the next
table frozen, the effects) against the work any move must do, the engine's copy of the state and its
``apply`` (the baseline). On demand:

    python3 bench/step_cost.py            # 30 seeded random games of every game
    python3 bench/step_cost.py --games 5

Seeded random games are played once to get their moves; then each game's moves are replayed three ways, one
after the other, timed with ``time.perf_counter_ns``: the baseline alone, and ``step`` on the table. The
figure is per move, the best of three rounds; the ratio is step / baseline.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import GAMES  # noqa: E402
from engine.tables import moves  # noqa: E402
from engine.tables.step import step  # noqa: E402
from engine.tables.table import TableDraft, TablePhase, TableSettings  # noqa: E402

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
HOST = 1


def games_of(key: str, count: int) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """``count`` seeded random games of ``key``: (seats, seed, moves)."""
    rules = GAMES[key]
    played = []
    for seed in range(count):
        seats = rules.min_seats + seed % (rules.max_seats - rules.min_seats + 1)
        state = rules.new_game(seats, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if state.is_terminal():
                break
            seat = rng.choice(state.seats_to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)).code)
        played.append((seats, seed, list(state.history)))
    return played


def started(key: str, seats: int, seed: int):
    rules = GAMES[key]
    draft = TableDraft("bench001", 1, 2, rules, TableSettings(3600, 3600, 99), HOST, "host")
    for user in range(2, seats + 1):
        draft.join(user, f"p{user}")
    table, _ = step(draft.freeze(), moves.Start(HOST, seed), NOW)
    return table


def time_baseline(key: str, games) -> tuple[int, int]:
    total, count = 0, 0
    for seats, seed, history in games:
        state = GAMES[key].new_game(seats, seed)
        for seat, code in history:
            began = time.perf_counter_ns()
            state = state.copy()
            state.apply(seat, code)
            total += time.perf_counter_ns() - began
            count += 1
    return total, count


def time_step(key: str, games) -> tuple[int, int]:
    total, count = 0, 0
    for seats, seed, history in games:
        table = started(key, seats, seed)
        now = NOW
        for seat, code in history:
            if table.phase is not TablePhase.PLAYING:
                break
            now += timedelta(seconds=1)
            move = moves.Play(table.players[seat], table.state.version, code)
            began = time.perf_counter_ns()
            table, _ = step(table, move, now)
            total += time.perf_counter_ns() - began
            count += 1
    return total, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    print(f"{'game':12} {'moves':>7} {'copy + apply':>13} {'step':>9} {'ratio':>6}")
    for key in sorted(GAMES):
        games = games_of(key, args.games)
        base = min(time_baseline(key, games) for _ in range(3))
        stepped = min(time_step(key, games) for _ in range(3))
        base_us, step_us = base[0] / base[1] / 1000, stepped[0] / stepped[1] / 1000
        print(f"{key:12} {base[1]:7d} {base_us:10.1f} us {step_us:6.1f} us {step_us / base_us:5.2f}x")


if __name__ == "__main__":
    main()
