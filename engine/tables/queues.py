"""The queues that find partners, without Discord: who waits for which game in which channel, joining and
leaving, and the tables they fill (:mod:`engine.matching` decides who is matched).

A member waits in at most one queue per server: joining another game's queue (or another channel's)
moves them. Once seated at a table a queue opened, they leave it. A member seated at a live table of the
server (a lobby or a game) may not join a queue, and one who sits at a table meanwhile is passed over by
the matching and leaves the queue when it would have seated them: nobody sits at two tables of a server
at once because of a queue.

Every change of a server's queues happens under that server's lock, the storage's write inside it, so two
presses at once never seat a member twice nor open two tables for the same members: a table is opened
(``opener``, the Discord layer's) under the lock too, and its members leave the queue before the lock is
released. Each row is stored before the change is live (:mod:`storage.queues`); a restart reads them
(:meth:`TableQueues.load`) and re-arms the AI-fill clocks from the stored times (:meth:`TableQueues.arm_all`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from apscheduler.schedulers.base import BaseScheduler

from engine import GAMES
from engine.core import plural
from engine.matching import Match, Waiting, ai_fill_due, ai_fill_match, find_match, in_order
from engine.tables.clocks import arm_date_job, utcnow
from engine.tables.registry import TableRegistry
from engine.tables.session import TableError, TablePhase
from storage import Database, StoredQueuePlayer

log = logging.getLogger(__name__)

NOT_SAVED = "I could not save that just now, so nothing changed. Please try again."


@dataclass(frozen=True)
class Opened:
    """A matched table is open, its members seated, in the thread ``channel_id``."""

    channel_id: int


Opener = Callable[[int, int, str, Match], Awaitable["Opened | str"]]
"""Opens a table for a match: ``opener(guild_id, channel_id, game, match)`` returns :class:`Opened` once the
table is open with the match's members seated, or the reason it could not open (words for the members)."""


@dataclass(frozen=True)
class Queued:
    """A member waiting: in server ``guild_id``, channel ``channel_id``, for the game ``game`` (its key)."""

    guild_id: int
    channel_id: int
    game: str
    waiting: Waiting


@dataclass(frozen=True)
class QueueAnswer:
    """What a join or leave did: ``note``, the words for the member; ``channels``, the channels whose
    "Looking for a game" message changed; ``opened``, whether a table opened."""

    note: str
    channels: tuple[int, ...] = ()
    opened: bool = False


def size_refusal(game_name: str, min_seats: int, max_seats: int) -> str:
    """The words for a table size outside the game ``game_name``'s range (``min_seats`` to ``max_seats``)."""
    return (
        f"{game_name} is played by {min_seats} to {plural(max_seats, 'player')}: ask for a table size in "
        "that range."
    )


def seated_channel(registry: TableRegistry, guild_id: int, user_id: int) -> int | None:
    """The channel of a live or waiting table (lobby or game, not a scoreboard) of server ``guild_id``
    where ``user_id`` is seated, or ``None``; replays nothing."""
    for session in registry.tables.values():
        if (
            session.guild_id == guild_id
            and session.phase is not TablePhase.SCOREBOARD
            and user_id in session.seated_users()
        ):
            return session.channel_id
    for table in registry.waiting.values():
        if (
            table.stored.get("guild_id") == guild_id
            and table.phase is not TablePhase.SCOREBOARD
            and user_id in table.seated
        ):
            return table.channel_id
    return None


class TableQueues:
    """Every server's queues (see the module).

    Parameters
    ----------
    db:
        Where the queues are stored.
    scheduler:
        Runs the AI-fill clocks (one job per queue with someone waiting while the server's
        ``queue_ai_after`` is on).
    seated:
        ``seated(guild_id, user_id)``: the channel id of the live table of the server where the member
        sits, or ``None`` (:func:`seated_channel`).
    minute_seconds:
        Seconds in one minute of ``queue_ai_after`` (60; tests shorten it).
    now:
        The clock (UTC).
    """

    def __init__(
        self,
        db: Database,
        scheduler: BaseScheduler,
        seated: Callable[[int, int], int | None],
        *,
        minute_seconds: float = 60.0,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.db = db
        self.scheduler = scheduler
        self.seated = seated
        self.minute_seconds = minute_seconds
        self.now = now
        self.opener: Opener | None = None
        """Opens a matched table (the Discord layer's, set before any member joins)."""
        self.changed: Callable[[int], None] = lambda channel_id: None
        """Called with a channel whose queues a clock changed (an AI-filled table opened)."""
        self._members: dict[int, dict[int, Queued]] = {}  # guild id -> user id -> where they wait
        self._locks: dict[int, asyncio.Lock] = {}

    # -- reading -------------------------------------------------------------------------------------

    def where(self, guild_id: int, user_id: int) -> Queued | None:
        """Where ``user_id`` waits on server ``guild_id``, or ``None``."""
        return self._members.get(guild_id, {}).get(user_id)

    def queue(self, guild_id: int, channel_id: int, game: str) -> list[Waiting]:
        """The members waiting for ``game`` in ``channel_id``, longest waiting first."""
        return in_order(
            [
                queued.waiting
                for queued in self._members.get(guild_id, {}).values()
                if (queued.channel_id, queued.game) == (channel_id, game)
            ]
        )

    def channel_queues(self, guild_id: int, channel_id: int) -> dict[str, list[Waiting]]:
        """The queues of ``channel_id`` with someone waiting, by game key in the games' order."""
        found = {game: self.queue(guild_id, channel_id, game) for game in GAMES}
        return {game: waiting for game, waiting in found.items() if waiting}

    def _lock(self, guild_id: int) -> asyncio.Lock:
        return self._locks.setdefault(guild_id, asyncio.Lock())

    # -- start ---------------------------------------------------------------------------------------

    async def load(self, guild_filter: Callable[[int], bool] | None = None) -> int:
        """Read the stored queues (with ``guild_filter``, of the servers it accepts); returns how many
        members wait. Call :meth:`arm_all` once the opener is set."""
        self._members.clear()
        rows = await self.db.queue_players(guild_filter)
        for row in rows:
            if row.game not in GAMES:
                continue
            waiting = Waiting(row.user_id, row.name, row.players, row.since)
            queued = Queued(row.guild_id, row.channel_id, row.game, waiting)
            self._members.setdefault(row.guild_id, {})[row.user_id] = queued
        return sum(len(members) for members in self._members.values())

    async def arm_all(self) -> None:
        """Arm the AI-fill clock of every queue with someone waiting (a time passed fires at once)."""
        for guild_id in list(self._members):
            await self.settings_changed(guild_id)

    async def settings_changed(self, guild_id: int) -> None:
        """The server's ``queue_ai_after`` may have changed: arm (or disarm) each of its queues' clocks."""
        after = await self.db.guild_queue_ai_after(guild_id)
        keys = {(q.channel_id, q.game) for q in self._members.get(guild_id, {}).values()}
        for channel_id, game in keys:
            self._arm(guild_id, channel_id, game, after)

    # -- joining and leaving -------------------------------------------------------------------------

    async def join(
        self, guild_id: int, channel_id: int, game: str, user_id: int, name: str, players: int
    ) -> QueueAnswer:
        """``user_id`` (shown as ``name``) waits for a table of ``players`` seats of ``game`` in
        ``channel_id``, leaving the queue they waited in; a table opens if the queue is full
        (:func:`engine.matching.find_match`).

        Raises
        ------
        TableError
            Refused (words for the member): an unknown game, a size outside its range, the member sits at
            a table of the server, waits there already, or the change could not be stored; nothing
            changed.
        """
        rules = GAMES.get(game)
        if rules is None:
            raise TableError("I don't know that game.")
        if not rules.min_seats <= players <= rules.max_seats:
            raise TableError(size_refusal(rules.display_name, rules.min_seats, rules.max_seats))
        async with self._lock(guild_id):
            seated = self.seated(guild_id, user_id)
            if seated is not None:
                raise TableError(
                    f"You are seated at a table in <#{seated}>: finish or leave it before you join a queue."
                )
            before = self.where(guild_id, user_id)
            if before is not None and (before.channel_id, before.game, before.waiting.players) == (
                channel_id,
                game,
                players,
            ):
                raise TableError(f"You are already waiting for {rules.display_name} here.")
            waiting = Waiting(user_id, name, players, self.now())
            queued = Queued(guild_id, channel_id, game, waiting)
            row = StoredQueuePlayer(guild_id, user_id, channel_id, game, players, name, waiting.since)
            await self._stored(self.db.put_queue_player(row))
            self._members.setdefault(guild_id, {})[user_id] = queued
            channels = {channel_id} | ({before.channel_id} if before is not None else set())
            moved = (
                ""
                if before is None or before.game == game
                else f" You left the {GAMES[before.game].display_name} queue."
            )
            answer = await self._match(guild_id, channel_id, game, user_id)
            after = await self.db.guild_queue_ai_after(guild_id)
            self._arm(guild_id, channel_id, game, after)
            if before is not None:
                self._arm(guild_id, before.channel_id, before.game, after)
        return QueueAnswer(answer.note + moved, tuple(sorted(channels)), answer.opened)

    async def _match(self, guild_id: int, channel_id: int, game: str, user_id: int) -> QueueAnswer:
        """Open the table the queue fills now, if any (under the server's lock); words for ``user_id``."""
        rules = GAMES[game]
        waiting = await self._free(guild_id, self.queue(guild_id, channel_id, game))
        mine = next(member for member in waiting if member.user_id == user_id)
        match = find_match(waiting, rules.min_seats, rules.max_seats)
        if match is None:
            asking = sum(1 for member in waiting if member.players == mine.players)
            return QueueAnswer(
                f"You are waiting for a {rules.display_name} table of {plural(mine.players, 'player')}: "
                f"{asking} of {mine.players} are here. I will seat you as soon as enough players join."
            )
        opened = await self._open(guild_id, channel_id, game, match)
        if not isinstance(opened, Opened):
            return QueueAnswer(
                f"Enough players wait for {rules.display_name}, but no table could open: {opened} "
                "You stay in the queue."
            )
        return QueueAnswer(
            f"Your {rules.display_name} table is open in <#{opened.channel_id}>: join it there.", opened=True
        )

    async def _free(self, guild_id: int, waiting: list[Waiting]) -> list[Waiting]:
        """``waiting`` without the members seated at a table of the server meanwhile, who leave the queue."""
        taken = [member.user_id for member in waiting if self.seated(guild_id, member.user_id) is not None]
        if taken:
            await self._remove(guild_id, taken)
        return [member for member in waiting if member.user_id not in taken]

    async def _open(self, guild_id: int, channel_id: int, game: str, match: Match) -> Opened | str:
        """Open the table of ``match`` and take its members out of every queue (under the lock):
        :class:`Opened`, or the refusal's words if it did not open (the queue is as it was)."""
        assert self.opener is not None, "the opener is set before anyone joins"
        result = await self.opener(guild_id, channel_id, game, match)
        if isinstance(result, Opened):
            try:
                await self._remove(guild_id, [member.user_id for member in match.seated])
            except TableError:  # seated: a stale row is skipped by the next match (they are seated)
                log.exception("Could not take the members of a %s table out of the queue", game)
        return result

    async def leave(self, guild_id: int, user_id: int) -> QueueAnswer:
        """``user_id`` leaves the queue they wait in on the server.

        Raises
        ------
        TableError
            They wait in none, or the change could not be stored (nothing changed).
        """
        async with self._lock(guild_id):
            before = self.where(guild_id, user_id)
            if before is None:
                raise TableError("You are not waiting in a queue on this server.")
            await self._remove(guild_id, [user_id])
            self._arm(guild_id, before.channel_id, before.game, await self.db.guild_queue_ai_after(guild_id))
        name = GAMES[before.game].display_name
        return QueueAnswer(f"You left the {name} queue.", (before.channel_id,))

    async def _remove(self, guild_id: int, user_ids: list[int]) -> None:
        await self._stored(self.db.remove_queue_players(guild_id, user_ids))
        members = self._members.get(guild_id, {})
        for user_id in user_ids:
            members.pop(user_id, None)

    @staticmethod
    async def _stored(write: Awaitable[None]) -> None:
        try:
            await write
        except Exception:
            log.exception("Could not store a change of a queue")
            raise TableError(NOT_SAVED) from None

    # -- the AI-fill clocks --------------------------------------------------------------------------

    @staticmethod
    def _job_id(channel_id: int, game: str) -> str:
        return f"queue:{channel_id}:{game}"

    def _arm(self, guild_id: int, channel_id: int, game: str, after_minutes: int | None) -> None:
        """Arm the queue's AI-fill clock at its due time (:func:`engine.matching.ai_fill_due`), or stop it."""
        job_id = self._job_id(channel_id, game)
        due = ai_fill_due(self.queue(guild_id, channel_id, game), after_minutes, self.minute_seconds)
        if due is None:
            if self.scheduler.get_job(job_id) is not None:
                self.scheduler.remove_job(job_id)
            return
        when = max(due, self.now())
        arm_date_job(self.scheduler, job_id, when, self._ai_fill, (guild_id, channel_id, game))

    async def _ai_fill(self, guild_id: int, channel_id: int, game: str) -> None:
        """The AI-fill clock of a queue ran out: if its first member has waited the server's time, open a
        table with AI seats (:func:`engine.matching.ai_fill_match`); a refused opening tries again a
        minute later."""
        rules = GAMES[game]
        async with self._lock(guild_id):
            after = await self.db.guild_queue_ai_after(guild_id)
            waiting = self.queue(guild_id, channel_id, game)
            due = ai_fill_due(waiting, after, self.minute_seconds)
            if due is None:
                return
            if due > self.now():
                self._arm(guild_id, channel_id, game, after)
                return
            try:
                waiting = await self._free(guild_id, waiting)
                match = ai_fill_match(waiting, rules.min_seats, rules.max_seats)
                opened = None if match is None else await self._open(guild_id, channel_id, game, match)
                refusal = opened if isinstance(opened, str) else None
            except Exception:  # stored or not, the queue stays: the next try is a minute away
                log.exception("A queue's AI-filled %s table failed to open", game)
                refusal = NOT_SAVED
            if refusal is not None:
                log.info("A queue's AI-filled %s table did not open: %s", game, refusal)
                self.scheduler.add_job(
                    self._ai_fill,
                    "date",
                    run_date=self.now() + timedelta(seconds=self.minute_seconds),
                    id=self._job_id(channel_id, game),
                    args=(guild_id, channel_id, game),
                    misfire_grace_time=None,
                    replace_existing=True,
                )
            else:
                self._arm(guild_id, channel_id, game, after)
        self.changed(channel_id)

    def disarm_all(self) -> None:
        """Stop every AI-fill clock (the bot stops)."""
        for job in self.scheduler.get_jobs():
            if job.id.startswith("queue:"):
                job.remove()
