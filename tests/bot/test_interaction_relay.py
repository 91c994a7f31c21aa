"""A relayed DM interaction reaching a process before it can act on it (its extensions not loaded yet: its
tables not restored) is held until it can, not dropped; one it still cannot take in the sender's wait is
left to the sender, which then withdraws it and answers; one claimed and never answered (its process killed
in between) is answered by its sender, one answered is not. On the real PostgreSQL the tests start
(:class:`storage.relay.RelayStore`)."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import interaction_relay
from bot.interaction_relay import InteractionRelay, shard_channel
from storage import press_write_deadline
from storage.relay import RelayStore

PAYLOAD = {"id": "1", "type": 2, "data": {"name": "hand"}}
SHARD_1_GUILD = 1 << 22  # a guild of shard 1 of 2


class DeferredInteraction:
    """The sender's interaction as the relay uses it: acknowledged already (a deferred "thinking" answer of
    a command, as ``cogs.tables.dm_routing`` defers it before relaying), the relay's own answer recorded in
    ``answers``."""

    type = discord.InteractionType.application_command

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.response = SimpleNamespace(is_done=lambda: True)

    async def edit_original_response(self, *, content: str) -> None:
        self.answers.append(content)


class RecordingRouter:
    """The tables' side of the relay in the owning process: the presses it was handed (``answers``: whether
    it answers them, as the tables cog does, or never does, as in a process killed in between)."""

    def __init__(self, *, answers: bool = True) -> None:
        self.handled: list[dict[str, Any]] = []
        self.answers: list[str] = []  # every answer made by the handler
        self.deadlines: list[float | None] = []  # the press's database write deadline, as handled
        self._handler_answers = answers

    async def run(self, press: dict[str, Any], answered: asyncio.Event) -> None:
        self.handled.append(press)
        self.deadlines.append(press_write_deadline.get())
        if self._handler_answers:
            self.answers.append("the hand")
            answered.set()


class StartingBot(SimpleNamespace):
    """A bot process still starting: running, not stopping, ``acting`` not set yet; holding ``shard_ids``
    of two shards."""

    def __init__(self, shard_ids: tuple[int, ...] = (1,)) -> None:
        super().__init__(
            acting=asyncio.Event(),
            draining=False,
            settings=SimpleNamespace(shard_count=2, shard_ids=list(shard_ids)),
        )

    def is_closed(self) -> bool:
        return False


async def relayed(store: RelayStore, relay_id: str) -> None:
    await store.send(relay_id, shard_channel(1), "cardtable_reply_test", json.dumps(PAYLOAD))


async def test_a_relayed_interaction_is_held_until_the_process_can_act(postgres_url: str) -> None:
    store = await RelayStore.open(postgres_url, [shard_channel(1)])
    try:
        router = RecordingRouter()
        bot = StartingBot()
        relay = InteractionRelay(bot, store, 2, "cardtable_reply_test")  # type: ignore[arg-type]
        relay.router = router
        await relayed(store, "early")
        receiving = asyncio.ensure_future(relay._receive("early"))
        await asyncio.sleep(0.2)
        assert not receiving.done() and router.handled == []  # held, not claimed
        bot.acting.set()  # the extensions are loaded: the tables are restored
        await asyncio.wait_for(receiving, 5)
        assert router.handled == [PAYLOAD]
        assert router.deadlines[0] is not None  # its database writes give up in time, as a press's
        assert not await store.withdraw("early")  # claimed: its sender leaves it to this process
    finally:
        await store.close()


async def test_one_the_process_cannot_take_in_time_is_left_to_its_sender(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interaction_relay, "RELAY_ACK_SECONDS", 0.2)
    store = await RelayStore.open(postgres_url, [shard_channel(1)])
    try:
        router = RecordingRouter()
        relay = InteractionRelay(StartingBot(), store, 2, "cardtable_reply_test")  # type: ignore[arg-type]
        relay.router = router
        await relayed(store, "late")
        await asyncio.wait_for(relay._receive("late"), 5)
        assert router.handled == []
        assert await store.withdraw("late")  # unclaimed: its sender answers "restarting"
    finally:
        await store.close()


async def sender_and_owner(
    postgres_url: str, owner_answers: bool
) -> tuple[InteractionRelay, InteractionRelay, RecordingRouter]:
    """Two processes' relays on one database, both able to act: the sender holds shard 0, the owner
    shard 1 (its handlers answer what it takes, or never do: killed between its claim and its answer)."""
    sender_bot, owner_bot = StartingBot((0,)), StartingBot((1,))
    for bot in (sender_bot, owner_bot):
        bot.acting.set()
    sender = await InteractionRelay.open(sender_bot, postgres_url)  # type: ignore[arg-type]
    owner = await InteractionRelay.open(owner_bot, postgres_url)  # type: ignore[arg-type]
    router = owner.router = RecordingRouter(answers=owner_answers)
    return sender, owner, router


async def test_an_owner_that_answers_tells_its_sender_which_then_stays_silent(postgres_url: str) -> None:
    sender, owner, router = await sender_and_owner(postgres_url, owner_answers=True)
    try:
        sent: list[str] = []
        interaction = DeferredInteraction(sent)
        # returns once the owner says it answered
        await asyncio.wait_for(sender.relay(PAYLOAD, SHARD_1_GUILD, interaction), 5)  # type: ignore[arg-type]
        assert router.handled == [PAYLOAD] and router.answers == ["the hand"]
        assert sent == []
    finally:
        await sender.close()
        await owner.close()


async def test_an_owner_that_claims_and_never_answers_leaves_the_answer_to_its_sender(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a process SIGKILLed between its claim and its answer: the player is answered once, by the
    sender, in time."""
    monkeypatch.setattr(interaction_relay, "RELAY_ANSWER_SECONDS", 0.5)
    sender, owner, router = await sender_and_owner(postgres_url, owner_answers=False)
    try:
        sent: list[str] = []
        interaction = DeferredInteraction(sent)
        await asyncio.wait_for(sender.relay(PAYLOAD, SHARD_1_GUILD, interaction), 5)  # type: ignore[arg-type]
        assert router.handled == [PAYLOAD] and router.answers == []  # claimed, not answered
        assert sent == [interaction_relay.OWNER_RESTARTING]
    finally:
        await sender.close()
        await owner.close()


async def test_an_owner_that_is_down_leaves_the_answer_to_its_sender_once(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No process listens on shard 1's channel: the sender withdraws the row and answers, once."""
    monkeypatch.setattr(interaction_relay, "RELAY_ACK_SECONDS", 0.2)
    sender_bot = StartingBot((0,))
    sender_bot.acting.set()
    sender = await InteractionRelay.open(sender_bot, postgres_url)  # type: ignore[arg-type]
    try:
        sent: list[str] = []
        await asyncio.wait_for(sender.relay(PAYLOAD, SHARD_1_GUILD, DeferredInteraction(sent)), 5)  # type: ignore[arg-type]
        assert sent == [interaction_relay.OWNER_RESTARTING]
        assert not sender.busy
    finally:
        await sender.close()
