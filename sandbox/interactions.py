"""Interactions as the sandbox tracks them, and what a simulated user gets back.

An :class:`InteractionRecord` is the server-side state of one interaction
(deadline, token lifetime, the answer, followups). An
:class:`InteractionResult` is the test-facing view returned by
``run_command``, ``press``, ``select``, ``submit_modal`` and ``autocomplete``:
what the user saw after the bot answered (or failed to answer in time).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from .errors import SandboxUsageError
from .models import Channel, Guild, Message, SimUser, iter_components

if TYPE_CHECKING:  # pragma: no cover
    from .gateway import GatewaySession

__all__ = [
    "InteractionRecord",
    "InteractionResult",
    "ModalView",
    "COMMAND",
    "COMPONENT",
    "AUTOCOMPLETE",
    "MODAL_SUBMIT",
]

COMMAND = 2
COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

_KIND_NAMES = {
    COMMAND: "command",
    COMPONENT: "component",
    AUTOCOMPLETE: "autocomplete",
    MODAL_SUBMIT: "modal submit",
}


class ModalView:
    """A modal the bot showed to a user (answer type 9).

    Attributes
    ----------
    custom_id : str
    title : str
    components : list of dict
        The modal's components as the bot sent them.
    origin : InteractionRecord
        The interaction the modal answered; its user is the one who can submit it.
    submitted : bool
        A modal can be submitted once.
    """

    def __init__(self, data: dict[str, Any], origin: "InteractionRecord") -> None:
        self.custom_id: str = data.get("custom_id", "")
        self.title: str = data.get("title", "")
        self.components: list[dict[str, Any]] = data.get("components") or []
        self.origin = origin
        self.submitted = False

    def inputs(self) -> list[dict[str, Any]]:
        """Return the text inputs (type 4) and selects of the modal, in order."""
        return [c for c in iter_components(self.components) if c.get("type") in (4, 3, 5, 6, 7, 8)]

    def labels(self) -> dict[str, str]:
        """Map each input's custom_id to the label the user sees."""
        out: dict[str, str] = {}
        for comp in self.components:
            if comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                out[comp["component"].get("custom_id", "")] = comp.get("label") or ""
            for child in comp.get("components") or []:
                if child.get("custom_id"):
                    out[child["custom_id"]] = child.get("label") or ""
        return out

    def __repr__(self) -> str:
        return f"<ModalView {self.title!r} custom_id={self.custom_id!r} inputs={list(self.labels())}>"


class InteractionServer(Protocol):
    """What the interactions need of the server (:class:`~sandbox.server.SandboxServer`): its clock, and
    waiting for what the bot does."""

    def _now(self) -> float: ...

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, *, message: str | None = None
    ) -> Any: ...


class InteractionRecord:
    """Server-side state of one interaction.

    Attributes
    ----------
    id : int
    token : str
    type : int
        2 command, 3 component, 4 autocomplete, 5 modal submit.
    user : SimUser
    channel : Channel
    guild : Guild or None
    data : dict
        The ``data`` object sent to the bot.
    source_message : Message or None
        The message the component sits on (components, and modals opened from one).
    created : float
        Server clock time of the dispatch.
    response_type : int or None
        Type of the accepted answer.
    original : Message or None
        For answers 4/5 the message the answer created; for 6/7 the source message.
    followups : list of Message
    modal : ModalView or None
    choices : list of dict or None
        Autocomplete choices (answer type 8).
    expired : bool
        The deadline passed without an accepted answer.
    failure_reason : str or None
    shard : (int, int) or None
        ``(shard_id, shard_count)`` Discord routes it to: the guild's shard, 0 for a DM
        (set when it is sent).
    sessions : list of GatewaySession
        The sessions it was dispatched to: those of its shard, connected or still resumable
        (empty: no session of the shard, not delivered at all).
    delivered_live : bool
        Whether one of ``sessions`` had an open websocket when it was sent (otherwise it only
        sits in a backlog, replayed if the session is resumed in time).
    """

    def __init__(
        self,
        server: InteractionServer,
        interaction_id: int,
        token: str,
        itype: int,
        user: SimUser,
        channel: Channel,
        data: dict[str, Any],
        *,
        source_message: Message | None = None,
        parent: "InteractionRecord" | None = None,
    ) -> None:
        self._server = server
        self.id = interaction_id
        self.token = token
        self.type = itype
        self.user = user
        self.channel = channel
        self.guild: Guild | None = channel.guild
        self.data = data
        self.source_message = source_message
        self.parent = parent
        self.created = server._now()
        self.response_type: int | None = None
        self.responded_at: float | None = None
        self.response_ephemeral = False
        self.original: Message | None = None
        self.original_versions_at_answer = 0
        self.followups: list[Message] = []
        self.modal: ModalView | None = None
        self.choices: list[dict[str, Any]] | None = None
        self.expired = False
        self.delivered_live = False
        self.shard: tuple[int, int] | None = None
        self.sessions: list[GatewaySession] = []
        self.failure_reason: str | None = None
        self.settled = asyncio.Event()

    @property
    def kind(self) -> str:
        """Readable name of the interaction type."""
        return _KIND_NAMES.get(self.type, str(self.type))

    @property
    def answered(self) -> bool:
        """Whether an answer was accepted."""
        return self.response_type is not None

    def describe(self) -> str:
        """Short description for violation messages."""
        if self.type in (COMMAND, AUTOCOMPLETE):
            what = f"/{self.data.get('name')}"
        elif self.type == COMPONENT:
            what = f"component {self.data.get('custom_id')!r}"
        else:
            what = f"modal {self.data.get('custom_id')!r}"
        return f"{self.kind} interaction {self.id} ({what} by {self.user.username})"

    def owns_message(self, message: Message) -> bool:
        """Whether ``message`` can be reached with this interaction's token by id."""
        if self.original is not None and self.original.id == message.id and self.response_type in (4, 5):
            return True
        return any(f.id == message.id for f in self.followups)

    def __repr__(self) -> str:
        return f"<InteractionRecord {self.describe()} answered={self.response_type}>"


class InteractionResult:
    """What a simulated user got from one interaction.

    Returned once the bot answered or the deadline passed. Attributes read the
    live record, so ``message`` reflects later edits (for example the edit that
    completes a deferred answer).
    """

    def __init__(self, record: InteractionRecord) -> None:
        self.record = record
        self._followup_cursor = 0

    # -- status -------------------------------------------------------------------------

    @property
    def ok(self) -> bool:
        """The bot answered in time (the answer was accepted)."""
        return self.record.answered

    @property
    def failed(self) -> bool:
        """Not answered in time: the user sees "This interaction failed"."""
        return not self.record.answered

    @property
    def failure_reason(self) -> str | None:
        """Why the interaction failed, or None."""
        return self.record.failure_reason

    @property
    def response_type(self) -> int | None:
        """Type of the accepted answer (4, 5, 6, 7, 8, 9) or None."""
        return self.record.response_type

    @property
    def interaction_id(self) -> int:
        """The interaction's id."""
        return self.record.id

    # -- where it went (sharded gateway) ----------------------------------------------------

    @property
    def delivered(self) -> bool:
        """Whether INTERACTION_CREATE was written to at least one open gateway websocket."""
        return self.record.delivered_live

    @property
    def shard(self) -> int | None:
        """Shard id of the sessions it was dispatched to (the guild's shard, 0 for a DM); None: no session."""
        return self.record.sessions[0].shard[0] if self.record.sessions else None

    @property
    def sessions(self) -> list["GatewaySession"]:
        """The gateway sessions it was dispatched to (every session of its shard, live or resumable)."""
        return list(self.record.sessions)

    # -- what the user sees ---------------------------------------------------------------

    @property
    def message(self) -> Message | None:
        """The message the answer created (4, 5) or the message the component is on (6, 7)."""
        if self.record.response_type in (4, 5, 6, 7):
            return self.record.original
        return None

    @property
    def ephemeral(self) -> bool:
        """Whether the answer is visible only to the user."""
        msg = self.message
        if msg is not None:
            return msg.ephemeral
        return self.record.response_ephemeral

    @property
    def content(self) -> str | None:
        """Content of :attr:`message` (None without a message)."""
        return self.message.content if self.message is not None else None

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of :attr:`message` (empty without a message)."""
        return self.message.embeds if self.message is not None else []

    @property
    def modal(self) -> ModalView | None:
        """The modal shown (answer type 9), to pass to ``submit_modal``."""
        return self.record.modal

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices (answer type 8)."""
        return self.record.choices

    @property
    def followups(self) -> list[Message]:
        """Followup messages sent so far with this interaction's token.

        After a deferred answer (type 5) the first followup replaces the
        "thinking..." message, as on Discord: it is then both :attr:`message`
        and ``followups[0]``.
        """
        return list(self.record.followups)

    async def wait_followup(self, timeout: float = 5.0) -> Message:
        """Wait for the next followup not yet returned by this method.

        Raises
        ------
        TimeoutError
            If no new followup arrives in ``timeout`` seconds.
        """
        index = self._followup_cursor
        await self.record._server.wait_for(
            lambda: len(self.record.followups) > index,
            timeout=timeout,
            message=f"no followup #{index + 1} for {self.record.describe()}",
        )
        self._followup_cursor = index + 1
        return self.record.followups[index]

    async def wait_message(self, timeout: float = 5.0) -> Message:
        """Wait until the answer's message is in its final state and return it.

        For answers 4 and 7 this returns at once. For a deferred message (5) it
        waits until the "thinking..." message was edited (or replaced by the first
        followup); for a deferred update (6) until the component's message changed.

        Raises
        ------
        SandboxUsageError
            If the answer has no message (failed, modal, autocomplete).
        TimeoutError
            If the deferred answer is not completed in time.
        """
        rtype = self.record.response_type
        msg = self.message
        if msg is None:
            raise SandboxUsageError(f"{self.record.describe()} has no message (answer type {rtype})")
        if rtype == 5:
            await self.record._server.wait_for(
                lambda: not msg.loading or msg.deleted,
                timeout=timeout,
                message=f"deferred answer of {self.record.describe()} never completed",
            )
        elif rtype == 6:
            count = self.record.original_versions_at_answer
            await self.record._server.wait_for(
                lambda: len(msg.versions) > count or msg.deleted,
                timeout=timeout,
                message=f"message of deferred update {self.record.describe()} was never edited",
            )
        return msg

    def __repr__(self) -> str:
        state = f"type={self.response_type}" if self.ok else f"FAILED ({self.failure_reason})"
        return f"<InteractionResult {self.record.describe()} {state}>"
