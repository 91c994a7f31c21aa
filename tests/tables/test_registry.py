"""The registry of live tables: one open table per channel, a scoreboard frees its channel, forgotten
tables leave a reason behind, and a player's table is found in a channel or (in a DM) by their seat."""

from __future__ import annotations

from datetime import datetime, timezone

from engine.tables import moves
from engine.tables.registry import TableRegistry
from engine.tables.session import TableSession, TableSettings
from engine.tables.step import step
from tests.tables.toy_game import PickAndCall

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
HOST, BOB, CAROL = 1, 2, 3


def lobby(table_id: str, channel_id: int) -> TableSession:
    return TableSession.new(table_id, 10, channel_id, PickAndCall(), TableSettings(30, 5, 2), HOST, "host")


def test_a_table_holds_its_channel_until_it_is_forgotten_and_leaves_its_reason() -> None:
    registry = TableRegistry()
    forgotten: list[str] = []
    registry.on_forget(lambda session: forgotten.append(session.table_id))
    session = lobby("aaaa1111", 20)
    registry.register(session)
    assert registry.channel_table(20) is session and registry.is_live(session)
    registry.forget(session, "Closed by a test.")
    assert registry.channel_table(20) is None and registry.get("aaaa1111") is None
    assert registry.gone_reason("aaaa1111") == "Closed by a test." and forgotten == ["aaaa1111"]
    assert registry.gone_reason("never") == "This table no longer exists."


def test_a_scoreboard_frees_its_channel_but_stays_live() -> None:
    registry = TableRegistry()
    draft = lobby("bbbb2222", 20).value.draft()
    draft.join(BOB, "bob")
    draft.start(HOST, 1, NOW)
    session = TableSession(draft)
    registry.register(session)
    registry.free_channel(session)
    assert registry.channel_table(20) is None and registry.is_live(session)
    newer = lobby("cccc3333", 20)
    registry.register(newer)
    registry.forget(session, "over")  # forgetting the old table keeps the new one's channel
    assert registry.channel_table(20) is newer


def test_a_players_table_is_found_in_its_channel_or_in_a_dm_by_seat() -> None:
    registry = TableRegistry()
    session = lobby("dddd4444", 20)
    session.swap(step(session.value, moves.Join(BOB, "bob"), NOW)[0])
    registry.register(session)
    assert registry.table_of_player(BOB, 20) is session
    assert registry.table_of_player(CAROL, 20) is None
    assert registry.table_of_player(BOB, None) is None  # in a DM only running games count
    session.swap(step(session.value, moves.Start(HOST, 1), NOW)[0])
    assert registry.table_of_player(BOB, None) is session
    assert registry.new_table_id() not in ("dddd4444",)
