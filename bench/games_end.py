"""Every game ends: seeded all-AI games of every game at every player count, their lengths against the
game's bound on moves.

Usage::

    python3 bench/games_end.py [--game KEY ...] [--games 2000] [--seats N ...] [--level LEVEL ...] [--jobs 2]

For every game (default: all seven), player count (default: every count the game allows) and AI level
(default: normal; ``--level`` repeatable: easy, normal, hard) it plays ``--games`` games with the game's AI
at that level (:func:`engine.ai.registry.ai_player`) in every seat: game ``i`` is
dealt from seed ``i``, and each decision gets the generator the table runtime gives it
(:func:`engine.tables.ai_turns.decision_rng`), so a game here is the game an all-AI table of that seed plays.
A game is cut off one move past its bound (``GameRules.max_moves``). It prints a Markdown table per game and
count: games played, the mean, p99 and longest length in moves (actions applied), the bound, and whether
every game ended within it; the exit status is 1 if any did not. A level whose player is the very player of
a level played before it in the same run (ERADICIZE, Minimize: Declare and Deluxe Memory play hard as
normal) plays the same games: its rows say so instead of playing them again.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.core import AIPlayer  # noqa: E402
from engine.ai.registry import LEVELS, NORMAL, ai_player  # noqa: E402
from engine.registry import GAMES  # noqa: E402
from engine.tables.ai_turns import decision_rng  # noqa: E402


def play_one(game_key: str, seats: int, seed: int, level: str = NORMAL) -> int:
    """The number of moves the all-AI game of ``game_key`` at ``seats`` dealt from ``seed`` takes with every
    seat at ``level``; a game still going past its bound is stopped there, so the result is then
    ``max_moves + 1``."""
    rules = GAMES[game_key]
    state = rules.new_game(seats, seed)
    ai = ai_player(game_key, level)
    moves = 0
    while not state.is_terminal() and moves <= rules.max_moves:
        seat = state.seats_to_act()[0]
        state.apply(seat, ai.choose(state, seat, decision_rng(seed, state.version, seat)))
        moves += 1
    return moves


def same_player(one: AIPlayer, other: AIPlayer) -> bool:
    """True if ``one`` and ``other`` decide alike: the same class with the same settings."""
    return type(one) is type(other) and vars(one) == vars(other)


def _play_star(args: tuple[str, int, int, str]) -> int:
    return play_one(*args)


def percentile(values: list[int], fraction: float) -> int:
    """The value at ``fraction`` (0..1) of the sorted ``values`` (nearest rank, rounded down)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="a game key (repeatable)")
    parser.add_argument("--games", type=int, default=2000, help="games per game and player count")
    parser.add_argument("--seats", type=int, action="append", help="a player count (repeatable)")
    parser.add_argument("--level", action="append", choices=LEVELS, help="an AI level (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    print("| game | level | players | games | mean | p99 | longest | bound | all within |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    failed = False
    with multiprocessing.Pool(args.jobs) as pool:
        for key in args.game or list(GAMES):
            rules = GAMES[key]
            counts = [
                n for n in range(rules.min_seats, rules.max_seats + 1) if not args.seats or n in args.seats
            ]
            levels = args.level or [NORMAL]
            for level, seats in [(lv, n) for lv in levels for n in counts]:
                player = ai_player(key, level)
                played = levels[: levels.index(level)]
                twin = next((lv for lv in played if same_player(ai_player(key, lv), player)), None)
                if twin is not None:
                    print(f"| {key} | {level} | {seats} | the games of {twin} | | | | {rules.max_moves} | |")
                    continue
                started = time.perf_counter()
                lengths = pool.map(
                    _play_star, [(key, seats, seed, level) for seed in range(args.games)], chunksize=4
                )
                within = max(lengths) <= rules.max_moves
                failed |= not within
                print(
                    f"| {key} | {level} | {seats} | {len(lengths)} | {statistics.fmean(lengths):.0f} "
                    f"| {percentile(lengths, 0.99)} | {max(lengths)} | {rules.max_moves} "
                    f"| {'yes' if within else 'NO'} |",
                    flush=True,
                )
                print(f"  ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
