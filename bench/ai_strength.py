"""How strong and how fast the AI players are: seeded games of one AI level against baseline opponents.

Usage::

    python3 bench/ai_strength.py [--game KEY ...] [--level easy|normal|hard ...] [--games 500] [--seats 3]
                                 [--opponent random|greedy|rules|easy|normal|hard ...] [--jobs 2]
                                 [--perfect-information] [--first-seed 0]

For every game, level and opponent kind it plays ``--games`` games at ``--seats`` seats: one seat is the
game's AI at that level (:func:`engine.ai.registry.ai_player`), the others are the opponent (``random``: a
uniformly random legal move; ``greedy``: :class:`engine.ai.core.GreedyPlayer`, one-move lookahead with the
game's evaluation; ``rules``: the rule-based baseline of :mod:`bench.rule_players`, a sensible newcomer's
play; or another level). Game ``i`` uses seed ``i`` and puts the AI in seat ``i % seats``, so every seat is
played equally often; ``--first-seed N`` plays seeds ``N`` to ``N + games - 1`` instead (another block of
the same size, to check that a figure is not one block's luck). ``python3 bench/ai_strength.py
--levels-table`` runs the table of ``docs/performance.md`` ("AI levels"): every level against
random, greedy, rules and the other levels.

A win is rank 1; a shared first place counts as 1/k of a win. The fair share at n seats is 1/n. It prints a
Markdown table: the AI's win rate with its 95% confidence interval (normal approximation of the mean win
share), the fair share, and the AI's decision times (p50, p99 and max, in milliseconds of CPU time,
``time.process_time`` around ``choose`` alone, one process per job).

``--perfect-information`` measures a ceiling: the AI seat's player is the same, but every world it
draws (:meth:`~engine.core.GameState.resample_hidden`, through its information set or its own sampling) is
the game's :meth:`~engine.core.GameState.resample_unseen` of the true state: it knows every card any seat
has seen (every hand) while what nobody has seen (the draw piles below their tops, the luck to come) stays
random; a game without ``resample_unseen`` gives it the true state itself, future draws included. What
such a player wins is an upper bound for its search with honest information.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.rule_players import rule_player  # noqa: E402
from engine.ai.core import AIPlayer, RandomPlayer, win_share  # noqa: E402
from engine.ai.registry import LEVELS, NORMAL, ai_player, greedy_player  # noqa: E402
from engine.core import GameState  # noqa: E402
from engine.registry import GAMES  # noqa: E402

OPPONENTS = ("random", "greedy", "rules", *LEVELS)

MAX_STEPS = 50_000


def opponent_player(game_key: str, kind: str) -> AIPlayer:
    """The opponent of ``kind`` (one of :data:`OPPONENTS`) for ``game_key``."""
    if kind == "random":
        return RandomPlayer()
    if kind == "greedy":
        return greedy_player(game_key)
    if kind == "rules":
        return rule_player(game_key)
    return ai_player(game_key, kind)


@contextlib.contextmanager
def perfect_information(state: GameState):
    """While open, every world drawn from a state of ``state``'s game keeps every card some seat has seen:
    its ``resample_hidden`` is the game's ``resample_unseen`` (or, in a game without one, a copy of the
    state itself); the class's own method is put back on exit."""
    game_class = type(state)
    own = game_class.__dict__.get("resample_hidden")

    def true_world(self: GameState, viewer: int | None, rng: random.Random, *inferred: object) -> GameState:
        # ``inferred``: a search's inferences about the others (Deluxe Memory's ``apart``), which the true
        # world meets already.
        try:
            return self.resample_unseen(rng)
        except NotImplementedError:
            return self.copy()

    game_class.resample_hidden = true_world
    try:
        yield
    finally:
        if own is None:
            del game_class.resample_hidden
        else:
            game_class.resample_hidden = own


def play_one(
    game_key: str,
    seed: int,
    seats: int,
    opponent_kind: str,
    level: str = NORMAL,
    clairvoyant: bool = False,
) -> tuple[float, list[float], int]:
    """Play one game; return the AI's win share, its decision times (CPU seconds) and the number of steps.
    With ``clairvoyant`` the AI decides with :func:`perfect_information`.

    Raises
    ------
    RuntimeError
        If the game does not end within ``MAX_STEPS`` actions.
    """
    rules = GAMES[game_key]
    state = rules.new_game(seats, seed)
    ai_seat = seed % seats
    ai = ai_player(game_key, level)
    opponent = opponent_player(game_key, opponent_kind)
    rng = random.Random(f"{game_key}:{seed}:{opponent_kind}")
    times: list[float] = []
    steps = 0
    while not state.is_terminal():
        to_act = state.seats_to_act()
        seat = to_act[0]
        if seat == ai_seat:
            started = time.process_time()
            with perfect_information(state) if clairvoyant else contextlib.nullcontext():
                code = ai.choose(state, seat, rng)
            times.append(time.process_time() - started)
        else:
            code = opponent.choose(state, seat, rng)
        state.apply(seat, code)
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"{game_key} seed {seed} did not end in {MAX_STEPS} steps")
    return win_share(state, ai_seat), times, steps


def _play_star(args: tuple[str, int, int, str, str, bool]) -> tuple[float, list[float], int]:
    return play_one(*args)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(
    game_key: str,
    opponent: str,
    games: int,
    seats: int,
    jobs: int,
    level: str = NORMAL,
    clairvoyant: bool = False,
    first_seed: int = 0,
) -> str:
    """One Markdown row: game, level, opponent, games, win rate and CI, fair share, decision times; seeds
    ``first_seed`` to ``first_seed + games - 1``."""
    work = [
        (game_key, seed, seats, opponent, level, clairvoyant)
        for seed in range(first_seed, first_seed + games)
    ]
    started = time.perf_counter()
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_play_star, work, chunksize=4)
    else:
        results = [_play_star(item) for item in work]
    elapsed = time.perf_counter() - started
    shares = [share for share, _, _ in results]
    times = [t for _, ts, _ in results for t in ts]
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.pstdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else 0.0
    return (
        f"| {GAMES[game_key].display_name} | {level}{' (perfect information)' if clairvoyant else ''} | "
        f"{opponent} | {games} | "
        f"{100 * mean:.1f}% ({100 * max(0.0, mean - half):.1f}–{100 * min(1.0, mean + half):.1f}) | "
        f"{100 / seats:.1f}% | {1000 * percentile(times, 0.5):.2f} | {1000 * percentile(times, 0.99):.2f} | "
        f"{1000 * max(times):.2f} | {len(times)} | {elapsed:.0f} s |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="games (default: all)")
    parser.add_argument("--level", action="append", choices=LEVELS, help="AI levels (default: normal)")
    parser.add_argument("--opponent", action="append", choices=OPPONENTS)
    parser.add_argument(
        "--levels-table", action="store_true", help="every level against random, greedy, rules and each level"
    )
    parser.add_argument(
        "--perfect-information", action="store_true", help="the AI sees every card (a ceiling, not a level)"
    )
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed (default 0)")
    args = parser.parse_args(argv)
    levels = args.level or (list(LEVELS) if args.levels_table else [NORMAL])
    opponents = args.opponent or (list(OPPONENTS) if args.levels_table else ["random", "greedy"])
    print(
        "| game | AI level | opponents | games | AI win rate (95% CI) | fair share | decision p50 ms (CPU) "
        "| p99 ms | max ms | decisions | wall time |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game_key in args.game or list(GAMES):
        for level in levels:
            for opponent in opponents:
                if opponent == level:
                    continue  # a level against itself wins its fair share
                row = measure(
                    game_key,
                    opponent,
                    args.games,
                    args.seats,
                    args.jobs,
                    level,
                    args.perfect_information,
                    args.first_seed,
                )
                print(row, flush=True)


if __name__ == "__main__":
    main()
