"""The sandbox's gateway: the websocket discord.py's ``DiscordWebSocket`` talks to.

Protocol handled (gateway v10, JSON encoding, plain text frames even when the
client asks for ``compress=zlib-stream`` -- discord.py only decompresses binary
frames):

* HELLO (op 10) on connect, with the server's ``heartbeat_interval``; HEARTBEAT (op 1) answered with
  HEARTBEAT_ACK (op 11) after ``heartbeat_ack_delay`` seconds, the network's round trip to Discord. The
  delay is not decoration: discord.py's keep-alive thread notes when it sent a heartbeat only once the
  event loop has sent it, and an ACK read by the loop before that thread runs again is measured against
  the previous heartbeat, a whole interval earlier, and logged as "Can't keep up, shard ID 0 websocket
  is ...s behind" while nothing is behind. Over loopback, in the bot's own event loop, an instant ACK
  often wins that race.
* IDENTIFY (op 2): wrong token closes with 4004; a second IDENTIFY on the same
  socket closes with 4005; a ``shard`` that is not ``[shard_id, shard_count]`` with
  ``0 <= shard_id < shard_count`` closes with 4010; otherwise READY (guilds
  unavailable) followed by one GUILD_CREATE per guild of the session's shard
  (``(guild_id >> 22) % shard_count``). Any number of sessions live at once, one
  or more per shard, each on its own websocket (see :mod:`sandbox.shards`).
* RESUME (op 6): a session survives a dropped connection for ``resume_window``
  seconds, with a backlog of the dispatches it missed; RESUME replays the events
  after the client's sequence number and sends RESUMED. An expired or unknown
  session gets INVALID_SESSION (op 9, ``d: false``) and discord.py re-identifies
  (after its own 5 s wait). Close codes are not used to end sessions: discord.py's
  ``Client.close()`` puts 4000 on the wire, and aiohttp reports 1000 for closes
  the server started.
* REQUEST_GUILD_MEMBERS (op 8): one GUILD_MEMBERS_CHUNK.
* PRESENCE_UPDATE (op 3) and VOICE_STATE_UPDATE (op 4) are accepted and ignored.

A :class:`GatewaySession` is the logical session (sequence numbers, backlog,
intents); a :class:`GatewayConnection` is one websocket. Every outgoing frame
goes through one queue per connection, so dispatches keep their order even
when synchronous code produces them.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import secrets
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import WSMsgType, web

from .models import shard_of

if TYPE_CHECKING:  # pragma: no cover
    from .models import Guild, SimUser

__all__ = ["GatewaySession", "GatewayConnection", "Intents"]

_log = logging.getLogger(__name__)


class Intents:
    """Gateway intent bits the sandbox looks at."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    GUILD_SCHEDULED_EVENTS = 1 << 16


class GatewayServer(Protocol):
    """What the gateway needs of the server (:class:`~sandbox.server.SandboxServer`): the bot's identity
    and guilds, its sessions, and where to record what happened."""

    bot_token: str
    bot_user: SimUser
    application_id: int
    application_flags: int
    heartbeat_interval: float
    heartbeat_ack_delay: float
    guilds: list[Guild]
    gateway_log: collections.deque[str]
    unhandled_routes: list[str]
    identify_count: int
    resume_count: int
    _sessions: list[GatewaySession]

    @property
    def gateway_url(self) -> str: ...

    def _guild(self, guild_id: int) -> Guild: ...

    def _bot_me_payload(self) -> dict[str, Any]: ...

    def _note_identify(self, shard: tuple[int, int]) -> None: ...

    def _resumable_session(self, session_id: Any) -> GatewaySession | None: ...

    def _connection_lost(self, connection: GatewayConnection) -> None: ...

    def _record_violation(self, code: str, text: str) -> None: ...

    def _changed(self) -> None: ...


class GatewaySession:
    """A logical gateway session, created by IDENTIFY and kept across RESUMEs.

    Attributes
    ----------
    session_id : str
    intents : int
        Intents the bot identified with.
    shard : tuple of int
        ``(shard_id, shard_count)``.
    connection : GatewayConnection or None
        The websocket currently attached, None while disconnected.
    ready : bool
        READY and the GUILD_CREATEs have been written to the socket.
    disconnected_at : float or None
        Server clock time the connection was lost (for the resume window).
    """

    def __init__(
        self, server: GatewayServer, intents: int, shard: "tuple[int, int]", backlog_size: int = 2000
    ) -> None:
        self.server = server
        self.session_id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.connection: GatewayConnection | None = None
        self.ready = False
        self.disconnected_at: float | None = None
        self.seq = 0
        self.backlog: collections.deque[dict[str, Any]] = collections.deque(maxlen=backlog_size)

    def dispatch(self, event: str, data: Any) -> None:
        """Give a DISPATCH (op 0) event the next sequence number, keep it, and send it if connected."""
        self.seq += 1
        frame = {"op": 0, "d": data, "s": self.seq, "t": event}
        self.backlog.append(frame)
        if self.connection is not None:
            self.connection.enqueue(frame)

    def handles_guild(self, guild_id: int) -> bool:
        """Whether this session's shard receives events of ``guild_id``."""
        shard_id, count = self.shard
        return shard_of(guild_id, count) == shard_id

    def handles_dms(self) -> bool:
        """Whether this session receives DM events and DM interactions (shard 0 does, as on Discord)."""
        return self.shard[0] == 0

    def can_replay_from(self, seq: int | None) -> bool:
        """Whether every event after ``seq`` is still in the backlog."""
        if seq is None:
            return False
        if seq >= self.seq:
            return True
        return bool(self.backlog) and self.backlog[0]["s"] <= seq + 1

    @property
    def connected(self) -> bool:
        """Whether a websocket is attached and open."""
        return self.connection is not None and not self.connection.closed

    def __repr__(self) -> str:
        state = "connected" if self.connected else "disconnected"
        return f"<GatewaySession {self.session_id[:8]} {state} seq={self.seq}>"


class GatewayConnection:
    """One websocket connection from a bot.

    Attributes
    ----------
    session : GatewaySession or None
        Set by IDENTIFY or a successful RESUME.
    closed : bool
    """

    def __init__(
        self,
        server: GatewayServer,
        ws: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None = None,
    ) -> None:
        self.server = server
        self.ws = ws
        self._transport = transport
        self.session: GatewaySession | None = None
        self.closed = False
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    # -- sending ------------------------------------------------------------------------

    def enqueue(self, frame: Any) -> None:
        """Queue a frame (a dict) or a flush marker (a future) for the writer."""
        if not self.closed:
            self._queue.put_nowait(frame)

    def send(self, op: int, d: Any = None) -> None:
        """Queue a non-dispatch frame."""
        self.enqueue({"op": op, "d": d, "s": None, "t": None})

    async def _write_loop(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            if isinstance(item, asyncio.Future):
                if not item.done():
                    item.set_result(None)
                continue
            try:
                await self.ws.send_str(json.dumps(item))
            except (ConnectionError, RuntimeError) as exc:
                _log.debug("gateway write failed: %s", exc)
                self.closed = True
                return

    async def _flushed(self) -> None:
        marker: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(marker)
        await marker

    async def close(self, code: int = 1000, message: str = "") -> None:
        """Close the websocket with ``code``."""
        self.closed = True
        await self.ws.close(code=code, message=message.encode())

    def abort(self) -> None:
        """Cut the TCP connection without a close frame, as the kernel does for a killed process."""
        self.closed = True
        if self._transport is not None:
            self._transport.abort()

    # -- receiving ----------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until it closes."""
        self._writer = asyncio.create_task(self._write_loop(), name="sandbox-gateway-writer")
        self.send(
            10, {"heartbeat_interval": int(self.server.heartbeat_interval * 1000), "_trace": ["sandbox"]}
        )
        try:
            async for msg in self.ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        frame = json.loads(msg.data)
                    except ValueError:
                        await self.close(4002, "Error while decoding payload.")
                        break
                    await self._handle(frame)
                elif msg.type == WSMsgType.BINARY:
                    await self.close(4002, "The sandbox gateway only speaks JSON text frames.")
                    break
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.closed = True
            self._queue.put_nowait(None)
            if self._writer is not None:
                try:
                    await asyncio.wait_for(self._writer, timeout=1.0)
                except TimeoutError:
                    self._writer.cancel()
            self.server._connection_lost(self)

    async def _handle(self, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data = frame.get("d")
        if op != 1:
            self.server.gateway_log.append(f"<- op {op}")
        if op == 1:
            self._acknowledge_heartbeat()
        elif op == 2:
            await self._identify(data or {})
        elif op == 6:
            await self._resume(data or {})
        elif self.session is None:
            await self.close(4003, "Not authenticated.")
        elif op == 8:
            self._request_members(data or {})
        elif op in (3, 4):
            pass
        else:
            self.server.unhandled_routes.append(f"GATEWAY op {op}")
            await self.close(4001, "Unknown opcode.")

    def _acknowledge_heartbeat(self) -> None:
        """Send HEARTBEAT_ACK after the server's ``heartbeat_ack_delay``, as Discord's arrives after a round
        trip (see the module's docstring for why an instant one misleads discord.py)."""
        delay = self.server.heartbeat_ack_delay
        if delay <= 0:
            self.send(11)
        else:
            asyncio.get_running_loop().call_later(delay, self.send, 11)  # a no-op once closed

    async def _identify(self, data: dict[str, Any]) -> None:
        server = self.server
        if data.get("token") != server.bot_token:
            server._record_violation("4004", "gateway IDENTIFY with a wrong token (closed with 4004)")
            await self.close(4004, "Authentication failed.")
            return
        if self.session is not None:
            await self.close(4005, "Already authenticated.")
            return
        shard = (0, 1) if data.get("shard") is None else _valid_shard(data["shard"])
        if shard is None:
            await self.close(4010, "Invalid shard.")
            return
        server._note_identify(shard)
        session = GatewaySession(server, int(data.get("intents") or 0), shard)
        session.connection = self
        self.session = session
        server._sessions.append(session)
        guilds = [g for g in server.guilds if session.handles_guild(g.id)]
        ready = {
            "v": 10,
            "user": server._bot_me_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": server.gateway_url,
            "shard": list(session.shard),
            "application": {"id": str(server.application_id), "flags": server.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "_trace": ["sandbox"],
        }
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch(
                "GUILD_CREATE", guild.payload(include_members=bool(session.intents & Intents.GUILD_MEMBERS))
            )
        await self._flushed()
        if self.closed:
            return
        session.ready = True
        server.identify_count += 1
        server._changed()

    async def _resume(self, data: dict[str, Any]) -> None:
        server = self.server
        session = server._resumable_session(data.get("session_id"))
        if (
            session is None
            or data.get("token") != server.bot_token
            or self.session is not None
            or not session.can_replay_from(data.get("seq"))
        ):
            # Discord waits 1-5 s before this answer; the client re-identifies after it.
            self.send(9, False)
            return
        if session.connection is not None and session.connection is not self:
            await session.connection.close(4000, "Session resumed elsewhere.")
        session.connection = self
        session.disconnected_at = None
        self.session = session
        seq = data.get("seq") or 0
        for frame in list(session.backlog):
            if frame["s"] > seq:
                self.enqueue(frame)
        session.dispatch("RESUMED", {"_trace": ["sandbox"]})
        await self._flushed()
        server.resume_count += 1
        server._changed()

    def _request_members(self, data: dict[str, Any]) -> None:
        assert self.session is not None
        try:
            guild = self.server._guild(int(data.get("guild_id")))  # type: ignore[arg-type]
        except (TypeError, ValueError, KeyError):
            return
        query = (data.get("query") or "").lower()
        user_ids = {int(u) for u in (data.get("user_ids") or [])} if data.get("user_ids") else None
        limit = int(data.get("limit") or 0)
        users = [self.server.bot_user] + guild.members
        chosen: list[Any] = []
        for user in users:
            if user_ids is not None and user.id not in user_ids:
                continue
            if query and not user.username.lower().startswith(query):
                continue
            chosen.append(user)
        if limit:
            chosen = chosen[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [guild.member_payload(u) for u in chosen],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        self.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _valid_shard(value: Any) -> "tuple[int, int] | None":
    """``(shard_id, shard_count)`` from IDENTIFY's ``shard`` field, or None when Discord would close 4010."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    shard_id, count = value
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (shard_id, count)):
        return None
    if count < 1 or not 0 <= shard_id < count:
        return None
    return shard_id, count
