"""The Looking for a game message within Discord's limits: a button per game and Leave the queue in at
most 5 rows of 5, custom_ids matching the dynamic item's template, its text within 2,000 characters
however many wait, names escaped as everywhere else (cogs/names.py)."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from cogs.tables.queue_board import MAX_GAMES, TEMPLATE, board_text, board_view
from engine import GAMES
from engine.matching import Waiting

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def test_the_buttons_fit_discords_rows_and_match_the_template() -> None:
    assert len(GAMES) <= MAX_GAMES
    view = board_view()
    buttons = view.children
    assert len(buttons) == len(GAMES) + 1 <= 25
    rows: dict[int, int] = {}
    for button in buttons:
        rows[button.row] = rows.get(button.row, 0) + 1
        assert re.fullmatch(TEMPLATE, button.custom_id) and len(button.custom_id) <= 100
        assert 1 <= len(button.label) <= 80
    assert max(rows) <= 4 and max(rows.values()) <= 5
    assert len({button.custom_id for button in buttons}) == len(buttons)


def test_the_text_lists_each_game_and_stays_within_2000_characters() -> None:
    assert "Nobody is waiting yet." in board_text({})
    shown = board_text({"foist": [Waiting(1, "**bold** _x_", 3, T0)]})
    assert "\\*\\*bold\\*\\* \\_x\\_" in shown and f"<t:{int(T0.timestamp())}:R>" in shown
    crowd = [Waiting(n, "n" * 32, 3, T0) for n in range(200)]
    assert len(board_text({key: crowd for key in GAMES})) <= 2000
