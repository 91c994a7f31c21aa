"""The sandbox's world: users, guilds, channels and messages.

These objects are what tests look at. They are plain Python objects owned by a
:class:`~sandbox.server.SandboxServer`; the server turns them into Discord JSON
payloads for the bot (see the ``*_payload`` helpers here) and updates them when
the bot calls the REST API.

Snowflake ids are real, increasing, timestamp-based snowflakes so that
``discord.utils.snowflake_time`` gives sane values.
"""

from __future__ import annotations

import copy
import datetime
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol

__all__ = [
    "DISCORD_EPOCH_MS",
    "Permissions",
    "SnowflakeGenerator",
    "shard_of",
    "SimUser",
    "Role",
    "Guild",
    "Channel",
    "Message",
    "content_type",
    "iso_now",
    "iter_components",
]

DISCORD_EPOCH_MS = 1420070400000


class Permissions:
    """Discord permission bits used by the sandbox (a namespace of ints)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    MANAGE_THREADS = 1 << 34
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    MUTE_MEMBERS = 1 << 22
    MOVE_MEMBERS = 1 << 24
    CHANGE_NICKNAME = 1 << 26
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_EVENTS = 1 << 33
    CREATE_PUBLIC_THREADS = 1 << 35
    SEND_MESSAGES_IN_THREADS = 1 << 38
    CREATE_EVENTS = 1 << 44

    #: What ``@everyone`` may do in a fresh sandbox guild.
    EVERYONE = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CONNECT
        | SPEAK
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    #: Extra permissions of the bot's managed role.
    BOT = EVERYONE | MANAGE_MESSAGES
    #: Permissions of the role given by ``add_member(..., manage_guild=True)``.
    MANAGER = MANAGE_GUILD


def content_type(content: bytes) -> str:
    """The MIME type of a file's ``content``, from its first bytes: the image formats Discord takes (PNG,
    JPEG, GIF, WebP), else ``application/octet-stream``. How the sandbox reports an upload and serves a
    file or an emoji image."""
    signatures = {
        b"\x89PNG\r\n\x1a\n": "image/png",
        b"\xff\xd8\xff": "image/jpeg",
        b"GIF8": "image/gif",
    }
    for signature, kind in signatures.items():
        if content.startswith(signature):
            return kind
    if content[:4] == b"RIFF" and content[8:12] == b"WEBP":
        return "image/webp"
    return "application/octet-stream"


def iso_now() -> str:
    """Return the current UTC time as an ISO-8601 string (what Discord sends)."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat()


class SnowflakeGenerator:
    """Generate strictly increasing, timestamp-based Discord snowflakes.

    Parameters
    ----------
    worker_id : int
        Value of the 5-bit worker field (cosmetic).
    """

    def __init__(self, worker_id: int = 1) -> None:
        self._worker = worker_id & 0x1F
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake, larger than every one returned before."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (self._worker << 17)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def next_for_shard(self, shard_id: int, shard_count: int) -> int:
        """Return a new snowflake whose guild shard is ``shard_id`` (see :func:`shard_of`).

        Larger than every snowflake returned before; its timestamp is at most ``shard_count - 1``
        milliseconds ahead of :meth:`next`'s, so ids stay plausible.

        Raises
        ------
        ValueError
            Unless ``0 <= shard_id < shard_count``.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
        ms = self.next() >> 22
        ms += (shard_id - ms) % shard_count
        value = max((ms << 22) | (self._worker << 17), self._last + 1)
        if shard_of(value, shard_count) != shard_id:  # only when _last ran ahead of the clock
            ms = (value >> 22) + 1
            ms += (shard_id - ms) % shard_count
            value = (ms << 22) | (self._worker << 17)
        self._last = value
        return value


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives the events of guild ``guild_id``: ``(guild_id >> 22) % shard_count``.

    Discord's rule (developer docs, "Sharding"); DMs go to shard 0.
    """
    return (guild_id >> 22) % max(shard_count, 1)


class ModelServer(Protocol):
    """What the models need of the server holding them (:class:`~sandbox.server.SandboxServer`): new ids,
    the bot's user and application, and being told of what was added or changed."""

    _ids: SnowflakeGenerator
    bot_user: SimUser
    application_id: int

    def add_user(
        self, username: str, *, global_name: str | None = None, dms_open: bool = True
    ) -> SimUser: ...

    def _register_channel(self, channel: Channel) -> None: ...

    def _on_channel_added(self, channel: Channel) -> None: ...

    def _on_member_added(self, guild: Guild, user: SimUser) -> None: ...

    def _changed(self) -> None: ...


class SimUser:
    """A Discord user: a simulated human, or the bot itself.

    Attributes
    ----------
    id : int
        Snowflake id.
    username : str
        Unique user name (``discriminator`` is always ``"0"``).
    global_name : str
        Display name.
    bot : bool
        True for the bot user.
    dms_open : bool
        When False, the bot gets 403 / code 50007 when it sends a message to
        this user's DM channel. Can be toggled at any time.
    """

    def __init__(
        self,
        server: ModelServer,
        user_id: int,
        username: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        dms_open: bool = True,
    ) -> None:
        self._server = server
        self.id = user_id
        self.username = username
        self.global_name = global_name if global_name is not None else username
        self.bot = bot
        self.dms_open = dms_open
        self.dm_channel: Channel | None = None

    @property
    def name(self) -> str:
        """The user name (alias of :attr:`username`)."""
        return self.username

    @property
    def mention(self) -> str:
        """The mention string ``<@id>``."""
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        """Return the Discord user object for this user."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        kind = "bot" if self.bot else "user"
        return f"<SimUser {kind} {self.username!r} id={self.id}>"


class Role:
    """A guild role (just enough for permission computation).

    Attributes
    ----------
    id : int
    name : str
    permissions : int
    managed : bool
    bot_id : int or None
        Set for the bot's managed role.
    """

    def __init__(
        self,
        role_id: int,
        name: str,
        permissions: int,
        *,
        position: int = 0,
        managed: bool = False,
        bot_id: int | None = None,
    ) -> None:
        self.id = role_id
        self.name = name
        self.permissions = permissions
        self.position = position
        self.managed = managed
        self.bot_id = bot_id

    def payload(self) -> dict[str, Any]:
        """Return the Discord role object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


class _Membership:
    """A user's membership of a guild."""

    def __init__(self, user: SimUser, role_ids: list[int]) -> None:
        self.user = user
        self.role_ids = role_ids
        self.joined_at = iso_now()


class Guild:
    """A sandbox guild (server). Create with :meth:`SandboxServer.add_guild`.

    Attributes
    ----------
    id : int
    name : str
    channels : list of Channel
    roles : dict of int to Role
        ``roles[guild.id]`` is ``@everyone``.
    """

    def __init__(self, server: ModelServer, guild_id: int, name: str) -> None:
        self._server = server
        self.id = guild_id
        self.name = name
        self.channels: list[Channel] = []
        self.threads: list[Channel] = []  # public threads of its text channels, in creation order
        self.voice_channels: list[Channel] = []
        # scheduled events by id, in creation order (sandbox.scheduled_events.ScheduledEvent)
        self.scheduled_events: dict[int, Any] = {}
        self.roles: dict[int, Role] = {guild_id: Role(guild_id, "@everyone", Permissions.EVERYONE)}
        self._members: dict[int, _Membership] = {}
        self._manager_role: Role | None = None
        self._bot_role: Role | None = None
        self.joined_at = iso_now()

    # -- building the world -------------------------------------------------------------

    def add_channel(self, name: str, *, topic: str | None = None) -> "Channel":
        """Add a text channel.

        Parameters
        ----------
        name : str
            Channel name (without ``#``).
        topic : str, optional
            Channel topic.

        Returns
        -------
        Channel
            The new channel. If the bot is connected it receives CHANNEL_CREATE.
        """
        channel = Channel(
            self._server, self._server._ids.next(), name, guild=self, position=len(self.channels), topic=topic
        )
        self.channels.append(channel)
        self._server._register_channel(channel)
        self._server._on_channel_added(channel)
        return channel

    def add_voice_channel(self, name: str) -> "Channel":
        """Add a voice channel (type 2), where a voice scheduled event can take place.

        Returns
        -------
        Channel
            The new channel (in ``voice_channels``, not ``channels``: nobody writes there). If the bot is
            connected it receives CHANNEL_CREATE.
        """
        position = len(self.channels) + len(self.voice_channels)
        channel = Channel(self._server, self._server._ids.next(), name, guild=self, position=position)
        channel.voice = True
        self.voice_channels.append(channel)
        self._server._register_channel(channel)
        self._server._on_channel_added(channel)
        return channel

    def add_member(
        self,
        user: "SimUser | str",
        *,
        manage_guild: bool = False,
        global_name: str | None = None,
        dms_open: bool = True,
    ) -> SimUser:
        """Add a simulated human to the guild.

        Parameters
        ----------
        user : SimUser or str
            An existing user (to put one user in several guilds) or a new user name.
        manage_guild : bool
            Give the member a role with the Manage Server permission.
        global_name : str, optional
            Display name of a new user (defaults to the user name).
        dms_open : bool
            Whether a new user accepts DMs from the bot.

        Returns
        -------
        SimUser
            The member's user.
        """
        if isinstance(user, str):
            user = self._server.add_user(user, global_name=global_name, dms_open=dms_open)
        role_ids: list[int] = []
        if manage_guild:
            if self._manager_role is None:
                self._manager_role = Role(
                    self._server._ids.next(), "Managers", Permissions.MANAGER, position=1
                )
                self.roles[self._manager_role.id] = self._manager_role
            role_ids.append(self._manager_role.id)
        if user.id in self._members:
            self._members[user.id].role_ids = sorted(set(self._members[user.id].role_ids) | set(role_ids))
        else:
            self._members[user.id] = _Membership(user, role_ids)
        self._server._on_member_added(self, user)
        return user

    def grant(self, user: SimUser, permissions: int) -> Role:
        """Give a member a new role with ``permissions`` (for the bot: add them to its managed role).

        Returns
        -------
        Role
            The role; changing its ``permissions`` later takes effect at once (no role event is sent).
        """
        if user.bot:
            role = self.bot_role()
            role.permissions |= permissions
        else:
            role = Role(self._server._ids.next(), f"granted-{len(self.roles)}", permissions, position=1)
            self.roles[role.id] = role
            self._members[user.id].role_ids.append(role.id)
        self._server._changed()
        return role

    def remove_member(self, user: SimUser) -> None:
        """Remove a member from the guild (they no longer see its channels)."""
        self._members.pop(user.id, None)
        self._server._changed()

    def channel(self, name: str) -> "Channel":
        """Return the channel called ``name`` (raises KeyError if absent)."""
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(f"no channel named {name!r} in guild {self.name!r}")

    # -- queries --------------------------------------------------------------------------

    @property
    def members(self) -> list[SimUser]:
        """The simulated human members, in joining order."""
        return [m.user for m in self._members.values()]

    def is_member(self, user: SimUser) -> bool:
        """Whether ``user`` is a member (the bot always is)."""
        return user.bot or user.id in self._members

    def bot_role(self) -> Role:
        """Return the bot's managed role (created on first use)."""
        if self._bot_role is None:
            bot = self._server.bot_user
            self._bot_role = Role(
                self._server._ids.next(),
                bot.username,
                Permissions.BOT,
                position=2,
                managed=True,
                bot_id=bot.id,
            )
            self.roles[self._bot_role.id] = self._bot_role
        return self._bot_role

    def role_ids_of(self, user: SimUser) -> list[int]:
        """Return the role ids (without ``@everyone``) of a member."""
        if user.bot:
            return [self.bot_role().id]
        membership = self._members.get(user.id)
        return list(membership.role_ids) if membership else []

    def permissions_of(self, user: SimUser) -> int:
        """Return the guild-level permission bits of a member."""
        perms = self.roles[self.id].permissions
        for role_id in self.role_ids_of(user):
            perms |= self.roles[role_id].permissions
        if perms & Permissions.ADMINISTRATOR:
            return (1 << 53) - 1
        return perms

    # -- payloads ------------------------------------------------------------------------

    def member_payload(self, user: SimUser, *, with_permissions: bool = False) -> dict[str, Any]:
        """Return the Discord guild member object for ``user``."""
        membership = self._members.get(user.id)
        joined_at = membership.joined_at if membership else self.joined_at
        data: dict[str, Any] = {
            "user": user.payload(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids_of(user)],
            "joined_at": joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions_of(user))
        return data

    def payload(self, *, include_members: bool) -> dict[str, Any]:
        """Return the full GUILD_CREATE payload.

        Parameters
        ----------
        include_members : bool
            Include every member (the bot has the members intent); otherwise
            only the bot's own member object is sent, as Discord does.
        """
        bot = self._server.bot_user
        self.bot_role()
        members = [self.member_payload(bot)]
        if include_members:
            members += [self.member_payload(m.user) for m in self._members.values()]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self._members) + 1,
            "voice_states": [],
            "members": members,
            "channels": [c.payload() for c in self.channels + self.voice_channels],
            "threads": [t.payload() for t in self.threads if not t.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [event.payload() for event in self.scheduled_events.values()],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"


class Channel:
    """A text channel of a guild, or the DM channel between the bot and a user.

    Attributes
    ----------
    id : int
    name : str
        ``#name`` for guild channels, ``"dm-<username>"`` for DMs.
    guild : Guild or None
        None for a DM channel.
    recipient : SimUser or None
        The human of a DM channel.
    messages : list of Message
        Every message ever posted here, including ephemeral and deleted ones, in order.
    """

    def __init__(
        self,
        server: ModelServer,
        channel_id: int,
        name: str,
        *,
        guild: Guild | None = None,
        recipient: SimUser | None = None,
        position: int = 0,
        topic: str | None = None,
    ) -> None:
        self._server = server
        self.id = channel_id
        self.name = name
        self.guild = guild
        self.recipient = recipient
        self.position = position
        self.topic = topic
        self.messages: list[Message] = []
        self.parent: Channel | None = None  # set on a thread: the text channel it belongs to
        self.owner_id: int | None = None  # a thread's creator
        self.archived = False  # a thread's state; sending a message to an archived thread unarchives it
        self.voice = False  # a voice channel of a guild (Guild.add_voice_channel)
        self.created_at = iso_now()

    @property
    def is_dm(self) -> bool:
        """True for the DM channel between the bot and a user."""
        return self.guild is None

    @property
    def is_thread(self) -> bool:
        """True for a public thread of a text channel (see :meth:`SandboxServer.threads_of`)."""
        return self.parent is not None

    @property
    def type(self) -> int:
        """Discord channel type: 0 (guild text), 1 (DM), 2 (guild voice) or 11 (public thread)."""
        return 1 if self.is_dm else 11 if self.is_thread else 2 if self.voice else 0

    @property
    def last_message_id(self) -> int | None:
        """Id of the newest message (any kind), or None."""
        return self.messages[-1].id if self.messages else None

    def payload(self, *, permissions_for: SimUser | None = None) -> dict[str, Any]:
        """Return the Discord channel object.

        Parameters
        ----------
        permissions_for : SimUser, optional
            Add the ``permissions`` field computed for this user (used in the
            ``channel`` object of interactions).
        """
        last = self.last_message_id
        if self.is_dm:
            assert self.recipient is not None
            data: dict[str, Any] = {
                "id": str(self.id),
                "type": 1,
                "last_message_id": str(last) if last else None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
            if permissions_for is not None:
                data["permissions"] = str(Permissions.EVERYONE)
            return data
        assert self.guild is not None
        if self.is_thread:
            data = self._thread_payload()
            if permissions_for is not None:
                data["permissions"] = str(self.guild.permissions_of(permissions_for))
            return data
        data = {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": self.topic,
            "nsfw": False,
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "default_auto_archive_duration": 1440,
            "default_thread_rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.voice:
            for key in ("topic", "default_auto_archive_duration", "default_thread_rate_limit_per_user"):
                del data[key]
            data.update(type=2, bitrate=64000, user_limit=0, rtc_region=None, video_quality_mode=1)
        if permissions_for is not None:
            data["permissions"] = str(self.guild.permissions_of(permissions_for))
        return data

    def _thread_payload(self) -> dict[str, Any]:
        """The Discord channel object of a public thread (the fields discord.py's ``Thread`` reads)."""
        assert self.guild is not None and self.parent is not None
        last = self.last_message_id
        count = sum(1 for m in self.messages if m.ephemeral_for is None and not m.deleted)
        return {
            "id": str(self.id),
            "type": 11,
            "guild_id": str(self.guild.id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id or 0),
            "name": self.name,
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "message_count": count,
            "total_message_sent": count,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso_now() if self.archived else self.created_at,
                "locked": False,
                "create_timestamp": self.created_at,
            },
        }

    def __repr__(self) -> str:
        if self.is_thread:
            return f"<Thread {self.name!r} of #{self.parent.name if self.parent else '?'} id={self.id}>"
        if self.is_dm:
            return f"<Channel DM with {self.recipient.username if self.recipient else '?'} id={self.id}>"
        return f"<Channel #{self.name} id={self.id}>"


def iter_components(components: list[dict[str, Any]] | None) -> Iterator[dict[str, Any]]:
    """Yield every component dict in a component tree, depth first.

    Walks ``components`` lists, a section's ``accessory`` and a label's
    ``component``, so it works for action rows and for Components V2 layouts.
    """
    for component in components or []:
        if not isinstance(component, dict):
            continue
        yield component
        yield from iter_components(component.get("components"))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from iter_components([child])


def _embed_texts(embed: dict[str, Any]) -> list[str]:
    parts: list[str] = []
    author = embed.get("author") or {}
    if author.get("name"):
        parts.append(str(author["name"]))
    if embed.get("title"):
        parts.append(str(embed["title"]))
    if embed.get("description"):
        parts.append(str(embed["description"]))
    for field in embed.get("fields") or []:
        if field.get("name"):
            parts.append(str(field["name"]))
        if field.get("value"):
            parts.append(str(field["value"]))
    footer = embed.get("footer") or {}
    if footer.get("text"):
        parts.append(str(footer["text"]))
    return parts


def _display_texts(components: list[dict[str, Any]] | None) -> list[str]:
    """The contents of the text displays (type 10) of a component tree: a Components V2 message's text."""
    return [str(comp["content"]) for comp in iter_components(components) if comp.get("type") == 10]


def _component_texts(components: list[dict[str, Any]] | None) -> list[str]:
    parts: list[str] = []
    for comp in iter_components(components):
        for key in ("label", "placeholder"):
            if comp.get(key):
                parts.append(str(comp[key]))
        for option in comp.get("options") or []:
            for key in ("label", "description"):
                if option.get(key):
                    parts.append(str(option[key]))
    return parts


def snapshot_text(snapshot: dict[str, Any], *, components: bool = False) -> str:
    """Return the text of one message state (see :meth:`Message.text`)."""
    parts: list[str] = []
    if snapshot.get("content"):
        parts.append(str(snapshot["content"]))
    for embed in snapshot.get("embeds") or []:
        parts.extend(_embed_texts(embed))
    parts.extend(_display_texts(snapshot.get("components")))
    if components:
        parts.extend(_component_texts(snapshot.get("components")))
    return "\n".join(parts)


class Message:
    """A message as the sandbox stores it.

    Attributes
    ----------
    id, channel_id, author_id : int
    channel : Channel
    author : SimUser
    content : str
    embeds : list of dict
        Embed objects as sent by the bot.
    components : list of dict
        Top-level components (action rows) as sent by the bot.
    attachments : list of dict
        Attachment objects (file uploads are recorded by name and size).
    flags : int
        Message flags (64 = ephemeral, 128 = loading).
    ephemeral_for : int or None
        Id of the only user who can see this message, for ephemeral messages.
    deleted : bool
    versions : list of dict
        Snapshots ``{"content", "embeds", "components", "flags", "attachments"}``
        (attachments by filename) of every state the message ever had, oldest first.
    interaction_id : int or None
        The interaction whose answer or followup created this message.
    allowed_mentions : dict or None
        The ``allowed_mentions`` object the message was created with, as sent (``None``: none sent).
    """

    def __init__(
        self,
        server: ModelServer,
        message_id: int,
        channel: Channel,
        author: SimUser,
        *,
        content: str = "",
        embeds: list[dict[str, Any]] | None = None,
        components: list[dict[str, Any]] | None = None,
        attachments: list[dict[str, Any]] | None = None,
        flags: int = 0,
        ephemeral_for: int | None = None,
        interaction_id: int | None = None,
        message_type: int = 0,
        interaction_metadata: dict[str, Any] | None = None,
    ) -> None:
        self._server = server
        self.id = message_id
        self.channel = channel
        self.author = author
        self.content = content
        self.embeds: list[dict[str, Any]] = embeds or []
        self.components: list[dict[str, Any]] = components or []
        self.attachments: list[dict[str, Any]] = attachments or []
        self.flags = flags
        self.ephemeral_for = ephemeral_for
        self.interaction_id = interaction_id
        self.type = message_type
        self.interaction_metadata = interaction_metadata
        self.deleted = False
        self.allowed_mentions: dict[str, Any] | None = None
        self.dismissed = False
        self.timestamp = iso_now()
        self.edited_timestamp: str | None = None
        self.versions: list[dict[str, Any]] = []
        self._snapshot()

    # -- state ------------------------------------------------------------------------

    def _snapshot(self) -> None:
        self.versions.append(
            {
                "content": self.content,
                "embeds": copy.deepcopy(self.embeds),
                "components": copy.deepcopy(self.components),
                "flags": self.flags,
                "attachments": [attachment["filename"] for attachment in self.attachments],
            }
        )

    @property
    def channel_id(self) -> int:
        """Id of the channel the message is in."""
        return self.channel.id

    @property
    def author_id(self) -> int:
        """Id of the author."""
        return self.author.id

    @property
    def guild_id(self) -> int | None:
        """Id of the guild, or None in a DM."""
        return self.channel.guild.id if self.channel.guild else None

    @property
    def ephemeral(self) -> bool:
        """Whether only one user can see this message."""
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """Whether this is a deferred answer still showing "thinking..." (flag 128)."""
        return bool(self.flags & 128)

    @property
    def is_dm(self) -> bool:
        """Whether the message is in a DM channel."""
        return self.channel.is_dm

    # -- helpers for tests ------------------------------------------------------------------

    def buttons(self) -> list[dict[str, Any]]:
        """Return every button (type 2) on the message, flattened, in order."""
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        """Return every select menu (types 3, 5, 6, 7, 8) on the message."""
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """Return the component with this ``custom_id``, or None."""
        for comp in iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> dict[str, Any]:
        """Return the button with this label (or custom_id).

        Raises
        ------
        KeyError
            If no such button is on the message; the message lists the buttons there are.
        """
        for btn in self.buttons():
            if label is not None and btn.get("label") == label:
                return btn
            if custom_id is not None and btn.get("custom_id") == custom_id:
                return btn
        have = ", ".join(f"{b.get('label')!r}({b.get('custom_id') or b.get('url')})" for b in self.buttons())
        wanted = f"label={label!r}" if label is not None else f"custom_id={custom_id!r}"
        raise KeyError(f"no button with {wanted} on message {self.id}; buttons: [{have}]")

    def text(self, *, components: bool = False) -> str:
        """Return the message's text: content, embeds (author, title,
        description, fields, footer) and text displays (Components V2), joined by newlines.

        Parameters
        ----------
        components : bool
            Also include component text (button labels, select placeholders and options).
        """
        return snapshot_text(
            {"content": self.content, "embeds": self.embeds, "components": self.components},
            components=components,
        )

    def all_texts(self, *, components: bool = True) -> list[str]:
        """Return the text of every version of the message, oldest first."""
        return [snapshot_text(v, components=components) for v in self.versions]

    # -- payload ---------------------------------------------------------------------------

    def payload(self) -> dict[str, Any]:
        """Return the Discord message object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "reactions": [],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": copy.deepcopy(self.components),
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.author.bot and self.interaction_id is not None:
            data["webhook_id"] = str(self._server.application_id)
            data["application_id"] = str(self._server.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        return data

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        extra += " deleted" if self.deleted else ""
        return f"<Message id={self.id} in {self.channel!r}{extra} content={self.content[:40]!r}>"


# A tiny typed alias used by the server for listeners.
MessageListener = Callable[[str, Message], Any]
