"""REST route handlers: what each Discord API call does to the sandbox's world.

:class:`RestHandlers` is a mixin of :class:`~sandbox.server.SandboxServer`; its
``_rest_*`` methods are registered as routes of :class:`sandbox.rest.RestApi` by ``_add_routes``.
Each either returns the JSON Discord would return or raises
:class:`~sandbox.rest.ApiError` with Discord's status and error code (and, when
the bot broke a rule, a violation text that the dispatcher records).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .interactions import (
    AUTOCOMPLETE,
    COMMAND,
    COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    ModalView,
)
from .limits import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FormErrors,
    validate_autocomplete,
    validate_commands,
    validate_modal,
)
from .models import Channel, Guild, Message, SimUser, SnowflakeGenerator
from .rest import NO_CONTENT, ApiError, RestApi, RestRequest

__all__ = ["RestHandlers"]

_log = logging.getLogger(__name__)

#: Flags a bot may set when creating a message (suppress embeds, ephemeral,
#: suppress notifications, components v2).
_CREATE_FLAGS = 4 | FLAG_EPHEMERAL | 4096 | FLAG_COMPONENTS_V2
#: Answer types accepted per interaction type.
_ALLOWED_ANSWERS = {
    COMMAND: (4, 5, 9),
    COMPONENT: (4, 5, 6, 7, 9),
    AUTOCOMPLETE: (8,),
    MODAL_SUBMIT: (4, 5, 6, 7),
}


class RestHandlers:
    """Mixin of :class:`~sandbox.server.SandboxServer`: the REST API's route handlers."""

    if TYPE_CHECKING:  # attributes and methods provided by SandboxServer
        _ids: SnowflakeGenerator
        _messages: dict[int, Message]
        _channels: dict[int, Channel]
        _commands: dict[int | None, list[dict[str, Any]]]
        _tokens: dict[str, InteractionRecord]
        interactions: dict[int, InteractionRecord]
        refused_dms: list[int]
        interaction_deadline: float
        token_lifetime: float
        application_id: int
        application_flags: int
        bot_user: SimUser
        owner: SimUser
        users: dict[int, SimUser]
        guilds: list[Guild]
        gateway_url: str
        shard_count: int
        max_concurrency: int
        identify_count: int

        def _now(self) -> float: ...
        def _changed(self) -> None: ...
        def _validate_message(self, payload: Any, **options: Any) -> FormErrors: ...  # EmojiHandlers'
        def _guild(self, guild_id: int) -> Guild: ...
        def _expire(self, record: InteractionRecord) -> None: ...
        def dm_channel(self, user: SimUser) -> Channel: ...
        def _create_message(
            self,
            channel: Channel,
            author: SimUser,
            payload: dict[str, Any],
            files: Sequence[tuple[str, str, int, bytes]] = (),
            **kwargs: Any,
        ) -> Message: ...
        def _edit_message(
            self,
            msg: Message,
            payload: dict[str, Any],
            files: Sequence[tuple[str, str, int, bytes]] = (),
            *,
            clear_loading: bool = False,
        ) -> None: ...
        def _delete_message(self, msg: Message) -> None: ...
        def _before_send_in_thread(self, channel: Channel) -> None: ...
        def _note_rate(self, key: str, limit: int, per: float, what: str) -> None: ...
        async def _rest_create_thread(self, req: RestRequest) -> Any: ...  # ThreadHandlers'
        async def _rest_edit_channel(self, req: RestRequest) -> Any: ...  # ThreadHandlers'

    # =========================================================================================
    # route table
    # =========================================================================================

    def _add_routes(self, api: RestApi) -> None:
        """Register the ``_rest_*`` handlers (and those of ``ThreadHandlers``) with ``api``, in the order
        its routes are matched."""
        app = r"(?P<app>\d+)"
        gid = r"(?P<gid>\d+)"
        cid = r"(?P<cid>\d+)"
        mid = r"(?P<mid>\d+)"
        cmd = r"(?P<cmd>\d+)"
        token = r"(?P<token>[^/]+)"
        add = api.add

        add("GET", r"/users/@me", self._rest_get_me)
        add("GET", r"/users/(?P<uid>\d+)", self._rest_get_user)
        add("POST", r"/users/@me/channels", self._rest_open_dm)
        add("GET", r"/gateway/bot", self._rest_gateway_bot)
        add("GET", r"/gateway", self._rest_gateway, auth=False)
        add("GET", r"/oauth2/applications/@me", self._rest_app_info)
        add("GET", r"/applications/@me", self._rest_app_info)

        add("GET", rf"/applications/{app}/commands", self._rest_get_commands)
        add("PUT", rf"/applications/{app}/commands", self._rest_put_commands)
        add("POST", rf"/applications/{app}/commands", self._rest_post_command)
        add("GET", rf"/applications/{app}/commands/{cmd}", self._rest_get_command)
        add("PATCH", rf"/applications/{app}/commands/{cmd}", self._rest_patch_command)
        add("DELETE", rf"/applications/{app}/commands/{cmd}", self._rest_delete_command)
        add("GET", rf"/applications/{app}/guilds/{gid}/commands", self._rest_get_commands)
        add("PUT", rf"/applications/{app}/guilds/{gid}/commands", self._rest_put_commands)
        add("POST", rf"/applications/{app}/guilds/{gid}/commands", self._rest_post_command)
        add("GET", rf"/applications/{app}/guilds/{gid}/commands/{cmd}", self._rest_get_command)
        add("PATCH", rf"/applications/{app}/guilds/{gid}/commands/{cmd}", self._rest_patch_command)
        add("DELETE", rf"/applications/{app}/guilds/{gid}/commands/{cmd}", self._rest_delete_command)

        add("GET", rf"/guilds/{gid}", self._rest_get_guild)
        add("GET", rf"/guilds/{gid}/channels", self._rest_get_guild_channels)
        add("GET", rf"/guilds/{gid}/roles", self._rest_get_guild_roles)
        add("GET", rf"/guilds/{gid}/members", self._rest_get_guild_members)
        add("GET", rf"/guilds/{gid}/members/(?P<uid>\d+)", self._rest_get_guild_member)

        add("GET", rf"/channels/{cid}", self._rest_get_channel)
        add("PATCH", rf"/channels/{cid}", self._rest_edit_channel)
        add("POST", rf"/channels/{cid}/threads", self._rest_create_thread)
        add("POST", rf"/channels/{cid}/typing", self._rest_typing)
        add("GET", rf"/channels/{cid}/messages", self._rest_channel_history)
        add("POST", rf"/channels/{cid}/messages", self._rest_create_message)
        add("GET", rf"/channels/{cid}/messages/{mid}", self._rest_get_message)
        add("PATCH", rf"/channels/{cid}/messages/{mid}", self._rest_edit_message)
        add("DELETE", rf"/channels/{cid}/messages/{mid}", self._rest_delete_message)

        add(
            "POST",
            rf"/interactions/(?P<iid>\d+)/{token}/callback",
            self._rest_interaction_callback,
            auth=False,
        )
        add("POST", rf"/webhooks/{app}/{token}", self._rest_followup, auth=False)
        add(
            "GET",
            rf"/webhooks/{app}/{token}/messages/(?P<wmid>@original|\d+)",
            self._rest_webhook_get,
            auth=False,
        )
        add(
            "PATCH",
            rf"/webhooks/{app}/{token}/messages/(?P<wmid>@original|\d+)",
            self._rest_webhook_edit,
            auth=False,
        )
        add(
            "DELETE",
            rf"/webhooks/{app}/{token}/messages/(?P<wmid>@original|\d+)",
            self._rest_webhook_delete,
            auth=False,
        )

    # =========================================================================================
    # REST handlers (registered as routes by _add_routes)
    # =========================================================================================

    def _bot_me_payload(self) -> dict[str, Any]:
        data = self.bot_user.payload()
        data.update(bot=True, verified=True, mfa_enabled=False, locale="en-US", email=None, premium_type=0)
        return data

    async def _rest_get_me(self, req: RestRequest) -> Any:
        return self._bot_me_payload()

    async def _rest_get_user(self, req: RestRequest) -> Any:
        uid = int(req.params["uid"])
        if uid == self.bot_user.id:
            return self.bot_user.payload()
        if uid == self.owner.id:
            return self.owner.payload()
        user = self.users.get(uid)
        if user is None:
            raise ApiError(404, 10013, "Unknown User", violation=f"GET of unknown user {uid}")
        return user.payload()

    async def _rest_open_dm(self, req: RestRequest) -> Any:
        body = req.json or {}
        try:
            user = self.users[int(body.get("recipient_id"))]
        except (KeyError, TypeError, ValueError):
            raise ApiError(
                400,
                50033,
                "Invalid Recipient(s)",
                violation=f"opened a DM with unknown user {body.get('recipient_id')!r}",
            ) from None
        channel = self.dm_channel(user)
        self._changed()
        return channel.payload()

    async def _rest_gateway_bot(self, req: RestRequest) -> Any:
        return {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": max(1000 - self.identify_count, 0),
                "reset_after": 0,
                "max_concurrency": self.max_concurrency,
            },
        }

    async def _rest_gateway(self, req: RestRequest) -> Any:
        return {"url": self.gateway_url}

    async def _rest_app_info(self, req: RestRequest) -> Any:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "icon": None,
            "description": "Sandbox application",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": self.application_flags,
            "rpc_origins": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "tags": [],
            "approximate_guild_count": len(self.guilds),
            "bot": self.bot_user.payload(),
        }

    # -- commands -------------------------------------------------------------------------------

    def _command_scope(self, req: RestRequest) -> int | None:
        if int(req.params["app"]) != self.application_id:
            raise ApiError(
                403,
                20012,
                "You are not authorized to perform this action on this application",
                violation=f"{req.method} {req.path}: wrong application id {req.params['app']}",
            )
        gid = req.params.get("gid")
        if gid is None:
            return None
        try:
            self._guild(int(gid))
        except KeyError:
            raise ApiError(
                403,
                50001,
                "Missing Access",
                violation=f"{req.method} {req.path}: the bot is not in guild {gid}",
            ) from None
        return int(gid)

    def _store_command(
        self, scope: int | None, body: dict[str, Any], existing: dict[str, Any] | None
    ) -> dict[str, Any]:
        cmd = copy.deepcopy(body)
        cmd["id"] = existing["id"] if existing else str(self._ids.next())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(self._ids.next())
        cmd.setdefault("type", 1)
        cmd.setdefault("description", "")
        cmd.setdefault("options", [])
        cmd.setdefault("nsfw", False)
        perms = cmd.get("default_member_permissions")
        cmd["default_member_permissions"] = None if perms is None else str(perms)
        if scope is not None:
            cmd["guild_id"] = str(scope)
        else:
            cmd.pop("guild_id", None)
        return cmd

    async def _rest_get_commands(self, req: RestRequest) -> Any:
        return self._commands.get(self._command_scope(req), [])

    async def _rest_put_commands(self, req: RestRequest) -> Any:
        scope = self._command_scope(req)
        body = req.json if req.json is not None else []
        errors = validate_commands(body)
        if errors:
            raise ApiError.invalid_form_body(
                errors, f"command sync ({'global' if scope is None else f'guild {scope}'})"
            )
        old = {(c.get("type", 1), c["name"]): c for c in self._commands.get(scope, [])}
        self._commands[scope] = [
            self._store_command(scope, c, old.get((c.get("type", 1), c["name"]))) for c in body
        ]
        self._changed()
        return self._commands[scope]

    async def _rest_post_command(self, req: RestRequest) -> Any:
        scope = self._command_scope(req)
        body = req.json or {}
        errors = validate_commands([body])
        if errors:
            raise ApiError.invalid_form_body(errors, "command create")
        commands = self._commands.setdefault(scope, [])
        key = (body.get("type", 1), body.get("name"))
        existing = next((c for c in commands if (c.get("type", 1), c["name"]) == key), None)
        cmd = self._store_command(scope, body, existing)
        if existing is not None:
            commands[commands.index(existing)] = cmd
        else:
            commands.append(cmd)
        self._changed()
        return cmd

    def _command_by_id(self, req: RestRequest) -> tuple[int | None, dict[str, Any]]:
        scope = self._command_scope(req)
        for cmd in self._commands.get(scope, []):
            if cmd["id"] == req.params["cmd"]:
                return scope, cmd
        raise ApiError(
            404,
            10063,
            "Unknown application command",
            violation=f"{req.method} {req.path}: unknown command id",
        )

    async def _rest_get_command(self, req: RestRequest) -> Any:
        return self._command_by_id(req)[1]

    async def _rest_patch_command(self, req: RestRequest) -> Any:
        scope, cmd = self._command_by_id(req)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "application_id", "version", "guild_id")}
        merged.update(req.json or {})
        errors = validate_commands([merged])
        if errors:
            raise ApiError.invalid_form_body(errors, "command edit")
        new = self._store_command(scope, merged, cmd)
        commands = self._commands[scope]
        commands[commands.index(cmd)] = new
        self._changed()
        return new

    async def _rest_delete_command(self, req: RestRequest) -> Any:
        scope, cmd = self._command_by_id(req)
        self._commands[scope].remove(cmd)
        self._changed()
        return NO_CONTENT

    # -- guilds ----------------------------------------------------------------------------------

    def _guild_or_404(self, req: RestRequest) -> Guild:
        try:
            return self._guild(int(req.params["gid"]))
        except KeyError:
            raise ApiError(
                404, 10004, "Unknown Guild", violation=f"{req.method} {req.path}: unknown guild"
            ) from None

    async def _rest_get_guild(self, req: RestRequest) -> Any:
        data = self._guild_or_404(req).payload(include_members=False)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return data

    async def _rest_get_guild_channels(self, req: RestRequest) -> Any:
        return [c.payload() for c in self._guild_or_404(req).channels]

    async def _rest_get_guild_roles(self, req: RestRequest) -> Any:
        return [r.payload() for r in self._guild_or_404(req).roles.values()]

    async def _rest_get_guild_members(self, req: RestRequest) -> Any:
        guild = self._guild_or_404(req)
        limit = int(req.query.get("limit", 1))
        after = int(req.query.get("after", 0))
        users = sorted([self.bot_user] + guild.members, key=lambda u: u.id)
        return [guild.member_payload(u) for u in users if u.id > after][:limit]

    async def _rest_get_guild_member(self, req: RestRequest) -> Any:
        guild = self._guild_or_404(req)
        uid = int(req.params["uid"])
        if uid == self.bot_user.id:
            return guild.member_payload(self.bot_user)
        user = self.users.get(uid)
        if user is None or not guild.is_member(user):
            raise ApiError(
                404, 10007, "Unknown Member", violation=f"GET of unknown member {uid} of {guild.name!r}"
            )
        return guild.member_payload(user)

    # -- channels and messages -----------------------------------------------------------------

    def _channel_or_404(self, req: RestRequest, action: str) -> Channel:
        channel = self._channels.get(int(req.params["cid"]))
        if channel is None:
            raise ApiError(
                404,
                10003,
                "Unknown Channel",
                violation=f"tried to {action} unknown channel {req.params['cid']}",
            )
        return channel

    def _channel_message_or_404(self, req: RestRequest, channel: Channel, action: str) -> Message:
        mid = int(req.params["mid"])
        msg = self._messages.get(mid)
        if msg is None or msg.channel is not channel:
            raise ApiError(
                404,
                10008,
                "Unknown Message",
                violation=f"tried to {action} unknown message {mid} in {channel!r}",
            )
        if msg.deleted:
            raise ApiError(
                404,
                10008,
                "Unknown Message",
                violation=f"tried to {action} message {mid} in {channel!r}, which was deleted",
            )
        if msg.ephemeral:
            raise ApiError(
                404,
                10008,
                "Unknown Message",
                violation=f"tried to {action} ephemeral message {mid} through the channel API; "
                "ephemeral messages can only be reached with the interaction token",
            )
        return msg

    async def _rest_get_channel(self, req: RestRequest) -> Any:
        return self._channel_or_404(req, "get").payload()

    async def _rest_typing(self, req: RestRequest) -> Any:
        self._channel_or_404(req, "type in")
        return NO_CONTENT

    async def _rest_channel_history(self, req: RestRequest) -> Any:
        channel = self._channel_or_404(req, "read the history of")
        limit = max(1, min(int(req.query.get("limit", 50)), 100))
        msgs = [m for m in channel.messages if not m.deleted and not m.ephemeral]
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
            msgs = msgs[:limit]
        msgs = msgs[-limit:]
        return [m.payload() for m in reversed(msgs)]

    async def _rest_create_message(self, req: RestRequest) -> Any:
        channel = self._channel_or_404(req, "send a message to")
        self._before_send_in_thread(channel)
        self._note_rate(f"send:{channel.id}", 5, 5.0, f"messages sent to {channel!r}")
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            # Not a rule broken: a bot cannot know a user's DM settings before it tries. Recorded apart,
            # so tests can check that a bot does not keep knocking on a closed door.
            self.refused_dms.append(channel.recipient.id)
            raise ApiError(403, 50007, "Cannot send messages to this user")
        payload = req.json if isinstance(req.json, dict) else {}
        errors = self._validate_message(payload, require_content=not req.files)
        if errors:
            raise ApiError.invalid_form_body(errors, f"message to {channel!r}")
        flags = int(payload.get("flags") or 0) & _CREATE_FLAGS & ~FLAG_EPHEMERAL  # flag 64 is ignored here
        msg = self._create_message(channel, self.bot_user, payload, req.files, flags=flags)
        return msg.payload()

    async def _rest_get_message(self, req: RestRequest) -> Any:
        channel = self._channel_or_404(req, "get a message from")
        return self._channel_message_or_404(req, channel, "get").payload()

    @staticmethod
    def _state_of(msg: Message) -> dict[str, Any]:
        return {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "flags": msg.flags,
        }

    async def _rest_edit_message(self, req: RestRequest) -> Any:
        channel = self._channel_or_404(req, "edit a message in")
        self._note_rate(f"edit:{channel.id}", 5, 5.0, f"message edits in {channel!r}")
        msg = self._channel_message_or_404(req, channel, "edit")
        if not msg.author.bot:
            raise ApiError(
                403,
                50005,
                "Cannot edit a message authored by another user",
                violation=f"tried to edit message {msg.id} written by {msg.author.username}",
            )
        payload = req.json if isinstance(req.json, dict) else {}
        errors = self._validate_message(payload, current=self._state_of(msg))
        if errors:
            raise ApiError.invalid_form_body(errors, f"edit of message {msg.id}")
        self._edit_message(msg, payload, req.files)
        return msg.payload()

    async def _rest_delete_message(self, req: RestRequest) -> Any:
        channel = self._channel_or_404(req, "delete a message in")
        msg = self._channel_message_or_404(req, channel, "delete")
        self._delete_message(msg)
        return NO_CONTENT

    # -- interaction answers --------------------------------------------------------------------

    def _create_answer_message(
        self,
        record: InteractionRecord,
        payload: dict[str, Any],
        files: Sequence[tuple[str, str, int, bytes]],
        *,
        message_type: int = 0,
    ) -> Message:
        """A message sent as an interaction's answer or followup; flag 64 makes it the user's alone."""
        flags = int(payload.get("flags") or 0) & _CREATE_FLAGS
        return self._create_message(
            record.channel,
            self.bot_user,
            payload,
            files,
            flags=flags,
            ephemeral_for=record.user.id if flags & FLAG_EPHEMERAL else None,
            record=record,
            message_type=message_type,
        )

    async def _rest_interaction_callback(self, req: RestRequest) -> Any:
        iid = int(req.params["iid"])
        record = self.interactions.get(iid)
        body = req.json if isinstance(req.json, dict) else {}
        rtype = body.get("type")
        if record is None or record.token != req.params["token"]:
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                violation=f"answer (type {rtype}) to unknown interaction {iid}",
            )
        if record.answered:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation=f"{record.describe()} was answered twice (first type {record.response_type}, "
                f"then type {rtype})",
            )
        elapsed = self._now() - record.created
        if record.expired or elapsed > self.interaction_deadline:
            if not record.expired:
                self._expire(record)
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                violation=f"{record.describe()} answered after {elapsed:.2f}s (type {rtype}); the "
                f"deadline is {self.interaction_deadline:g}s and the user saw "
                "'This interaction failed'",
            )
        allowed = _ALLOWED_ANSWERS.get(record.type, ())
        if record.type == MODAL_SUBMIT and record.source_message is None:
            allowed = (4, 5)
        if rtype not in allowed:
            errors = FormErrors()
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Answer type {rtype!r} is not valid for a {record.kind} interaction (allowed: {allowed})",
            )
            raise ApiError.invalid_form_body(errors, record.describe())
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        msg: Message | None = None
        if rtype == 4:
            errors = self._validate_message(data, require_content=not req.files)
            if errors:
                raise ApiError.invalid_form_body(errors, f"answer to {record.describe()}")
            msg = self._create_answer_message(
                record, data, req.files, message_type=20 if record.type == COMMAND else 0
            )
            record.original = msg
        elif rtype == 5:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self._create_message(
                record.channel,
                self.bot_user,
                {},
                flags=flags,
                ephemeral_for=record.user.id if flags & FLAG_EPHEMERAL else None,
                record=record,
                message_type=20 if record.type == COMMAND else 0,
            )
            record.original = msg
        elif rtype in (6, 7):
            source = record.source_message
            assert source is not None
            if source.deleted:
                raise ApiError(
                    404,
                    10008,
                    "Unknown Message",
                    violation=f"{record.describe()}: answered with type {rtype} but the message was deleted",
                )
            if rtype == 7:
                errors = self._validate_message(data, current=self._state_of(source))
                if errors:
                    raise ApiError.invalid_form_body(errors, f"update answer to {record.describe()}")
                self._edit_message(source, data, req.files)
            record.original = source
            record.original_versions_at_answer = len(source.versions)
            msg = source if rtype == 7 else None
        elif rtype == 8:
            errors = validate_autocomplete(data)
            if errors:
                raise ApiError.invalid_form_body(errors, f"autocomplete answer to {record.describe()}")
            record.choices = list(data.get("choices") or [])
        elif rtype == 9:
            errors = validate_modal(data)
            if errors:
                raise ApiError.invalid_form_body(errors, f"modal answer to {record.describe()}")
            record.modal = ModalView(copy.deepcopy(data), record)
        record.response_type = rtype
        record.responded_at = self._now()
        record.response_ephemeral = bool(record.original is not None and record.original.ephemeral)
        record.settled.set()
        self._changed()
        if req.query.get("with_response", "false").lower() not in ("1", "true"):
            return NO_CONTENT
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": None,
                "response_message_id": str(record.original.id) if record.original is not None else None,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": record.response_ephemeral,
            }
        }
        if msg is not None:
            answer["resource"] = {"type": rtype, "message": msg.payload()}
        return answer

    # -- interaction webhooks (followups and edits) -------------------------------------------------

    def _record_for_token(self, req: RestRequest) -> InteractionRecord:
        if int(req.params["app"]) != self.application_id:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation=f"{req.method} {req.path}: webhook id is not the application id",
            )
        record = self._tokens.get(req.params["token"])
        if record is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation=f"{req.method} webhook call with an unknown interaction token",
            )
        age = self._now() - record.created
        if age > self.token_lifetime:
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                violation=f"{record.describe()}: token used {age:.0f}s after the interaction; "
                f"tokens last {self.token_lifetime:g}s",
            )
        if not record.answered:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation=f"{record.describe()}: token used ({req.method} {req.path.split('/')[-1]}) "
                "but the interaction was never answered",
            )
        return record

    def _webhook_message(self, req: RestRequest, record: InteractionRecord, action: str) -> Message:
        wmid = req.params["wmid"]
        if wmid == "@original":
            msg = record.original
            if msg is None:
                raise ApiError(
                    404,
                    10008,
                    "Unknown Message",
                    violation=f"{record.describe()}: {action} @original, but the answer "
                    f"(type {record.response_type}) has no message",
                )
        else:
            msg = self._messages.get(int(wmid))
            if msg is None or not record.owns_message(msg):
                raise ApiError(
                    404,
                    10008,
                    "Unknown Message",
                    violation=f"{record.describe()}: {action} message {wmid}, which this "
                    "interaction did not create",
                )
        if msg.deleted:
            raise ApiError(
                404,
                10008,
                "Unknown Message",
                violation=f"{record.describe()}: {action} message {msg.id}, which was deleted",
            )
        return msg

    async def _rest_followup(self, req: RestRequest) -> Any:
        record = self._record_for_token(req)
        payload = req.json if isinstance(req.json, dict) else {}
        errors = self._validate_message(payload, require_content=not req.files)
        if errors:
            raise ApiError.invalid_form_body(errors, f"followup of {record.describe()}")
        original = record.original
        if record.response_type == 5 and original is not None and original.loading and not original.deleted:
            # On Discord the first followup after a deferred answer replaces the "thinking..." message.
            msg = original
            self._edit_message(msg, payload, req.files, clear_loading=True)
        else:
            msg = self._create_answer_message(record, payload, req.files)
        record.followups.append(msg)
        self._changed()
        if req.query.get("wait", "true").lower() in ("0", "false"):
            return NO_CONTENT
        return msg.payload()

    async def _rest_webhook_get(self, req: RestRequest) -> Any:
        record = self._record_for_token(req)
        return self._webhook_message(req, record, "fetched").payload()

    async def _rest_webhook_edit(self, req: RestRequest) -> Any:
        record = self._record_for_token(req)
        msg = self._webhook_message(req, record, "edited")
        payload = req.json if isinstance(req.json, dict) else {}
        errors = self._validate_message(payload, current=self._state_of(msg))
        if errors:
            raise ApiError.invalid_form_body(errors, f"edit of message {msg.id} of {record.describe()}")
        self._edit_message(msg, payload, req.files, clear_loading=msg.loading)
        return msg.payload()

    async def _rest_webhook_delete(self, req: RestRequest) -> Any:
        record = self._record_for_token(req)
        msg = self._webhook_message(req, record, "deleted")
        self._delete_message(msg)
        return NO_CONTENT
