"""The table's bookkeeping without Discord: lobby, start, versions, timeouts, idle players, rematch."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine import IllegalAction, get_rules
from engine.lobby import Lobby, LobbyError, Rematch, RematchChoice
from engine.tables.session import TableDraft, TableError, TablePhase, TableSession, TableSettings

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
HOST, BOB, CAROL, DAVE = 1, 2, 3, 4


def table(turn: int = 30, idle_turn: int = 5, idle_after: int = 2) -> TableSession:
    return TableDraft(
        "abcd1234", 10, 20, get_rules("foist"), TableSettings(turn, idle_turn, idle_after), HOST, "host"
    )


def started(players: tuple[int, ...] = (BOB, CAROL), seed: int = 3) -> TableSession:
    session = table()
    for user in players:
        session.join(user, f"user{user}")
    session.start(HOST, seed, NOW)
    return session


def user_to_act(session: TableSession) -> int:
    (user,) = session.users_to_act()
    return user


# -- lobby -----------------------------------------------------------------------------------------


def test_host_is_seated_and_players_join_in_order() -> None:
    session = table()
    session.join(BOB, "bob")
    assert session.lobby.players == [HOST, BOB]
    assert session.names[BOB] == "bob"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda s: s.join(HOST, "host"), "already joined"),
        (lambda s: s.leave(DAVE), "not at this table"),
        (lambda s: s.start(BOB, 1, NOW), "Only the host"),
        (lambda s: s.start(HOST, 1, NOW), "at least 3 players"),
        (lambda s: s.cancel(BOB), "Only the host"),
    ],
)
def test_lobby_refusals_change_nothing(action, message: str) -> None:
    session = table()
    session.join(BOB, "bob")
    before = (list(session.lobby.players), session.host_id, session.phase)
    with pytest.raises(TableError, match=message):
        action(session)
    assert (list(session.lobby.players), session.host_id, session.phase) == before


def test_table_is_full_at_the_games_maximum() -> None:
    session = table()
    for user in range(2, 8):
        session.join(user, f"u{user}")
    with pytest.raises(TableError, match="full"):
        session.join(99, "late")


def test_host_leaving_passes_the_table_and_the_last_leaver_closes_it() -> None:
    session = table()
    session.join(BOB, "bob")
    session.leave(HOST)
    assert session.host_id == BOB
    session.leave(BOB)
    assert session.phase is TablePhase.CLOSED


def test_cancel_closes_the_lobby() -> None:
    session = table()
    session.cancel(HOST)
    assert session.phase is TablePhase.CLOSED


def test_start_seats_players_in_join_order_and_sets_the_deadline() -> None:
    session = started()
    assert session.phase is TablePhase.PLAYING
    assert session.players == [HOST, BOB, CAROL]
    assert session.deadline == NOW + timedelta(seconds=30)
    with pytest.raises(TableError, match="not taking players"):
        session.join(DAVE, "dave")
    with pytest.raises(TableError, match="already started"):
        session.start(HOST, 1, NOW)


# -- play ------------------------------------------------------------------------------------------


def test_act_checks_seat_version_and_turn() -> None:
    session = started()
    actor = user_to_act(session)
    other = next(user for user in session.players if user != actor)
    with pytest.raises(TableError, match="not playing"):
        session.act(DAVE, 0, "pay", NOW)
    with pytest.raises(TableError, match="earlier turn"):
        session.act(actor, 5, "pay", NOW)
    with pytest.raises(IllegalAction, match="not your turn"):
        session.act(other, 0, "pay", NOW)
    session.act(actor, 0, "pay", NOW + timedelta(seconds=3))
    assert session.state.version == 1
    assert session.deadline == NOW + timedelta(seconds=33)
    with pytest.raises(TableError, match="earlier turn"):
        session.act(user_to_act(session), 0, "pay", NOW)


def test_timeout_plays_the_default_and_a_stale_clock_does_nothing() -> None:
    session = started()
    actor = user_to_act(session)
    seat = session.seat_of(actor)
    events = session.time_out(0, session.deadline or NOW)
    assert events[0].seat == seat and "ran out of time" in events[0].text
    assert session.state.history == [(seat, "pay")]  # pay a token if possible
    assert session.time_out(0, session.deadline or NOW) == []
    assert session.state.version == 1


def test_repeated_timeouts_mark_idle_shorten_turns_and_acting_clears_it() -> None:
    session = started()
    seat_of_first = session.seat_of(user_to_act(session))
    rounds = 0
    while seat_of_first not in session.idle_seats:
        session.time_out(session.state.version, session.deadline)
        rounds += 1
        assert rounds < 20
    assert session.timeouts_in_row[seat_of_first] == 2
    when = NOW
    while session.seat_of(user_to_act(session)) != seat_of_first:
        when = session.deadline
        session.time_out(session.state.version, when)
    assert session.deadline == when + timedelta(seconds=5)
    session.act(session.players[seat_of_first], session.state.version, "pay", NOW)
    assert seat_of_first not in session.idle_seats
    assert session.timeouts_in_row[seat_of_first] == 0


def test_a_finished_game_opens_the_scoreboard_and_rematch() -> None:
    session = started()
    while session.phase is TablePhase.PLAYING:
        user = user_to_act(session)
        session.act(user, session.state.version, "take", NOW)
    assert session.phase is TablePhase.SCOREBOARD
    assert session.deadline is None
    assert len(session.standings()) == 3
    with pytest.raises(TableError, match="over"):
        session.act(HOST, session.state.version, "take", NOW)
    session.choose_rematch(HOST, RematchChoice.PLAY_AGAIN)
    session.choose_rematch(BOB, RematchChoice.LEAVE)
    with pytest.raises(TableError, match="Only the players"):
        session.choose_rematch(DAVE, RematchChoice.PLAY_AGAIN)
    assert not session.rematch.everyone_chose
    session.choose_rematch(CAROL, RematchChoice.PLAY_AGAIN)
    assert session.rematch.everyone_chose
    with pytest.raises(TableError, match="already"):
        session.choose_rematch(BOB, RematchChoice.PLAY_AGAIN)
    lobby = session.rematch.next_lobby(3, 7)
    assert lobby.players == [HOST, CAROL] and lobby.host_id == HOST


# -- the pure lobby and rematch --------------------------------------------------------------------


def test_rematch_host_passes_when_the_host_leaves_and_nobody_means_no_lobby() -> None:
    rematch = Rematch(players=[1, 2, 3], host_id=1)
    rematch.choose(1, RematchChoice.LEAVE)
    rematch.choose(3, RematchChoice.PLAY_AGAIN)
    assert rematch.next_lobby(3, 7).host_id == 3
    empty = Rematch(players=[1, 2], host_id=1)
    assert empty.next_lobby(3, 7) is None


def test_closing_the_rematch_makes_the_undecided_leave() -> None:
    rematch = Rematch(players=[1, 2, 3], host_id=1)
    rematch.choose(2, RematchChoice.PLAY_AGAIN)
    rematch.close()
    assert rematch.choices == {1: RematchChoice.LEAVE, 2: RematchChoice.PLAY_AGAIN, 3: RematchChoice.LEAVE}
    assert rematch.next_lobby(3, 7).players == [2]


def test_lobby_players_can_change_their_mind_before_everyone_chose() -> None:
    rematch = Rematch(players=[1, 2], host_id=1)
    rematch.choose(1, RematchChoice.LEAVE)
    rematch.choose(1, RematchChoice.PLAY_AGAIN)
    assert rematch.staying == [1]


def test_lobby_error_texts() -> None:
    lobby = Lobby(host_id=1, min_seats=3, max_seats=3)
    lobby.join(2)
    with pytest.raises(LobbyError, match="waiting for 1 more"):
        lobby.check_can_start(1)
    lobby.join(3)
    lobby.check_can_start(1)
    with pytest.raises(LobbyError, match="full"):
        lobby.join(4)


def test_a_missed_turn_of_several_decisions_counts_once() -> None:
    """A Declare turn is two decisions (throw, then pick): missing one whole turn is one missed turn, so the
    seat is away only after ``idle_after_timeouts`` (2) turns, not after one."""
    session = TableDraft("decl1234", 10, 20, get_rules("declare"), TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    session.start(HOST, 5, NOW)
    first = session.state.seats_to_act()[0]
    decisions = 0
    while session.state.seats_to_act() == (first,):  # the first seat's whole turn runs out
        session.time_out(session.state.version, session.seat_deadlines[first])
        decisions += 1
    assert decisions >= 2  # the turn was several decisions
    assert session.timeouts_in_row[first] == 1 and first not in session.idle_seats
    while first not in session.state.seats_to_act():  # the other seat's turn runs out too
        session.time_out(session.state.version, session.deadline)
    while first not in session.idle_seats:  # the first seat's second missed turn makes it away
        assert session.state.seats_to_act() == (first,), "away only after its second missed turn"
        session.time_out(session.state.version, session.seat_deadlines[first])
    assert session.timeouts_in_row[first] == 2
