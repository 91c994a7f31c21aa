"""A private view shows what is the seat's: in the channel ("My hand", read just under the table message)
the hand, the seat's score, the table's fields its decision needs, and its choices; by DM (read away from
the table) the table's state too. Deluxe Memory is played from the private view alone, with a press saved
wherever the choice is forced."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from cogs.tables import action_menus, render
from engine import Board, Cell, LegalAction
from engine.core import plain
from engine.memory import Phase
from engine.registry import GAMES
from engine.tables.session import TableDraft, TableSettings
from tests.tables import drawing

NOW = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)
NAMES = {1: "Ann", 2: "Bea", 3: "Cyd"}


def started(key: str, players: int = 3, seed: int = 7) -> TableDraft:
    table = TableDraft(f"{key[:4]}priv", 10, 20, GAMES[key], TableSettings(60, 5, 2), 1, NAMES[1])
    for user in range(2, players + 1):
        table.join(user, NAMES[user])
    table.start(1, seed, NOW)
    return table


def played(table: TableDraft, moves: int, rng: random.Random) -> None:
    """Play ``moves`` random legal actions, each by the seat to act, as its player's press."""
    for _ in range(moves):
        if table.state is None or table.state.is_terminal():
            return
        seat = table.state.seats_to_act()[0]
        code = rng.choice(table.state.legal_actions(seat)).code
        table.act(table.players[seat], table.state.version, code, NOW)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_my_hand_in_the_channel_shows_the_seat_and_its_decision_not_the_table(key: str) -> None:
    rng = random.Random(key)
    for moves in (0, 5, 17):
        table = started(key)
        played(table, moves, rng)
        if table.state is None or table.state.is_terminal():
            continue
        user = table.users_to_act()[0]
        seat = table.seat_of(user)
        view = table.view(seat)
        text = plain(drawing.text(render.private_message(table, user, offer_dm=True)))
        others = [NAMES[other] for other in table.players if other != user]
        # Not the table: no other seat's line, no log, no "Players"; the names of others show only where
        # the decision needs a table field (a trick's plays).
        assert "Players" not in text and "Last move" not in text and "The game begins" not in text
        shown_table = [shown for shown in view.table if shown.for_decision]
        if not shown_table:
            assert not any(name in text for name in others), text
        # The seat: its own fields, its own line as "You", its turn, and what its decision needs.
        for shown in view.private:
            assert plain(shown.name) in text
        own = next(line for line in view.seats if line.seat == seat)
        assert "**You**:" in text or not own.summary
        assert "Your turn" in text
        for shown in shown_table:
            assert plain(shown.name) in text
        # The DM, read away from the table, keeps the latest moves.
        assert "Last move" in plain(drawing.text(render.private_message(table, user)))


def test_a_lone_choice_at_a_memory_table_is_played_without_a_press() -> None:
    """Deluxe Memory, ruling 30: a table never waits for a press that has nothing to choose, except the
    look that ends an effect (ruling 10); the forced actions are in the game's log."""
    pressed = forced_seen = 0
    for seed in range(8):
        rng = random.Random(seed)
        table = started("memory", players=2, seed=seed)
        assert table.state is not None
        while not table.state.is_terminal() and pressed < 4_000 * (seed + 1):
            before = table.state.version
            played(table, 1, rng)
            pressed += 1
            forced_seen += table.state.version - before - 1  # each version is one action applied
            for seat in table.state.seats_to_act():
                if table.state.phase is not Phase.MEMORISE:
                    assert len(table.state.legal_actions(seat)) > 1
    assert forced_seen > 0


def test_a_forced_action_is_in_the_log_and_the_game_replays_from_it() -> None:
    rng = random.Random(3)
    table = started("memory", players=2, seed=3)
    assert table.state is not None
    while not table.state.is_terminal():
        played(table, 1, rng)
    replayed = GAMES["memory"].new_game(2, table.state.seed)
    for seat, code in table.state.history:
        replayed.apply(seat, code)
    assert replayed.is_terminal() and replayed.standings() == table.state.standings()


def _picker_labels(positions: list[str]) -> list[str]:
    """The labels of the grid picker of looks at ``positions`` of a 4 × 4 board, no row chosen."""
    rows, columns = "ABCD", "1234"
    cells = tuple(tuple(Cell() for _ in columns) for _ in rows)
    actions = tuple(LegalAction(f"look.{name}", name, group="Look at a card…") for name in positions)
    board = Board(tuple(rows), tuple(columns), cells)
    grid = action_menus.grid_pick(actions, board)
    assert grid is not None
    items = action_menus.grid_picker("memotest", 4, grid, board, lambda text: text, None)
    return [component["label"] for _, component in items]


def test_a_row_of_the_grid_with_one_choice_is_that_choice_in_one_press() -> None:
    full_rows = ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    assert _picker_labels([*full_rows, "C1", "C2", "C3"]) == ["Row A", "Row B", "Row C"]
    assert _picker_labels([*full_rows, "C1", "C2", "C3", "D4"]) == ["Row A", "Row B", "Row C", "D4"]
    assert _picker_labels([*full_rows, "D4"]) == [*full_rows, "D4"]  # ten or fewer: each at once
