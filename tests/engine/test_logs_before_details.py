"""Games stored by the engines before the "faithful details" change (MINIMIZE's declarations and 14/1
reading, Deluxe Memory's Underdogs end and hiding, Minimisère's three-player target, Declare's ordered sets)
replay to the same end: seeded random games of each, recorded with the engines of main before the change
(commit 7e65c6b): seat count, seed, options as stored with a result (Minimisère's written out in full, as
``options.model_dump()`` stores them), action log, final standings and public table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import GAMES, replay
from engine.core import STRONG

STORED_LOGS = Path(__file__).parent / "data" / "logs_before_details.json"
RECORDED = json.loads(STORED_LOGS.read_text(encoding="utf-8"))
CASES = [(key, index) for key in sorted(RECORDED) for index in range(len(RECORDED[key]))]


@pytest.mark.parametrize(("key", "index"), CASES)
def test_a_game_stored_before_replays_to_the_same_end(key: str, index: int) -> None:
    stored = RECORDED[key][index]
    history = [(seat, code) for seat, code in stored["history"]]
    state = replay(GAMES[key], stored["seats"], stored["seed"], stored["options"], history)
    assert state.is_terminal() and state.history == GAMES[key].upgrade_log(history)  # as an upgrade reads it
    assert [[s.seat, s.points, s.rank, s.detail] for s in state.standings()] == stored["standings"]
    # The stored tables were written with Discord's bold (**x**); the engines now mark with strong() ({b:x}).
    view = state.view(None)  # the table, then the rules in play (kept apart)
    table = [[field.name, STRONG.sub(r"**\1**", field.value)] for field in (*view.table, *view.rules)]
    assert table == stored["table"]


def test_the_stored_games_pass_through_the_changed_rules() -> None:
    """The recorded games cover what changed: a two-player Underdogs game of Deluxe Memory played on after
    one player ran out (where the only player with tokens may now end it: the stored game did not, and
    replays), a set of three thrown in Declare in the old colour order, and MINIMIZE challenges where a
    player was not lower (whose score the old log printed and the new one does not)."""
    seen: set[str] = set()
    for key in ("memory", "declare", "minimize"):
        for stored in RECORDED[key]:
            state = GAMES[key].new_game(stored["seats"], stored["seed"], stored["options"])
            for seat, code in stored["history"]:
                offered = {
                    action.code for other in range(state.num_seats) for action in state.legal_actions(other)
                }
                if "finish" in offered:
                    seen.add("memory: finish offered, not taken")
                if key == "declare" and code[0] == "t" and len(code) >= 7 and len(set(code[1::2])) == 1:
                    seen.add("declare: a set of three or more thrown")
                events = state.apply(seat, code)
                if any("declares: not lower" in event.text for event in events):
                    seen.add("minimize: not lower declared")
    assert seen == {
        "memory: finish offered, not taken",
        "declare: a set of three or more thrown",
        "minimize: not lower declared",
    }
