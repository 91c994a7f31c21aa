"""What an AI's search costs on the engine's own rules: copy, apply, play, rollout, decision.

Usage::

    python3 bench/ai_search_cost.py [--games 20] [--game foist:3 --game minimisere:3 ...]

For each game and seat count (default Foist at 3 seats, Minimisère at 3 and 5) it plays ``--games`` seeded
games of the game's AI (in seat ``i % seats``) against random players, timing each AI decision, and then on
every position where the AI decided it measures, in CPU time (``time.process_time``):

- **copy**: ``state.copy()``;
- **apply**: ``state.apply(seat, code)`` of the first legal code, on a copy (checks the action and writes
  the events);
- **play**: ``state.play(seat, action)`` of the same action, on a copy (the rules' fast path the AI
  searches with: no check, no events);
- **rollout**: one playout as the AI runs it: a copy of a determinisation (``resample_hidden``), the first
  legal action, then the AI's rollout policy on the engine's rules to the end of the game (Foist) or of
  the deal (Minimisère);
- **decision**: the AI's ``choose`` (p50, p99 and mean over every decision of the games).

Micro timings are means over batches of 20 (copy, apply, play) or 10 (rollout) per position. It prints a
Markdown table, times in µs except decisions (ms).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from operator import methodcaller
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.core import RandomPlayer  # noqa: E402
from engine.ai.registry import ai_player  # noqa: E402
from engine.core import GameState  # noqa: E402
from engine.foist import FoistState  # noqa: E402
from engine.foist import ai as foist_ai  # noqa: E402
from engine.minimisere import MinimisereState  # noqa: E402
from engine.minimisere import ai as minimisere_ai  # noqa: E402
from engine.registry import GAMES  # noqa: E402

BATCH = 20
ROLLOUTS = 10


def positions(key: str, seats: int, games: int) -> tuple[list[tuple[GameState, int]], list[float]]:
    """Every AI decision of ``games`` seeded games against random players: a copy of the state with the
    deciding seat, and the CPU seconds of each decision."""
    found: list[tuple[GameState, int]] = []
    seconds: list[float] = []
    ai, opponent = ai_player(key), RandomPlayer()
    for seed in range(games):
        state = GAMES[key].new_game(seats, seed)
        rng = random.Random(f"{key}:{seed}")
        while not state.is_terminal():
            seat = state.seats_to_act()[0]
            if seat == seed % seats:
                found.append((state.copy(), seat))
                started = time.process_time()
                code = ai.choose(state, seat, rng)
                seconds.append(time.process_time() - started)
            else:
                code = opponent.choose(state, seat, rng)
            state.apply(seat, code)
    return found, seconds


def mean_cpu(work: Callable[[], object], count: int) -> float:
    """Mean CPU seconds of ``count`` calls of ``work``."""
    started = time.process_time()
    for _ in range(count):
        work()
    return (time.process_time() - started) / count


def mean_cpu_on_copies(state: GameState, work: Callable[[GameState], object], count: int) -> float:
    """Mean CPU seconds of ``work`` on each of ``count`` copies of ``state`` (the copies are not timed)."""
    total = 0.0
    for _ in range(count):
        game = state.copy()
        started = time.process_time()
        work(game)
        total += time.process_time() - started
    return total / count


def foist_rollout(state: FoistState, seat: int, rng: random.Random) -> Callable[[], None]:
    world = state.resample_hidden(seat, rng).with_tokens(foist_ai.counted_tokens(state, seat))
    action = state.action_type.parse(state.legal_actions(seat)[0].code)

    def run() -> None:
        game = world.copy()
        game.play(seat, action)
        foist_ai.rollout(game, rng)

    return run


def minimisere_rollout(state: MinimisereState, seat: int, rng: random.Random) -> Callable[[], None]:
    world = state.resample_hidden(seat, rng)
    action = state.action_type.parse(state.legal_actions(seat)[0].code)
    nil = minimisere_ai.aims_for_no_tricks(world, rng)
    deal = state.deal_number

    def run() -> None:
        game = world.copy()
        game.play(seat, action)
        minimisere_ai.rollout(game, deal, nil, rng)

    return run


ROLLOUT = {"foist": foist_rollout, "minimisere": minimisere_rollout}


def measure(key: str, seats: int, games: int) -> str:
    """One Markdown row for ``key`` at ``seats`` seats."""
    found, decisions = positions(key, seats, games)
    copies, applies, plays, rollouts = [], [], [], []
    for index, (state, seat) in enumerate(found):
        code = state.legal_actions(seat)[0].code
        action = state.action_type.parse(code)
        copies.append(mean_cpu(state.copy, BATCH))
        applies.append(mean_cpu_on_copies(state, methodcaller("apply", seat, code), BATCH))
        plays.append(mean_cpu_on_copies(state, methodcaller("play", seat, action), BATCH))
        rollouts.append(mean_cpu(ROLLOUT[key](state, seat, random.Random(index)), ROLLOUTS))
    ordered = sorted(decisions)

    def us(values: list[float]) -> str:
        return f"{1e6 * statistics.fmean(values):.1f}"

    def ms(value: float) -> str:
        return f"{1e3 * value:.2f}"

    return (
        f"| {GAMES[key].display_name} | {seats} | {len(found)} | {us(copies)} | {us(applies)} | {us(plays)} "
        f"| {us(rollouts)} | {ms(ordered[len(ordered) // 2])} | {ms(ordered[int(0.99 * len(ordered))])} "
        f"| {ms(statistics.fmean(decisions))} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--game", action="append", help="key:seats (default foist:3, minimisere:3, minimisere:5)"
    )
    args = parser.parse_args(argv)
    print(
        "| game | seats | decisions | copy µs | apply µs | play µs | rollout µs | decision p50 ms | p99 ms "
        "| mean ms |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for item in args.game or ["foist:3", "minimisere:3", "minimisere:5"]:
        key, _, seats = item.partition(":")
        print(measure(key, int(seats or 3), args.games), flush=True)


if __name__ == "__main__":
    main()
