"""``SandboxServer``: a local, in-process, Discord-compatible server for end-to-end tests.

The real, unmodified discord.py client connects to it (REST under
``server.api_base``, gateway websocket at ``server.gateway_url``), syncs its
application commands and receives interactions that simulated users create
with :meth:`SandboxServer.run_command`, :meth:`SandboxServer.press`,
:meth:`SandboxServer.select` and :meth:`SandboxServer.submit_modal`.

The server enforces Discord's documented rules (3 s answer deadline, one answer
per interaction, 15 minute tokens, ephemeral visibility, size limits, closed
DMs, unknown messages/channels): it answers the bot exactly as Discord would
and records each breach as a readable string in :attr:`SandboxServer.violations`.

Typical use::

    async with SandboxServer() as server:
        guild = server.add_guild("Test Guild")
        channel = guild.add_channel("cards")
        alice = guild.add_member("alice")
        # ... point discord.py at server.api_base, start the bot ...
        await server.wait_for_bot()
        await server.wait_for_commands(["play"])
        result = await server.run_command(alice, channel, "play", game="foist")
        assert result.ok and not result.ephemeral
"""

from __future__ import annotations

import asyncio
import collections
import copy
import logging
import re
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from aiohttp import web

from .emojis import EmojiHandlers
from .errors import SandboxUsageError
from .gateway import GatewayConnection, GatewaySession, Intents
from .handlers import RestHandlers
from .interactions import (
    COMMAND,
    InteractionRecord,
)
from .limits import (
    FLAG_COMPONENTS_V2,
    FLAG_LOADING,
)
from .models import Channel, Guild, Message, SimUser, SnowflakeGenerator, content_type, iso_now
from .rest import RestApi, json_response
from .scheduled_events import ScheduledEventHandlers
from .shards import ShardedGateway
from .simulation import MessageRef, SimulatedUsers
from .threads import ThreadHandlers

__all__ = ["SandboxServer"]

_log = logging.getLogger(__name__)

MessageListener = Callable[[str, Message], Any]


class _InjectedFailure:
    def __init__(
        self, method: str, path_regex: str, status: int, times: int, code: int, retry_after: float
    ) -> None:
        self.method = method.upper()
        self.regex = re.compile(path_regex)
        self.status = status
        self.remaining = times
        self.code = code
        self.retry_after = retry_after


class SandboxServer(
    SimulatedUsers, RestHandlers, ThreadHandlers, EmojiHandlers, ScheduledEventHandlers, ShardedGateway
):
    """A local Discord-compatible server (REST + gateway) with simulated users.

    Parameters
    ----------
    host : str
        Interface to listen on (default ``127.0.0.1``).
    port : int
        Port; 0 picks a free one.
    interaction_deadline : float
        Seconds the bot has to answer an interaction (Discord: 3).
    token_lifetime : float
        Seconds an interaction token works for followups and edits (Discord: 900).
    heartbeat_interval : float
        Gateway heartbeat interval in seconds sent in HELLO (Discord: 41.25).
    heartbeat_ack_delay : float
        Seconds between a heartbeat and its ACK, the round trip a bot has to Discord (default 0.05; 0
        answers at once, which discord.py can misread as a websocket a whole interval behind: see
        :mod:`sandbox.gateway`).
    resume_window : float
        Seconds a gateway session whose connection dropped can still be resumed.
    bot_name : str
        User name of the bot user (also the application name).
    bot_token : str, optional
        The token the bot must log in with (random by default).
    shard_count : int
        The shard count ``GET /gateway/bot`` recommends (default 1). Bots may identify with any
        count; each session gets the guilds of its own shard (see :mod:`sandbox.shards`).
    max_concurrency : int
        ``session_start_limit.max_concurrency`` of ``GET /gateway/bot``: IDENTIFYs allowed per 5 s,
        one per bucket ``shard_id % max_concurrency`` (going over is an advisory
        ``rate_limit_warnings`` entry).

    Notes
    -----
    The bot user's id equals ``application_id``, as for applications created on
    Discord today.

    Attributes
    ----------
    rate_limit_warnings : list of str
        Advisory, not enforced: each time the bot went over Discord's documented
        rate limits (about 5 messages per 5 s per channel, 5 edits per 5 s per
        channel, 50 requests per second overall). Real Discord would have answered
        429 and discord.py would have waited.
    violations : list of str
        Every rule the bot broke, in order, as readable strings starting with the
        Discord error code in brackets (``"[40060] ..."``).
    unhandled_routes : list of str
        ``"METHOD /path"`` of REST calls the sandbox does not implement (and gateway
        opcodes it does not know).
    guilds : list of Guild
    users : dict of int to SimUser
        Simulated humans by id.
    interactions : dict of int to InteractionRecord
    on_message_event : callable or None
        ``callback(kind, message)`` with kind ``"create"``, ``"edit"`` or ``"delete"``,
        called synchronously on every message change (see :mod:`sandbox.transcript`).
    request_log : deque of (method, path, status)
        The last REST calls.
    uploads : list of (method, path, filenames)
        Every request that uploaded files (a multipart body), with the names of its files.
    identify_count : int
        How many gateway sessions have identified (grows with each bot restart and with each shard).
    resume_count : int
        How many gateway sessions were resumed after a dropped connection.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 900.0,
        heartbeat_interval: float = 41.25,
        heartbeat_ack_delay: float = 0.05,
        resume_window: float = 60.0,
        bot_name: str = "CardBot",
        bot_token: str | None = None,
        shard_count: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        if shard_count < 1 or max_concurrency < 1:
            raise ValueError("shard_count and max_concurrency must be at least 1")
        self.shard_count = int(shard_count)
        self.max_concurrency = int(max_concurrency)
        self.host = host
        self.port = port
        self.interaction_deadline = float(interaction_deadline)
        self.token_lifetime = float(token_lifetime)
        self.heartbeat_interval = float(heartbeat_interval)
        self.heartbeat_ack_delay = float(heartbeat_ack_delay)
        self.resume_window = float(resume_window)
        self._ids = SnowflakeGenerator()
        self.application_id: int = self._ids.next()
        self.application_flags = 0
        self.bot_user = SimUser(self, self.application_id, bot_name, bot=True)
        self.bot_token = bot_token or f"sandbox.{secrets.token_urlsafe(24)}"
        self.owner = SimUser(self, self._ids.next(), f"{bot_name.lower()}-owner")
        self.guilds: list[Guild] = []
        self.users: dict[int, SimUser] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.violations: list[str] = []
        self.refused_dms: list[int] = []  # user ids of DMs refused with 50007 (closed DMs), in order
        self.rate_limit_warnings: list[str] = []
        self._rate_windows: dict[str, collections.deque[float]] = {}
        self.unhandled_routes: list[str] = []
        self.on_message_event: MessageListener | None = None
        self.request_log: collections.deque[tuple[str, str, int]] = collections.deque(maxlen=5000)
        self.attachment_content: dict[str, bytes] = {}  # attachment id -> the uploaded file's bytes
        self.uploads: list[tuple[str, str, list[str]]] = []
        self.gateway_log: collections.deque[str] = collections.deque(maxlen=1000)
        self.identify_count = 0
        self.resume_count = 0
        self._listeners: list[MessageListener] = []
        self._channels: dict[int, Channel] = {}
        self._messages: dict[int, Message] = {}
        self._tokens: dict[str, InteractionRecord] = {}
        self._commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        self._failures: list[_InjectedFailure] = []
        self._sessions: list[GatewaySession] = []
        self._connections: list[GatewayConnection] = []
        self._clock_offset = 0.0
        self._change_event = asyncio.Event()
        self.application_emojis: dict[int, dict[str, Any]] = {}
        self.emoji_images: dict[int, bytes] = {}
        self._rest = RestApi(self)
        self._add_routes(self._rest)
        self._add_emoji_routes(self._rest)
        self._add_scheduled_event_routes(self._rest)
        self._runner: web.AppRunner | None = None

    # =========================================================================================
    # lifecycle
    # =========================================================================================

    async def start(self) -> "SandboxServer":
        """Start listening. Returns the server itself."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._ws_handler)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=2.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        address = self._runner.addresses[0]
        self.port = int(address[1])
        _log.info("sandbox listening on %s", self.api_base)
        return self

    async def stop(self) -> None:
        """Close gateway connections and stop listening.

        Close the bot first: a discord.py client still connected keeps trying to
        reconnect to the stopped server.
        """
        self._sessions.clear()
        for connection in list(self._connections):
            await connection.close(1001, "Sandbox server stopping.")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for record in self.interactions.values():
            record.settled.set()

    async def __aenter__(self) -> "SandboxServer":
        return await self.start()

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        """REST base URL to put in ``discord.http.Route.BASE``."""
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Gateway websocket URL (also answered by ``GET /gateway/bot``)."""
        return f"ws://{self.host}:{self.port}/gateway"

    def _now(self) -> float:
        return time.monotonic() + self._clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Move the sandbox's interaction clock forward.

        Affects interaction deadlines, token lifetimes and the gateway resume window
        only, e.g. ``advance_clock(901)`` expires every interaction token issued so far.
        """
        self._clock_offset += seconds
        self._changed()

    # =========================================================================================
    # building the world
    # =========================================================================================

    def add_guild(self, name: str, *, shard: "int | tuple[int, int] | None" = None) -> Guild:
        """Create a guild the bot is in. The sessions of its shard that are ready receive GUILD_CREATE.

        Parameters
        ----------
        name : str
        shard : int or (int, int), optional
            Give the guild an id on this shard: ``(shard_id, shard_count)``, or a shard id of the
            server's ``shard_count``. The id is a plausible, increasing snowflake with
            ``(id >> 22) % shard_count == shard_id``. None: the next snowflake, whatever its shard.

        Raises
        ------
        ValueError
            If the shard id is not below the shard count.
        """
        if shard is None:
            guild_id = self._ids.next()
        else:
            shard_id, count = (shard, self.shard_count) if isinstance(shard, int) else shard
            guild_id = self._ids.next_for_shard(shard_id, count)
        guild = Guild(self, guild_id, name)
        self.guilds.append(guild)
        for session in self._ready_sessions(guild):
            session.dispatch(
                "GUILD_CREATE", guild.payload(include_members=bool(session.intents & Intents.GUILD_MEMBERS))
            )
        self._changed()
        return guild

    def remove_guild(self, guild: Guild) -> None:
        """The bot leaves ``guild`` (kicked or the guild deleted): GUILD_DELETE to the guild's shard.

        Its channels and threads are gone for the bot afterwards (REST answers 10003 Unknown Channel)
        and simulated users can no longer act there.
        """
        self.guilds.remove(guild)
        for channel in guild.channels + guild.threads + guild.voice_channels:
            self._channels.pop(channel.id, None)
        for session in self._ready_sessions(guild):
            if session.intents & Intents.GUILDS:
                session.dispatch("GUILD_DELETE", {"id": str(guild.id)})
        self._changed()

    def add_user(self, username: str, *, global_name: str | None = None, dms_open: bool = True) -> SimUser:
        """Create a simulated human who is in no guild yet (see :meth:`Guild.add_member`)."""
        user = SimUser(self, self._ids.next(), username, global_name=global_name, dms_open=dms_open)
        self.users[user.id] = user
        self._changed()
        return user

    def user(self, username: str) -> SimUser:
        """Return the simulated user called ``username`` (KeyError if absent)."""
        for user in self.users.values():
            if user.username == username:
                return user
        raise KeyError(f"no user named {username!r}")

    def channel(self, channel_id: int) -> Channel:
        """Return a channel by id (KeyError if absent)."""
        return self._channels[int(channel_id)]

    def message(self, message_id: int) -> Message:
        """Return a stored message by id, deleted or not (KeyError if absent)."""
        return self._messages[int(message_id)]

    def dm_channel(self, user: SimUser) -> Channel:
        """Return the DM channel between the bot and ``user`` (created if needed)."""
        if user.dm_channel is None:
            channel = Channel(self, self._ids.next(), f"dm-{user.username}", recipient=user)
            user.dm_channel = channel
            self._register_channel(channel)
        return user.dm_channel

    def _register_channel(self, channel: Channel) -> None:
        self._channels[channel.id] = channel

    def _guild(self, guild_id: int) -> Guild:
        for guild in self.guilds:
            if guild.id == guild_id:
                return guild
        raise KeyError(guild_id)

    def _on_channel_added(self, channel: Channel) -> None:
        if channel.guild is not None:
            for session in self._ready_sessions(channel.guild):
                if session.intents & Intents.GUILDS:
                    session.dispatch("CHANNEL_CREATE", channel.payload())
        self._changed()

    def _on_member_added(self, guild: Guild, user: SimUser) -> None:
        self.users.setdefault(user.id, user)
        for session in self._ready_sessions(guild):
            if session.intents & Intents.GUILD_MEMBERS:
                data = guild.member_payload(user)
                data["guild_id"] = str(guild.id)
                session.dispatch("GUILD_MEMBER_ADD", data)
        self._changed()

    # =========================================================================================
    # observation
    # =========================================================================================

    def _changed(self) -> None:
        event = self._change_event
        self._change_event = asyncio.Event()
        event.set()

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, *, message: str | None = None
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        The predicate is re-checked on every server change (and every 0.05 s, for
        predicates that look at the bot's own state).

        Raises
        ------
        TimeoutError
            With ``message`` (or a description of the predicate) after ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                what = message or f"condition {getattr(predicate, '__qualname__', predicate)!r}"
                raise TimeoutError(f"sandbox: {what} not met within {timeout}s")
            event = self._change_event
            try:
                await asyncio.wait_for(event.wait(), timeout=min(remaining, 0.05))
            except TimeoutError:
                pass

    @property
    def bot_connected(self) -> bool:
        """Whether at least one bot gateway session is identified and ready."""
        return any(s.ready and s.connected for s in self._sessions)

    async def wait_for_bot(self, timeout: float = 10.0) -> None:
        """Wait until a bot identified and READY plus the GUILD_CREATEs were sent."""
        await self.wait_for(
            lambda: self.bot_connected, timeout=timeout, message="no bot identified on the gateway"
        )

    @property
    def commands(self) -> list[dict[str, Any]]:
        """Every synced application command (global ones, then per guild; guild ones carry ``guild_id``)."""
        out: list[dict[str, Any]] = []
        for commands in self._commands.values():
            out.extend(commands)
        return out

    def command_names(self, guild: Guild | None = None) -> list[str]:
        """Names of the commands synced globally (guild None) or to ``guild``."""
        key = guild.id if guild is not None else None
        return [c["name"] for c in self._commands.get(key, [])]

    async def wait_for_commands(
        self, names: Sequence[str], timeout: float = 10.0, *, guild: Guild | None = None
    ) -> None:
        """Wait until commands with these names are synced (globally or to any guild, or to ``guild``)."""
        wanted = set(names)

        def synced() -> bool:
            if guild is not None:
                have = set(self.command_names(guild)) | set(self.command_names(None))
            else:
                have = {c["name"] for c in self.commands}
            return wanted <= have

        await self.wait_for(
            synced,
            timeout=timeout,
            message=f"commands {sorted(wanted)} synced (have {[c['name'] for c in self.commands]})",
        )

    def add_message_listener(self, callback: MessageListener) -> None:
        """Add a ``callback(kind, message)`` called on every message create/edit/delete."""
        self._listeners.append(callback)

    def remove_message_listener(self, callback: MessageListener) -> None:
        """Remove a listener added with :meth:`add_message_listener`."""
        self._listeners.remove(callback)

    def _emit(self, kind: str, message: Message) -> None:
        listeners = list(self._listeners)
        if self.on_message_event is not None:
            listeners.insert(0, self.on_message_event)
        for listener in listeners:
            try:
                listener(kind, message)
            except Exception:  # a broken listener must not break the server
                _log.exception("message listener %r failed", listener)
        self._changed()

    def _note_rate(self, key: str, limit: int, per: float, what: str) -> None:
        """Count one request in the sliding window ``key``; warn when over ``limit`` per ``per`` s."""
        now = time.monotonic()
        window = self._rate_windows.setdefault(key, collections.deque())
        window.append(now)
        while window and now - window[0] > per:
            window.popleft()
        if len(window) > limit:
            self.rate_limit_warnings.append(
                f"{what}: {len(window)} in {per:g}s (Discord allows about {limit})"
            )

    def _record_violation(self, code: str, text: str) -> None:
        line = f"[{code}] {text}"
        _log.warning("sandbox violation: %s", line)
        self.violations.append(line)
        self._changed()

    # -- visibility ------------------------------------------------------------------------------

    def _can_ever_see(self, user: SimUser, msg: Message) -> bool:
        channel = msg.channel
        if channel.is_dm:
            return channel.recipient is not None and channel.recipient.id == user.id
        assert channel.guild is not None
        if not channel.guild.is_member(user):
            return False
        return msg.ephemeral_for is None or msg.ephemeral_for == user.id

    def can_see(self, user: SimUser, message: Message) -> bool:
        """Whether ``user`` can see ``message`` now (not deleted, not dismissed, allowed)."""
        return not message.deleted and not message.dismissed and self._can_ever_see(user, message)

    def _channels_of(self, user: SimUser) -> list[Channel]:
        channels: list[Channel] = []
        for guild in self.guilds:
            if guild.is_member(user):
                channels.extend(guild.channels)
        if user.dm_channel is not None:
            channels.append(user.dm_channel)
        return channels

    def visible_messages(self, user: SimUser, channel: Channel | None = None) -> list[Message]:
        """Messages ``user`` can see now.

        Parameters
        ----------
        user : SimUser
        channel : Channel, optional
            A guild channel (its public messages plus the user's ephemerals) or a DM
            channel. None: every channel the user can see, including their DM.
        """
        channels = [channel] if channel is not None else self._channels_of(user)
        out = [m for ch in channels for m in ch.messages if self.can_see(user, m)]
        out.sort(key=lambda m: m.id)
        return out

    def seen_texts(self, user: SimUser) -> list[str]:
        """Text of every version of every message ``user`` could ever see, for leak checks.

        Covers guild channels the user is in, their ephemerals and their DMs,
        including deleted messages and earlier versions. Each entry is one message
        state: content, embed text and component text (button labels, select
        placeholders and options). Titles and labels of modals shown to the user
        are included too.
        """
        texts: list[str] = []
        for channel in self._channels_of(user):
            for msg in channel.messages:
                if self._can_ever_see(user, msg):
                    texts.extend(t for t in msg.all_texts(components=True) if t)
        for record in self.interactions.values():
            if record.modal is not None and record.user.id == user.id:
                texts.append("\n".join([record.modal.title] + list(record.modal.labels().values())))
        return texts

    def dm_messages(self, user: SimUser) -> list[Message]:
        """Messages (not deleted) in the DM between the bot and ``user``."""
        if user.dm_channel is None:
            return []
        return [m for m in user.dm_channel.messages if not m.deleted]

    # =========================================================================================
    # failure injection and gateway control
    # =========================================================================================

    def inject_failure(
        self,
        method: str = "*",
        path_regex: str = ".*",
        status: int = 500,
        times: int = 1,
        code: int = 0,
        *,
        retry_after: float = 0.2,
    ) -> None:
        """Make the next matching REST calls fail.

        Parameters
        ----------
        method : str
            HTTP method, or ``"*"`` for any.
        path_regex : str
            Searched (``re.search``) in the path after ``/api/v10`` (e.g.
            ``r"/channels/\\d+/messages/\\d+"``) and in the full request path.
        status : int
            HTTP status to answer. discord.py retries 500/502/504 by itself (after 1 s,
            3 s, ...); 429 answers carry ``retry_after`` and a ``Via`` header so
            discord.py treats them as real rate limits.
        times : int
            How many calls fail.
        code : int
            Discord error code in the body.
        retry_after : float
            Seconds for 429 answers.
        """
        self._failures.append(_InjectedFailure(method, path_regex, status, times, code, retry_after))

    def _take_failure(self, method: str, path: str) -> web.Response | None:
        for failure in self._failures:
            if failure.remaining <= 0:
                continue
            if failure.method not in ("*", method):
                continue
            if not failure.regex.search(path) and not failure.regex.search("/api/v10" + path):
                continue
            failure.remaining -= 1
            if failure.status == 429:
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": failure.retry_after,
                    "global": False,
                    "code": failure.code,
                }
                headers = {
                    "Retry-After": str(failure.retry_after),
                    "Via": "1.1 sandbox",
                    "X-RateLimit-Scope": "user",
                }
                return json_response(body, 429, headers)
            return json_response(
                {"message": f"{failure.status}: injected failure", "code": failure.code}, failure.status
            )
        return None

    async def drop_bot_connections(self, code: int = 4000, *, resumable: bool = True) -> None:
        """Close every gateway connection with ``code``; discord.py reconnects by itself.

        Parameters
        ----------
        code : int
            Close code (4000 "unknown error" makes discord.py try to RESUME).
        resumable : bool
            Keep the sessions so the RESUME succeeds (events dispatched meanwhile are
            replayed). With False the RESUME gets INVALID_SESSION and discord.py
            re-identifies, which it delays by 5 s.
        """
        if not resumable:
            self._sessions.clear()
        for connection in list(self._connections):
            await connection.close(code, "Sandbox dropped the connection.")

    def send_reconnect(self) -> None:
        """Send RECONNECT (op 7) to every gateway connection (discord.py then resumes)."""
        for connection in list(self._connections):
            connection.send(7)

    def _live_sessions(self) -> list[GatewaySession]:
        now = self._now()
        self._sessions = [
            s
            for s in self._sessions
            if s.disconnected_at is None or now - s.disconnected_at <= self.resume_window
        ]
        return self._sessions

    def _ready_sessions(self, guild: Guild | None) -> list[GatewaySession]:
        """Sessions that get events of ``guild`` (None: DMs), connected or still resumable."""
        return [
            s
            for s in self._live_sessions()
            if s.ready and (s.handles_guild(guild.id) if guild else s.handles_dms())
        ]

    def _resumable_session(self, session_id: Any) -> GatewaySession | None:
        for session in self._live_sessions():
            if session.session_id == session_id and session.ready:
                return session
        return None

    def _connection_lost(self, connection: GatewayConnection) -> None:
        # Close codes cannot tell a clean shutdown from a drop here: discord.py's Client.close()
        # ends up sending 4000, and aiohttp reports 1000 for server-side closes. So every session
        # stays resumable for resume_window seconds, as on Discord.
        session = connection.session
        if session is not None and session.connection is connection:
            session.connection = None
            session.disconnected_at = self._now()
        self._changed()

    async def _ws_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = GatewayConnection(self, ws, request.transport)
        self._connections.append(connection)
        self._changed()
        try:
            await connection.run()
        finally:
            self._connections.remove(connection)
            self._changed()
        return ws

    # =========================================================================================
    # messages (domain logic shared by REST routes and simulated users)
    # =========================================================================================

    def _attachments_from(
        self,
        payload: dict[str, Any],
        files: Sequence[tuple[str, str, int, bytes]],
        keep: Sequence[dict[str, Any]] = (),
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        wanted = payload.get("attachments")
        if wanted is not None:
            keep_ids = {str(a.get("id")) for a in wanted}
            out.extend(a for a in keep if a["id"] in keep_ids)
        else:
            out.extend(keep)
        for _field, filename, size, content in files:
            att_id = str(self._ids.next())
            self.attachment_content[att_id] = content
            url = f"http://{self.host}:{self.port}/attachments/{att_id}/{filename}"
            out.append(
                {
                    "id": att_id,
                    "filename": filename,
                    "size": size,
                    "url": url,
                    "proxy_url": url,
                    "content_type": content_type(content),
                }
            )
        return out

    def _interaction_metadata(self, record: InteractionRecord) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.payload(),
            "authorizing_integration_owners": self._integration_owners(record),
        }
        if record.type == COMMAND:
            data["name"] = record.data.get("name")
            data["command_type"] = 1
        if record.source_message is not None:
            data["interacted_message_id"] = str(record.source_message.id)
        return data

    def _create_message(
        self,
        channel: Channel,
        author: SimUser,
        payload: dict[str, Any],
        files: Sequence[tuple[str, str, int, bytes]] = (),
        *,
        flags: int = 0,
        ephemeral_for: int | None = None,
        record: InteractionRecord | None = None,
        message_type: int = 0,
    ) -> Message:
        msg = Message(
            self,
            self._ids.next(),
            channel,
            author,
            content=payload.get("content") or "",
            embeds=copy.deepcopy(payload.get("embeds") or []),
            components=copy.deepcopy(payload.get("components") or []),
            attachments=self._attachments_from(payload, files),
            flags=flags,
            ephemeral_for=ephemeral_for,
            interaction_id=record.id if record is not None else None,
            message_type=message_type,
            interaction_metadata=self._interaction_metadata(record) if record is not None else None,
        )
        msg.allowed_mentions = copy.deepcopy(payload.get("allowed_mentions"))
        channel.messages.append(msg)
        self._messages[msg.id] = msg
        if ephemeral_for is None:
            self._unarchive_on_message(channel)
            self._dispatch_message("MESSAGE_CREATE", msg)
        self._emit("create", msg)
        return msg

    def _edit_message(
        self,
        msg: Message,
        payload: dict[str, Any],
        files: Sequence[tuple[str, str, int, bytes]] = (),
        *,
        clear_loading: bool = False,
    ) -> None:
        if "content" in payload:
            msg.content = payload.get("content") or ""
        if "embeds" in payload:
            msg.embeds = copy.deepcopy(payload.get("embeds") or [])
        if "components" in payload:
            msg.components = copy.deepcopy(payload.get("components") or [])
        if "attachments" in payload or files:
            msg.attachments = self._attachments_from(payload, files, keep=msg.attachments)
        if payload.get("flags") is not None:
            new = int(payload["flags"])
            msg.flags = (msg.flags & ~4) | (new & (4 | FLAG_COMPONENTS_V2))
        if clear_loading:
            msg.flags &= ~FLAG_LOADING
        msg.edited_timestamp = iso_now()
        msg._snapshot()
        if msg.ephemeral_for is None:
            self._dispatch_message("MESSAGE_UPDATE", msg)
        self._emit("edit", msg)

    def _delete_message(self, msg: Message) -> None:
        msg.deleted = True
        if msg.ephemeral_for is None:
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
            self._dispatch_to_intents("MESSAGE_DELETE", data, msg.channel)
        self._emit("delete", msg)

    def _dispatch_to_intents(self, event: str, data: dict[str, Any], channel: Channel) -> None:
        intent = Intents.DIRECT_MESSAGES if channel.is_dm else Intents.GUILD_MESSAGES
        for session in self._ready_sessions(channel.guild):
            if session.intents & intent:
                session.dispatch(event, data)

    def _dispatch_message(self, event: str, msg: Message) -> None:
        intent = Intents.DIRECT_MESSAGES if msg.channel.is_dm else Intents.GUILD_MESSAGES
        for session in self._ready_sessions(msg.channel.guild):
            if not session.intents & intent:
                continue
            data = msg.payload()
            if msg.channel.guild is not None:
                member = msg.channel.guild.member_payload(msg.author)
                member.pop("user", None)
                data["member"] = member
            private = (
                not msg.author.bot and not msg.channel.is_dm and self.bot_user.mention not in msg.content
            )
            if private and not session.intents & Intents.MESSAGE_CONTENT:
                data.update(content="", embeds=[], attachments=[], components=[])
            session.dispatch(event, data)

    def post_message(self, user: SimUser, channel: Channel | None, content: str) -> Message:
        """A simulated user writes a plain message (MESSAGE_CREATE goes to the bot).

        Parameters
        ----------
        user : SimUser
        channel : Channel or None
            A guild channel, or None / a DM channel for the user's DM with the bot.
        content : str
        """
        if channel is None:
            channel = self.dm_channel(user)
        self._check_in_channel(user, channel)
        return self._create_message(channel, user, {"content": content})

    def dismiss(self, user: SimUser, message: MessageRef) -> None:
        """The user dismisses one of their ephemeral messages (it is no longer visible)."""
        msg = self._resolve_message(message)
        if msg.ephemeral_for != user.id:
            raise SandboxUsageError(f"{user.username} can only dismiss their own ephemeral messages")
        msg.dismissed = True
        self._changed()

    # =========================================================================================
    # misc
    # =========================================================================================

    def __repr__(self) -> str:
        state = "running" if self._runner is not None else "stopped"
        return (
            f"<SandboxServer {state} {self.api_base} guilds={len(self.guilds)} "
            f"violations={len(self.violations)}>"
        )
