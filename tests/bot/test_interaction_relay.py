"""A relayed DM interaction reaching a process before it can act on it (its extensions not loaded yet: its
tables not restored) is held until it can, not dropped; one it still cannot take in the sender's wait is
left to the sender, which then withdraws it and answers. On the real PostgreSQL the tests start
(:class:`storage.relay.RelayStore`)."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest

from bot import interaction_relay
from bot.interaction_relay import InteractionRelay, shard_channel
from storage.relay import RelayStore

PAYLOAD = {"id": "1", "type": 2, "data": {"name": "hand"}}


class RecordingState:
    """The gateway state's one call the receiving side makes: handling the relayed payload."""

    def __init__(self) -> None:
        self.handled: list[dict[str, Any]] = []

    def handle_interaction(self, data: dict[str, Any]) -> None:
        self.handled.append(data)


class StartingBot(SimpleNamespace):
    """A bot process still starting: running, not stopping, ``acting`` not set yet."""

    def __init__(self) -> None:
        super().__init__(acting=asyncio.Event(), draining=False)

    def is_closed(self) -> bool:
        return False


async def relayed(store: RelayStore, relay_id: str) -> None:
    await store.send(relay_id, shard_channel(1), "cardtable_reply_test", json.dumps(PAYLOAD))


async def test_a_relayed_interaction_is_held_until_the_process_can_act(postgres_url: str) -> None:
    store = await RelayStore.open(postgres_url, [shard_channel(1)])
    try:
        bot, state = StartingBot(), RecordingState()
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
        bot, state = StartingBot(), RecordingState()
        relay = InteractionRelay(bot, state, store, 2, "cardtable_reply_test")  # type: ignore[arg-type]
        await relayed(store, "late")
        await asyncio.wait_for(relay._receive("late"), 5)
        assert state.handled == []
        assert await store.withdraw("late")  # unclaimed: its sender answers "restarting"
    finally:
        await store.close()
