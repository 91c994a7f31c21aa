"""A DM press relayed between processes: its description is plain JSON, and the interaction that stands for
it in the owning process reads as the press did (user, message, data, ids) and, deferred already, answers
through the interaction's webhook: a response becomes an ephemeral followup or an edit of the original
response, and ``answered`` is set once one went out."""

from __future__ import annotations

import asyncio
import io
import json
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from cogs.tables.relayed_press import ORIGINAL, RelayedInteraction, describe

PRESS_ID = 1_300_000_000_000_000_000


def dm_press() -> Any:
    """A component press on an ephemeral message with one picture, as discord.py hands it over (the
    attributes ``describe`` reads)."""
    flags = discord.MessageFlags(ephemeral=True)
    picture = SimpleNamespace(id=5, filename="board-ab.png")
    message = SimpleNamespace(id=77, flags=flags, attachments=[picture])
    return SimpleNamespace(
        id=PRESS_ID,
        application_id=42,
        token="tok",
        type=discord.InteractionType.component,
        locale=discord.Locale.british_english,
        user=SimpleNamespace(id=9, name="dave", display_name="Dave"),
        channel_id=123,
        data={"custom_id": "ct:abcd1234:3:a.take", "component_type": 2},
        message=message,
    )


class RecordingWebhook:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, dict[str, Any]]] = []

    async def send(self, content: Any = None, **message: Any) -> str:
        self.calls.append(("send", content, message))
        return "sent"

    async def edit_message(self, message_id: Any, **edit: Any) -> str:
        self.calls.append(("edit", message_id, edit))
        return "edited"


async def test_the_relayed_interaction_reads_as_the_press_did(monkeypatch: pytest.MonkeyPatch) -> None:
    press = json.loads(json.dumps(describe(dm_press(), claimed=True)))  # through the database as text
    client = discord.Client(intents=discord.Intents.none())  # not logged in: no session to lend a webhook
    partial = discord.Webhook.partial
    given: list[Any] = []

    def unsent_partial(id: int, token: str, *, client: discord.Client) -> discord.Webhook:
        given.append(client)
        return partial(id, token, session=session)

    async with aiohttp.ClientSession() as session:
        monkeypatch.setattr(discord.Webhook, "partial", unsent_partial)
        relayed = RelayedInteraction.of(press, client, asyncio.Event())
    await client.close()
    assert given == [client]
    assert (relayed.id, relayed.type, relayed.guild_id, relayed.channel_id) == (
        PRESS_ID,
        discord.InteractionType.component,
        None,
        123,
    )
    assert (relayed.user.id, relayed.user.name, relayed.user.display_name, relayed.user.mention) == (
        9,
        "dave",
        "Dave",
        "<@9>",
    )
    assert relayed.data == {"custom_id": "ct:abcd1234:3:a.take", "component_type": 2}
    assert relayed.message is not None and relayed.message.id == 77 and relayed.message.flags.ephemeral
    assert [(file.id, file.filename) for file in relayed.message.attachments] == [(5, "board-ab.png")]
    assert relayed.created_at == discord.utils.snowflake_time(PRESS_ID)
    assert relayed.response.is_done()  # deferred by the process that received it
    assert relayed.webhook.id == 42 and relayed.webhook.token == "tok"
    assert relayed.webhook.type is discord.WebhookType.application  # its followups may be ephemeral
    assert press["claimed"] is True


async def test_a_relayed_interaction_answers_through_its_webhook() -> None:
    press = describe(dm_press(), claimed=False)
    answered = asyncio.Event()
    webhook = RecordingWebhook()
    relayed = RelayedInteraction(press, webhook, answered)  # type: ignore[arg-type]
    await relayed.response.defer()  # deferred already: nothing sent
    assert webhook.calls == [] and not answered.is_set()
    await relayed.response.send_message("Not your turn.", ephemeral=True)
    assert answered.is_set()
    await relayed.response.edit_message(content="the table")
    await relayed.edit_original_response(content="again")
    await relayed.followup.send(content="later", delete_after=5)
    assert webhook.calls == [
        ("send", "Not your turn.", {"ephemeral": True, "wait": True}),
        ("edit", ORIGINAL, {"content": "the table"}),
        ("edit", ORIGINAL, {"content": "again"}),
        ("send", "later", {"ephemeral": True, "wait": True}),  # no delete_after on a webhook
    ]


async def test_a_component_press_deferred_thinking_gets_its_answer_as_a_followup_then_edits_of_it() -> None:
    """A press the handling defers ``thinking`` ("DM me my hand": a "thinking" answer of its own, edited
    once the DM went out) was deferred as an update of the message pressed on, which must stay as it is."""
    webhook = RecordingWebhook()
    sent = SimpleNamespace(id=88)

    async def send(content: Any = None, **message: Any) -> Any:
        webhook.calls.append(("send", content, message))
        return sent

    webhook.send = send  # type: ignore[method-assign]
    answered = asyncio.Event()
    relayed = RelayedInteraction(describe(dm_press(), claimed=True), webhook, answered)  # type: ignore[arg-type]
    await relayed.response.defer(ephemeral=True, thinking=True)
    assert webhook.calls == []
    picture = discord.File(io.BytesIO(b"png"), filename="hand.png")
    assert await relayed.edit_original_response(content="Check your DMs", attachments=[picture]) is sent
    await relayed.edit_original_response(content="Here is your hand instead")
    assert webhook.calls == [
        ("send", "Check your DMs", {"files": [picture], "ephemeral": True, "wait": True}),
        ("edit", 88, {"content": "Here is your hand instead"}),
    ]
    assert answered.is_set()
