"""Time controls: a fixed clock, a time bank per seat (spent by the time used, then the increment, capped;
an empty bank plays the default as a timeout; simultaneous decisions each spend their own bank; a
decision whose length the game fixes pauses the bank), slow mode's clock and "your turn" notices, and the
lobby's choice of clock."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from cogs.tables import render
from cogs.tables.lobby_menus import MENU_ROWS
from cogs.tables.turn_alerts import turn_notice
from engine import get_rules
from engine.tables import ai_seats, lobby_options
from engine.tables.session import TableDraft, TableError, TablePhase, TableSession, TableSettings
from engine.tables.step import newly_waiting
from engine.tables.time_control import (
    SeatBank,
    TimeControl,
    clock_face,
    duration,
    run_out,
    seat_clock,
)
from tests.tables import drawing
from tests.tables.toy_game import PickAndCall

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc)
HOST, BOB, CAROL = 1, 2, 3
BANK = TimeControl("bank", bank_seconds=60, increment_seconds=10, cap_seconds=65, slow_seconds=7200)


def at(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)


def table(control: TimeControl, *, slow_call: bool = False, players: int = 2) -> TableSession:
    session = TableDraft(
        "bank1234", 10, 20, PickAndCall(), TableSettings(30, 5, 2, time_control=control), HOST, "host"
    )
    for user in (BOB, CAROL)[: players - 1]:
        session.join(user, f"user{user}")
    if slow_call:
        session.set_option(HOST, "slow_call", True)
    session.start(HOST, 1, NOW)
    return session


def pick(session: TableSession, user: int, seconds: float) -> None:
    assert session.state is not None
    session.act(user, session.state.version, "pick.7", at(seconds))


def test_every_bank_starts_full_and_runs_while_its_seat_is_waited_for() -> None:
    session = table(BANK)
    assert session.banks == [SeatBank(60, NOW), SeatBank(60, NOW)]
    assert session.seat_deadlines == {0: at(60), 1: at(60)}
    assert session.banks[0].left(at(25)) == 35 and session.banks[0].left(at(99)) == 0


def test_simultaneous_decisions_each_spend_their_own_bank() -> None:
    session = table(BANK, players=3)
    pick(session, BOB, 20)  # seat 1 used 20 s: 40 left, then the 10 s increment
    assert session.banks[1] == SeatBank(50)
    assert session.banks[0] == SeatBank(60, NOW) and session.banks[2] == SeatBank(60, NOW)  # still running
    assert session.seat_deadlines == {0: at(60), 2: at(60)}  # their clocks did not restart
    pick(session, CAROL, 45)
    assert session.banks[2] == SeatBank(25)
    assert session.seat_deadlines == {0: at(60)}


def test_the_increment_never_lifts_a_bank_above_its_cap() -> None:
    session = table(BANK)
    pick(session, BOB, 2)  # 58 left + 10 = 68, capped at 65
    assert session.banks[1] == SeatBank(65)


def test_a_seat_that_moves_again_restarts_its_bank_from_its_move() -> None:
    session = table(BANK)
    pick(session, BOB, 1)
    pick(session, HOST, 30)  # seat 0: 30 left + 10; then it must call, so its bank runs again from now
    assert session.banks[0] == SeatBank(40, at(30))
    assert session.seat_deadlines == {0: at(70)}
    assert session.state is not None
    session.act(HOST, session.state.version, "tap", at(35))  # a tap is a move: 5 s spent, 10 s credited
    assert session.banks[0] == SeatBank(45, at(35))
    assert session.seat_deadlines == {0: at(80)}


def test_an_empty_bank_plays_the_default_action_as_a_timeout() -> None:
    session = table(BANK)
    pick(session, HOST, 10)
    assert session.state is not None
    version = session.state.version
    assert session.time_out(version, at(58)) == []  # more than a second early: nothing happens
    events = session.time_out(version, at(60))
    assert [event.text for event in events][:1] == ["ran out of time."] and events[0].seat == 1
    assert session.state.picks[1] == 1  # the default pick
    assert session.timeouts_in_row[1] == 1
    assert session.unsaved_actions()[-1][3] is True  # stored as timed out
    assert session.banks[1] == SeatBank(10)  # empty, then the increment like after any move


def test_a_clock_that_fires_a_little_early_still_empties_the_bank() -> None:
    session = table(BANK)
    pick(session, HOST, 10)
    assert session.state is not None
    session.time_out(session.state.version, at(59.5))  # within the second the clocks allow
    assert session.banks[1] == SeatBank(10)


def test_an_idle_seats_short_turn_spends_only_the_time_it_used() -> None:
    banks = [SeatBank(60, NOW)]
    assert run_out(banks, 0, at(5)) == banks  # a short (idle) turn ran out: the bank is not emptied
    assert run_out(banks, 0, at(60)) == [SeatBank(0, NOW)]
    session = table(BANK)
    session.idle_seats.add(1)
    pick(session, HOST, 1)
    assert session.seat_deadlines == {1: at(5)}  # an idle seat's turn: at most idle_turn_seconds
    assert session.state is not None
    session.time_out(session.state.version, at(5))
    assert session.banks[1] == SeatBank(65)  # 55 left + 10, capped


def test_a_decision_whose_length_the_game_fixes_pauses_the_bank() -> None:
    session = table(BANK, slow_call=True)
    pick(session, BOB, 1)
    pick(session, HOST, 20)
    assert session.banks[0] == SeatBank(50)  # not running during the game's own 90-second call
    assert session.seat_deadlines == {0: at(110)}
    assert session.state is not None
    session.act(HOST, session.state.version, "tap", at(50))  # one clock for the taps and the call
    assert session.banks[0] == SeatBank(50)
    assert session.seat_deadlines == {0: at(110)}


def test_fixed_and_slow_clocks_keep_no_banks() -> None:
    fixed = table(TimeControl())
    assert fixed.banks == [] and fixed.seat_deadlines == {0: at(30), 1: at(30)}
    slow = table(replace(BANK, kind="slow"))
    assert slow.banks == [] and slow.seat_deadlines == {0: at(7200), 1: at(7200)}
    assert seat_clock(slow.settings.time_control, slow.banks, 0) == ""


def test_words_for_times() -> None:
    assert duration(300) == "5 min" and duration(90) == "1 min 30 s" and duration(2) == "2 s"
    assert duration(86400) == "24 h" and duration(0) == "0 s"
    assert clock_face(245.9) == "4:05" and clock_face(2.5) == "0:02" and clock_face(86399) == "23:59:59"
    assert clock_face(-1) == "0:00"
    control = TimeControl()
    assert control.label("bank", 60) == "bank 5 min + 10 s per move (cap 10 min)"
    assert control.label("fixed", 60) == "fixed 1 min per decision"
    assert control.label("slow", 60) == "slow: 24 h per decision, DM on your turn"
    with pytest.raises(ValueError):
        control.with_kind("blitz")


def test_the_table_message_shows_each_seats_bank() -> None:
    session = table(BANK)
    pick(session, BOB, 20)
    players = "\n".join(drawing.seat_lines(render.table_message(session)))
    assert "**host** ⏳ 1:00" in players and "**user2** ⏳ 0:50" in players


def test_the_host_chooses_the_clock_in_the_lobby() -> None:
    session = TableDraft("bank1234", 10, 20, PickAndCall(), TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    with pytest.raises(TableError, match="host"):
        lobby_options.choose(session, BOB, lobby_options.CLOCK_MENU, ["bank"])
    with pytest.raises(TableError, match="not allowed"):
        lobby_options.choose(session, HOST, lobby_options.CLOCK_MENU, ["blitz"])
    assert session.settings.time_control.kind == "fixed"
    lobby_options.choose(session, HOST, lobby_options.CLOCK_MENU, ["bank"])
    assert session.settings.time_control == TimeControl("bank")
    lobby = render.lobby_message(session)
    clock = lobby.embed["fields"][1]
    assert (clock["name"], clock["value"]) == ("Clock", "bank 5 min + 10 s per move (cap 10 min)")
    (menu,) = [menu for menu in drawing.menus(lobby) if menu["custom_id"].endswith("o.clock")]
    assert [(option["value"], option["default"]) for option in menu["options"]] == [
        ("fixed", False),
        ("bank", True),
        ("slow", False),
    ]
    session.start(HOST, 1, NOW)
    assert len(session.banks) == 2
    with pytest.raises(TableError, match="before the game starts"):
        lobby_options.choose(session, HOST, lobby_options.CLOCK_MENU, ["fixed"])


def test_a_lobby_whose_game_options_fill_every_row_offers_no_clock_menu() -> None:
    session = TableDraft("full1234", 10, 20, get_rules("minimisere"), TableSettings(30, 5, 2), HOST, "h")
    ai_seats.add_ai(session, HOST)
    ai_seats.add_ai(session, HOST)
    menus = render.option_menus(session)
    # Three players: Minimisère's target and how a game ends, and the AI seats' levels fill the lobby's
    # three menu rows: the clock is set with /play clock:.
    assert len(menus) == MENU_ROWS == 3 and not any(menu["custom_id"].endswith("o.clock") for menu in menus)


def test_each_player_the_game_starts_waiting_for_has_a_new_turn_and_a_slow_notice_says_until_when() -> None:
    session = table(replace(BANK, kind="slow"), players=3)
    assert sorted(newly_waiting(session, frozenset())) == [HOST, BOB, CAROL]
    before = frozenset(session.users_to_act())
    pick(session, BOB, 5)
    assert newly_waiting(session, before) == ()  # nobody new to act
    notice = turn_notice(session, HOST, "https://discord.com/channels/10/20/30")
    assert "It is your turn at the **Pick and call** table" in notice
    assert f"<t:{int(at(7200).timestamp())}:f>" in notice and notice.endswith(
        "(https://discord.com/channels/10/20/30)"
    )
    fixed = table(BANK)
    assert sorted(newly_waiting(fixed, frozenset())) == [HOST, BOB]
    fixed.phase = TablePhase.SCOREBOARD
    assert newly_waiting(fixed, frozenset()) == ()
