"""How many presses a Deluxe Memory turn takes a person, on demand (never in the test suite):

    python3 bench/memory_turn_presses.py              # 40 seeded games, 2 to 4 players
    python3 bench/memory_turn_presses.py --games 100

Every seat is a person who picks a random legal action in their private view ("My hand", kept live, so
opening it is not counted). Each action costs the presses the view needs to reach it: its button at once
(1), a row and then the card (2), an option of a select menu (1), plus a press per page turned. Actions the
table plays for the seat (nothing to choose) cost none. A turn runs from a seat's first look to the next
first look. Printed: presses per turn (mean, p50, p90), actions per turn, and the share of actions the
table played without a press, as a Markdown row for ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.tables import custom_ids as ids  # noqa: E402
from cogs.tables import render  # noqa: E402
from engine import GAMES  # noqa: E402
from engine.memory import Phase  # noqa: E402
from engine.tables.table import TableDraft, TableSettings  # noqa: E402
from tests.tables import drawing  # noqa: E402

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def presses_for(table: TableDraft, user: int, code: str) -> int:
    """The presses ``user``'s private view needs to reach the action ``code``."""
    for page in range(8):
        drawn = render.private_message(table, user, offer_dm=True, page=page)
        turns = page
        for component in drawing.components(drawn):
            target = (
                ids.TableCustomId.parse(component.get("custom_id", ""))
                if component.get("custom_id")
                else None
            )
            if component["type"] == drawing.SELECT and any(o["value"] == code for o in component["options"]):
                return turns + 1
            if target is None:
                continue
            if getattr(target, "action", None) == code:
                return turns + 1
            if getattr(target, "row", None) is not None:
                in_row = render.private_message(table, user, offer_dm=True, page=page, row=target.row)
                if any(
                    getattr(ids.TableCustomId.parse(b["custom_id"]), "action", None) == code
                    for b in drawing.buttons(in_row)
                ):
                    return turns + 2
    raise AssertionError(f"no way to press {code}")


def play(seed: int) -> tuple[list[int], int, int]:
    """One game: the presses of each turn, the actions pressed and the actions the table played."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    table = TableDraft(f"bench{seed}", 10, 20, GAMES["memory"], TableSettings(60, 5, 2), 1, "P1")
    for user in range(2, players + 1):
        table.join(user, f"P{user}")
    table.start(1, seed, NOW)
    state = table.state
    assert state is not None
    turns: list[int] = []
    pressed = applied = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        if state.phase is Phase.PICK_FIRST:
            turns.append(0)
        code = rng.choice(state.legal_actions(seat)).code
        if turns:
            turns[-1] += presses_for(table, table.players[seat], code)
        before = state.version
        table.act(table.players[seat], state.version, code, NOW)
        pressed += 1
        applied += state.version - before
    return turns, pressed, applied


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    arguments = parser.parse_args()
    turns: list[int] = []
    pressed = applied = 0
    for seed in range(arguments.games):
        game_turns, game_pressed, game_applied = play(seed)
        turns += game_turns
        pressed += game_pressed
        applied += game_applied
    deciles = statistics.quantiles(turns, n=10)
    print("| games | turns | presses a turn: mean / p50 / p90 | actions a turn | played without a press |")
    print("| --- | --- | --- | --- | --- |")
    print(
        f"| {arguments.games} | {len(turns)} | {statistics.mean(turns):.2f} / {statistics.median(turns):.0f}"
        f" / {deciles[8]:.0f} | {applied / len(turns):.2f} | {(applied - pressed) / applied:.1%} |"
    )


if __name__ == "__main__":
    main()
