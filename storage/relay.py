"""The PostgreSQL side of relaying interactions between the bot's processes (``bot.interaction_relay``):
a table of relayed interactions' descriptions and LISTEN/NOTIFY on named channels.

A relayed interaction is one row of ``relayed_interactions`` (its description as JSON text, whatever its
size: a NOTIFY payload may hold at most 8000 bytes, and an interaction's raw data may hold more) and one
NOTIFY of its id on the receiving process's channel. The row is the arbiter of who acts on it: the receiver
takes it with one ``DELETE ... RETURNING`` (:meth:`RelayStore.claim`, which also notifies the sender, in the
same statement), the sender gives up on it with another (:meth:`RelayStore.withdraw`); exactly one of the two
deletes the row, so an interaction is never acted on twice.

The table is UNLOGGED (a relayed interaction lives for a second or two; one lost in a PostgreSQL crash is
never claimed, so its sender answers it and the player presses again) and created here, not by the
migrations: it only exists in PostgreSQL, which only sharded bots use.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable

import psycopg
from psycopg import sql
from psycopg_pool import AsyncConnectionPool

from storage.backend import error_line

log = logging.getLogger(__name__)

_SCHEMA_LOCK = 0x6361_7264_7265_6C61  # pg_advisory_xact_lock key: processes create the table one at a time
_CREATE = """
CREATE UNLOGGED TABLE IF NOT EXISTS relayed_interactions (
    relay_id TEXT PRIMARY KEY,
    reply_channel TEXT NOT NULL,
    payload TEXT NOT NULL,
    sent_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""
_PURGE = "DELETE FROM relayed_interactions WHERE sent_at < now() - make_interval(secs => %s)"
_SEND = """
WITH sent AS (
    INSERT INTO relayed_interactions (relay_id, reply_channel, payload) VALUES (%s, %s, %s)
    RETURNING relay_id
)
SELECT pg_notify(%s, relay_id) FROM sent
"""
_CLAIM = """
WITH claimed AS (
    DELETE FROM relayed_interactions WHERE relay_id = %s RETURNING relay_id, reply_channel, payload
)
SELECT payload, reply_channel, pg_notify(reply_channel, relay_id) FROM claimed
"""
ANSWERED = " answered"
"""What follows a relay id in the NOTIFY that tells its sender the receiver has answered it."""
_WITHDRAW = "DELETE FROM relayed_interactions WHERE relay_id = %s"

STALE_SECONDS = 60.0
"""Rows older than this (their sender died before it withdrew them) are deleted when a process starts."""
RECONNECT_SECONDS = 1.0
"""How long the listener waits before it connects again after losing its connection (also the pool's
``reconnect_timeout``: past it, the next statement starts a new connection attempt at once)."""
CONNECT_TIMEOUT_SECONDS = 3
"""libpq's ``connect_timeout``: a server that does not answer holds a connection attempt no longer."""
STATEMENT_WAIT_SECONDS = 1.0
"""How long a relay's statement waits for a connection of the pool: a relayed interaction must be answered
within Discord's 3 seconds, by its sender if the database is away."""


class RelayStore:
    """Relayed interactions in PostgreSQL, for one bot process.

    Parameters
    ----------
    url:
        The ``postgresql://`` URL of the database the bot's processes share.
    channels:
        The NOTIFY channels this process listens on (lowercase identifiers of at most 63 characters).

    Use :meth:`open` to make one; :meth:`notifications` yields what arrives on ``channels``. It holds at
    most three connections: two for its statements (a relay is two short statements) and the listener's.
    """

    def __init__(self, url: str, channels: Iterable[str]) -> None:
        self.url = url
        self.channels = list(channels)
        self.listening = asyncio.Event()
        """Set while :meth:`notifications` listens on every channel (a NOTIFY sent before is lost)."""
        # A relay is rare (a DM about another process's table) and must not fail on a connection the
        # server dropped while it sat idle (a restart, pg_terminate_backend): each is checked when taken.
        self._pool = AsyncConnectionPool(
            url,
            min_size=1,
            max_size=2,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_SECONDS},
            open=False,
            name="relay",
            check=AsyncConnectionPool.check_connection,
            reconnect_timeout=RECONNECT_SECONDS,
            timeout=STATEMENT_WAIT_SECONDS,
        )

    @classmethod
    async def open(cls, url: str, channels: Iterable[str]) -> RelayStore:
        """Connect, create the table if it is missing and delete stale rows.

        Raises
        ------
        psycopg.OperationalError
            If the database cannot be reached.
        """
        store = cls(url, channels)
        await store._pool.open(wait=True, timeout=10.0)
        try:
            async with store._pool.connection() as connection:
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                    await connection.execute(_CREATE)
                await connection.execute(_PURGE, (STALE_SECONDS,))
        except BaseException:
            await store._pool.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connections (a running :meth:`notifications` ends with the listener's)."""
        await self._pool.close()

    async def send(self, relay_id: str, channel: str, reply_channel: str, payload: str) -> None:
        """Store ``payload`` (an interaction's description as JSON text) as ``relay_id`` and notify
        ``channel`` of it; the receiver's :meth:`claim` will notify ``reply_channel``. One statement, so one
        transaction.

        Raises
        ------
        psycopg.Error
            If the database refused or cannot be reached (nothing was sent).
        """
        async with self._pool.connection() as connection:
            await connection.execute(_SEND, (relay_id, reply_channel, payload, channel))

    async def claim(self, relay_id: str) -> tuple[str, str] | None:
        """Take relayed interaction ``relay_id`` to act on it, and tell its sender so: its payload and its
        sender's reply channel, or ``None`` if it is gone (its sender withdrew it, or another claim took
        it)."""
        async with self._pool.connection() as connection:
            cursor = await connection.execute(_CLAIM, (relay_id,))
            row = await cursor.fetchone()
        return None if row is None else (row[0], row[1])

    async def tell_answered(self, relay_id: str, reply_channel: str) -> None:
        """Tell the sender of relayed interaction ``relay_id`` (listening on ``reply_channel``) that it has
        been answered (``"<relay_id> answered"``).

        Raises
        ------
        psycopg.Error
            If the database refused or cannot be reached.
        """
        async with self._pool.connection() as connection:
            await connection.execute("SELECT pg_notify(%s, %s)", (reply_channel, relay_id + ANSWERED))

    async def withdraw(self, relay_id: str) -> bool:
        """Give up relayed interaction ``relay_id``: True if it was still unclaimed (now no process will act
        on it, so the sender answers it), False if a receiver claimed it first."""
        async with self._pool.connection() as connection:
            cursor = await connection.execute(_WITHDRAW, (relay_id,))
            return cursor.rowcount == 1

    async def notifications(self) -> AsyncIterator[tuple[str, str]]:
        """``(channel, payload)`` of every NOTIFY on :attr:`channels`, as they arrive, for ever.

        A lost connection (any :class:`psycopg.Error`) is logged and made again after
        :data:`RECONNECT_SECONDS` (what was notified meanwhile is lost: its sender times out and answers
        the player itself). Ends when cancelled.
        """
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS
                )
            except psycopg.Error as error:
                log.warning(
                    "The interaction relay cannot listen (%s): trying again", error_line(error, self.url)
                )
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            try:
                for channel in self.channels:
                    await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                self.listening.set()
                async for notify in connection.notifies():
                    yield notify.channel, notify.payload
            except psycopg.Error as error:
                self.listening.clear()
                log.warning(
                    "The interaction relay lost its connection (%s): listening again",
                    error_line(error, self.url),
                )
                await asyncio.sleep(RECONNECT_SECONDS)
            finally:
                self.listening.clear()
                await connection.close()
