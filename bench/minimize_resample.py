"""How well and how fast MINIMIZE's resample keeps to what challenges made public (ruling 4 of
docs/rules/minimize.md).

Usage::

    python3 bench/minimize_resample.py [--games 60]

Plays ``--games`` seeded random games (3 to 8 players, seed ``i``, a challenge taken with probability 0.3
when offered). Right after each challenge that leaves the round going, it resamples the state for every
viewer (each seat and the public) and checks each declaration of a player still playing against the
redrawn hand: a revealed score must be met exactly, "not lower than N" by a score of at least N. It prints
how many declarations were checked, how many the redraw missed (a rare exact score not found in
:data:`engine.frazzled.declarations.MAX_TRIES` redraws of a hand), and the CPU time per resample (p50, p99,
mean, in milliseconds).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import GAMES  # noqa: E402
from engine.frazzled import CHALLENGE, score_hand  # noqa: E402

DECLARED = re.compile(
    r"(reveals a score of|declares: not lower than|declares a score equal to) \*\*(-?\d+)\*\*"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    games = parser.parse_args().games
    checked = missed = 0
    seconds: list[float] = []
    for seed in range(games):
        state = GAMES["minimize"].new_game(3 + seed % 6, seed)
        picker = random.Random(seed)
        while not state.is_terminal():
            seat = picker.choice([s for s in range(state.num_seats) if state.legal_actions(s)])
            legal = [action.code for action in state.legal_actions(seat)]
            code = CHALLENGE if CHALLENGE in legal and picker.random() < 0.3 else picker.choice(legal)
            round_before = state.round
            events = state.apply(seat, code)
            if code != CHALLENGE or state.is_terminal() or state.round != round_before:
                continue
            declared = [
                (e.seat, m.group(1), int(m.group(2))) for e in events if (m := DECLARED.search(e.text))
            ]
            playing = len({who for who, _, _ in declared})
            rules = state.rules_in_play()
            for viewer in (None, *range(state.num_seats)):
                started = time.process_time()
                other = state.resample_hidden(viewer, random.Random(len(seconds)))
                seconds.append(time.process_time() - started)
                for who, kind, value in declared:
                    if who == viewer or who not in state.playing():
                        continue
                    counts = playing > 2 and who != seat
                    total = score_hand(other.hand(who), rules, perfect_zero_counts=counts).total
                    checked += 1
                    missed += not (total >= value if kind.startswith("declares: not") else total == value)
    seconds.sort()
    print(f"declarations checked {checked}, missed {missed} ({missed / max(checked, 1):.2%})")
    print(
        f"resample CPU ms: p50 {seconds[len(seconds) // 2] * 1e3:.2f}, "
        f"p99 {seconds[int(len(seconds) * 0.99)] * 1e3:.2f}, mean {statistics.fmean(seconds) * 1e3:.2f} "
        f"over {len(seconds)} resamples"
    )


if __name__ == "__main__":
    main()
