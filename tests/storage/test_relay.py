"""Relayed interactions in a real PostgreSQL: a sent payload reaches the receiver's channel whatever its
size, its claim notifies the sender, and of a claim and a withdrawal exactly one wins."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import psycopg
import pytest

from storage.relay import RelayStore
from tests.postgres_server import ThrowawayPostgres

SHARD_CHANNEL, REPLY_CHANNEL = "cardtable_shard_1", "cardtable_reply_test"


@pytest.fixture
async def stores(postgres_url: str) -> AsyncIterator[tuple[RelayStore, RelayStore]]:
    """A sender (listening on its reply channel) and a receiver (listening on shard 1's channel)."""
    sender = await RelayStore.open(postgres_url, [REPLY_CHANNEL])
    receiver = await RelayStore.open(postgres_url, [SHARD_CHANNEL])
    yield sender, receiver
    await sender.close()
    await receiver.close()


class Inbox:
    """Collects what a store's notifications yield, in a task."""

    def __init__(self, store: RelayStore) -> None:
        self.received: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.task = asyncio.ensure_future(self._collect(store))

    async def _collect(self, store: RelayStore) -> None:
        async for notification in store.notifications():
            await self.received.put(notification)

    async def next(self) -> tuple[str, str]:
        """The next notification."""
        return await asyncio.wait_for(self.received.get(), timeout=10)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


async def listening(store: RelayStore, inbox: Inbox | None = None) -> Inbox:
    """An inbox (a new one, or ``inbox``) whose LISTEN is in place (``store.listening``: what is notified
    from then on arrives, which the tests below would miss otherwise)."""
    inbox = inbox or Inbox(store)
    await asyncio.wait_for(store.listening.wait(), timeout=10)
    return inbox


async def listening_again(store: RelayStore, inbox: Inbox) -> None:
    """Wait until ``store``'s listener has noticed its connection is gone, then until it listens again."""
    for _ in range(1000):
        if not store.listening.is_set():
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the listener never noticed its connection was cut")
    await listening(store, inbox)


async def test_a_big_payload_reaches_the_receiver_which_claims_it_once_and_tells_the_sender(
    stores: tuple[RelayStore, RelayStore],
) -> None:
    sender, receiver = stores
    acks, deliveries = await listening(sender), await listening(receiver)
    payload = json.dumps({"id": "1", "type": 3, "message": {"content": "x" * 20_000}})  # > NOTIFY's 8000
    await sender.send("r1", SHARD_CHANNEL, REPLY_CHANNEL, payload)
    assert await deliveries.next() == (SHARD_CHANNEL, "r1")
    assert await receiver.claim("r1") == (payload, REPLY_CHANNEL)
    assert await acks.next() == (REPLY_CHANNEL, "r1")
    assert await receiver.claim("r1") is None  # a second claim (a duplicate notification) gets nothing
    assert not await sender.withdraw("r1")  # the receiver has it: the sender must not answer
    await receiver.tell_answered("r1", REPLY_CHANNEL)  # and once it has answered, the sender hears it
    assert await acks.next() == (REPLY_CHANNEL, "r1 answered")
    await acks.close()
    await deliveries.close()


async def test_a_withdrawn_interaction_cannot_be_claimed(stores: tuple[RelayStore, RelayStore]) -> None:
    sender, receiver = stores
    await sender.send("r2", SHARD_CHANNEL, REPLY_CHANNEL, "{}")
    assert await sender.withdraw("r2")
    assert await receiver.claim("r2") is None
    assert not await sender.withdraw("r2")


async def test_of_a_claim_and_a_withdrawal_at_once_exactly_one_wins(
    stores: tuple[RelayStore, RelayStore],
) -> None:
    sender, receiver = stores
    winners = {"claim": 0, "withdraw": 0}
    for n in range(40):
        relay_id = f"race-{n}"
        await sender.send(relay_id, SHARD_CHANNEL, REPLY_CHANNEL, json.dumps({"n": n}))
        claimed, withdrawn = await asyncio.gather(receiver.claim(relay_id), sender.withdraw(relay_id))
        assert (claimed is not None) != withdrawn, (n, claimed, withdrawn)
        winners["claim" if claimed is not None else "withdraw"] += 1
    assert sum(winners.values()) == 40


async def test_two_processes_create_the_table_at_once(postgres_url: str) -> None:
    first, second = await asyncio.gather(
        RelayStore.open(postgres_url, ["a"]), RelayStore.open(postgres_url, ["b"])
    )
    await first.send("r3", "b", "a", "{}")
    assert await second.claim("r3") == ("{}", "a")
    await first.close()
    await second.close()


async def test_a_listener_whose_connection_is_cut_listens_again(
    stores: tuple[RelayStore, RelayStore], postgres_url: str
) -> None:
    sender, receiver = stores
    deliveries = await listening(receiver)
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        cut = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND query LIKE 'LISTEN%%'"
        ).fetchall()
    assert cut == [(True,)]
    await listening_again(receiver, deliveries)
    await sender.send("r4", SHARD_CHANNEL, REPLY_CHANNEL, "{}")
    assert await deliveries.next() == (SHARD_CHANNEL, "r4")
    await deliveries.close()


async def test_after_a_server_restart_the_store_relays_and_listens_again(
    stores: tuple[RelayStore, RelayStore], postgres_server: ThrowawayPostgres
) -> None:
    """``pg_ctl restart -m fast`` cuts every connection: the pooled ones are replaced when next taken (the
    first send after the restart works), and the listener connects and listens again by itself."""
    sender, receiver = stores
    deliveries = await listening(receiver)
    await asyncio.to_thread(postgres_server.restart)
    await sender.send("r5", SHARD_CHANNEL, REPLY_CHANNEL, "{}")  # on a fresh connection, not a dead one
    await listening_again(receiver, deliveries)
    await sender.send("r6", SHARD_CHANNEL, REPLY_CHANNEL, "{}")
    assert await deliveries.next() == (SHARD_CHANNEL, "r6")
    assert await receiver.claim("r5") == await receiver.claim("r6") == ("{}", REPLY_CHANNEL)
    await deliveries.close()
