"""Public threads of text channels: starting one (``POST /channels/{id}/threads``, without a message),
editing a channel or thread (``PATCH /channels/{id}``: a thread's ``archived``, ``locked`` and ``name``, a
text channel's ``name`` and ``topic``), and the gateway events Discord sends for them (THREAD_CREATE,
THREAD_UPDATE, CHANNEL_UPDATE, under the GUILDS intent).

A thread is a :class:`~sandbox.models.Channel` whose ``parent`` is the text channel; it has its own id,
messages and interactions, as in Discord. Only public threads (type 11) are modelled. Sending a message
to an archived thread unarchives it, as Discord does for a member allowed to send there.
:class:`ThreadHandlers` is a mixin of :class:`~sandbox.server.SandboxServer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .gateway import Intents
from .models import Channel, Guild, Permissions, SimUser, SnowflakeGenerator
from .rest import ApiError, RestRequest

__all__ = ["ThreadHandlers"]

PUBLIC_THREAD = 11
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


class ThreadHandlers:
    """Mixin of :class:`~sandbox.server.SandboxServer`: threads and channel edits."""

    if TYPE_CHECKING:  # provided by SandboxServer
        _ids: SnowflakeGenerator
        _channels: dict[int, Channel]
        bot_user: SimUser

        def _changed(self) -> None: ...
        def _register_channel(self, channel: Channel) -> None: ...
        def _channel_or_404(self, req: RestRequest, action: str) -> Channel: ...
        def _ready_sessions(self, guild: Guild | None) -> list[Any]: ...

    def threads_of(self, channel: Channel) -> list[Channel]:
        """The public threads started in ``channel``, oldest first (archived ones too)."""
        assert channel.guild is not None
        return [thread for thread in channel.guild.threads if thread.parent is channel]

    def _dispatch_guild_event(self, guild: Guild, event: str, data: dict[str, Any]) -> None:
        for session in self._ready_sessions(guild):
            if session.intents & Intents.GUILDS:
                session.dispatch(event, data)

    def _require_bot_permission(self, channel: Channel, permission: int, name: str, action: str) -> None:
        assert channel.guild is not None
        if not channel.guild.permissions_of(self.bot_user) & permission:
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation=f"tried to {action} in {channel!r} without {name}",
            )

    async def _rest_create_thread(self, req: RestRequest) -> Any:
        parent = self._channel_or_404(req, "start a thread in")
        if parent.guild is None or parent.type != 0:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation=f"tried to start a thread in {parent!r}",
            )
        payload = req.json if isinstance(req.json, dict) else {}
        name = payload.get("name")
        kind = payload.get("type", 12)
        duration = payload.get("auto_archive_duration")
        errors = []
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.append("name must be 1 to 100 characters")
        if kind != PUBLIC_THREAD:
            errors.append(f"type {kind!r}: the sandbox models public threads (type 11) only")
        if duration is not None and duration not in ARCHIVE_DURATIONS:
            errors.append(f"auto_archive_duration must be one of {ARCHIVE_DURATIONS}")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", violation="; ".join(errors))
        self._require_bot_permission(
            parent, Permissions.CREATE_PUBLIC_THREADS, "Create Public Threads", "start a public thread"
        )
        thread = Channel(self, self._ids.next(), str(name), guild=parent.guild)  # type: ignore[arg-type]
        thread.parent = parent
        thread.owner_id = self.bot_user.id
        parent.guild.threads.append(thread)
        self._register_channel(thread)
        self._dispatch_guild_event(parent.guild, "THREAD_CREATE", {**thread.payload(), "newly_created": True})
        self._changed()
        return thread.payload()

    async def _rest_edit_channel(self, req: RestRequest) -> Any:
        channel = self._channel_or_404(req, "edit")
        if channel.guild is None:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation=f"tried to edit {channel!r}",
            )
        payload = req.json if isinstance(req.json, dict) else {}
        if channel.is_thread:
            self._require_bot_permission(
                channel,
                Permissions.MANAGE_THREADS | Permissions.SEND_MESSAGES_IN_THREADS,
                "permission to edit the thread",
                "edit a thread",
            )
            if "archived" in payload:
                channel.archived = bool(payload["archived"])
            if "name" in payload:
                channel.name = str(payload["name"])
            event = "THREAD_UPDATE"
        else:
            self._require_bot_permission(
                channel, Permissions.MANAGE_CHANNELS, "Manage Channels", "edit a channel"
            )
            if "name" in payload:
                channel.name = str(payload["name"])
            if "topic" in payload:
                channel.topic = payload["topic"]
            event = "CHANNEL_UPDATE"
        self._dispatch_guild_event(channel.guild, event, channel.payload())
        self._changed()
        return channel.payload()

    def _before_send_in_thread(self, channel: Channel) -> None:
        """A message the bot sends to a thread needs Send Messages in Threads."""
        if channel.is_thread:
            self._require_bot_permission(
                channel, Permissions.SEND_MESSAGES_IN_THREADS, "Send Messages in Threads", "send a message"
            )

    def _unarchive_on_message(self, channel: Channel) -> None:
        """A public message in an archived thread (the bot's, or an answer to a command there) unarchives
        it, as Discord does."""
        if channel.is_thread and channel.archived:
            channel.archived = False
            assert channel.guild is not None
            self._dispatch_guild_event(channel.guild, "THREAD_UPDATE", channel.payload())
