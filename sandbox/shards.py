"""The sharded gateway: several sessions at once, each guild's events to its shard.

Discord splits a bot's guilds over ``shard_count`` shards: a guild belongs to shard
``(guild_id >> 22) % shard_count`` and DMs belong to shard 0 (developer docs, "Sharding").
A bot process identifies one gateway session per shard it runs (IDENTIFY with
``shard: [shard_id, shard_count]``), so several processes, each holding some shards, share
one bot. The sandbox does the same: any number of sessions live at once, every guild event
(READY's guilds, GUILD_CREATE, GUILD_DELETE, channel, thread and message events,
INTERACTION_CREATE) goes to the sessions of the guild's shard, and every DM event and DM
interaction to the sessions of shard 0. Answers to interactions are plain REST calls by
interaction id and token, so any process may send them.

:class:`ShardedGateway` is a mixin of :class:`~sandbox.server.SandboxServer` with what
tests need to drive several bot processes: which shard a guild is on, waiting until the
sessions of given shards are ready, the connected sessions, and cutting one shard's
connection as a killed process does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .gateway import GatewayConnection, GatewaySession
from .models import Guild, shard_of

__all__ = ["ShardedGateway"]


class ShardedGateway:
    """Mixin of :class:`~sandbox.server.SandboxServer`: sessions of several shards at once."""

    if TYPE_CHECKING:  # provided by SandboxServer
        shard_count: int
        max_concurrency: int
        _sessions: list[GatewaySession]
        _connections: list[GatewayConnection]

        def _changed(self) -> None: ...
        def _live_sessions(self) -> list[GatewaySession]: ...
        def _note_rate(self, key: str, limit: int, per: float, what: str) -> None: ...
        async def wait_for(
            self, predicate: Callable[[], Any], timeout: float = 5.0, *, message: str | None = None
        ) -> Any: ...

    def shard_of(self, guild: Guild | int, count: int | None = None) -> int:
        """The shard id that receives ``guild``'s events: ``(guild_id >> 22) % count``.

        ``count`` defaults to the server's recommended ``shard_count``.
        """
        guild_id = guild.id if isinstance(guild, Guild) else int(guild)
        return shard_of(guild_id, self.shard_count if count is None else count)

    @property
    def gateway_sessions(self) -> list[GatewaySession]:
        """Every session still alive: connected, or dropped but resumable (``resume_window``)."""
        return list(self._live_sessions())

    @property
    def connected_sessions(self) -> list[GatewaySession]:
        """Sessions that are ready (READY and their GUILD_CREATEs written) and have an open websocket."""
        return [s for s in self._live_sessions() if s.ready and s.connected]

    @property
    def session_count(self) -> int:
        """How many sessions are ready and connected (one per shard a running bot process holds)."""
        return len(self.connected_sessions)

    @property
    def connected_shards(self) -> list[int]:
        """Shard ids of the ready, connected sessions, sorted (an id twice: two sessions of one shard)."""
        return sorted(s.shard[0] for s in self.connected_sessions)

    def sessions_of_shard(self, shard_id: int, count: int | None = None) -> list[GatewaySession]:
        """Ready, connected sessions of shard ``shard_id`` (of ``count`` shards; None: any count)."""
        return [
            s
            for s in self.connected_sessions
            if s.shard[0] == shard_id and (count is None or s.shard[1] == count)
        ]

    async def wait_for_shards(
        self, shard_ids: Iterable[int], count: int | None = None, *, timeout: float = 10.0
    ) -> list[GatewaySession]:
        """Wait until every shard in ``shard_ids`` has a ready, connected session.

        Parameters
        ----------
        shard_ids : iterable of int
        count : int, optional
            The shard count the sessions identified with; None accepts any.
        timeout : float
            Seconds.

        Returns
        -------
        list of GatewaySession
            One session per shard id, in the order given (the newest if a shard has several).

        Raises
        ------
        TimeoutError
            Naming the shards still missing.
        """
        wanted = list(shard_ids)
        if not wanted:
            return []

        def ready() -> list[GatewaySession] | None:
            found = [self.sessions_of_shard(k, count) for k in wanted]
            return [sessions[-1] for sessions in found] if all(found) else None

        def missing() -> str:
            gone = [k for k in wanted if not self.sessions_of_shard(k, count)]
            of = f" of {count}" if count is not None else ""
            return f"gateway sessions of shards {gone}{of} (connected: {self.connected_shards})"

        try:
            return await self.wait_for(ready, timeout=timeout, message="sessions of shards")
        except TimeoutError:
            raise TimeoutError(f"sandbox: {missing()} not ready within {timeout}s") from None

    async def drop_shards(
        self, shard_ids: Iterable[int], *, resumable: bool = False, abrupt: bool = True
    ) -> int:
        """Cut the gateway connections of the sessions of ``shard_ids``, as when their process is killed.

        The other shards' sessions are untouched. Use it right after SIGKILLing a bot process (whose
        socket may still look open) so that the shard has no session left: its interactions are then
        not delivered until a new process identifies for it, which it may do at once.

        Parameters
        ----------
        shard_ids : iterable of int
        resumable : bool
            Keep the sessions for RESUME (events meanwhile go to their backlog). False forgets them:
            a RESUME gets INVALID_SESSION.
        abrupt : bool
            Abort the TCP connection without a close frame (the client sees code 1006), as the
            kernel does for a killed process; False closes with 4000.

        Returns
        -------
        int
            How many sessions were dropped.
        """
        wanted = set(shard_ids)
        dropped = [s for s in self._live_sessions() if s.shard[0] in wanted]
        if not resumable:
            self._sessions[:] = [s for s in self._sessions if s not in dropped]
        connections = [c for c in self._connections if c.session is not None and c.session in dropped]
        for connection in connections:
            if abrupt:
                connection.abort()
            else:
                await connection.close(4000, "Sandbox dropped the connection.")
        self._changed()
        await self.wait_for(
            lambda: not any(c in self._connections for c in connections),
            timeout=2.0,
            message=f"dropped connections of shards {sorted(wanted)} closed",
        )
        return len(dropped)

    def _owner_shard(self, guild: Guild | None) -> tuple[int, int]:
        """``(shard_id, shard_count)`` an event of ``guild`` (None: a DM) is routed to.

        The count is the one the live sessions identified with (the server's ``shard_count`` when
        none is alive or they disagree).
        """
        counts = {s.shard[1] for s in self._live_sessions()}
        count = counts.pop() if len(counts) == 1 else self.shard_count
        return (0 if guild is None else shard_of(guild.id, count)), count

    def _note_identify(self, shard: tuple[int, int]) -> None:
        """Advisory: Discord allows one IDENTIFY per 5 s in each bucket ``shard_id % max_concurrency``."""
        bucket = shard[0] % max(self.max_concurrency, 1)
        self._note_rate(
            f"identify:{bucket}",
            1,
            5.0,
            f"IDENTIFY of shard {list(shard)} in rate-limit bucket {bucket} "
            f"(max_concurrency {self.max_concurrency}); Discord answers INVALID_SESSION",
        )
