"""What telling whose decision changed costs per move: every seat's labelled legal actions built and compared
(the table runtime's way before) against every seat's ``GameState.decision_key`` (its way now), in one run,
on demand (never in the test suite).

Usage::

    python3 bench/decision_changes.py [--games 14] [--game foist]

Plays ``--games`` seeded random games of every registered game (or of ``--game``) to their end through a
:class:`~engine.tables.session.TableSession` (seed ``i``, the player counts in turn, default options), every
move by a seat with legal actions, picked at random: twice, the same games, once each way. After each move
the table notes the changed decisions: the way before is ``TableSession._note_changed_decisions`` as it was
(``legal_actions`` of every seat, compared with those noted after the previous move), the way now is the
table's own method (keys, and ``has_decision`` for the seats whose key changed); then it draws the actions
of every seat with a decision (``TableSession.legal_actions``, built once per state).

Printed per game, in CPU microseconds per move (``time.process_time_ns``): the note each way and their
ratio; then the note with the actions drawn after it, each way, and their ratio (the way before built the
actions of the seats with a decision twice, but where a game keeps what it built: Deluxe Memory for the
state, Minimize: Declare's throws by hand); and how many seat changes each way found (the keys may find
more, never fewer: a spurious change). Then the same over every move of the run. Each way runs with the
games' caches of throws emptied first.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import GAMES, GameRules  # noqa: E402
from engine.declare import throws  # noqa: E402
from engine.declare import words as declare_words  # noqa: E402
from engine.tables.session import TableDraft, TableSettings  # noqa: E402

HOST = 100
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
BEFORE, NOW_WAY = "before", "now"


class Tally:
    """Moves, CPU nanoseconds of the note and of the actions drawn after it, and the seat changes found."""

    def __init__(self) -> None:
        self.moves = 0
        self.note_ns = 0
        self.drawn_ns = 0
        self.changes = 0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def per_move(self, nanoseconds: int) -> float:
        return nanoseconds / max(self.moves, 1) / 1e3


def line(name: str, before: Tally, now: Tally) -> str:
    """One game's figures, both ways."""
    note_before, note_now = before.per_move(before.note_ns), now.per_move(now.note_ns)
    drawn_before = before.per_move(before.note_ns + before.drawn_ns)
    drawn_now = now.per_move(now.note_ns + now.drawn_ns)
    return (
        f"{name:11}{now.moves:7} moves | note {note_before:5.1f} -> {note_now:4.1f} us "
        f"{note_before / note_now:4.1f}x | with the actions drawn {drawn_before:5.1f} -> {drawn_now:5.1f} us "
        f"{drawn_before / drawn_now:4.1f}x | changes {before.changes} / {now.changes}"
    )


def play(rules: GameRules, seats: int, seed: int, way: str, tally: Tally) -> None:
    """One seeded random game through a table, its notes made ``way`` and timed."""
    session = TableDraft("bench0001", 1, 2, rules, TableSettings(3600, 3600, 99), HOST, "host")
    for user in range(HOST + 1, HOST + seats):
        session.join(user, f"player {user}")
    session.start(HOST, seed, NOW)
    assert session.state is not None
    seen = [session.state.legal_actions(seat) for seat in range(seats)]
    keyed = session._note_changed_decisions

    def by_actions(acted: set[int]) -> set[int]:
        """``TableSession._note_changed_decisions`` as it was."""
        assert session.state is not None
        changed = set(acted)
        for seat in range(len(session.players)):
            actions = session.state.legal_actions(seat)
            if actions != seen[seat]:
                changed.add(seat)
                seen[seat] = actions
        for seat in changed:
            session.seat_versions[seat] = session.state.version
        return changed

    note = by_actions if way == BEFORE else keyed

    def timed(acted: set[int]) -> set[int]:
        state = session.state
        assert state is not None
        started = time.process_time_ns()
        changed = note(acted)
        tally.note_ns += time.process_time_ns() - started
        deciding = [seat for seat in range(seats) if state.has_decision(seat)]
        started = time.process_time_ns()
        for seat in deciding:
            session.legal_actions(seat)
        tally.drawn_ns += time.process_time_ns() - started
        tally.moves += 1
        tally.changes += len(changed)
        return changed

    session._note_changed_decisions = timed  # type: ignore[method-assign]
    picker = random.Random(seed)
    while not session.state.is_terminal():
        movers = [seat for seat in range(seats) if session.legal_actions(seat)]
        seat = picker.choice(movers)
        code = picker.choice(session.legal_actions(seat)).code
        session.act(session.players[seat], session.state.version, code, NOW)


def run(key: str, games: int, way: str) -> Tally:
    """Every game of the run of one registered game, made ``way``."""
    for cached in (throws.legal_throws, throws.throw_cards, declare_words.throw_choices):
        cached.cache_clear()
    rules = GAMES[key]
    counts = range(rules.min_seats, rules.max_seats + 1)
    tally = Tally()
    for seed in range(games):
        play(rules, counts[seed % len(counts)], seed, way, tally)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=14, help="games per registered game")
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game")
    args = parser.parse_args()
    totals = Tally(), Tally()
    for key in [args.game] if args.game else sorted(GAMES):
        before, now = run(key, args.games, BEFORE), run(key, args.games, NOW_WAY)
        assert before.moves == now.moves, "the two ways played different games"
        assert before.changes <= now.changes, "a key missed a change of the actions"
        print(line(key, before, now), flush=True)
        totals[0].add(before)
        totals[1].add(now)
    print(line("all", *totals))


if __name__ == "__main__":
    main()
