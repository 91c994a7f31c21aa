"""The turn notices not deleted yet (V011), on a real database (SQLite and PostgreSQL): a row stored before
its notice goes out has no message id until it is given one; rows outlive the connection (a killed process
leaves them for the next) and their table; removing one leaves the others."""

from __future__ import annotations

from collections.abc import Callable

from storage import StoredTurnNotice
from storage.database import Database

BIG = 1_234_567_890_123_456_789  # Discord ids are 64-bit: they must fit the columns


async def test_a_notice_is_stored_before_it_goes_out_then_given_its_message_and_removed(
    database_url: str, rows_of: Callable[..., list[tuple]]
) -> None:
    db = await Database.open(database_url)
    try:
        assert await db.turn_notices() == []
        mention = await db.add_turn_notice(10, "t1", BIG, 7, BIG - 5, BIG - 1)
        dm = await db.add_turn_notice(10, "t1", 42, 7, BIG - 5, None)  # a DM: its channel not known yet
        other = await db.add_turn_notice(11, "t2", 43, 0, BIG - 4, 99)
        assert len({mention, dm, other}) == 3
        assert await db.turn_notices() == [
            StoredTurnNotice(mention, 10, "t1", BIG, 7, BIG - 5, BIG - 1, None),
            StoredTurnNotice(dm, 10, "t1", 42, 7, BIG - 5, None, None),
            StoredTurnNotice(other, 11, "t2", 43, 0, BIG - 4, 99, None),
        ]
        await db.set_turn_notice_message(mention, BIG - 1, BIG)
        await db.set_turn_notice_message(dm, 555, 556)
        await db.remove_turn_notice(other)
        await db.remove_turn_notice(other)  # already removed: no matter
    finally:
        await db.close()
    # Stored, not kept in memory: another program (or the next process) reads the same rows.
    assert rows_of("SELECT notice_id, channel_id, message_id FROM turn_notices ORDER BY notice_id") == [
        (mention, BIG - 1, BIG),
        (dm, 555, 556),
    ]
    again = await Database.open(database_url)
    try:
        stored = [(n.notice_id, n.user_id, n.channel_id, n.message_id) for n in await again.turn_notices()]
        assert stored == [(mention, BIG, BIG - 1, BIG), (dm, 42, 555, 556)]
        fresh = await again.add_turn_notice(10, "t1", BIG, 8, BIG - 2, BIG - 1)
        assert fresh not in (mention, dm)  # an id of no stored row
        await again.remove_turn_notice(mention)
        assert [n.notice_id for n in await again.turn_notices()] == [dm, fresh]
    finally:
        await again.close()


async def test_a_notice_outlives_its_table(database_url: str) -> None:
    """A table closed (its rows gone) keeps its notices until they are deleted from Discord."""
    db = await Database.open(database_url)
    try:
        await db.save_table("t1", 10, 20, "foist", {"phase": "playing"}, [])
        notice = await db.add_turn_notice(10, "t1", 42, 0, 1, 20)
        await db.delete_table("t1")
        assert [n.notice_id for n in await db.turn_notices()] == [notice]
    finally:
        await db.close()
