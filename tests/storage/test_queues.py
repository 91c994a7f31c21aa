"""The queues' rows (V013), on a real database (SQLite and PostgreSQL): a member waits in one queue per
server (joining another replaces the row), rows outlive the connection, the boards' message ids are kept
per channel, and the server's ``queue_ai_after`` is read back as set."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from storage import StoredQueueBoard, StoredQueuePlayer
from storage.database import Database

BIG = 1_234_567_890_123_456_789  # Discord ids are 64-bit: they must fit the columns
T0 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


async def test_a_member_waits_in_one_queue_per_server_and_the_rows_outlive_the_connection(
    database_url: str,
) -> None:
    db = await Database.open(database_url)
    try:
        assert await db.queue_players() == []
        alice = StoredQueuePlayer(10, BIG, BIG - 1, "foist", 3, "alice", T0)
        bob = StoredQueuePlayer(10, 42, BIG - 1, "foist", 4, "bob *b*", T0 + timedelta(seconds=1))
        elsewhere = StoredQueuePlayer(11, BIG, 77, "memory", 2, "alice", T0 + timedelta(seconds=2))
        for row in (bob, alice, elsewhere):
            await db.put_queue_player(row)
        moved = StoredQueuePlayer(10, BIG, 5, "memory", 2, "alice", T0 + timedelta(seconds=3))
        await db.put_queue_player(moved)  # another queue of the same server: the row is replaced
        await db.set_queue_board(BIG - 1, 10, BIG)
        await db.set_queue_board(BIG - 1, 10, BIG - 2)  # posted again
        await db.set_queue_board(77, 11, 78)
        await db.set_guild_queue_ai_after(10, 5)
    finally:
        await db.close()
    db = await Database.open(database_url)
    try:
        assert await db.queue_players() == [bob, elsewhere, moved]  # longest waiting first
        assert await db.queue_players(lambda guild: guild == 11) == [elsewhere]
        await db.remove_queue_players(10, [BIG, 42, 999])
        assert await db.queue_players() == [elsewhere]
        assert await db.queue_boards() == [
            StoredQueueBoard(77, 11, 78),
            StoredQueueBoard(BIG - 1, 10, BIG - 2),
        ]
        await db.remove_queue_board(77)
        assert await db.queue_boards(lambda guild: guild == 11) == []
        assert await db.guild_queue_ai_after(10) == 5 and await db.guild_queue_ai_after(11) is None
        await db.set_guild_queue_ai_after(10, None)
        assert await db.guild_queue_ai_after(10) is None
    finally:
        await db.close()
