"""The table runtime's generic features, on a toy game: simultaneous decisions with one clock and one
version per seat, optional out-of-turn actions, fixed decision clocks, lobby options, select menus."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from cogs.tables import custom_ids as ids
from cogs.tables import embeds, layouts, lengths, render
from engine import IllegalAction, LegalAction
from engine.tables import lobby_options
from engine.tables.session import TableDraft, TableError, TablePhase, TableSession, TableSettings
from tests.tables import drawing
from tests.tables.toy_game import PickAndCall

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
HOST, BOB, CAROL = 1, 2, 3


def lobby() -> TableSession:
    session = TableDraft("toy12345", 10, 20, PickAndCall(), TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    session.join(CAROL, "carol")
    return session


def started(**options: object) -> TableSession:
    session = lobby()
    for name, value in options.items():
        session.set_option(HOST, name, value)
    session.start(HOST, 1, NOW)
    return session


def test_simultaneous_picks_each_keep_their_own_version_and_clock() -> None:
    session = started()
    assert sorted(session.users_to_act()) == [HOST, BOB, CAROL]
    drawn_at = session.state.version
    later = NOW + timedelta(seconds=10)
    session.act(BOB, drawn_at, "pick.3", later)
    # Carol's buttons, drawn before Bob picked, are still current for her; her clock did not restart.
    session.act(CAROL, drawn_at, "pick.9", later)
    assert session.seat_deadlines[0] == NOW + timedelta(seconds=30)
    # Bob's own double-click is stale: his decision changed when he acted.
    with pytest.raises(TableError, match="earlier turn"):
        session.act(BOB, drawn_at, "pick.4", later)
    assert session.state.picks == {1: 3, 2: 9}


def test_the_clock_plays_defaults_only_for_seats_whose_own_clock_ran_out() -> None:
    session = started()
    session.act(BOB, 0, "pick.3", NOW)
    session.act(CAROL, 1, "pick.9", NOW + timedelta(seconds=20))
    events = session.time_out(session.state.version, session.deadline)
    assert [event.seat for event in events][:1] == [0] and session.state.picks[0] == 1
    # Now seat 0 must call, on a fresh clock.
    assert session.users_to_act() == [HOST]
    assert session.deadline == NOW + timedelta(seconds=60)


def test_out_of_turn_actions_are_taken_without_the_game_waiting() -> None:
    session = started()
    for user, pick in ((HOST, "pick.1"), (BOB, "pick.2"), (CAROL, "pick.3")):
        session.act(user, session.state.version, pick, NOW)
    assert session.users_to_act() == [HOST]
    assert sorted(session.users_with_actions()) == [HOST, BOB, CAROL]
    session.act(BOB, session.state.version, "shout", NOW)
    with pytest.raises(IllegalAction):
        session.act(BOB, session.state.version, "shout", NOW)  # once only
    with pytest.raises(IllegalAction, match="not your turn"):
        session.act(BOB, session.state.version, "call", NOW)
    session.act(HOST, session.state.version, "call", NOW)
    assert session.phase is TablePhase.SCOREBOARD


def test_a_game_fixed_clock_overrides_the_table_turn_length_and_can_span_actions() -> None:
    session = started(slow_call=True)
    for user, pick in ((HOST, "pick.1"), (BOB, "pick.2"), (CAROL, "pick.3")):
        session.act(user, session.state.version, pick, NOW)
    assert session.deadline == NOW + timedelta(seconds=90)
    for second in (10, 20, 30):  # the same named clock keeps running through the taps
        session.act(HOST, session.state.version, "tap", NOW + timedelta(seconds=second))
    assert session.deadline == NOW + timedelta(seconds=90)


def test_without_a_named_clock_each_action_restarts_the_seats_clock() -> None:
    session = started()
    for user, pick in ((HOST, "pick.1"), (BOB, "pick.2"), (CAROL, "pick.3")):
        session.act(user, session.state.version, pick, NOW)
    session.act(HOST, session.state.version, "tap", NOW + timedelta(seconds=10))
    assert session.deadline == NOW + timedelta(seconds=40)


def test_lobby_options_are_host_only_checked_and_used_by_the_deal() -> None:
    session = lobby()
    with pytest.raises(TableError, match="host"):
        session.set_option(BOB, "slow_call", True)
    with pytest.raises(TableError, match="not allowed"):
        session.set_option(HOST, "rounds", 9)
    with pytest.raises(TableError, match="not one of"):
        session.set_option(HOST, "speed", 2)
    assert session.options == {}
    session.set_option(HOST, "rounds", 2)
    session.set_option(HOST, "slow_call", True)
    session.start(HOST, 1, NOW)
    assert session.state.options.rounds == 2 and session.state.options.slow_call


def test_lobby_menus_offer_switches_together_and_bounded_numbers() -> None:
    session = lobby()
    session.set_option(HOST, "slow_call", True)
    switches, rounds, clock = render.option_menus(session)
    assert [(o["value"], o["default"]) for o in clock["options"]] == [("fixed", 1), ("bank", 0), ("slow", 0)]
    assert (switches["min_values"], switches["max_values"]) == (0, 1)
    assert [(o["value"], o["default"]) for o in switches["options"]] == [("slow_call", True)]
    assert [o["value"] for o in rounds["options"]] == ["1", "2", "3"]
    assert ids.parse_option_select(rounds["custom_id"]) == ("toy12345", "rounds")
    assert lobby_options.option_value(session, "rounds", "3") == 3
    with pytest.raises(KeyError):
        lobby_options.option_value(session, "rounds", "7")


def test_grouped_actions_become_select_menus_of_25() -> None:
    session = started()
    menus = drawing.menus(render.private_message(session, BOB))
    assert [len(menu["options"]) for menu in menus] == [25, 5]
    assert menus[0]["placeholder"] == "Pick a number… (1/2)"
    chosen = ids.parse_select(menus[1]["custom_id"], menus[1]["options"][0]["value"])
    assert chosen == ids.TableCustomId.for_action("toy12345", 0, "pick.26")
    assert ids.parse_select(menus[1]["custom_id"], "bad:value") is None


def test_too_many_buttons_fold_into_a_menu_and_over_100_choices_go_on_pages() -> None:
    session = started()
    many_buttons = tuple(LegalAction(f"b{n}", f"B{n}") for n in range(21))
    items = [item for _, item in render.action_components(session, many_buttons)]
    assert all(item["type"] == drawing.SELECT for item in items) and len(items) == 1
    few = [item for _, item in render.action_components(session, many_buttons[:7])]
    assert all(item["type"] == drawing.BUTTON for item in few)
    too_many = tuple(LegalAction(f"c{n}", f"C{n}", group="g") for n in range(101))
    first = render.action_components(session, too_many)
    kinds = [(row, item["type"]) for row, item in first]  # 100 in four menus, then "Next ▶"
    assert kinds == [(row, drawing.SELECT) for row in range(4)] + [(4, drawing.BUTTON)]
    assert ids.TableCustomId.parse(first[-1][1]["custom_id"]).page == 1
    second = render.action_components(session, too_many, page=1)
    assert [option["value"] for option in second[0][1]["options"]] == ["c100"]


def test_an_oversized_embed_is_trimmed_to_discords_total_keeping_the_turn_line() -> None:
    import discord

    embed = embeds.embed("T", "Turn: **bob**\n\n" + "\n".join(f"move {n}" for n in range(900)), 0)
    embed["fields"] = [embeds.field(f"F{n}", "x" * 1000) for n in range(10)]
    lengths.fit_embed(embed)
    assert len(discord.Embed.from_dict(embed)) <= 6000
    assert embed["description"].startswith("Turn: **bob**") and embed["description"].endswith("move 899")
    assert all(field["value"] for field in embed["fields"])


def test_an_oversized_card_is_trimmed_to_a_layouts_total_keeping_the_turn_line_and_room_for_a_dm_intro() -> (
    None
):
    """A card's layout keeps within Discord's 4,000 characters of text displays, less a DM's intro, as Discord
    counts them (:func:`cogs.tables.lengths.message_size`)."""
    log = "\n".join(f"move {n}" for n in range(900))
    text = layouts.Card(0, "T", "Turn: **bob**\n\n" + log, url="https://discord.com/channels/1/2/3")
    text.fields = [layouts.CardField(f"F{n}", "x" * 1000, n % 2 == 0) for n in range(10)] + [
        layouts.CardField("Short", "a line")
    ]
    text.footer = "table tbl12345 · move 901"
    lengths.fit_card(text)
    message = {"components": list(layouts.card(text))}
    assert lengths.message_size(message) <= lengths.LAYOUT_TEXT_MAX - lengths.DM_INTRO
    assert text.description.startswith("Turn: **bob**") and text.description.endswith("move 899")
    assert all(field.value for field in text.fields) and text.fields[-1].value == "a line"
