"""The stored form of a table: a typed, versioned snapshot that round-trips, and snapshots written by the
first durable version (an untyped dict without ``schema_version``, still in existing databases) load."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from engine import get_rules
from engine.lobby import RematchChoice
from engine.tables.session import TableDraft, TablePhase, TableSession, TableSettings
from engine.tables.snapshot import SCHEMA_VERSION, TableSnapshot, restore, snapshot_of
from storage.migrations.V012__table_messages import shown_in_snapshot

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
HOST, BOB, CAROL = 1, 2, 3


def played(moves: int, seed: int = 5) -> TableSession:
    session = TableDraft("abcd1234", 10, 20, get_rules("foist"), TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    session.join(CAROL, "carol")
    session.dm_wanted.add(BOB)
    session.start(HOST, seed, NOW)
    for step in range(moves):
        assert session.state is not None
        if session.phase is not TablePhase.PLAYING:
            break
        (user,) = session.users_to_act()
        seat = session.seat_of(user)
        code = session.state.legal_actions(seat)[step % 2].code
        session.act(user, session.state.version, code, NOW + timedelta(seconds=step))
    return session


def log_of(session: TableSession) -> list[tuple[int, str, bool]]:
    assert session.state is not None
    return [(seat, code, False) for seat, code in session.state.history]


def version_1(session: TableSession, message_id: int | None, posted_at: datetime | None) -> dict:
    """A snapshot exactly as the first durable version wrote it (``TableSession.snapshot`` then)."""

    def moment(value: datetime | None) -> str | None:
        return None if value is None else value.isoformat()

    return {
        "table_id": session.table_id,
        "guild_id": session.guild_id,
        "channel_id": session.channel_id,
        "game": session.rules.key,
        "settings": [
            session.settings.turn_seconds,
            session.settings.idle_turn_seconds,
            session.settings.idle_after_timeouts,
        ],
        "phase": session.phase.value,
        "host_id": session.lobby.host_id,
        "lobby_players": list(session.lobby.players),
        "names": {str(user): name for user, name in session.names.items()},
        "dm_wanted": sorted(session.dm_wanted),
        "options": session.options,
        "message_id": message_id,
        "message_posted_at": moment(posted_at),
        "seed": None if session.state is None else session.state.seed,
        "players": list(session.players),
        "started_at": moment(session.started_at),
        "finished_at": moment(session.finished_at),
        "seat_deadlines": {str(seat): moment(when) for seat, when in session.seat_deadlines.items()},
        "seat_versions": list(session.seat_versions),
        "timeouts_in_row": {str(seat): count for seat, count in session.timeouts_in_row.items()},
        "idle_seats": sorted(session.idle_seats),
        "rematch": None
        if session.rematch is None
        else {
            "players": list(session.rematch.players),
            "host_id": session.rematch.host_id,
            "choices": {str(user): choice.value for user, choice in session.rematch.choices.items()},
        },
        "result_saved": session.result_saved,
    }


def same_table(restored: TableSession, original: TableSession) -> None:
    assert restored.phase is original.phase
    assert restored.state is not None and original.state is not None
    assert restored.state.view(None) == original.state.view(None)
    assert restored.state.history == original.state.history
    assert list(restored.players) == list(original.players) and restored.names == original.names
    assert restored.dm_wanted == original.dm_wanted and restored.settings == original.settings
    assert restored.seat_deadlines == original.seat_deadlines and restored.deadline == original.deadline
    assert list(restored.seat_versions) == list(original.seat_versions)
    assert restored.timeouts_in_row == original.timeouts_in_row


def test_a_snapshot_stored_by_the_first_version_loads() -> None:
    original = played(7)
    stored = json.loads(json.dumps(version_1(original, 4242, NOW)))  # as the database holds it
    assert "schema_version" not in stored
    snapshot = TableSnapshot.from_stored(stored)
    assert snapshot.schema_version == SCHEMA_VERSION
    # Where it was shown is read (and moved out of the snapshot) by the migration that made it the Discord
    # layer's, V012.
    message_id, posted_at, dms = shown_in_snapshot(stored)
    assert message_id == 4242 and posted_at is not None and datetime.fromisoformat(posted_at) == NOW
    assert dms == {}
    assert snapshot.settings.idle_turn_seconds == 5
    same_table(restore(snapshot, log_of(original)), original)


def test_a_first_version_scoreboard_with_rematch_choices_loads() -> None:
    original = played(10_000)
    assert original.phase is TablePhase.SCOREBOARD and original.rematch is not None
    original.choose_rematch(BOB, RematchChoice.PLAY_AGAIN)
    stored = json.loads(json.dumps(version_1(original, None, None)))
    restored = restore(TableSnapshot.from_stored(stored), log_of(original))
    same_table(restored, original)
    assert restored.rematch is not None and restored.rematch.choices == original.rematch.choices
    assert restored.rematch.choices[BOB] is RematchChoice.PLAY_AGAIN
    assert restored.finished_at == original.finished_at


def test_a_first_version_lobby_loads() -> None:
    lobby = TableDraft("lobby123", 10, 20, get_rules("foist"), TableSettings(30, 5, 2), HOST, "host")
    lobby.join(BOB, "bob")
    stored = json.loads(json.dumps(version_1(lobby, 7, NOW)))
    restored = restore(TableSnapshot.from_stored(stored), [])
    assert restored.phase is TablePhase.LOBBY
    assert list(restored.lobby.players) == [HOST, BOB] and restored.state is None


def test_the_current_snapshot_round_trips_through_json() -> None:
    original = played(5)
    original.hints, original.hints_rated, original.hint_counts = True, True, {BOB: 2, CAROL: 1}
    stored = json.loads(json.dumps(snapshot_of(original).to_stored()))
    assert stored["schema_version"] == SCHEMA_VERSION
    restored = restore(TableSnapshot.from_stored(stored), log_of(original))
    same_table(restored, original)
    assert restored.hints and restored.hints_rated and restored.hint_counts == {BOB: 2, CAROL: 1}


def test_a_snapshot_of_an_unknown_shape_is_refused() -> None:
    stored = snapshot_of(played(1)).to_stored()
    with pytest.raises(ValidationError):
        TableSnapshot.from_stored({**stored, "schema_version": 99})
    with pytest.raises(ValidationError):
        TableSnapshot.from_stored({**stored, "phase": "dancing"})


def minimisere_three(seed: int = 3) -> TableSession:
    session = TableDraft("mini1234", 10, 20, get_rules("minimisere"), TableSettings(30, 5, 2), HOST, "host")
    session.join(BOB, "bob")
    session.join(CAROL, "carol")
    session.start(HOST, seed, NOW)
    return session


def test_a_game_stored_before_the_minimisere_default_changed_keeps_playing_to_25() -> None:
    """Minimisère ruling 12 made 31 the default target with three players; a three-player game stored by the
    version before (options only as the host changed them, none here) started under the old default, 25."""
    session = minimisere_three()
    old = snapshot_of(session).to_stored()
    old.pop("options_complete")
    old["options"] = {}
    restored = restore(TableSnapshot.from_stored(old), log_of(session))
    assert restored.state is not None and restored.state.options.target == 25
    assert session.state is not None and session.state.options.target is None  # 31 for three, by default
    now_stored = TableSnapshot.from_stored(json.loads(json.dumps(snapshot_of(session).to_stored())))
    again = restore(now_stored, log_of(session))
    assert again.state is not None and again.state.options.target is None
    assert snapshot_of(again).options == snapshot_of(session).options


def test_a_lobby_stores_only_the_options_the_host_chose() -> None:
    session = TableDraft("mini1234", 10, 20, get_rules("minimisere"), TableSettings(30, 5, 2), HOST, "host")
    stored = snapshot_of(session)
    assert stored.options == {} and stored.options_complete is False
    assert restore(stored, []).options == {}
