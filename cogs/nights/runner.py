"""A night from its start to its final standings: the start's clock, each round seated by
:mod:`engine.nights` and opened in threads of the night's channel through ``/play``'s own path
(:func:`cogs.tables.opening.lobby_maker`, :func:`cogs.tables.threads.table_in_thread`) and started at once,
the round's end noticed, the one standings message edited, the next round seated, the last one ending the
night.

The round's end is read from what the tables store: a game's result is written in the same transaction as
its last move (``storage.Database.save_table``), so a watch job (APScheduler, every
:attr:`NightRunner.watch_seconds`) looks for each table's stored result. That survives a restart, or a
kill, at any moment: the tables are stored with the night (``storage/nights.py``), the jobs re-armed from
it. A table that closed without a result (its players all left) counts as a shared place for all of them,
who then sit at no later round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

import discord

from cogs.nights import signups
from cogs.nights.standings import played_rounds, rules_of, standings_text
from cogs.tables import opening, threads
from cogs.tables.table_message import TableMessages
from engine import GAMES
from engine.ai.registry import NORMAL
from engine.nights import Player, RoundResult, is_over, seat_round
from engine.tables.moves import Start
from engine.tables.runtime import TableRuntime
from engine.tables.session import TableError
from storage.nights import (
    CANCELED,
    IN,
    INTERESTED,
    LEFT,
    OVER,
    RUNNING,
    SCHEDULED,
    StoredNight,
    StoredNightTable,
    StoredSignup,
)

if TYPE_CHECKING:
    from cogs.host import Host

log = logging.getLogger(__name__)

WATCH_SECONDS = 5.0
"""How often a running night looks for the results of its round's tables (seconds)."""


class NightRunner:
    """Starts nights, runs their rounds and ends them (see the module)."""

    def __init__(self, host: Host, runtime: TableRuntime, messages: TableMessages) -> None:
        self.host = host
        self.runtime = runtime
        self.messages = messages
        self.watch_seconds = WATCH_SECONDS
        self.locks: dict[int, asyncio.Lock] = {}

    # -- clocks ------------------------------------------------------------------------------------------

    def arm(self, night: StoredNight) -> None:
        """Arm the night's job: its start (a night planned), or its watch (a night running)."""
        scheduler = self.host.scheduler
        if night.state == SCHEDULED:
            scheduler.add_job(
                self.start_at_its_time,
                "date",
                run_date=max(night.starts_at, datetime.now(timezone.utc)),
                args=[night.night_id],
                id=f"night:{night.night_id}:start",
                replace_existing=True,
                misfire_grace_time=None,
            )
        elif night.state == RUNNING:
            scheduler.add_job(
                self.watch,
                "interval",
                seconds=self.watch_seconds,
                args=[night.night_id],
                id=f"night:{night.night_id}:watch",
                replace_existing=True,
                next_run_time=datetime.now(timezone.utc) + timedelta(seconds=self.watch_seconds),
            )

        remind_at = night.starts_at - timedelta(minutes=night.remind_minutes)
        if (
            night.state == SCHEDULED
            and night.remind_minutes
            and night.reminder_message_id is None
            and remind_at > datetime.now(timezone.utc)
        ):
            scheduler.add_job(
                self.remind,
                "date",
                run_date=remind_at,
                args=[night.night_id],
                id=f"night:{night.night_id}:remind",
                replace_existing=True,
                misfire_grace_time=None,
            )

    def disarm(self, night_id: int) -> None:
        """Remove the night's jobs (none armed is no matter)."""
        for kind in ("start", "watch", "remind"):
            job = self.host.scheduler.get_job(f"night:{night_id}:{kind}")
            if job is not None:
                job.remove()

    async def arm_all(self) -> None:
        """Arm the jobs of every planned or running night of this process's servers (at start)."""
        owns = None if self.host.settings.holds_every_shard else self.host.owns_guild
        for night in await self.host.db.nights(guild_filter=owns):
            self.arm(night)

    # -- the start and the rounds -------------------------------------------------------------------------

    def _lock(self, night_id: int) -> asyncio.Lock:
        return self.locks.setdefault(night_id, asyncio.Lock())

    async def start(self, night_id: int) -> str | None:
        """Start the night now: sign the event's interested members in, seat and open round 1. Returns why
        it did not start (words), or ``None``."""
        async with self._lock(night_id):
            night = await self.host.db.night(night_id)
            if night is None or night.state != SCHEDULED:
                return "That night is not waiting for its start."
            guild = self.host.get_guild(night.guild_id)  # type: ignore[attr-defined]
            if guild is not None:
                known = {signup.user_id for signup in await self.host.db.signups(night_id)}
                now = datetime.now(timezone.utc)
                for member in await signups.interested(guild, night.event_id):
                    if member.user_id not in known:
                        await self.host.db.put_signup(
                            night_id, StoredSignup(member.user_id, member.name, INTERESTED, now)
                        )
            refusal = await self._seat_next(night.but(state=RUNNING))
            if refusal is not None:
                return refusal
            await self._delete_reminder(await self.host.db.night(night_id) or night)
            await self._event_status(night, "start")
            await self._redraw(night_id)
            self.disarm(night_id)
            running = await self.host.db.night(night_id)
            if running is not None:
                self.arm(running)
            return None

    async def start_at_its_time(self, night_id: int) -> None:
        """The start's job: start the night; if it cannot start (nobody is in, say), tell its channel and
        cancel it, and its server event."""
        refusal = await self.start(night_id)
        night = await self.host.db.night(night_id)
        if refusal is None or night is None or night.state != SCHEDULED:
            return
        await self.host.db.put_night(night.but(state=CANCELED))
        guild = self.host.get_guild(night.guild_id)  # type: ignore[attr-defined]
        with contextlib.suppress(discord.HTTPException):
            if guild is not None and night.event_id is not None:
                await (await guild.fetch_scheduled_event(night.event_id)).cancel()
        channel = self.host.get_channel(night.channel_id)  # type: ignore[attr-defined]
        if isinstance(channel, discord.TextChannel):
            with contextlib.suppress(discord.HTTPException):
                await channel.send(f"{refusal} The {signups.night_title(night)} is canceled.")

    async def remind(self, night_id: int) -> None:
        """Post the night's reminder: one line mentioning everyone in, deleted when the night starts."""
        async with self._lock(night_id):
            night = await self.host.db.night(night_id)
            channel = None if night is None else self.host.get_channel(night.channel_id)  # type: ignore[attr-defined]
            if night is None or night.state != SCHEDULED or not isinstance(channel, discord.TextChannel):
                return
            found = await signups.interested(channel.guild, night.event_id)
            players = signups.who_is_in(await self.host.db.signups(night_id), found)
            if not players or night.reminder_message_id is not None:
                return
            start = int(night.starts_at.timestamp())
            mentions = " ".join(f"<@{member.user_id}>" for member in players)
            try:
                message = await channel.send(
                    f"{mentions}: the {signups.night_title(night)} starts <t:{start}:R>. Tables open in "
                    "threads of this channel.",
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(m.user_id) for m in players], everyone=False, roles=False
                    ),
                )
            except discord.HTTPException:
                log.info("Night %s: the reminder was not posted", night_id)
                return
            await self.host.db.put_night(night.but(reminder_message_id=message.id))

    async def _players(self, night: StoredNight, tables: list[StoredNightTable]) -> tuple[dict, list[int]]:
        """``(names, absent)``: every player of the night by user id, in sign-up order (those who sat, and
        those signed in now), and those who sat before but are out now."""
        rows = await self.host.db.signups(night.night_id)
        sat = {player for table in tables for player in table.players}
        names = {
            row.user_id: row.name for row in rows if row.status in (IN, INTERESTED) or row.user_id in sat
        }
        absent = [row.user_id for row in rows if row.user_id in sat and row.status not in (IN, INTERESTED)]
        return names, absent

    async def _seat_next(self, night: StoredNight) -> str | None:
        """Seat and open the night's next round (storing the night and its tables), or end the night after
        its last. Returns why no round opened (words), or ``None``."""
        night = (await self.host.db.night(night.night_id) or night).but(state=RUNNING)
        tables = await self.host.db.night_tables(night.night_id)
        played = played_rounds(tables, await self.host.db.signups(night.night_id))
        rules = rules_of(night)
        names, absent = await self._players(night, tables)
        if is_over(rules, played):
            await self._end(night, names, played)
            return None
        number = len(played) + 1
        try:
            ratings = await self.host.db.night_ratings(night.guild_id, night.games[0])
            players = [Player(user, *ratings[user]) if user in ratings else Player(user) for user in names]
            seating = seat_round(rules, players, played, night.seed + number, absent=absent)
        except ValueError as error:
            if not played:
                return f"The night can't start. {error}"
            await self._end(night, names, played)
            return None
        seated = [
            StoredNightTable(number, index, table.players, table.ai_seats)
            for index, table in enumerate(seating.tables)
        ]
        night = night.but(round_number=number)
        await self.host.db.put_night_round(night, seated)
        for table in seated:
            await self._open(night, table, names)
        return None

    async def _open(self, night: StoredNight, table: StoredNightTable, names: dict[int, str]) -> None:
        """Open ``table`` in a new thread of the night's channel, start its game, store where it is."""
        channel = self.host.get_channel(night.channel_id)  # type: ignore[attr-defined]
        if not isinstance(channel, discord.TextChannel):
            log.warning("Night %s: its channel is gone", night.night_id)
            return
        game = night.games[0]
        first, *others = table.players
        seating = opening.Seating(
            first, names[first], tuple((p, names[p]) for p in others), table.ai_seats, NORMAL
        )
        request = opening.TableRequest(game, None, "fixed", table.ai_seats, NORMAL, True)
        seconds = await opening.turn_seconds_of(self.host, night.guild_id, None)
        rated, in_rated = await opening.rating_settings(self.host, night.guild_id)
        new_lobby = opening.lobby_maker(
            self.host, self.runtime, night.guild_id, request, seconds, rated, in_rated, seating
        )
        name = f"{GAMES[game].display_name} · round {night.round_number}, table {table.table_index + 1}"[:100]
        try:
            thread, session = await threads.table_in_thread(
                channel, name, new_lobby, self.runtime, self.messages
            )
        except (threads.ThreadNotStarted, TableError) as error:
            # Not retried (each try would start a thread): the table is marked as never opened, its
            # players share its places, and the channel is told.
            log.warning("Night %s: a table did not open: %s", night.night_id, error)
            failed = StoredNightTable(
                table.round_number, table.table_index, table.players, table.ai_seats, ""
            )
            await self.host.db.put_night_table(night.night_id, failed)
            with contextlib.suppress(discord.HTTPException):
                await channel.send(
                    f"Table {table.table_index + 1} of round {night.round_number} could not open ({error}). "
                    "Its players share its places."
                )
            return
        opened = StoredNightTable(
            table.round_number, table.table_index, table.players, table.ai_seats, session.table_id, thread.id
        )
        await self.host.db.put_night_table(night.night_id, opened)
        try:
            await self.runtime.commit(
                session, Start(first, night.seed + 1000 * night.round_number + table.table_index)
            )
        except TableError as error:
            log.warning("Night %s: a table did not start: %s", night.night_id, error)
        mentions = " ".join(f"<@{player}>" for player in table.players)
        try:
            await thread.send(
                f"{mentions}: round {night.round_number} of the game night is on at this table. Good luck!",
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(p) for p in table.players], everyone=False, roles=False
                ),
            )
        except discord.HTTPException:
            pass

    async def watch(self, night_id: int) -> None:
        """Record the places of the round's tables whose game ended; once all have, post the standings and
        seat the next round."""
        async with self._lock(night_id):
            night = await self.host.db.night(night_id)
            if night is None or night.state != RUNNING:
                self.disarm(night_id)
                return
            tables = await self.host.db.night_tables(night_id)
            current = [t for t in tables if t.round_number == night.round_number]
            unopened = [t for t in current if t.table_id is None]
            if unopened:  # seated, but the bot stopped before it opened them: open them now
                names, _ = await self._players(night, tables)
                for table in unopened:
                    await self._open(night, table, names)
                return
            for table in current:
                if table.ranks is not None:
                    continue
                ranks = await self._ranks(night, table)
                if ranks is not None:
                    table = StoredNightTable(
                        table.round_number,
                        table.table_index,
                        table.players,
                        table.ai_seats,
                        table.table_id,
                        table.thread_id,
                        ranks,
                    )
                    await self.host.db.put_night_table(night_id, table)
            tables = await self.host.db.night_tables(night_id)
            if any(t.ranks is None for t in tables if t.round_number == night.round_number):
                return
            names, _ = await self._players(night, tables)
            played = played_rounds(tables, await self.host.db.signups(night_id))
            await self._post_standings(night, names, played, final=False)
            await self._seat_next(night)

    async def _ranks(self, night: StoredNight, table: StoredNightTable) -> tuple[int, ...] | None:
        """Each seat's rank at ``table`` once its result is stored; ``None`` while it plays."""
        assert table.table_id is not None
        if not table.table_id:  # it never opened
            return (1,) * (len(table.players) + table.ai_seats)
        game_id = await self.host.db.finished_game_id(night.guild_id, table.table_id)
        if game_id is None:
            if self.runtime.registry.get(table.table_id) is not None:
                return None
            # Closed with no result: its players all left. They share the place and sit at no later round.
            now = datetime.now(timezone.utc)
            names = {row.user_id: row.name for row in await self.host.db.signups(night.night_id)}
            for player in table.players:
                left = StoredSignup(player, names.get(player, str(player)), LEFT, now, table.round_number)
                await self.host.db.put_signup(night.night_id, left)
            return (1,) * (len(table.players) + table.ai_seats)
        game = await self.host.db.finished_game(night.guild_id, game_id)
        if game is None:
            return None
        await self._note_leavers(night, table)
        return tuple(seat.rank for seat in sorted(game.seats, key=lambda seat: seat.seat))

    async def _note_leavers(self, night: StoredNight, table: StoredNightTable) -> None:
        """Mark the players who left ``table``'s game (an AI played their seat on) as having left the
        night: their place counts, and they sit at no later round. Read from the live table, which stays
        while its scoreboard shows."""
        assert table.table_id is not None
        session = self.runtime.registry.get(table.table_id)
        if session is None:
            return
        value = session.value
        leavers = {value.players[seat] for seat in value.left_seats} & set(table.players)
        if not leavers:
            return
        names = {row.user_id: row.name for row in await self.host.db.signups(night.night_id)}
        now = datetime.now(timezone.utc)
        for player in sorted(leavers):
            left = StoredSignup(player, names.get(player, str(player)), LEFT, now, table.round_number)
            await self.host.db.put_signup(night.night_id, left)

    async def _end(self, night: StoredNight, names: dict[int, str], played: list[RoundResult]) -> None:
        # The final standings first, then the night stored as over: a stop between the two ends it again.
        await self._post_standings(night, names, played, final=True)
        over = (await self.host.db.night(night.night_id) or night).but(state=OVER)
        await self.host.db.put_night(over)
        self.disarm(night.night_id)
        channel = self.host.get_channel(night.channel_id)  # type: ignore[attr-defined]
        await self._event_status(night, "end")
        if isinstance(channel, discord.TextChannel) and night.signup_message_id is not None:
            try:
                await channel.get_partial_message(night.signup_message_id).edit(
                    content=signups.board_text(over, [signups.Member(u, n) for u, n in names.items()]),
                    view=None,
                )
            except discord.HTTPException:
                pass

    async def _event_status(self, night: StoredNight, change: str) -> None:
        """Mark the night's scheduled event started (``change`` "start") or ended ("end"), as Discord
        allows (a scheduled event starts, an active one ends); an event gone is no matter."""
        guild = self.host.get_guild(night.guild_id)  # type: ignore[attr-defined]
        if guild is None or night.event_id is None:
            return
        try:
            event = await guild.fetch_scheduled_event(night.event_id)
            if change == "start" and event.status is discord.EventStatus.scheduled:
                await event.start()
            elif change == "end" and event.status is discord.EventStatus.active:
                await event.end()
        except discord.HTTPException:
            log.info("Night %s: its scheduled event was not marked %s", night.night_id, change)

    async def _redraw(self, night_id: int) -> None:
        """Edit the sign-up message to show the night as it is now (it has started)."""
        night = await self.host.db.night(night_id)
        channel = None if night is None else self.host.get_channel(night.channel_id)  # type: ignore[attr-defined]
        if night is None or night.signup_message_id is None or not isinstance(channel, discord.TextChannel):
            return
        players = signups.who_is_in(await self.host.db.signups(night_id), [])
        try:
            await channel.get_partial_message(night.signup_message_id).edit(
                content=signups.board_text(night, players), view=signups.board_view(night)
            )
        except discord.HTTPException:
            log.info("Night %s: the sign-up message was not redrawn", night_id)

    async def _post_standings(
        self, night: StoredNight, names: dict[int, str], played: list[RoundResult], *, final: bool
    ) -> None:
        """Edit the night's standings message (post it the first time, its id stored)."""
        channel = self.host.get_channel(night.channel_id)  # type: ignore[attr-defined]
        if not isinstance(channel, discord.TextChannel):
            return
        text = standings_text(night, names, played, final)
        stored = await self.host.db.night(night.night_id)
        message_id = None if stored is None else stored.standings_message_id
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(content=text)
                return
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.info("Night %s: the standings were not edited", night.night_id)
                return
        try:
            message = await channel.send(text)
        except discord.HTTPException:
            return
        if stored is not None:
            await self.host.db.put_night(stored.but(standings_message_id=message.id))

    async def _delete_reminder(self, night: StoredNight) -> None:
        channel = self.host.get_channel(night.channel_id)  # type: ignore[attr-defined]
        if night.reminder_message_id is None or not isinstance(channel, discord.TextChannel):
            return
        try:
            await channel.get_partial_message(night.reminder_message_id).delete()
        except discord.HTTPException:
            pass
