"""The AI seats' turns without Discord (:mod:`engine.tables.ai_turns`): an AI thinks in a worker thread while
the table answers presses, a move thought for a state the game has left is dropped (never applied twice),
and the pause before an AI move holds nothing a person's press waits for. Also the lobby's AI seats and
the seat rules of :mod:`engine.tables.ai_seats`."""

from __future__ import annotations

import asyncio
import random
import threading
from datetime import datetime, timezone

import pytest

from engine import get_rules
from engine.ai.core import AIPlayer, RandomPlayer
from engine.tables import ai_seats, moves
from engine.tables.ai_seats import come_back, leave_game
from engine.tables.ai_turns import AITurns, decision_rng, seat_to_play
from engine.tables.session import TableDraft, TableError, TablePhase, TableSession, TableSettings
from engine.tables.snapshot import TableSnapshot, restore, snapshot_of
from engine.tables.step import newly_waiting
from tests.tables.fakes import make_runtime

NOW = datetime(2026, 11, 24, 5, 0, tzinfo=timezone.utc)
HOST, BOB = 101, 102


def lobby(game: str = "foist") -> TableDraft:
    return TableDraft("aitable1", 10, 20, get_rules(game), TableSettings(30, 30, 2), HOST, "host")


def human_and_ais(seed: int = 3) -> TableDraft:
    """A Foist table of the host and two AI seats, started."""
    session = lobby()
    ai_seats.add_ai(session, HOST)
    ai_seats.add_ai(session, HOST)
    session.start(HOST, seed, NOW)
    return session


class GatedPlayer(AIPlayer):
    """An AI player that waits in its worker thread until the test opens the gate, then plays randomly."""

    name = "gated"

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.gate = threading.Event()

    def decide(self, seen, rng):
        self.thinking.set()
        assert self.gate.wait(10), "the test never opened the gate"
        return RandomPlayer().decide(seen, rng)


def turns_for(
    draft: TableDraft, player, pause: float = 0.0
) -> tuple[TableSession, AITurns, list[int], object]:
    """``draft`` live in a runtime on stand-ins (tests.tables.fakes): the live table, the runtime's AI
    turns, the length of the stored action log after each save, and the runtime."""
    world = make_runtime(player=player, ai_pause_seconds=pause)
    session = TableSession(draft)
    world.runtime.registry.register(session)
    return session, world.runtime.ai_turns, world.db.logged, world.runtime


def restored(session: TableDraft | TableSession, stored: dict | None = None, log=None) -> TableDraft:
    """The table as a restart brings it back from its snapshot (``stored``, else its own) and log, as a
    draft to play on."""
    stored = snapshot_of(session).to_stored() if stored is None else stored
    return restore(TableSnapshot.from_stored(stored), _log(session) if log is None else log).value.draft()


def make_human_away(session: TableDraft) -> int:
    """Let the host's clock run out until an AI takes their seat over (the AI seats play meanwhile);
    returns the host's seat, which the game then waits for."""
    seat = session.seat_of(HOST)
    while seat not in session.idle_seats or seat_to_play(session) != seat:
        (to_act,) = session.state.seats_to_act()
        if to_act == seat:
            session.time_out(session.state.version, session.seat_deadlines[seat])
        else:
            code = session.state.default_action(to_act)
            session.act(session.players[to_act], session.state.version, code, NOW, by_ai=True)
    return seat


# -- the lobby -------------------------------------------------------------------------------------


def test_the_host_adds_and_removes_ai_players_with_distinct_names_and_negative_ids() -> None:
    session = lobby()
    first, second = ai_seats.add_ai(session, HOST), ai_seats.add_ai(session, HOST)
    assert first < 0 and second < 0 and first != second
    assert session.names[first] != session.names[second]
    assert all(session.names[ai].startswith(ai_seats.AI_MARKER) for ai in (first, second))
    assert ai_seats.remove_ai(session, HOST) == second
    assert session.lobby.players == [HOST, first]  # a draft's lobby


def test_only_the_host_seats_ai_players_and_not_beyond_the_seat_range() -> None:
    session = lobby()
    session.join(BOB, "bob")
    with pytest.raises(TableError, match="Only the host"):
        ai_seats.add_ai(session, BOB)
    with pytest.raises(TableError, match="no AI player"):
        ai_seats.remove_ai(session, HOST)
    ai_seats.seat_bots(session, 5)  # Foist seats 3 to 7
    with pytest.raises(TableError, match="full"):
        ai_seats.add_ai(session, HOST)
    with pytest.raises(TableError, match="at most"):
        ai_seats.seat_bots(lobby(), 7)


def test_a_lobby_left_to_ais_closes_and_an_ai_never_hosts() -> None:
    session = lobby()
    ai_seats.add_ai(session, HOST)
    session.join(BOB, "bob")
    session.leave(HOST)
    ai_seats.after_lobby_leave(session)
    assert session.host_id == BOB and session.phase is TablePhase.LOBBY
    session.leave(BOB)
    ai_seats.after_lobby_leave(session)
    assert session.phase is TablePhase.CLOSED


def test_ai_seats_leavers_and_players_away_survive_the_snapshot() -> None:
    session = human_and_ais()
    seat = make_human_away(session)
    again = restored(session)
    assert again.players == session.players and again.names == session.names
    assert again.idle_seats == {seat}
    leave_game(again, HOST)
    later = restored(again)
    assert later.left_seats == {seat} and later.idle_seats == set()
    older = snapshot_of(session).to_stored()
    del older["left_seats"]  # a snapshot stored before leavers existed
    assert restored(session, older).left_seats == set()


def _log(session: TableDraft | TableSession) -> list[tuple[int, str, bool]]:
    return [(seat, code, False) for seat, code in session.state.history]


def test_a_leaver_can_no_longer_act_and_is_offered_no_rematch() -> None:
    session = human_and_ais()
    seat = session.seat_of(HOST)
    leave_game(session, HOST)
    assert ai_seats.ai_plays(session, seat) and ai_seats.nobody_left(session)
    with pytest.raises(TableError):
        session.act(HOST, session.state.version, "pay", NOW)
    while session.phase is TablePhase.PLAYING:
        (to_act,) = session.state.seats_to_act()
        code = session.state.default_action(to_act)
        session.act(session.players[to_act], session.state.version, code, NOW, by_ai=True)
    assert session.rematch.players == [HOST]  # the AIs are not asked
    assert session.rematch.everyone_chose  # and the leaver has left


# -- the AI's turns -------------------------------------------------------------------------------


async def test_ais_play_until_the_game_waits_for_a_person() -> None:
    session, turns, saved, _ = turns_for(human_and_ais(), RandomPlayer())
    turns.schedule(session)
    if session.table_id in turns.running:
        await turns.running[session.table_id]
    assert seat_to_play(session) is None
    assert session.users_to_act() == [HOST] or session.phase is TablePhase.SCOREBOARD
    assert saved and saved[-1] == len(session.state.history)  # every AI move was stored


async def test_a_move_thought_for_a_state_the_game_left_is_dropped_never_applied() -> None:
    draft = human_and_ais()
    seat = make_human_away(draft)
    player = GatedPlayer()
    session, turns, saved, runtime = turns_for(draft, player)
    turns.schedule(session)
    task = turns.running[session.table_id]
    assert await asyncio.to_thread(player.thinking.wait, 10)
    # While the AI thinks in its worker, the loop answers the player: "I'm back", then their move.
    await runtime.commit(session, moves.ComeBack(HOST))
    version = session.state.version
    code = session.state.default_action(seat)
    await runtime.commit(session, moves.Play(HOST, version, code))
    player.gate.set()
    await task
    assert turns.dropped == 1
    assert session.state.history[version] == (seat, code)  # the player's move, and no AI move for it
    assert all(played != seat for played, _ in session.state.history[version + 1 :])
    assert saved[-1] == len(session.state.history)


async def test_the_pause_before_an_ai_move_holds_nothing_a_press_waits_for() -> None:
    draft = human_and_ais()
    seat = make_human_away(draft)
    session, turns, saved, runtime = turns_for(draft, RandomPlayer(), pause=3600)
    turns.schedule(session)
    task = turns.running[session.table_id]
    await asyncio.sleep(0)
    assert not session.lock.locked()
    await runtime.commit(session, moves.ComeBack(HOST), wait=0)  # the player's press is taken at once
    code = session.state.default_action(seat)
    await runtime.commit(session, moves.Play(HOST, session.state.version, code))
    # Both presses stored, and the AI is still pausing, having played nothing.
    assert len(saved) == 2 and saved[-1] == len(session.state.history) and not task.done()
    task.cancel()


async def test_an_ai_move_waits_until_the_people_s_presses_waiting_are_handled() -> None:
    draft = human_and_ais()
    make_human_away(draft)
    session, turns, saved, _ = turns_for(draft, RandomPlayer())
    presses_handled = asyncio.Event()
    asked: list[int] = []

    async def presses_first() -> None:
        asked.append(len(saved))
        await presses_handled.wait()

    turns.presses_first = presses_first
    turns.schedule(session)
    task = turns.running[session.table_id]
    for _ in range(20):
        await asyncio.sleep(0)
    assert asked == [0] and saved == [] and not task.done()  # waiting for the presses, nothing played
    presses_handled.set()
    await asyncio.wait_for(task, 10)
    assert saved and len(asked) == len(saved)  # asked before every move


def test_an_ai_decides_alike_for_the_same_seed_version_and_seat() -> None:
    assert decision_rng(7, 3, 1).random() == decision_rng(7, 3, 1).random()
    assert decision_rng(7, 3, 1).random() != decision_rng(7, 4, 1).random()
    assert random.Random(1).random() != decision_rng(1, 0, 0).random()


def test_no_turn_alert_goes_to_a_seat_an_ai_plays() -> None:
    session = human_and_ais()
    make_human_away(session)
    assert session.users_to_act() == [HOST]
    assert newly_waiting(session, frozenset()) == ()  # away: the AI plays it
    come_back(session, HOST)
    assert newly_waiting(session, frozenset()) == (HOST,)


async def test_when_every_person_has_left_the_ais_finish_the_game_without_the_people_s_pause() -> None:
    draft = human_and_ais()
    leave_game(draft, HOST)
    session, turns, saved, _ = turns_for(draft, RandomPlayer(), pause=3600)  # an hour's pause: never ends
    turns.schedule(session)
    await turns.running[session.table_id]
    assert session.phase is TablePhase.SCOREBOARD
    assert saved[-1] == len(session.state.history)


def test_who_may_end_a_table_that_no_person_plays() -> None:
    session = lobby()
    session.join(BOB, "bob")
    ai_seats.add_ai(session, HOST)
    session.start(HOST, 5, NOW)
    assert not ai_seats.may_end(session, HOST)  # people play: nobody ends it by a press
    leave_game(session, BOB)
    assert not ai_seats.may_end(session, HOST)  # the host still plays
    make_human_away(session)
    assert ai_seats.may_end(session, HOST) and not ai_seats.may_end(session, BOB)  # the leaver may not
    assert not ai_seats.may_end(session, session.players[-1])  # nor an AI


def test_if_the_host_left_any_player_still_seated_may_end_it() -> None:
    session = lobby()
    session.join(BOB, "bob")
    ai_seats.add_ai(session, HOST)
    session.start(HOST, 5, NOW)
    leave_game(session, HOST)
    bob_seat = session.seat_of(BOB)
    while bob_seat not in session.idle_seats:
        (to_act,) = session.state.seats_to_act()
        if to_act == bob_seat:
            session.time_out(session.state.version, session.seat_deadlines[to_act])
        else:
            code = session.state.default_action(to_act)
            session.act(session.players[to_act], session.state.version, code, NOW, by_ai=True)
    assert ai_seats.may_end(session, BOB) and not ai_seats.may_end(session, HOST)


def test_the_host_sets_each_ai_seat_s_level_and_it_survives_the_snapshot_and_the_rematch() -> None:
    session = lobby()
    easy, normal = ai_seats.add_ai(session, HOST, "easy"), ai_seats.add_ai(session, HOST)
    with pytest.raises(TableError, match="Only the host"):
        ai_seats.choose_level(session, BOB, f"{normal}:hard")
    for forged in (f"{normal}:expert", "-9:hard", "x:hard", f"{HOST}:hard"):
        with pytest.raises(TableError):
            ai_seats.choose_level(session, HOST, forged)
    ai_seats.choose_level(session, HOST, f"{normal}:hard")
    assert session.names[easy] == "🤖 Ada (easy)" and session.names[normal] == "🤖 Alan (hard)"
    session.start(HOST, 3, NOW)
    levels = [ai_seats.level_of(session, seat) for seat in range(3)]
    assert sorted(levels) == ["easy", "hard", "normal"]  # the host's seat, taken over, plays normal
    stored = snapshot_of(session).to_stored()
    again = restored(session, stored)
    assert [ai_seats.level_of(again, seat) for seat in range(3)] == levels
    del stored["ai_levels"]  # a table stored before levels: its AI seats play normal
    older = restored(session, stored, [])
    assert {ai_seats.level_of(older, seat) for seat in range(3)} == {"normal"}
    rematch = lobby()
    ai_seats.seat_again(rematch, [easy, normal], session.ai_levels)
    assert rematch.ai_levels == {easy: "easy", normal: "hard"} and rematch.names[normal] == "🤖 Alan (hard)"


async def test_each_ai_seat_plays_at_its_level() -> None:
    draft = lobby()
    ai_seats.add_ai(draft, HOST, "easy")
    ai_seats.add_ai(draft, HOST, "hard")
    draft.start(HOST, 5, NOW)
    session = TableSession(draft)
    asked: list[str] = []

    def player_for(key: str, level: str) -> AIPlayer:
        asked.append(level)
        return RandomPlayer()

    world = make_runtime()
    runtime = world.runtime
    turns = AITurns(runtime.registry, runtime.tasks, 0.0, runtime.commit, player_for=player_for)
    world.runtime.registry.register(session)
    while (seat := seat_to_play(session)) is not None:
        await turns.play_once(session, seat)
    assert set(asked) == {"easy", "hard"}


def test_a_hint_is_for_a_player_s_own_decision_at_a_table_with_ais_that_allows_hints() -> None:
    session = human_and_ais()
    seat = session.seat_of(HOST)
    while seat_to_play(session) is not None:  # the AIs play until the game waits for the host
        ai_seat = seat_to_play(session)
        session.act(session.players[ai_seat], session.state.version, "pay", NOW, by_ai=True)
    ai_seats.allow_hints(session, rated=True, in_rated=False)  # a rated table: no coach by default
    with pytest.raises(TableError, match="rated games only where the server turns them on"):
        ai_seats.hint_seat(session, HOST)
    ai_seats.allow_hints(session, rated=False, in_rated=False)
    assert ai_seats.hint_seat(session, HOST) == seat and ai_seats.hints_offered(session, HOST)
    ai_seats.count_hint(session, HOST)
    assert session.hint_counts == {HOST: 1} and ai_seats.hints_used(session, HOST) == 0  # unrated: untold
    ai_seats.allow_hints(session, rated=True, in_rated=True)  # the server turned them on for all
    assert ai_seats.hint_seat(session, HOST) == seat
    ai_seats.count_hint(session, HOST)
    assert ai_seats.hints_used(session, HOST) == 2 and ai_seats.hints_used(session, BOB) == 0
    with pytest.raises(TableError, match="not playing"):
        ai_seats.hint_seat(session, BOB)
    session.act(HOST, session.state.version, "take", NOW)  # Foist: taking keeps the turn; pay passes it on
    session.act(HOST, session.state.version, "pay", NOW)
    assert not ai_seats.hints_offered(session, HOST)  # the game waits for an AI now
    with pytest.raises(TableError, match="not waiting for you"):
        ai_seats.hint_seat(session, HOST)
