"""Games stored by the engines before the "faithful details" change (MINIMIZE's declarations and 14/1
reading, Deluxe Memory's Underdogs end and hiding, Minimisère's three-player target, Declare's ordered sets)
replay to the same end: random games of each, recorded with the previous version of main (seat count,
seed, options, action log, final standings and public table)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import GAMES, replay

STORED_LOGS = Path(__file__).parent / "data" / "logs_before_details.json"
RECORDED = json.loads(STORED_LOGS.read_text(encoding="utf-8"))
CASES = [(key, index) for key in sorted(RECORDED) for index in range(len(RECORDED[key]))]


@pytest.mark.parametrize(("key", "index"), CASES)
def test_a_game_stored_before_replays_to_the_same_end(key: str, index: int) -> None:
    stored = RECORDED[key][index]
    history = [(seat, code) for seat, code in stored["history"]]
    state = replay(GAMES[key], stored["seats"], stored["seed"], stored["options"], history)
    assert state.is_terminal() and state.history == history
    assert [[s.seat, s.points, s.rank, s.detail] for s in state.standings()] == stored["standings"]
    assert [[field.name, field.value] for field in state.view(None).table] == stored["table"]
