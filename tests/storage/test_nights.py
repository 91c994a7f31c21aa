"""The nights' rows (V014), on a real database (SQLite and PostgreSQL): a night and its changes, sign-ups
in their order (the first sign-up's moment kept), a round's tables stored with the night in one step, a
table found by the runtime's id, and all of it read back by a new connection."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from storage import StoredNight, StoredNightTable, StoredSignup
from storage.database import Database
from storage.nights import CANCELED, IN, INTERESTED, LEFT, OUT, RUNNING, SCHEDULED

BIG = 1_234_567_890_123_456_789  # Discord ids are 64-bit: they must fit the columns
T0 = datetime(2026, 1, 2, 20, 0, tzinfo=timezone.utc)


async def test_a_night_its_sign_ups_and_rounds_outlive_the_connection(database_url: str) -> None:
    night = StoredNight(BIG, 10, BIG - 1, ("foist",), T0, "swiss", 3, True, 15, 7, 42)
    other = StoredNight(
        BIG - 5, 11, 77, ("memory", "foist"), T0 + timedelta(days=1), "random", 2, False, 0, 8, 43
    )
    db = await Database.open(database_url)
    try:
        assert await db.nights() == [] and await db.night(BIG) is None
        await db.put_night(night)
        await db.put_night(other.but(state=CANCELED))
        night = night.but(event_id=BIG - 2, signup_message_id=BIG - 3)
        await db.put_night(night)  # changed: replaced
        await db.put_signup(BIG, StoredSignup(BIG, "alice", IN, T0 - timedelta(hours=2)))
        await db.put_signup(BIG, StoredSignup(5, "bob", INTERESTED, T0 - timedelta(hours=3)))
        await db.put_signup(BIG, StoredSignup(6, "carol", OUT, T0 - timedelta(hours=1)))
        await db.put_signup(BIG, StoredSignup(5, "bob *b*", IN, T0))  # pressed later: first moment kept
        tables = [StoredNightTable(1, 0, (BIG, 5), 1), StoredNightTable(1, 1, (6, 8, 9), 0)]
        await db.put_night_round(night.but(state=RUNNING, round_number=1), tables)
        await db.put_night_table(BIG, StoredNightTable(1, 0, (BIG, 5), 1, "t-1", BIG - 4, (2, 1, 3)))
        await db.put_signup(BIG, StoredSignup(6, "carol", LEFT, T0, 1))
    finally:
        await db.close()
    db = await Database.open(database_url)
    try:
        running = night.but(state=RUNNING, round_number=1)
        assert await db.nights() == [running]
        assert await db.nights((CANCELED,), lambda guild: guild == 11) == [other.but(state=CANCELED)]
        assert await db.nights((SCHEDULED,)) == []
        assert await db.night(BIG) == running
        assert await db.guild_nights(10) == [running]
        assert await db.signups(BIG) == [
            StoredSignup(5, "bob *b*", IN, T0 - timedelta(hours=3)),
            StoredSignup(BIG, "alice", IN, T0 - timedelta(hours=2)),
            StoredSignup(6, "carol", LEFT, T0 - timedelta(hours=1), 1),
        ]
        played = StoredNightTable(1, 0, (BIG, 5), 1, "t-1", BIG - 4, (2, 1, 3))
        assert await db.night_tables(BIG) == [played, tables[1]]
        assert await db.night_of_table("t-1") == (BIG, played)
        assert await db.night_of_table("t-2") is None
    finally:
        await db.close()
