"""The sandbox's sharded gateway with the real, unmodified discord.py client.

Two ``discord.AutoShardedClient`` "processes" (here: two clients in one event loop, each its own
websockets and HTTP session) hold shard 0 and shard 1 of two; the sandbox has a guild on each
shard. Discord's rules checked: each guild's events reach only its shard's sessions, DMs and DM
interactions reach shard 0, an interaction of a shard without a session is not delivered, any
process may answer any interaction by id and token, and an invalid shard is refused with 4010.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import AsyncIterator, Iterable, Iterator

import aiohttp
import pytest

with warnings.catch_warnings():
    # discord.player imports audioop, deprecated since Python 3.11 (not our code).
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands

from sandbox import SandboxServer, SandboxUsageError, discord_endpoints
from sandbox.gateway import GatewaySession
from sandbox.models import Channel, Guild, SimUser, SnowflakeGenerator, shard_of
from tests.sandbox.test_sandbox import WARNINGS_AS_ERRORS

DEADLINE = 1.5  # interaction deadline of these tests (Discord: 3 s)

pytestmark = WARNINGS_AS_ERRORS  # every warning an error, as in test_sandbox.py


# =============================================================================================
# the test bot: one "process" holding some shards
# =============================================================================================


class AgainView(discord.ui.View):
    """A persistent button any process can handle: it answers with the name of the process."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="again")
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:  # noqa: D102
        await interaction.response.send_message(f"{_name(interaction)} again")


def _name(interaction: discord.Interaction) -> str:
    client = interaction.client
    assert isinstance(client, ShardClient)
    return client.name


@app_commands.command(name="where", description="Which process received this")
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def where(interaction: discord.Interaction) -> None:
    """Answer with the process's name and a button."""
    await interaction.response.send_message(_name(interaction), view=AgainView())


@app_commands.command(name="handoff", description="Leave the answer to another process")
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def handoff(interaction: discord.Interaction) -> None:
    """Do not answer: pass the interaction's id and token on, as a process forwarding a DM would."""
    client = interaction.client
    assert isinstance(client, ShardClient)
    client.handed_off.put_nowait((interaction.id, interaction.token))


class ShardClient(discord.AutoShardedClient):
    """A bot process with ``shard_ids`` of ``shard_count`` shards (guilds intent only).

    Attributes
    ----------
    received : list of int
        Ids of the interactions this process received, in order.
    handed_off : asyncio.Queue of (int, str)
        ``/handoff`` interactions left to another process: (id, token).
    """

    def __init__(self, name: str, shard_ids: Iterable[int], *, shard_count: int = 2, sync: bool = False):
        super().__init__(
            intents=discord.Intents(guilds=True),
            shard_count=shard_count,
            shard_ids=list(shard_ids),
            guild_ready_timeout=0.1,  # on_ready 0.1 s after the last GUILD_CREATE (default 2 s)
        )
        self.name = name
        self.sync = sync
        self.received: list[int] = []
        self.handed_off: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(where)
        self.tree.add_command(handoff)

    async def setup_hook(self) -> None:  # noqa: D102
        self.add_view(AgainView())
        if self.sync:
            await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s wait between this process's IDENTIFYs: the sandbox only warns about their rate."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:  # noqa: D102
        self.received.append(interaction.id)


class Processes:
    """Starts and stops :class:`ShardClient` processes against one sandbox."""

    def __init__(self, server: SandboxServer) -> None:
        self.server = server
        self.running: dict[ShardClient, asyncio.Task[None]] = {}

    async def start(self, name: str, shard_ids: list[int], *, sync: bool = False) -> ShardClient:
        """Start a process and wait until the sessions of its shards are ready, and so is discord.py."""
        client = ShardClient(name, shard_ids, sync=sync)
        self.running[client] = asyncio.create_task(client.start(self.server.bot_token))
        await self.server.wait_for_shards(shard_ids, count=2)
        await self.server.wait_for(client.is_ready, message=f"process {name} ready")
        return client

    async def stop(self, client: ShardClient) -> None:
        """Close a process cleanly (its sessions stay resumable, as on Discord)."""
        await client.close()
        await asyncio.wait_for(self.running.pop(client), timeout=5)


class World:
    """Two guilds, one on each of two shards, with a member in both and a channel each."""

    def __init__(self, server: SandboxServer, processes: Processes) -> None:
        self.server = server
        self.processes = processes
        self.zero: Guild = server.add_guild("Shard Zero", shard=0)
        self.one: Guild = server.add_guild("Shard One", shard=1)
        self.channel0: Channel = self.zero.add_channel("cards")
        self.channel1: Channel = self.one.add_channel("cards")
        self.alice: SimUser = self.zero.add_member("alice")
        self.one.add_member(self.alice)


def _leftover_tasks() -> list[asyncio.Task[object]]:
    current = asyncio.current_task()
    return [t for t in asyncio.all_tasks() if t is not current and not t.done()]


@pytest.fixture
def endpoints_restored() -> Iterator[None]:
    """Put discord.py's class-level endpoints back after the test, even if it fails."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.fixture
async def world(endpoints_restored: None) -> AsyncIterator[World]:
    """A sandbox recommending two shards, with a guild on each; processes are started by the test."""
    async with SandboxServer(interaction_deadline=DEADLINE, shard_count=2) as server:
        processes = Processes(server)
        # With shard_count given, AutoShardedClient connects to DEFAULT_GATEWAY without asking /gateway/bot.
        with discord_endpoints(server):
            try:
                yield World(server, processes)
            finally:
                for client in list(processes.running):
                    await processes.stop(client)
    for _ in range(20):
        if not _leftover_tasks():
            break
        await asyncio.sleep(0.05)
    assert _leftover_tasks() == []


def _guild_creates(session: GatewaySession) -> list[int]:
    return [int(f["d"]["id"]) for f in session.backlog if f["t"] == "GUILD_CREATE"]


# =============================================================================================
# tests
# =============================================================================================


def test_guild_ids_on_a_shard_are_increasing_snowflakes_of_that_shard() -> None:
    ids = SnowflakeGenerator()
    last = 0
    for n in range(300):
        count = (2, 3, 16)[n % 3]
        shard = n % count
        guild_id = ids.next_for_shard(shard, count)
        assert shard_of(guild_id, count) == shard and guild_id > last
        plain = ids.next()
        assert plain > guild_id
        last = plain
    assert abs(discord.utils.snowflake_time(last).timestamp() - discord.utils.utcnow().timestamp()) < 5
    with pytest.raises(ValueError):
        ids.next_for_shard(2, 2)


async def test_each_shard_gets_only_its_guilds_and_their_interactions_and_dms_go_to_shard_0(
    world: World,
) -> None:
    server = world.server
    a = await world.processes.start("A", [0], sync=True)
    b = await world.processes.start("B", [1])
    shards, _url, limit = await a.http.get_bot_gateway()
    assert shards == 2 and limit["max_concurrency"] == 1
    assert server.session_count == 2 and server.connected_shards == [0, 1]
    session0, session1 = await server.wait_for_shards([0, 1], count=2)
    assert session0.shard == (0, 2) and session1.shard == (1, 2)
    # READY and GUILD_CREATE: each session gets its own shard's guild only
    assert _guild_creates(session0) == [world.zero.id] and _guild_creates(session1) == [world.one.id]
    await server.wait_for(lambda: a.get_guild(world.zero.id) and b.get_guild(world.one.id))
    assert [g.id for g in a.guilds] == [world.zero.id] and [g.id for g in b.guilds] == [world.one.id]
    await server.wait_for_commands(["where", "handoff"])

    # slash commands and buttons of each guild's channel reach only the guild's shard
    r0 = await server.run_command(world.alice, world.channel0, "where")
    r1 = await server.run_command(world.alice, world.channel1, "where")
    assert (r0.content, r0.shard, r0.sessions) == ("A", 0, [session0])
    assert (r1.content, r1.shard, r1.sessions) == ("B", 1, [session1])
    p0 = await server.press(world.alice, r0.message, "again")
    p1 = await server.press(world.alice, r1.message, "again")
    assert (p0.content, p0.shard, p1.content, p1.shard) == ("A again", 0, "B again", 1)

    # a DM interaction, and a button on a DM'd message, go to shard 0 (Discord's rule for DMs)
    dm = await server.run_command(world.alice, server.dm_channel(world.alice), "where")
    assert (dm.content, dm.shard) == ("A", 0) and dm.message in server.dm_messages(world.alice)
    dm_press = await server.press(world.alice, dm.message, "again")
    assert (dm_press.content, dm_press.shard) == ("A again", 0)
    assert a.received == [r.interaction_id for r in (r0, p0, dm, dm_press)]
    assert b.received == [r.interaction_id for r in (r1, p1)]

    # guilds added and removed while connected: GUILD_CREATE and GUILD_DELETE to the guild's shard only
    late = server.add_guild("Late One", shard=1)
    await server.wait_for(lambda: b.get_guild(late.id) is not None)
    more = world.zero.add_channel("more")
    await server.wait_for(lambda: a.get_channel(more.id) is not None)
    assert "CHANNEL_CREATE" not in [f["t"] for f in session1.backlog]
    server.remove_guild(world.one)
    await server.wait_for(lambda: b.get_guild(world.one.id) is None)
    assert _guild_creates(session0) == [world.zero.id] and a.get_guild(late.id) is None
    assert "GUILD_DELETE" not in [f["t"] for f in session0.backlog]
    with pytest.raises(SandboxUsageError, match="no longer in guild"):
        await server.run_command(world.alice, world.channel1, "where")
    assert server.violations == [] and server.unhandled_routes == []


async def test_an_interaction_of_a_shard_without_a_session_is_not_delivered(world: World) -> None:
    server = world.server
    a = await world.processes.start("A", [0], sync=True)
    b = await world.processes.start("B", [1])
    await server.wait_for_commands(["where"])
    await world.processes.stop(b)
    assert server.connected_shards == [0] and server.session_count == 1
    # A stopped process's session stays resumable: the interaction waits in its backlog, and fails.
    waiting = await server.run_command(world.alice, world.channel1, "where")
    assert waiting.failed and not waiting.delivered and waiting.shard == 1
    assert "no bot gateway connection was open" in (waiting.failure_reason or "")
    # Forgetting the session is what a test does after a SIGKILL: then nothing receives the shard's events.
    assert await server.drop_shards([1]) == 1
    lost = await server.run_command(world.alice, world.channel1, "where")
    assert lost.failed and not lost.delivered and lost.shard is None and lost.sessions == []
    assert "not delivered: no bot gateway session of shard 1 (of 2)" in (lost.failure_reason or "")
    assert waiting.interaction_id not in a.received and lost.interaction_id not in a.received
    # the other shard plays on
    r0 = await server.run_command(world.alice, world.channel0, "where")
    assert r0.ok and r0.content == "A"
    # a new process for shard 1 identifies at once and gets the guild's interactions again
    b2 = await world.processes.start("B2", [1])
    r1 = await server.run_command(world.alice, world.channel1, "where")
    assert (r1.content, r1.shard) == ("B2", 1) and b2.received == [r1.interaction_id]
    assert server.identify_count == 3
    assert server.violations == []


async def test_any_process_may_answer_an_interaction_by_id_and_token(world: World) -> None:
    server = world.server
    a = await world.processes.start("A", [0], sync=True)
    b = await world.processes.start("B", [1])
    await server.wait_for_commands(["handoff"])

    async def answer_from_b() -> None:
        interaction_id, token = await asyncio.wait_for(a.handed_off.get(), timeout=DEADLINE)
        route = discord.http.Route(
            "POST",
            "/interactions/{interaction_id}/{interaction_token}/callback",
            interaction_id=interaction_id,
            interaction_token=token,
        )
        await b.http.request(route, json={"type": 5}, params={"with_response": "true"})
        webhook = discord.Webhook.partial(server.application_id, token, client=b)
        await webhook.send("answered by B")

    result, _ = await asyncio.gather(server.run_command(world.alice, None, "handoff"), answer_from_b())
    assert result.ok and result.shard == 0 and result.interaction_id in a.received
    message = await result.wait_message()
    assert message.content == "answered by B" and message in server.dm_messages(world.alice)
    assert server.violations == []


async def test_one_process_with_both_shards_gets_every_guild(world: World) -> None:
    server = world.server
    both = await world.processes.start("AB", [0, 1], sync=True)
    assert server.session_count == 2 and server.connected_shards == [0, 1]
    await server.wait_for(lambda: len(both.guilds) == 2)
    await server.wait_for_commands(["where"])
    r0 = await server.run_command(world.alice, world.channel0, "where")
    r1 = await server.run_command(world.alice, world.channel1, "where")
    dm = await server.run_command(world.alice, None, "where")
    assert [(r.content, r.shard) for r in (r0, r1, dm)] == [("AB", 0), ("AB", 1), ("AB", 0)]
    # two IDENTIFYs at once in max_concurrency 1's single bucket: advisory, as Discord would refuse one
    assert any("IDENTIFY of shard [1, 2]" in w for w in server.rate_limit_warnings)
    assert server.violations == []


async def test_dropping_one_shard_leaves_the_other_alone(world: World) -> None:
    server = world.server
    a = await world.processes.start("A", [0], sync=True)
    b = await world.processes.start("B", [1])
    session0 = server.sessions_of_shard(0)[0]
    await server.wait_for_commands(["where"])
    # cut shard 1's socket without a close frame, keeping the session: discord.py resumes it
    assert await server.drop_shards([1], resumable=True) == 1
    assert server.connected_shards == [0]
    await server.wait_for(lambda: server.resume_count == 1, timeout=5)
    await server.wait_for_shards([1], count=2)
    assert server.sessions_of_shard(0) == [session0] and server.identify_count == 2
    r1 = await server.run_command(world.alice, world.channel1, "where")
    r0 = await server.run_command(world.alice, world.channel0, "where")
    assert (r0.content, r1.content) == ("A", "B") and r1.interaction_id in b.received
    assert r0.interaction_id in a.received
    assert server.violations == []


async def test_identify_with_an_invalid_shard_is_refused_with_4010(world: World) -> None:
    server = world.server
    client = ShardClient("bad", [2], shard_count=2)
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(client.start(server.bot_token), timeout=5)
    assert closed.value.code == 4010
    await client.close()
    async with aiohttp.ClientSession() as http:
        for shard in ([0, 0], [-1, 2], ["0", 2], [0], [True, 2]):
            async with http.ws_connect(server.gateway_url) as ws:
                await ws.receive_json(timeout=2)
                identify = {"token": server.bot_token, "intents": 1, "properties": {}, "shard": shard}
                await ws.send_json({"op": 2, "d": identify})
                await ws.receive(timeout=2)
                assert ws.close_code == 4010, shard
    assert server.identify_count == 0 and server.gateway_sessions == []
