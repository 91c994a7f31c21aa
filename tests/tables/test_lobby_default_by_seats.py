"""A game option whose default depends on the number of players (Minimisère's target: "Game is any agreed
target (such as 31)" with three players, "Game is 25 points" with more): the lobby shows what it means
for the players seated, lets the host choose a number, and the deal uses it."""

from __future__ import annotations

from datetime import datetime, timezone

from cogs.tables import render
from cogs.tables.rules_in_play import rules_in_play
from engine import GAMES
from engine.tables import lobby_options
from engine.tables.session import TableDraft, TableSession, TableSettings

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
HOST, BOB, CAROL, DAVE = 1, 2, 3, 4


def lobby(*players: int) -> TableSession:
    session = TableDraft("mini1234", 10, 20, GAMES["minimisere"], TableSettings(30, 5, 2), HOST, "host")
    for user in players:
        session.join(user, f"player{user}")
    return session


def _target(session: TableSession) -> lobby_options.OptionChoice:
    return next(choice for choice in lobby_options.option_choices(session) if choice.name == "target")


def test_the_target_left_at_its_default_is_31_with_three_players_and_25_with_four() -> None:
    session = lobby(BOB, CAROL)
    target = _target(session)
    assert target.current is None and target.current_label.startswith("31 ")
    assert [value for _, value in target.values] == [str(n) for n in range(15, 40)]
    session.join(DAVE, "dave")
    assert _target(session).current_label.startswith("25 ")
    session.leave(DAVE)
    session.start(HOST, 7, NOW)
    assert session.state.options.target is None and session.state.target == 31


def test_the_host_may_choose_a_number_from_the_menu() -> None:
    session = lobby(BOB, CAROL)
    assert lobby_options.option_value(session, "target", "25") == 25
    lobby_options.choose(session, HOST, "target", ["25"])
    assert _target(session).current_label == "25"
    menus = {menu["custom_id"].split(":")[-1]: menu for menu in render.option_menus(session)}
    target = next(menu for key, menu in menus.items() if key.endswith("target"))
    chosen = [option["value"] for option in target["options"] if option.get("description") == "now set"]
    assert chosen == ["25"] and target["placeholder"].endswith("(now: 25)")  # the value the host set
    session.start(HOST, 7, NOW)
    assert session.state.target == 25


def test_rules_in_play_list_the_options_of_the_table_s_size_only() -> None:
    """Minimisère's three-player options are not listed at a table of four, nor its four-or-five at three."""
    cases = (
        ((BOB, CAROL), "3 players:", "4 or 5 players:"),
        ((BOB, CAROL, DAVE), "4 or 5 players:", "3 players:"),
    )
    for players, shown, hidden in cases:
        session = lobby(*players)
        session.start(HOST, 1, NOW)
        description = rules_in_play(TableSession(session)).embed["description"]
        assert shown in description and hidden not in description, description
