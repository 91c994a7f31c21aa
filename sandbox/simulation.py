"""Simulated users: the interactions a test makes a user perform.

:class:`SimulatedUsers` is a mixin of :class:`~sandbox.server.SandboxServer`
providing ``run_command``, ``autocomplete``, ``press``, ``select`` and
``submit_modal``. Each builds the interaction payload Discord would send
(checking first that a real client could do it: the command is synced and
visible, the options are typed right, the button is on a message the user can
see and is enabled...), dispatches INTERACTION_CREATE and waits for the bot's
answer or the deadline.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

from .errors import SandboxUsageError
from .gateway import GatewaySession
from .interactions import (
    AUTOCOMPLETE,
    COMMAND,
    COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    InteractionResult,
    ModalView,
)
from .limits import (
    SELECT_TYPES,
)
from .models import Channel, Guild, Message, Permissions, Role, SimUser, SnowflakeGenerator

__all__ = ["SimulatedUsers", "MessageRef"]

_log = logging.getLogger(__name__)

_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
_OPTION_TYPE_NAMES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}

MessageRef = Union[Message, int]  # noqa: UP007 (a runtime alias)


class SimulatedUsers:
    """Mixin of :class:`~sandbox.server.SandboxServer`: simulated users acting on the bot."""

    if TYPE_CHECKING:  # attributes and methods provided by SandboxServer
        _ids: SnowflakeGenerator
        _messages: dict[int, Message]
        _commands: dict[int | None, list[dict[str, Any]]]
        _tokens: dict[str, InteractionRecord]
        interactions: dict[int, InteractionRecord]
        interaction_deadline: float
        application_id: int
        bot_user: SimUser
        commands: list[dict[str, Any]]
        guilds: list[Guild]

        def _now(self) -> float: ...
        def _changed(self) -> None: ...
        def _guild(self, guild_id: int) -> Guild: ...
        def _can_ever_see(self, user: SimUser, msg: Message) -> bool: ...
        def _ready_sessions(self, guild: Guild | None) -> list[GatewaySession]: ...
        def _owner_shard(self, guild: Guild | None) -> tuple[int, int]: ...
        def dm_channel(self, user: SimUser) -> Channel: ...

    # =========================================================================================
    # simulated users: interactions
    # =========================================================================================

    def _new_record(
        self,
        itype: int,
        user: SimUser,
        channel: Channel,
        data: dict[str, Any],
        *,
        source: Message | None = None,
        parent: InteractionRecord | None = None,
    ) -> InteractionRecord:
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        record = InteractionRecord(
            self, self._ids.next(), token, itype, user, channel, data, source_message=source, parent=parent
        )
        self.interactions[record.id] = record
        self._tokens[token] = record
        return record

    def _integration_owners(self, record: InteractionRecord) -> dict[str, str]:
        return {"0": str(record.guild.id) if record.guild is not None else "0"}

    def _interaction_payload(self, record: InteractionRecord) -> dict[str, Any]:
        user, channel, guild = record.user, record.channel, record.guild
        app_permissions = guild.permissions_of(self.bot_user) if guild is not None else Permissions.EVERYONE
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": record.type,
            "data": record.data,
            "token": record.token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": _ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(app_permissions),
            "authorizing_integration_owners": self._integration_owners(record),
            "context": 0 if guild is not None else 1,
            "channel_id": str(channel.id),
            "channel": channel.payload(permissions_for=user),
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = guild.member_payload(user, with_permissions=True)
        else:
            payload["user"] = user.payload()
        if record.source_message is not None:
            payload["message"] = record.source_message.payload()
        return payload

    async def _run_interaction(self, record: InteractionRecord) -> InteractionResult:
        # Discord sends INTERACTION_CREATE to the sessions of the guild's shard (shard 0 for a DM).
        record.shard = self._owner_shard(record.guild)
        sessions = self._ready_sessions(record.guild)
        if not sessions:
            # Nobody can ever answer: the user sees "This interaction failed" after the deadline; the
            # result is returned at once rather than after the wait.
            shard_id, count = record.shard
            record.expired = True
            record.failure_reason = (
                f"not delivered: no bot gateway session of shard {shard_id} (of {count}) "
                f"{'for DMs ' if record.guild is None else ''}is connected or resumable, so nobody "
                "received it (the user sees 'This interaction failed' after the deadline)"
            )
            record.settled.set()
            self._changed()
            return InteractionResult(record)
        payload = self._interaction_payload(record)
        record.delivered_live = any(s.connected for s in sessions)
        record.sessions = list(sessions)
        for session in sessions:
            session.dispatch("INTERACTION_CREATE", payload)
        self._changed()
        remaining = record.created + self.interaction_deadline - self._now()
        try:
            await asyncio.wait_for(record.settled.wait(), timeout=max(remaining, 0.0))
        except TimeoutError:
            pass
        if not record.answered and not record.expired:
            self._expire(record)
        return InteractionResult(record)

    def _expire(self, record: InteractionRecord) -> None:
        record.expired = True
        record.failure_reason = (
            f"not answered within {self.interaction_deadline:g}s (the user sees 'This interaction failed')"
        )
        if not record.delivered_live:
            record.failure_reason += "; no bot gateway connection was open when it was sent"
        record.settled.set()
        self._changed()

    # -- checks shared by the acting methods ---------------------------------------------------

    def _check_in_channel(self, user: SimUser, channel: Channel) -> None:
        if channel.is_dm:
            if channel.recipient is None or channel.recipient.id != user.id:
                raise SandboxUsageError(f"{user.username} is not the recipient of {channel!r}")
        elif channel.guild is None or not channel.guild.is_member(user):
            raise SandboxUsageError(f"{user.username} is not a member of the guild of {channel!r}")
        elif channel.guild not in self.guilds:
            raise SandboxUsageError(f"the bot is no longer in guild {channel.guild.name!r} (remove_guild)")

    def _resolve_message(self, message: MessageRef) -> Message:
        if isinstance(message, Message):
            return message
        try:
            return self._messages[int(message)]
        except (KeyError, ValueError, TypeError):
            raise SandboxUsageError(f"unknown message {message!r}") from None

    def _check_message_usable(self, user: SimUser, msg: Message) -> None:
        if msg.channel.guild is not None and msg.channel.guild not in self.guilds:
            raise SandboxUsageError(f"the bot is no longer in guild {msg.channel.guild.name!r}")
        if msg.deleted:
            raise SandboxUsageError(f"message {msg.id} was deleted; {user.username} cannot use it")
        if not self._can_ever_see(user, msg):
            who = (
                f"ephemeral for user {msg.ephemeral_for}"
                if msg.ephemeral_for
                else "in a channel they are not in"
            )
            raise SandboxUsageError(f"{user.username} cannot see message {msg.id} ({who})")
        if msg.dismissed:
            raise SandboxUsageError(f"{user.username} dismissed message {msg.id}")

    # -- slash commands -------------------------------------------------------------------------

    def _find_command(self, root: str, channel: Channel) -> dict[str, Any] | None:
        scopes: list[int | None] = [channel.guild.id, None] if channel.guild is not None else [None]
        for scope in scopes:
            for cmd in self._commands.get(scope, []):
                if cmd.get("type", 1) == 1 and cmd["name"] == root:
                    return cmd
        return None

    def _unknown_command_message(self, root: str, channel: Channel) -> str:
        where = f"guild {channel.guild.name!r}" if channel.guild else "DMs"
        scopes: list[int | None] = [None] + ([channel.guild.id] if channel.guild is not None else [])
        here = sorted({c["name"] for scope in scopes for c in self._commands.get(scope, [])})
        text = f"no command /{root} synced for {where}; available there: {here}"
        elsewhere = [
            self._guild(scope).name
            for scope, cmds in self._commands.items()
            if scope is not None and scope not in scopes and any(c["name"] == root for c in cmds)
        ]
        if elsewhere:
            text += f" (/{root} is only synced to guild {', '.join(repr(n) for n in elsewhere)})"
        return text

    def _check_command_visible(self, user: SimUser, cmd: dict[str, Any], channel: Channel) -> None:
        name = cmd["name"]
        contexts = cmd.get("contexts")
        if channel.guild is None:
            if cmd.get("guild_id") is not None:
                raise SandboxUsageError(f"/{name} is a guild command; it cannot be used in a DM")
            if contexts is not None and 1 not in contexts:
                raise SandboxUsageError(f"/{name} is not available in DMs (contexts={contexts})")
            if contexts is None and cmd.get("dm_permission") is False:
                raise SandboxUsageError(f"/{name} is not available in DMs (dm_permission=false)")
            return
        if contexts is not None and 0 not in contexts:
            raise SandboxUsageError(f"/{name} is not available in guilds (contexts={contexts})")
        needed = cmd.get("default_member_permissions")
        if needed is not None:
            need = int(needed)
            have = channel.guild.permissions_of(user)
            if have & need != need:
                raise SandboxUsageError(
                    f"{user.username} cannot see /{name}: it needs permissions {need} (has {have})"
                )

    def _convert_option(
        self,
        opt: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        channel: Channel,
        *,
        forged: bool,
    ) -> Any:
        otype = opt.get("type")
        name = opt.get("name")
        kind = _OPTION_TYPE_NAMES.get(otype, str(otype))

        def bad(reason: str) -> SandboxUsageError:
            return SandboxUsageError(f"option {name!r} ({kind}): {reason} (got {value!r})")

        if otype in (6, 9) and isinstance(value, SimUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if channel.guild is not None and channel.guild.is_member(value):
                member = channel.guild.member_payload(value, with_permissions=True)
                member.pop("user", None)
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if otype in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if otype == 7 and isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(Permissions.EVERYONE),
                "parent_id": None,
                "nsfw": False,
                "position": value.position,
            }
            return str(value.id)
        if forged:
            return value
        if otype == 3:
            if not isinstance(value, str):
                raise bad("must be a str")
            if "min_length" in opt and len(value) < opt["min_length"]:
                raise bad(f"shorter than min_length {opt['min_length']}")
            if "max_length" in opt and len(value) > opt["max_length"]:
                raise bad(f"longer than max_length {opt['max_length']}")
        elif otype == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad("must be an int")
        elif otype == 10:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise bad("must be a number")
        elif otype == 5:
            if not isinstance(value, bool):
                raise bad("must be a bool")
        elif otype in (6, 7, 8, 9):
            raise bad("pass a SimUser, Channel or Role object")
        else:
            raise bad("this option type is not supported by the sandbox")
        if otype in (4, 10):
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise bad(f"below min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise bad(f"above max_value {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c.get("value") for c in choices]:
            raise bad(f"not one of the choices {[c.get('value') for c in choices]}")
        return value

    @staticmethod
    def _guess_type(value: Any) -> int:
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        if isinstance(value, float):
            return 10
        if isinstance(value, SimUser):
            return 6
        if isinstance(value, Channel):
            return 7
        if isinstance(value, Role):
            return 8
        return 3

    def _command_data(
        self,
        user: SimUser,
        channel: Channel,
        name: str,
        options: dict[str, Any],
        *,
        forged: bool,
        focused: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        parts = name.split()
        if not parts:
            raise SandboxUsageError("empty command name")
        root, path = parts[0], parts[1:]
        cmd = self._find_command(root, channel)
        if cmd is None and not forged:
            raise SandboxUsageError(self._unknown_command_message(root, channel))
        if cmd is not None and not forged:
            self._check_command_visible(user, cmd, channel)
        data: dict[str, Any] = {
            "id": str(cmd["id"]) if cmd else str(self._ids.next()),
            "name": root,
            "type": 1,
        }
        if cmd is not None and cmd.get("guild_id") is not None:
            data["guild_id"] = cmd["guild_id"]
        defs: list[dict[str, Any]] = (cmd or {}).get("options") or []
        container: dict[str, Any] = data
        for sub in path:
            found = next((o for o in defs if o.get("name") == sub and o.get("type") in (1, 2)), None)
            if found is None:
                if not forged:
                    subs = [o["name"] for o in defs if o.get("type") in (1, 2)]
                    raise SandboxUsageError(f"/{name}: no subcommand {sub!r} (have {subs})")
                found = {"name": sub, "type": 1, "options": []}
            node: dict[str, Any] = {"name": sub, "type": found["type"], "options": []}
            container.setdefault("options", []).append(node)
            container = node
            defs = found.get("options") or []
        if not forged and any(o.get("type") in (1, 2) for o in defs):
            subs = [o["name"] for o in defs if o.get("type") in (1, 2)]
            raise SandboxUsageError(
                f"/{name} needs a subcommand: one of {subs} (pass e.g. '{name} {subs[0]}')"
            )
        by_name = {o.get("name"): o for o in defs}
        resolved: dict[str, dict[str, Any]] = {}
        built: list[dict[str, Any]] = []
        for key, value in options.items():
            opt = by_name.get(key)
            if opt is None:
                if not forged:
                    raise SandboxUsageError(f"/{name} has no option {key!r} (options: {list(by_name)})")
                opt = {"name": key, "type": self._guess_type(value)}
            built.append(
                {
                    "name": key,
                    "type": opt.get("type"),
                    "value": self._convert_option(opt, value, resolved, channel, forged=forged),
                }
            )
        if focused is not None:
            fname, fvalue = focused
            opt = by_name.get(fname)
            if not forged and (opt is None or not opt.get("autocomplete")):
                raise SandboxUsageError(f"/{name}: option {fname!r} has no autocomplete")
            built.append(
                {"name": fname, "type": (opt or {}).get("type", 3), "value": fvalue, "focused": True}
            )
        elif not forged:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
            if missing:
                raise SandboxUsageError(f"/{name}: required options missing: {missing}")
        order = {o.get("name"): i for i, o in enumerate(defs)}
        built.sort(key=lambda o: order.get(o["name"], len(order)))
        if built:
            container["options"] = built
        elif container is data:
            data.pop("options", None)
        if resolved:
            data["resolved"] = resolved
        return data

    def _command_channel(self, user: SimUser, channel: Channel | None) -> Channel:
        if channel is None:
            return self.dm_channel(user)
        self._check_in_channel(user, channel)
        return channel

    async def run_command(
        self, user: SimUser, channel: Channel | None, name: str, *, forged: bool = False, **options: Any
    ) -> InteractionResult:
        """A user runs a slash command and waits for the bot's answer.

        Parameters
        ----------
        user : SimUser
        channel : Channel or None
            A guild channel, or None (or the DM channel) for the user's DM with the bot.
        name : str
            Command name; subcommands are separated by spaces (``"game start"``).
        forged : bool
            Skip the checks (unknown command, option types, permissions) and send as-is.
        **options
            Option values by name: str, int, float, bool, SimUser, Channel or Role.

        Returns
        -------
        InteractionResult
            Once the bot answered, or after the deadline.

        Raises
        ------
        SandboxUsageError
            Unknown command or option, wrong option type, missing required option,
            a command the user cannot see here.
        """
        channel = self._command_channel(user, channel)
        data = self._command_data(user, channel, name, options, forged=forged)
        record = self._new_record(COMMAND, user, channel, data)
        return await self._run_interaction(record)

    async def autocomplete(
        self,
        user: SimUser,
        channel: Channel | None,
        name: str,
        focused: str,
        value: str = "",
        *,
        forged: bool = False,
        **options: Any,
    ) -> InteractionResult:
        """A user types ``value`` into option ``focused`` of a command; returns the choices offered.

        The result's ``choices`` holds the bot's answer (type 8).
        """
        channel = self._command_channel(user, channel)
        data = self._command_data(user, channel, name, options, forged=forged, focused=(focused, value))
        record = self._new_record(AUTOCOMPLETE, user, channel, data)
        return await self._run_interaction(record)

    # -- components -------------------------------------------------------------------------------

    async def press(
        self, user: SimUser, message: MessageRef, custom_id: str, *, forged: bool = False
    ) -> InteractionResult:
        """A user presses the button with ``custom_id`` on ``message``.

        Raises
        ------
        SandboxUsageError
            The message is gone or invisible to the user, no such button, a link
            button, or a disabled button (unless ``forged``).
        """
        msg = self._resolve_message(message)
        comp = msg.component(custom_id)
        if not forged:
            self._check_message_usable(user, msg)
            if comp is None:
                have = [b.get("custom_id") for b in msg.buttons() if b.get("custom_id")]
                raise SandboxUsageError(
                    f"no button with custom_id {custom_id!r} on message {msg.id}; has {have}"
                )
            if comp.get("type") != 2:
                raise SandboxUsageError(
                    f"component {custom_id!r} is not a button (type {comp.get('type')}); use select()"
                )
            if comp.get("disabled"):
                raise SandboxUsageError(f"button {comp.get('label')!r} ({custom_id!r}) is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if comp is not None and comp.get("id") is not None:
            data["id"] = comp["id"]
        record = self._new_record(COMPONENT, user, msg.channel, data, source=msg)
        return await self._run_interaction(record)

    async def select(
        self,
        user: SimUser,
        message: MessageRef,
        custom_id: str,
        values: Sequence[Any],
        *,
        forged: bool = False,
    ) -> InteractionResult:
        """A user picks ``values`` in the select menu ``custom_id`` on ``message``.

        For a string select pass option values; for user/role/channel selects pass
        SimUser, Role or Channel objects.
        """
        msg = self._resolve_message(message)
        comp = msg.component(custom_id)
        ctype = comp.get("type", 3) if comp is not None else 3
        if not forged:
            self._check_message_usable(user, msg)
            if comp is None or ctype not in SELECT_TYPES:
                have = [s.get("custom_id") for s in msg.selects()]
                raise SandboxUsageError(
                    f"no select with custom_id {custom_id!r} on message {msg.id}; has {have}"
                )
            if comp.get("disabled"):
                raise SandboxUsageError(f"select {custom_id!r} is disabled")
            low, high = comp.get("min_values", 1), comp.get("max_values", 1)
            if not low <= len(values) <= high:
                raise SandboxUsageError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
            if ctype == 3:
                allowed = [o.get("value") for o in comp.get("options") or []]
                unknown = [v for v in values if v not in allowed]
                if unknown:
                    raise SandboxUsageError(
                        f"values {unknown} are not options of {custom_id!r} (options: {allowed})"
                    )
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            data["values"] = [str(v) for v in values]
        else:
            resolved: dict[str, dict[str, Any]] = {}
            fake = {"name": custom_id, "type": {5: 6, 6: 8, 7: 9, 8: 7}.get(ctype, 3)}
            data["values"] = [
                self._convert_option(fake, v, resolved, msg.channel, forged=True) for v in values
            ]
            data["resolved"] = resolved
        record = self._new_record(COMPONENT, user, msg.channel, data, source=msg)
        return await self._run_interaction(record)

    # -- modals ----------------------------------------------------------------------------------

    async def submit_modal(
        self, user: SimUser, modal: ModalView, values: dict[str, Any], *, forged: bool = False
    ) -> InteractionResult:
        """A user fills in and submits a modal the bot showed them.

        Parameters
        ----------
        user : SimUser
            Must be the user the modal was shown to.
        modal : ModalView
            ``result.modal`` of the interaction answered with type 9.
        values : dict
            Text per text-input custom_id (a list of values for a select in a label).
        """
        if not isinstance(modal, ModalView):
            raise SandboxUsageError(f"submit_modal needs result.modal (a ModalView), got {modal!r}")
        origin = modal.origin
        inputs = {c.get("custom_id"): c for c in modal.inputs()}
        if not forged:
            if user.id != origin.user.id:
                raise SandboxUsageError(f"the modal was shown to {origin.user.username}, not {user.username}")
            if modal.submitted:
                raise SandboxUsageError("this modal was already submitted")
            unknown = [k for k in values if k not in inputs]
            if unknown:
                raise SandboxUsageError(f"modal has no inputs {unknown} (inputs: {list(inputs)})")
            for cid, comp in inputs.items():
                given = values.get(cid)
                if comp.get("type") == 4:
                    text = given or ""
                    if comp.get("required", True) and not text:
                        raise SandboxUsageError(f"modal input {cid!r} is required")
                    if text and comp.get("min_length") and len(text) < comp["min_length"]:
                        raise SandboxUsageError(
                            f"modal input {cid!r} needs at least {comp['min_length']} chars"
                        )
                    if comp.get("max_length") and len(text) > comp["max_length"]:
                        raise SandboxUsageError(
                            f"modal input {cid!r} allows at most {comp['max_length']} chars"
                        )

        def submitted(comp: dict[str, Any]) -> dict[str, Any]:
            out: dict[str, Any] = {"type": comp.get("type"), "custom_id": comp.get("custom_id")}
            if comp.get("id") is not None:
                out["id"] = comp["id"]
            given = values.get(comp.get("custom_id"))
            if comp.get("type") == 4:
                out["value"] = "" if given is None else str(given)
            else:
                out["values"] = [str(v) for v in (given or [])]
            return out

        components: list[dict[str, Any]] = []
        for comp in modal.components:
            ctype = comp.get("type")
            if ctype == 1:
                components.append(
                    {"type": 1, "components": [submitted(c) for c in comp.get("components") or []]}
                )
            elif ctype == 18 and isinstance(comp.get("component"), dict):
                components.append({"type": 18, "component": submitted(comp["component"])})
            elif ctype == 10:
                components.append({"type": 10})
        if forged:
            for cid, value in values.items():
                if cid not in inputs:
                    components.append(
                        {"type": 1, "components": [{"type": 4, "custom_id": cid, "value": str(value)}]}
                    )
        modal.submitted = True
        data = {"custom_id": modal.custom_id, "components": components}
        record = self._new_record(
            MODAL_SUBMIT, user, origin.channel, data, source=origin.source_message, parent=origin
        )
        return await self._run_interaction(record)
