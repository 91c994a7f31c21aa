"""Guild scheduled events: ``GET|POST /guilds/{guild}/scheduled-events`` (``with_user_count``),
``GET|PATCH|DELETE /guilds/{guild}/scheduled-events/{event}`` and ``GET .../{event}/users`` (``limit``
1-100, ``with_member``, ``before`` / ``after`` user ids), with the shapes of Discord's OpenAPI description
(``shared/discord-api-spec``: ``*ScheduledEventCreateRequest``, ``*ScheduledEventPatchRequestPartial``,
``*ScheduledEventResponse``, ``RecurrenceRule``, ``ScheduledEventUserResponse``).

Discord's checks: creating needs Create Events (or Manage Events); editing or deleting needs Create
Events for the bot's own events and Manage Events for anyone's (403, 50013); a voice event needs View
Channel and Connect, a stage event Manage Channels, Mute Members and Move Members. An external event (type
3) has ``entity_metadata.location`` and an end time and no channel; a voice (2) or stage (1) event has a
channel of that type and no location. The status goes 1 (scheduled) to 2 (active) or 4 (canceled), and 2
to 3 (completed); a completed or canceled event can no longer be edited (400, 180000). A refused body is
400 / 50035 with Discord's nested errors; an unknown event is 404 / 10070. Each refusal is recorded in
``violations``.

Gateway events, to sessions with the GUILD_SCHEDULED_EVENTS intent (``1 << 16``) of the guild's shard:
GUILD_SCHEDULED_EVENT_CREATE / _UPDATE / _DELETE (the event object) and GUILD_SCHEDULED_EVENT_USER_ADD /
_USER_REMOVE (``{guild_scheduled_event_id, user_id, guild_id}``) when a simulated member marks or unmarks
interest (:meth:`ScheduledEventHandlers.mark_interested`). GUILD_CREATE lists the guild's events.
:class:`ScheduledEventHandlers` is a mixin of :class:`~sandbox.server.SandboxServer`.
"""

from __future__ import annotations

import copy
import datetime
from typing import TYPE_CHECKING, Any

from .errors import SandboxUsageError
from .event_fields import (
    ACTIVE,
    CANCELED,
    COMPLETED,
    EXTERNAL,
    GUILD_ONLY,
    SCHEDULED,
    STAGE,
    VOICE,
    check_event_fields,
)
from .gateway import Intents
from .limits import FormErrors
from .models import Channel, Guild, Permissions, SimUser, SnowflakeGenerator
from .rest import NO_CONTENT, ApiError, RestApi, RestRequest

__all__ = ["ScheduledEvent", "ScheduledEventHandlers", "EventRef"]

TRANSITIONS = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}


class ScheduledEvent:
    """A guild scheduled event as the sandbox stores it.

    Attributes
    ----------
    id : int
    guild : Guild
    creator : SimUser
        The bot, or the simulated member who created it (:meth:`ScheduledEventHandlers.add_scheduled_event`).
    fields : dict
        The event's Discord fields other than ids and the creator: ``name``, ``description``,
        ``scheduled_start_time`` / ``scheduled_end_time`` (ISO 8601 strings, UTC), ``privacy_level``,
        ``status``, ``entity_type``, ``channel_id`` (a string or None), ``entity_metadata``, ``image`` (a
        hash or None), ``recurrence_rule`` (the stored rule, every field present, or None).
    interested : dict of int to SimUser
        The members marked "Interested", by user id, in the order they marked it.
    deleted : bool
    """

    def __init__(self, event_id: int, guild: Guild, creator: SimUser, fields: dict[str, Any]) -> None:
        self.id = event_id
        self.guild = guild
        self.creator = creator
        self.fields = fields
        self.interested: dict[int, SimUser] = {}
        self.deleted = False

    @property
    def status(self) -> int:
        """1 scheduled, 2 active, 3 completed, 4 canceled."""
        return int(self.fields["status"])

    @property
    def name(self) -> str:
        """The event's name."""
        return str(self.fields["name"])

    def payload(self, *, with_user_count: bool = False) -> dict[str, Any]:
        """The Discord guild scheduled event object (``user_count`` only when asked, as Discord does)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild.id),
            "creator_id": str(self.creator.id),
            "creator": self.creator.payload(),
            "entity_id": None,
            "guild_scheduled_event_exceptions": [],
            **copy.deepcopy(self.fields),
        }
        if with_user_count:
            data["user_count"] = len(self.interested)
        return data

    def __repr__(self) -> str:
        return f"<ScheduledEvent {self.name!r} status={self.status} id={self.id}>"


EventRef = Any
"""What the acting methods take for an event: a :class:`ScheduledEvent`, discord.py's, or the event's id."""


def _flag(req: RestRequest, name: str) -> bool:
    """A boolean query parameter: ``true`` or ``1`` (discord.py sends ``1`` / ``0``)."""
    return str(req.query.get(name, "")).lower() in ("true", "1")


class ScheduledEventHandlers:
    """Mixin of :class:`~sandbox.server.SandboxServer`: guild scheduled events, REST and simulated members."""

    if TYPE_CHECKING:  # provided by SandboxServer
        _ids: SnowflakeGenerator
        _channels: dict[int, Channel]
        bot_user: SimUser
        guilds: list[Guild]

        def _changed(self) -> None: ...
        def _ready_sessions(self, guild: Guild | None) -> list[Any]: ...

    def _add_scheduled_event_routes(self, api: RestApi) -> None:
        base = r"/guilds/(?P<guild>\d+)/scheduled-events"
        event = base + r"/(?P<event>\d+)"
        api.add("GET", base, self._rest_list_events)
        api.add("POST", base, self._rest_create_event)
        api.add("GET", event, self._rest_get_event)
        api.add("PATCH", event, self._rest_edit_event)
        api.add("DELETE", event, self._rest_delete_event)
        api.add("GET", event + "/users", self._rest_event_users)

    # -- looking up --------------------------------------------------------------------------------

    def scheduled_event(self, event_id: int) -> ScheduledEvent:
        """The (not deleted) scheduled event with this id, in any guild (KeyError if there is none)."""
        for guild in self.guilds:
            found = guild.scheduled_events.get(int(event_id))
            if found is not None:
                return found
        raise KeyError(event_id)

    def _event_guild(self, req: RestRequest) -> Guild:
        guild = next((g for g in self.guilds if g.id == int(req.params["guild"])), None)
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild", violation=f"{req.method} {req.path}: unknown guild")
        return guild

    def _event_or_404(self, req: RestRequest) -> ScheduledEvent:
        event = self._event_guild(req).scheduled_events.get(int(req.params["event"]))
        if event is None:
            raise ApiError(
                404,
                10070,
                "Unknown Guild Scheduled Event",
                violation=f"{req.method} {req.path}: unknown guild scheduled event",
            )
        return event

    def _require_event_permission(self, guild: Guild, needed: int, what: str, action: str) -> None:
        if guild.permissions_of(self.bot_user) & needed != needed:
            raise ApiError(
                403, 50013, "Missing Permissions", violation=f"tried to {action} in {guild!r} without {what}"
            )

    def _require_may_manage(self, event: ScheduledEvent, action: str) -> None:
        """Editing or deleting: Manage Events, or Create Events for the bot's own event."""
        perms = event.guild.permissions_of(self.bot_user)
        own = event.creator.id == self.bot_user.id
        if perms & Permissions.MANAGE_EVENTS or (own and perms & Permissions.CREATE_EVENTS):
            return
        what = "Create Events or Manage Events" if own else "Manage Events (the event is not the bot's)"
        raise ApiError(403, 50013, "Missing Permissions", violation=f"tried to {action} without {what}")

    # -- validation ---------------------------------------------------------------------------------

    def _checked_fields(
        self, guild: Guild, merged: dict[str, Any], *, start_changed: bool, context: str
    ) -> dict[str, Any]:
        """:func:`~sandbox.event_fields.check_event_fields`, raising 400 / 50035 with every field error."""
        errors = FormErrors()
        fields = check_event_fields(errors, guild, self._channels, merged, start_changed=start_changed)
        if errors:
            raise ApiError.invalid_form_body(errors, context)
        return fields

    def _require_channel_permissions(self, guild: Guild, fields: dict[str, Any], action: str) -> None:
        if fields["entity_type"] == VOICE:
            needed = Permissions.VIEW_CHANNEL | Permissions.CONNECT
            self._require_event_permission(guild, needed, "View Channel and Connect", action)
        elif fields["entity_type"] == STAGE:
            needed = Permissions.MANAGE_CHANNELS | Permissions.MUTE_MEMBERS | Permissions.MOVE_MEMBERS
            self._require_event_permission(
                guild, needed, "Manage Channels, Mute Members and Move Members", action
            )

    # -- REST -----------------------------------------------------------------------------------------

    async def _rest_list_events(self, req: RestRequest) -> Any:
        counts = _flag(req, "with_user_count")
        guild = self._event_guild(req)
        return [event.payload(with_user_count=counts) for event in guild.scheduled_events.values()]

    async def _rest_get_event(self, req: RestRequest) -> Any:
        counts = _flag(req, "with_user_count")
        return self._event_or_404(req).payload(with_user_count=counts)

    async def _rest_create_event(self, req: RestRequest) -> Any:
        guild = self._event_guild(req)
        if not guild.permissions_of(self.bot_user) & (Permissions.CREATE_EVENTS | Permissions.MANAGE_EVENTS):
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation=f"tried to create a scheduled event in {guild!r} without Create Events",
            )
        body = req.json if isinstance(req.json, dict) else {}
        merged = {**body, "status": SCHEDULED}
        fields = self._checked_fields(guild, merged, start_changed=True, context="scheduled event create")
        self._require_channel_permissions(guild, fields, "create a scheduled event")
        event = ScheduledEvent(self._ids.next(), guild, self.bot_user, fields)
        self._store_event(event)
        return event.payload()

    async def _rest_edit_event(self, req: RestRequest) -> Any:
        event = self._event_or_404(req)
        self._require_may_manage(event, "edit a scheduled event")
        body = req.json if isinstance(req.json, dict) else {}
        if event.status in (COMPLETED, CANCELED):
            raise ApiError(
                400,
                180000,
                "Cannot update a finished event",
                violation=f"tried to edit the finished {event!r}",
            )
        status = body.get("status")
        if status is not None and status != event.status and status not in TRANSITIONS.get(event.status, ()):
            errors = FormErrors()
            errors.add(
                ("status",),
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                f"Cannot change the status from {event.status} to {status!r}.",
            )
            raise ApiError.invalid_form_body(errors, "scheduled event edit")
        merged = {**event.fields, **{k: v for k, v in body.items() if k in event.fields}}
        if status is None:
            merged["status"] = event.status
        if merged["entity_type"] != EXTERNAL and "entity_metadata" not in body:
            merged["entity_metadata"] = None
        start_changed = "scheduled_start_time" in body
        fields = self._checked_fields(
            event.guild, merged, start_changed=start_changed, context="scheduled event edit"
        )
        self._require_channel_permissions(event.guild, fields, "edit a scheduled event")
        event.fields = fields
        self._dispatch_event_change(event.guild, "GUILD_SCHEDULED_EVENT_UPDATE", event.payload())
        self._changed()
        return event.payload()

    async def _rest_delete_event(self, req: RestRequest) -> Any:
        event = self._event_or_404(req)
        self._require_may_manage(event, "delete a scheduled event")
        del event.guild.scheduled_events[event.id]
        event.deleted = True
        self._dispatch_event_change(event.guild, "GUILD_SCHEDULED_EVENT_DELETE", event.payload())
        self._changed()
        return NO_CONTENT

    async def _rest_event_users(self, req: RestRequest) -> Any:
        event = self._event_or_404(req)
        errors = FormErrors()
        limit_text = req.query.get("limit", "100")
        limit = int(limit_text) if limit_text.isdigit() else 0
        if not 1 <= limit <= 100:
            errors.add(
                ("limit",), "NUMBER_TYPE_MAX" if limit > 100 else "NUMBER_TYPE_MIN", "Must be 1 to 100."
            )
        bounds = {}
        for key in ("before", "after"):
            value = req.query.get(key)
            if value is not None and not value.isdigit():
                errors.add((key,), "NUMBER_TYPE_COERCE", f"Value {value!r} is not snowflake.")
            elif value is not None:
                bounds[key] = int(value)
        if errors:
            raise ApiError.invalid_form_body(errors, "scheduled event users")
        users = sorted(event.interested.values(), key=lambda user: user.id)
        if "before" in bounds:  # both given: only before counts, as on Discord
            users = [user for user in users if user.id < bounds["before"]][-limit:]
        else:
            users = [user for user in users if user.id > bounds.get("after", 0)][:limit]
        with_member = _flag(req, "with_member")
        out = []
        for user in users:
            entry: dict[str, Any] = {
                "guild_scheduled_event_id": str(event.id),
                "user_id": str(user.id),
                "user": user.payload(),
                "response": 1,
            }
            if with_member and event.guild.is_member(user):
                entry["member"] = event.guild.member_payload(user)
            out.append(entry)
        return out

    # -- gateway --------------------------------------------------------------------------------------

    def _dispatch_event_change(self, guild: Guild, name: str, data: dict[str, Any]) -> None:
        for session in self._ready_sessions(guild):
            if session.intents & Intents.GUILD_SCHEDULED_EVENTS:
                session.dispatch(name, data)

    def _store_event(self, event: ScheduledEvent) -> None:
        event.guild.scheduled_events[event.id] = event
        self._dispatch_event_change(event.guild, "GUILD_SCHEDULED_EVENT_CREATE", event.payload())
        self._changed()

    # -- simulated members ------------------------------------------------------------------------------

    def _resolve_event(self, event: EventRef) -> ScheduledEvent:
        event_id = getattr(event, "id", event)  # a sandbox event, discord.py's, or an id
        try:
            return self.scheduled_event(int(event_id))
        except (KeyError, ValueError, TypeError):
            raise SandboxUsageError(f"unknown or deleted scheduled event {event!r}") from None

    def _check_member_of(self, user: SimUser, guild: Guild) -> None:
        if not guild.is_member(user) or user.bot:
            raise SandboxUsageError(f"{user.username} is not a member of {guild!r}")
        if guild not in self.guilds:
            raise SandboxUsageError(f"the bot is no longer in guild {guild.name!r} (remove_guild)")

    def add_scheduled_event(
        self,
        user: SimUser,
        guild: Guild,
        name: str,
        *,
        start: datetime.datetime,
        end: datetime.datetime,
        location: str,
        description: str | None = None,
    ) -> ScheduledEvent:
        """A member with Create Events (or Manage Events) creates an external event in their client.

        Parameters
        ----------
        user : SimUser
            The creator: the event is not the bot's, so the bot needs Manage Events to edit or delete it.
        guild : Guild
        name : str
        start, end : datetime
            Aware times; ``start`` in the future, ``end`` after it.
        location : str
        description : str, optional

        Returns
        -------
        ScheduledEvent
            The new event; the bot gets GUILD_SCHEDULED_EVENT_CREATE.

        Raises
        ------
        SandboxUsageError
            The user is not a member, lacks the permission, or the fields are ones Discord refuses.
        """
        self._check_member_of(user, guild)
        if not guild.permissions_of(user) & (Permissions.CREATE_EVENTS | Permissions.MANAGE_EVENTS):
            raise SandboxUsageError(f"{user.username} may not create events in {guild!r} (Create Events)")
        merged = {
            "name": name,
            "description": description,
            "scheduled_start_time": start.isoformat(),
            "scheduled_end_time": end.isoformat(),
            "privacy_level": GUILD_ONLY,
            "entity_type": EXTERNAL,
            "entity_metadata": {"location": location},
            "status": SCHEDULED,
        }
        try:
            fields = self._checked_fields(guild, merged, start_changed=True, context="member's event")
        except ApiError as refused:
            raise SandboxUsageError(f"Discord refuses this event: {refused.errors}") from None
        event = ScheduledEvent(self._ids.next(), guild, user, fields)
        self._store_event(event)
        return event

    def mark_interested(self, user: SimUser, event: EventRef) -> None:
        """A member presses "Interested" on an event: GUILD_SCHEDULED_EVENT_USER_ADD goes to the bot.

        Raises
        ------
        SandboxUsageError
            Unknown or deleted event, a user who is not a member of its guild, an event completed or
            canceled (the client offers no button), or a user already interested.
        """
        found = self._resolve_event(event)
        self._check_member_of(user, found.guild)
        if found.status in (COMPLETED, CANCELED):
            raise SandboxUsageError(f"{found!r} is over: nobody can mark interest in it")
        if user.id in found.interested:
            raise SandboxUsageError(f"{user.username} is already interested in {found!r}")
        found.interested[user.id] = user
        self._dispatch_interest(found, user, "GUILD_SCHEDULED_EVENT_USER_ADD")

    def unmark_interested(self, user: SimUser, event: EventRef) -> None:
        """A member takes back "Interested": GUILD_SCHEDULED_EVENT_USER_REMOVE goes to the bot.

        Raises
        ------
        SandboxUsageError
            Unknown or deleted event, or a user who is not interested in it.
        """
        found = self._resolve_event(event)
        if found.interested.pop(user.id, None) is None:
            raise SandboxUsageError(f"{user.username} is not interested in {found!r}")
        self._dispatch_interest(found, user, "GUILD_SCHEDULED_EVENT_USER_REMOVE")

    def _dispatch_interest(self, event: ScheduledEvent, user: SimUser, name: str) -> None:
        data = {
            "guild_scheduled_event_id": str(event.id),
            "user_id": str(user.id),
            "guild_id": str(event.guild.id),
        }
        self._dispatch_event_change(event.guild, name, data)
        self._changed()
