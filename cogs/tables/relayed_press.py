"""A DM press relayed between the bot's processes (with ``SHARD_IDS``): its plain description, and the
interaction that stands for it in the process that owns its table.

Discord delivers every DM interaction to shard 0. The process that receives one about another process's
table acknowledges it at once (a deferred update for a component, a deferred ephemeral "thinking" answer
for ``/hand``) and relays :func:`describe` of it: a JSON object of the interaction's public attributes and
its raw ``data``. The owner handles it through its normal press handling with a
:class:`RelayedInteraction` (:meth:`RelayedInteraction.of`): an interaction already deferred, answered
through the interaction's webhook (``discord.Webhook.partial`` with its application id and token), as a
press acknowledged because it was late is answered (:mod:`cogs.tables.late_presses`: an edit of the
original response, or an ephemeral followup). A relayed press costs two requests: the receiver's
acknowledgement and the owner's answer.
"""

from __future__ import annotations

import asyncio
import datetime
from dataclasses import dataclass
from typing import Any, Protocol

import discord

ORIGINAL = "@original"
"""The message id that names an interaction's original response in its webhook's routes."""


class PressInteraction(Protocol):
    """What the tables' press handling reads of an interaction: a ``discord.Interaction`` has all of it,
    a :class:`RelayedInteraction` too."""

    id: int
    type: discord.InteractionType
    guild_id: int | None
    channel_id: int | None
    data: dict[str, Any] | None

    @property
    def user(self) -> Any:
        """The presser: ``id``, ``name``, ``display_name``, ``mention``."""
        ...

    @property
    def message(self) -> Any:
        """The message pressed on (``id``, ``flags``, ``attachments``, ``components``), ``None`` for a
        command."""
        ...

    @property
    def created_at(self) -> datetime.datetime: ...

    @property
    def response(self) -> Any:
        """``is_done()``, ``defer(...)``, ``send_message(...)``, ``edit_message(...)``."""
        ...

    @property
    def followup(self) -> Any:
        """``send(...)``: a followup message."""
        ...

    async def edit_original_response(self, **edit: Any) -> Any: ...


def describe(interaction: discord.Interaction, *, claimed: bool) -> dict[str, Any]:
    """The JSON-able description of the DM interaction ``interaction`` (a table component press or a
    command) that its owner's :meth:`RelayedInteraction.of` reads: ids as strings, its token, its user, the
    message pressed on (id, flags, attachments' ids and names), its raw ``data`` (custom_id, values,
    component type; or the command's name and options), and ``claimed``: whether one of the table's
    dynamic items took the press here (else the fallback for the presses no item takes answers it)."""
    user = interaction.user
    message = interaction.message
    return {
        "id": str(interaction.id),
        "application_id": str(interaction.application_id),
        "token": interaction.token,
        "type": interaction.type.value,
        "locale": str(interaction.locale),
        "user": {"id": str(user.id), "name": user.name, "display_name": user.display_name},
        "channel_id": None if interaction.channel_id is None else str(interaction.channel_id),
        "data": interaction.data or {},
        "message": None
        if message is None
        else {
            "id": str(message.id),
            "flags": message.flags.value,
            "attachments": [{"id": str(file.id), "filename": file.filename} for file in message.attachments],
        },
        "claimed": claimed,
    }


@dataclass(frozen=True, slots=True)
class RelayedUser:
    """The presser of a relayed interaction: Discord's user id, user name and display name."""

    id: int
    name: str
    display_name: str

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(frozen=True, slots=True)
class RelayedAttachment:
    """A file on the message pressed on: its id and its name (what :func:`cogs.tables.drawn.attachments_on`
    and ``layout_on`` read)."""

    id: int
    filename: str


@dataclass(frozen=True, slots=True)
class RelayedMessage:
    """The message a relayed press was on: its id, its flags and its attachments. Its components are not
    relayed (``()``): the process that received the press decided which handler takes it (``claimed``),
    which is all the table's press handling reads them for."""

    id: int
    flags: discord.MessageFlags
    attachments: tuple[RelayedAttachment, ...]
    components: tuple[Any, ...] = ()


class DeferredResponse:
    """The response of a :class:`RelayedInteraction`: deferred already, by the process that received it.
    Code written for a fresh interaction still answers it: ``send_message`` becomes an ephemeral followup,
    ``edit_message`` an edit of the original response, ``defer`` sends nothing."""

    def __init__(self, interaction: RelayedInteraction) -> None:
        self._interaction = interaction

    def is_done(self) -> bool:
        """Always True: the interaction was acknowledged before it was relayed."""
        return True

    async def defer(self, *, thinking: bool = False, **_options: Any) -> None:
        """Nothing to send: deferred already. A component press deferred ``thinking`` (a "thinking"
        answer of its own, which the handling then edits) was deferred as an update of the message pressed
        on: its "thinking" answer becomes a followup (:meth:`RelayedInteraction.edit_original_response`)."""
        if thinking and self._interaction.type is discord.InteractionType.component:
            self._interaction.thinking = True

    async def send_message(self, content: str | None = None, **message: Any) -> None:
        """An ephemeral followup (``message``: ``response.send_message``'s keyword arguments but
        ``delete_after``)."""
        await self._interaction.followup.send(content, **message)

    async def edit_message(self, **edit: Any) -> None:
        """An edit of the original response: the message the press was on."""
        await self._interaction.edit_original_response(**edit)


class RelayedFollowup:
    """The followups of a :class:`RelayedInteraction`, through its webhook (always ephemeral: a relayed
    interaction comes from a DM, where only its presser sees them anyway)."""

    def __init__(self, interaction: RelayedInteraction) -> None:
        self._interaction = interaction

    async def send(self, content: str | None = None, **message: Any) -> discord.WebhookMessage:
        """Send a followup (``message``: ``discord.Webhook.send``'s keyword arguments).

        Raises
        ------
        discord.HTTPException
            Discord refused the message.
        """
        message.pop("delete_after", None)
        message["ephemeral"] = True
        sent = await self._interaction.webhook.send(content, wait=True, **message)
        self._interaction.answered.set()
        return sent


class RelayedInteraction:
    """A DM interaction another process received, acknowledged and relayed to this one, as the tables' press
    handling reads an interaction (:class:`PressInteraction`). Make one with :meth:`of`.

    ``answered`` is set once an answer (an edit of the original response, or a followup) reached Discord.
    """

    def __init__(
        self,
        press: dict[str, Any],
        webhook: discord.Webhook,
        answered: asyncio.Event,
    ) -> None:
        self.id = int(press["id"])
        self.type = discord.InteractionType(int(press["type"]))
        self.guild_id: int | None = None
        channel_id = press.get("channel_id")
        self.channel_id = None if channel_id is None else int(channel_id)
        self.data: dict[str, Any] = press.get("data") or {}
        self.locale = str(press.get("locale", ""))
        user = press["user"]
        self.user = RelayedUser(int(user["id"]), str(user["name"]), str(user["display_name"]))
        message = press.get("message")
        self.message: RelayedMessage | None = None
        if message is not None:
            flags = discord.MessageFlags()
            flags.value = int(message["flags"])
            files = tuple(RelayedAttachment(int(a["id"]), str(a["filename"])) for a in message["attachments"])
            self.message = RelayedMessage(int(message["id"]), flags, files)
        self.webhook = webhook
        self.answered = answered
        self.thinking = False
        """True once the handling deferred the press ``thinking`` (see :meth:`DeferredResponse.defer`)."""
        self._thinking_answer: discord.WebhookMessage | None = None
        self.response = DeferredResponse(self)
        self.followup = RelayedFollowup(self)

    @classmethod
    def of(cls, press: dict[str, Any], client: discord.Client, answered: asyncio.Event) -> RelayedInteraction:
        """The interaction :func:`describe` described as ``press``, answered through ``client``'s connection
        to Discord; ``answered`` is set on its first answer.

        Raises
        ------
        KeyError, ValueError
            ``press`` is not such a description.
        """
        webhook = discord.Webhook.partial(int(press["application_id"]), str(press["token"]), client=client)
        # An interaction's webhook is the application's, whose followups may be ephemeral (discord.py sends
        # an ephemeral followup only through an application webhook).
        webhook.type = discord.WebhookType.application
        return cls(press, webhook, answered)

    @property
    def created_at(self) -> datetime.datetime:
        """When Discord created the interaction (from its id)."""
        return discord.utils.snowflake_time(self.id)

    async def edit_original_response(self, **edit: Any) -> discord.WebhookMessage:
        """Edit the original response: the message the press was on (a deferred update), or the "thinking"
        answer of a command (``edit``: ``edit_original_response``'s keyword arguments). For a component
        press the handling deferred ``thinking``, its own answer instead: an ephemeral followup, then edits
        of it.

        Raises
        ------
        discord.HTTPException
            Discord refused the edit.
        """
        if self.thinking and self._thinking_answer is None:
            files = edit.pop("attachments", None) or ()  # a new message: its files are uploaded
            new = [file for file in files if isinstance(file, discord.File)]
            if new:
                edit["files"] = new
            self._thinking_answer = await self.followup.send(**edit)
            return self._thinking_answer
        message_id = ORIGINAL if self._thinking_answer is None else self._thinking_answer.id
        edited = await self.webhook.edit_message(message_id, **edit)  # type: ignore[arg-type]
        self.answered.set()
        return edited
