"""The queues without Discord (engine/tables/queues.py), on a real SQLite file, the scheduler and clock
moved by the test and an opener that records: a full queue opens one table and its members leave every
queue; a refused opening keeps the queue; a member seated at a table is refused, or passed over and let
go; the AI fill fires after the server's wait, tries again a minute after a refusal, and is re-armed from
the stored times by a new process."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.matching import Match
from engine.tables.queues import Opened, TableQueues
from engine.tables.session import TableError
from storage.database import Database
from tests.tables.fakes import ManualClock, ManualScheduler

GUILD, CHANNEL = 10, 20


class Opener:
    """Records each match; refuses with ``refusal`` while it is set."""

    def __init__(self) -> None:
        self.matches: list[Match] = []
        self.refusal: str | None = None

    async def __call__(self, guild_id: int, channel_id: int, game: str, match: Match) -> Opened | str:
        if self.refusal is not None:
            return self.refusal
        self.matches.append(match)
        return Opened(1000 + len(self.matches))


async def queues_on(db: Database, clock: ManualClock, seated: dict[int, int] | None = None):
    scheduler = ManualScheduler()
    seats = seated if seated is not None else {}
    queues = TableQueues(db, scheduler, lambda guild, user: seats.get(user), now=clock)
    queues.opener = opener = Opener()
    return queues, scheduler, opener


async def test_a_full_queue_opens_one_table_and_a_refusal_keeps_the_queue(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.db")
    try:
        clock = ManualClock()
        queues, _, opener = await queues_on(db, clock)
        await queues.join(GUILD, CHANNEL, "foist", 1, "alice", 3)
        clock.advance(1)
        await queues.join(GUILD, CHANNEL, "foist", 2, "bob", 3)
        moved = await queues.join(GUILD, CHANNEL, "memory", 2, "bob", 2)  # one queue per member and server
        assert "left the Foist queue" in moved.note and queues.queue(GUILD, CHANNEL, "foist")[0].user_id == 1
        await queues.join(GUILD, CHANNEL, "foist", 2, "bob", 3)
        opener.refusal = "This server has 1 table open, the most it allows."
        kept = await queues.join(GUILD, CHANNEL, "foist", 3, "carol", 3)
        assert not kept.opened and "stay in the queue" in kept.note and opener.matches == []
        assert len(await db.queue_players()) == 3
        opener.refusal = None
        opened = await queues.join(GUILD, CHANNEL, "foist", 4, "dave", 3)
        assert opened.opened and "<#1001>" in opened.note
        ((match),) = opener.matches
        assert [m.user_id for m in match.seated] == [1, 2, 3] and match.bots == 0
        assert [row.user_id for row in await db.queue_players()] == [4]
        with pytest.raises(TableError, match="3 to 7 players"):
            await queues.join(GUILD, CHANNEL, "foist", 5, "erin", 8)
        with pytest.raises(TableError, match="not waiting"):
            await queues.leave(GUILD, 5)
    finally:
        await db.close()


async def test_a_seated_member_is_refused_or_passed_over(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.db")
    try:
        seated: dict[int, int] = {9: 77}
        queues, _, opener = await queues_on(db, ManualClock(), seated)
        with pytest.raises(TableError, match="<#77>"):
            await queues.join(GUILD, CHANNEL, "foist", 9, "ivan", 3)
        for user in (1, 2):
            await queues.join(GUILD, CHANNEL, "foist", user, f"p{user}", 3)
        seated[2] = 78  # bob sat down at a table meanwhile
        answer = await queues.join(GUILD, CHANNEL, "foist", 3, "carol", 3)
        assert not answer.opened and opener.matches == []
        assert sorted(row.user_id for row in await db.queue_players()) == [1, 3]
    finally:
        await db.close()


async def test_the_ai_fill_fires_after_the_wait_retries_after_a_refusal_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    db = await Database.open(tmp_path / "bot.db")
    try:
        clock = ManualClock()
        await db.set_guild_queue_ai_after(GUILD, 5)
        queues, scheduler, opener = await queues_on(db, clock)
        await queues.join(GUILD, CHANNEL, "foist", 1, "alice", 4)
        clock.advance(60)
        await queues.join(GUILD, CHANNEL, "foist", 2, "bob", 3)
        clock.advance(200)
        assert await scheduler.run_due(clock()) == []  # not yet: alice has waited 260 s of 300
        # A new process reads the queue and arms its clock from alice's stored time.
        queues, scheduler, opener = await queues_on(db, clock)
        assert await queues.load() == 2
        await queues.arm_all()
        opener.refusal = "no room"
        clock.advance(40)
        assert await scheduler.run_due(clock()) == ["queue:20:foist"]
        assert opener.matches == [] and len(await db.queue_players()) == 2
        opener.refusal = None
        clock.advance(59)
        assert await scheduler.run_due(clock()) == []
        clock.advance(1)
        assert await scheduler.run_due(clock()) == ["queue:20:foist"]
        ((match),) = opener.matches
        assert [m.user_id for m in match.seated] == [1, 2] and match.bots == 1
        assert await db.queue_players() == [] and scheduler.jobs == {}
    finally:
        await db.close()
