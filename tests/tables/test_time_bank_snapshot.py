"""Time banks in the stored table: a bank table round-trips through JSON with every bank exact (its
remaining seconds and when its clock started), the time the bot was down counts after a restore, and
snapshots written before time controls (schema version 2) load as fixed-clock tables."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from engine import get_rules
from engine.tables.session import TableDraft, TableSession, TableSettings
from engine.tables.snapshot import SCHEMA_VERSION, TableSnapshot, restore, snapshot_of
from engine.tables.time_control import SeatBank, TimeControl

NOW = datetime(2026, 11, 24, 12, 0, 0, 123456, tzinfo=timezone.utc)
HOST, BOB, CAROL = 1, 2, 3
BANK = TimeControl("bank", bank_seconds=300, increment_seconds=10, cap_seconds=600)


def bank_table(moves: int) -> TableSession:
    """A Foist table on a bank, after ``moves`` moves each taking 1.37 s more than the one before."""
    settings = TableSettings(60, 10, 2, time_control=BANK)
    session = TableDraft("bank5678", 10, 20, get_rules("foist"), settings, HOST, "host")
    session.join(BOB, "bob")
    session.join(CAROL, "carol")
    session.start(HOST, 11, NOW)
    when = NOW
    for step in range(moves):
        assert session.state is not None
        (user,) = session.users_to_act()
        when += timedelta(seconds=1.37 * (step + 1))
        code = session.state.legal_actions(session.seat_of(user))[step % 2].code
        session.act(user, session.state.version, code, when)
    return session


def log_of(session: TableSession) -> list[tuple[int, str, bool]]:
    assert session.state is not None
    return [
        (seat, code, position in session.timed_out_positions)
        for position, (seat, code) in enumerate(session.state.history)
    ]


def through_json(session: TableDraft) -> TableDraft:
    """The table as a restart brings it back, as a draft to play on."""
    stored = json.loads(snapshot_of(session).to_json())  # exactly what the database holds
    return restore(TableSnapshot.from_stored(stored), log_of(session)).value.draft()


def test_every_bank_comes_back_exactly() -> None:
    original = bank_table(5)
    assert len({bank.remaining for bank in original.banks}) == 3  # three different banks
    assert any(bank.running_since is not None for bank in original.banks)
    restored = through_json(original)
    assert restored.settings.time_control == BANK
    assert restored.banks == original.banks  # floats and microseconds exact
    assert restored.seat_deadlines == original.seat_deadlines and restored.deadline == original.deadline


def test_after_a_restore_the_banks_run_on_as_if_the_bot_had_never_stopped() -> None:
    original = bank_table(4)
    restored = through_json(original)
    assert original.state is not None and restored.state is not None
    later = original.deadline + timedelta(seconds=30)  # the bot was down past the deadline
    assert original.time_out(original.state.version, later) == restored.time_out(
        restored.state.version, later
    )
    assert restored.banks == original.banks
    (user,) = restored.users_to_act()
    seat = restored.seat_of(user)
    assert restored.banks[seat].running_since == later  # the next seat's bank runs from the timeout
    (timed_out,) = [s for s, bank in enumerate(restored.banks) if bank == SeatBank(10)]
    assert restored.timeouts_in_row[timed_out] == 1


def test_a_schema_version_2_snapshot_loads_as_a_fixed_clock_table() -> None:
    settings = TableSettings(60, 10, 2)
    original = TableDraft("old12345", 10, 20, get_rules("foist"), settings, HOST, "host")
    original.join(BOB, "bob")
    original.join(CAROL, "carol")
    original.start(HOST, 3, NOW)
    stored = snapshot_of(original).to_stored()
    # As a version 2 bot wrote it: no time control, no banks.
    del stored["settings"]["time_control"], stored["banks"]
    stored["schema_version"] = 2
    restored = restore(TableSnapshot.from_stored(json.loads(json.dumps(stored))), log_of(original))
    assert restored.settings == settings and restored.settings.time_control == TimeControl()
    assert list(restored.banks) == [] and restored.seat_deadlines == original.seat_deadlines
    assert snapshot_of(restored).schema_version == SCHEMA_VERSION == 3
