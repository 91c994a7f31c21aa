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
from storage.relay import RelayStore

PAYLOAD = {"id": "1", "type": 2, "data": {"name": "hand"}}


class Answer(SimpleNamespace):
    """What the fakes below record of an interaction's answer: its text."""


class RecordingResponse:
    """An interaction's response as the relay uses it: whether it is done, and the relay's own answer."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, text: str, *, ephemeral: bool) -> None:
        assert ephemeral and not self.done
        self.done = True
        self.answers.append(text)


class RecordingState:
    """The gateway state's calls the relay makes: handling a payload (``answers``: whether its handler
    answers it, as the tables cog does, or never does, as in a process killed in between) and making an
    interaction of a payload to answer it instead."""

    def __init__(self, *, answers: bool = True) -> None:
        self.handled: list[dict[str, Any]] = []
        self.answers: list[str] = []  # every answer made, by a handler or by the relay
        self.interactions: dict[int, SimpleNamespace] = {}
        self._handler_answers = answers

    def interaction(self, data: dict[str, Any]) -> SimpleNamespace:
        found = self.interactions.get(int(data["id"]))
        if found is None:
            found = self.interactions[int(data["id"])] = SimpleNamespace(
                id=int(data["id"]), type=discord.InteractionType.application_command,
                response=RecordingResponse(self.answers),
            )  # fmt: skip
        return found

    def handle_interaction(self, data: dict[str, Any]) -> None:
        self.handled.append(data)
        interaction = self.interaction(data)
        if self._handler_answers:
            interaction.response.done = True
            self.answers.append("the hand")


class StartingBot(SimpleNamespace):
    """A bot process still starting: running, not stopping, ``acting`` not set yet; holding ``shard_ids``
    of two shards."""

    def __init__(self, state: RecordingState | None = None, shard_ids: tuple[int, ...] = (1,)) -> None:
        super().__init__(
            acting=asyncio.Event(),
            draining=False,
            state=state,
            settings=SimpleNamespace(shard_count=2, shard_ids=list(shard_ids)),
        )

    def is_closed(self) -> bool:
        return False

    def tracked_interaction(self, interaction_id: int) -> SimpleNamespace | None:
        return None if self.state is None else self.state.interactions.get(interaction_id)


async def relayed(store: RelayStore, relay_id: str) -> None:
    await store.send(relay_id, shard_channel(1), "cardtable_reply_test", json.dumps(PAYLOAD))


async def test_a_relayed_interaction_is_held_until_the_process_can_act(postgres_url: str) -> None:
    store = await RelayStore.open(postgres_url, [shard_channel(1)])
    try:
        state = RecordingState()
        bot = StartingBot(state)
        relay = InteractionRelay(bot, state, store, 2, "cardtable_reply_test")  # type: ignore[arg-type]
        await relayed(store, "early")
        receiving = asyncio.ensure_future(relay._receive("early"))
        await asyncio.sleep(0.2)
        assert not receiving.done() and state.handled == []  # held, not claimed
        bot.acting.set()  # the extensions are loaded: the tables are restored
        await asyncio.wait_for(receiving, 5)
        assert state.handled == [PAYLOAD]
        assert not await store.withdraw("early")  # claimed: its sender leaves it to this process
    finally:
        await store.close()


async def test_one_the_process_cannot_take_in_time_is_left_to_its_sender(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interaction_relay, "RELAY_ACK_SECONDS", 0.2)
    store = await RelayStore.open(postgres_url, [shard_channel(1)])
    try:
        state = RecordingState()
        bot = StartingBot(state)
        relay = InteractionRelay(bot, state, store, 2, "cardtable_reply_test")  # type: ignore[arg-type]
        await relayed(store, "late")
        await asyncio.wait_for(relay._receive("late"), 5)
        assert state.handled == []
        assert await store.withdraw("late")  # unclaimed: its sender answers "restarting"
    finally:
        await store.close()


async def sender_and_owner(
    postgres_url: str, owner_answers: bool
) -> tuple[InteractionRelay, InteractionRelay]:
    """Two processes' relays on one database, both able to act: the sender holds shard 0, the owner
    shard 1 (its handlers answer what it takes, or never do: killed between its claim and its answer)."""
    sender_state, owner_state = RecordingState(), RecordingState(answers=owner_answers)
    sender_bot, owner_bot = StartingBot(sender_state, (0,)), StartingBot(owner_state, (1,))
    for bot in (sender_bot, owner_bot):
        bot.acting.set()
    sender = await InteractionRelay.open(sender_bot, sender_state, postgres_url)  # type: ignore[arg-type]
    owner = await InteractionRelay.open(owner_bot, owner_state, postgres_url)  # type: ignore[arg-type]
    return sender, owner


async def test_an_owner_that_answers_tells_its_sender_which_then_stays_silent(postgres_url: str) -> None:
    sender, owner = await sender_and_owner(postgres_url, owner_answers=True)
    try:
        await asyncio.wait_for(sender.relay(PAYLOAD, 1), 5)  # returns once the owner says it answered
        assert owner.state.handled == [PAYLOAD] and owner.state.answers == ["the hand"]
        assert sender.state.answers == []
    finally:
        await sender.close()
        await owner.close()


async def test_an_owner_that_claims_and_never_answers_leaves_the_answer_to_its_sender(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a process SIGKILLed between its claim and its answer: the player is answered once, by the
    sender, in time."""
    monkeypatch.setattr(interaction_relay, "RELAY_ANSWER_SECONDS", 0.5)
    sender, owner = await sender_and_owner(postgres_url, owner_answers=False)
    try:
        await asyncio.wait_for(sender.relay(PAYLOAD, 1), 5)
        assert owner.state.handled == [PAYLOAD] and owner.state.answers == []  # claimed, not answered
        assert sender.state.answers == [interaction_relay.OWNER_RESTARTING]
    finally:
        await sender.close()
        await owner.close()
