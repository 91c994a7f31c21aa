"""The sandbox's guild scheduled events with the real, unmodified discord.py client.

A plain ``discord.Client`` with the guilds, members and guild scheduled events intents creates, fetches,
edits (status changes, a recurrence rule, a move to a voice channel) and deletes events; simulated members
mark and unmark interest. Checked as Discord answers: the bot's permissions (Create Events for its own
events, Manage Events for anyone's: 50013), an unknown event (10070), a refused body (50035), a finished
event (180000), the gateway events the client receives, GUILD_CREATE's events, and every answer's shape
against Discord's OpenAPI description.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    # discord.player imports audioop, deprecated since Python 3.11 (not our code).
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord.http import Route

from sandbox import Permissions, SandboxServer, SandboxUsageError, ScheduledEvent, discord_endpoints
from sandbox.models import Channel, Guild, SimUser
from tests.sandbox.test_sandbox import WARNINGS_AS_ERRORS

pytestmark = WARNINGS_AS_ERRORS  # every warning an error, as in test_sandbox.py

SPEC = Path("/work/shared/discord-api-spec/openapi.json")
"""Discord's OpenAPI description of API v10 (``shared/discord-api-spec/README.md``)."""

WEEKLY_ON_FRIDAY = {"start": "", "frequency": 2, "interval": 1, "by_weekday": [4]}


def soon(hours: float) -> datetime.datetime:
    """An aware UTC time ``hours`` from now."""
    return discord.utils.utcnow() + datetime.timedelta(hours=hours)


class EventClient(discord.Client):
    """A bot that notes every scheduled event gateway event it receives, as ``(kind, event id, extra)``:
    the user id for user_add / user_remove, the new status for update."""

    def __init__(self, *, members: bool = True) -> None:
        intents = discord.Intents(guilds=True, members=members, guild_scheduled_events=True)
        super().__init__(intents=intents, guild_ready_timeout=0.1)
        self.seen: list[tuple[str, int, Any]] = []

    async def on_scheduled_event_create(self, event: discord.ScheduledEvent) -> None:  # noqa: D102
        self.seen.append(("create", event.id, event.name))

    async def on_scheduled_event_update(self, before: discord.ScheduledEvent, after: discord.ScheduledEvent):  # noqa: D102
        self.seen.append(("update", after.id, after.status))

    async def on_scheduled_event_delete(self, event: discord.ScheduledEvent) -> None:  # noqa: D102
        self.seen.append(("delete", event.id, event.name))

    async def on_scheduled_event_user_add(self, event: discord.ScheduledEvent, user: discord.User) -> None:  # noqa: D102
        self.seen.append(("user_add", event.id, user.id))

    async def on_scheduled_event_user_remove(self, event: discord.ScheduledEvent, user: discord.User) -> None:  # noqa: D102
        self.seen.append(("user_remove", event.id, user.id))


class World:
    """A sandbox with one guild (a text and a voice channel, alice allowed to create events, bob not), an
    event alice made before the bot connected, and the connected :class:`EventClient`."""

    server: SandboxServer
    guild: Guild
    voice: Channel
    alice: SimUser
    bob: SimUser
    alices_event: ScheduledEvent
    client: EventClient

    @property
    def dguild(self) -> discord.Guild:
        """The guild as discord.py holds it."""
        found = self.client.get_guild(self.guild.id)
        assert found is not None
        return found

    async def saw(self, entry: tuple[str, int, Any]) -> None:
        """Wait until the client received ``entry``."""
        await self.server.wait_for(lambda: entry in self.client.seen, message=f"the client got {entry}")

    def grant_bot(self, permissions: int) -> None:
        self.guild.grant(self.server.bot_user, permissions)


@pytest.fixture
async def world() -> AsyncIterator[World]:
    w = World()
    async with SandboxServer() as server:
        w.server = server
        w.guild = server.add_guild("Game Night")
        w.guild.add_channel("cards")
        w.voice = w.guild.add_voice_channel("Table talk")
        w.alice = w.guild.add_member("alice")
        w.bob = w.guild.add_member("bob")
        w.guild.grant(w.alice, Permissions.CREATE_EVENTS)
        w.alices_event = server.add_scheduled_event(
            w.alice, w.guild, "Alice's night", start=soon(24), end=soon(26), location="Alice's place"
        )
        with discord_endpoints(server):
            w.client = EventClient()
            task = asyncio.create_task(w.client.start(server.bot_token))
            try:
                await server.wait_for_bot()
                await server.wait_for(w.client.is_ready, message="discord.py ready")
                yield w
            finally:
                await w.client.close()
                await task


async def create_external(w: World, name: str = "Poker night") -> discord.ScheduledEvent:
    return await w.dguild.create_scheduled_event(
        name=name,
        start_time=soon(2),
        end_time=soon(4),
        location="The back room",
        description="Bring chips",
        entity_type=discord.EntityType.external,  # discord.py infers it from location= but does not send it
        privacy_level=discord.PrivacyLevel.guild_only,  # nor a default
    )


async def test_an_external_event_is_created_fetched_followed_edited_ended_and_deleted(world: World) -> None:
    w = world
    w.grant_bot(Permissions.CREATE_EVENTS)
    event = await create_external(w)
    assert (event.name, event.location, event.description) == ("Poker night", "The back room", "Bring chips")
    assert event.entity_type is discord.EntityType.external and event.status is discord.EventStatus.scheduled
    assert (
        event.creator_id == w.server.bot_user.id and event.channel_id is None and event.end_time is not None
    )
    await w.saw(("create", event.id, "Poker night"))
    assert w.server.scheduled_event(event.id).fields["entity_metadata"] == {"location": "The back room"}

    for member in (w.alice, w.bob):
        w.server.mark_interested(member, event.id)
        await w.saw(("user_add", event.id, member.id))
    fetched = {e.id: e for e in await w.dguild.fetch_scheduled_events()}
    assert set(fetched) == {event.id, w.alices_event.id} and fetched[event.id].user_count == 2
    assert sorted(user.id for user in [u async for u in fetched[event.id].users()]) == sorted(
        [w.alice.id, w.bob.id]
    )
    w.server.unmark_interested(w.bob, event)
    await w.saw(("user_remove", event.id, w.bob.id))
    assert [u.id async for u in (await w.dguild.fetch_scheduled_event(event.id)).users()] == [w.alice.id]

    edited = await event.edit(name="Poker night (big blinds)", end_time=soon(5))
    assert edited.name == "Poker night (big blinds)" and edited.location == "The back room"
    moved = await edited.edit(channel=w.dguild.get_channel(w.voice.id))  # to the voice channel
    assert moved.entity_type is discord.EntityType.voice and moved.channel_id == w.voice.id
    assert moved.location is None and w.server.scheduled_event(event.id).fields["entity_metadata"] is None
    started = await moved.start()
    assert started.status is discord.EventStatus.active
    await w.saw(("update", event.id, discord.EventStatus.active))
    ended = await started.end()
    assert ended.status is discord.EventStatus.completed
    with pytest.raises(discord.HTTPException) as finished:
        await ended.edit(name="Once more")
    assert finished.value.code == 180000
    with pytest.raises(SandboxUsageError):
        w.server.mark_interested(w.bob, event)  # the client shows no button on an event that is over

    await ended.delete()
    await w.saw(("delete", event.id, "Poker night (big blinds)"))
    assert event.id not in w.guild.scheduled_events
    with pytest.raises(discord.NotFound) as unknown:
        await w.dguild.fetch_scheduled_event(event.id)
    assert unknown.value.code == 10070
    assert [v for v in w.server.violations if "10070" not in v and "180000" not in v] == []


async def test_a_voice_event_gets_a_recurrence_rule_and_is_canceled(world: World) -> None:
    w = world
    w.grant_bot(Permissions.CREATE_EVENTS)
    voice = w.dguild.get_channel(w.voice.id)
    assert isinstance(voice, discord.VoiceChannel)
    event = await w.dguild.create_scheduled_event(
        name="Voice game",
        start_time=soon(3),
        channel=voice,
        privacy_level=discord.PrivacyLevel.guild_only,
        image=b"\x89PNG\r\n\x1a\n" + bytes(32),
    )
    assert event.entity_type is discord.EntityType.voice and event.channel_id == w.voice.id
    assert event.cover_image is not None  # the image's hash
    assert event.location is None and event.end_time is None

    # discord.py 2.7 has no recurrence rules: the bot sends one through its HTTP client.
    route = Route(
        "PATCH",
        "/guilds/{guild_id}/scheduled-events/{event_id}",
        guild_id=w.guild.id,
        event_id=event.id,
    )
    rule = {**WEEKLY_ON_FRIDAY, "start": event.start_time.isoformat()}
    answer = await w.client.http.request(route, json={"recurrence_rule": rule})
    assert answer["recurrence_rule"] == {
        **rule,
        "start": event.start_time.isoformat(),
        "end": None,
        "by_n_weekday": None,
        "by_month": None,
        "by_month_day": None,
        "by_year_day": None,
        "count": None,
    }
    await w.saw(("update", event.id, discord.EventStatus.scheduled))
    for bad, field in [
        ({**rule, "frequency": 7}, "frequency"),
        ({**rule, "by_weekday": [4, 5]}, "by_weekday"),  # a weekly rule names one day
        ({**rule, "interval": 3}, "interval"),
        ({"frequency": 2, "by_weekday": [4]}, "start"),
    ]:
        with pytest.raises(discord.HTTPException) as refused:
            await w.client.http.request(route, json={"recurrence_rule": bad})
        assert refused.value.code == 50035 and field in refused.value.text, bad

    cleared = await w.client.http.request(route, json={"recurrence_rule": None})
    assert cleared["recurrence_rule"] is None
    canceled = await event.cancel()
    assert canceled.status is discord.EventStatus.cancelled
    await w.saw(("update", event.id, discord.EventStatus.cancelled))
    with pytest.raises(discord.HTTPException) as finished:
        await w.client.http.edit_scheduled_event(w.guild.id, event.id, status=2)
    assert finished.value.code == 180000


async def test_the_bots_permissions_are_checked_as_discord_checks_them(world: World) -> None:
    w = world
    with pytest.raises(discord.Forbidden) as refused:
        await create_external(w)  # the bot has neither Create Events nor Manage Events
    assert refused.value.code == 50013 and w.client.seen == []

    w.grant_bot(Permissions.CREATE_EVENTS)
    own = await create_external(w)
    await own.edit(description="Its own event: Create Events is enough")
    alices = await w.dguild.fetch_scheduled_event(w.alices_event.id)
    assert alices.creator_id == w.alice.id
    with pytest.raises(discord.Forbidden) as not_its_own:
        await alices.edit(name="Taken over")
    assert not_its_own.value.code == 50013
    with pytest.raises(discord.Forbidden):
        await alices.delete()

    w.grant_bot(Permissions.MANAGE_EVENTS)
    assert (await alices.edit(name="Moved")).name == "Moved"
    await alices.delete()
    await w.saw(("delete", w.alices_event.id, "Moved"))
    assert sum("[50013]" in v for v in w.server.violations) == 3


async def test_a_bad_body_an_unknown_event_and_a_bad_transition_are_refused(world: World) -> None:
    w = world
    w.grant_bot(Permissions.MANAGE_EVENTS)
    http = w.client.http
    good: dict[str, Any] = {
        "name": "Rummy",
        "privacy_level": 2,
        "entity_type": 3,
        "scheduled_start_time": soon(1).isoformat(),
        "scheduled_end_time": soon(2).isoformat(),
        "entity_metadata": {"location": "Kitchen"},
    }
    for change, field in [
        ({"name": "x" * 101}, "name"),
        ({"privacy_level": None}, "privacy_level"),  # what discord.py sends without privacy_level=
        ({"entity_type": None}, "entity_type"),  # and with location= but no entity_type=
        ({"scheduled_end_time": None}, "scheduled_end_time"),  # an external event needs an end
        ({"entity_metadata": {}}, "location"),
        ({"image": "data:image/png;base64,not base64!"}, "image"),
        ({"scheduled_start_time": soon(-1).isoformat()}, "scheduled_start_time"),  # in the past
        ({"entity_type": 2, "entity_metadata": None}, "channel_id"),  # a voice event without a channel
        (
            {"entity_type": 2, "entity_metadata": None, "channel_id": w.guild.channel("cards").id},
            "channel_id",
        ),
    ]:
        body = {k: v for k, v in {**good, **change}.items() if v is not None}
        with pytest.raises(discord.HTTPException) as refused:
            await http.request(
                Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=w.guild.id), json=body
            )
        assert refused.value.status == 400 and refused.value.code == 50035, change
        assert field in refused.value.text, (change, refused.value.text)
    assert w.guild.scheduled_events.keys() == {w.alices_event.id}

    with pytest.raises(discord.NotFound) as unknown:
        await w.dguild.fetch_scheduled_event(w.alices_event.id + 1)
    assert unknown.value.code == 10070
    with pytest.raises(discord.HTTPException) as skipped:
        await http.edit_scheduled_event(w.guild.id, w.alices_event.id, status=3)  # scheduled -> completed
    assert skipped.value.code == 50035 and "status" in skipped.value.text
    with pytest.raises(SandboxUsageError):
        w.server.unmark_interested(w.bob, w.alices_event)  # bob never marked it
    with pytest.raises(SandboxUsageError):
        w.server.add_scheduled_event(w.bob, w.guild, "Bob's", start=soon(1), end=soon(2), location="x")


async def test_guild_create_lists_the_events_and_users_pages_by_id(world: World) -> None:
    w = world
    assert [e.id for e in w.dguild.scheduled_events] == [w.alices_event.id]  # from GUILD_CREATE
    assert w.dguild.scheduled_events[0].location == "Alice's place"
    carol = w.guild.add_member("carol")
    for member in (w.alice, w.bob, carol):
        w.server.mark_interested(member, w.alices_event)
    users_route = Route(
        "GET",
        "/guilds/{guild_id}/scheduled-events/{event_id}/users",
        guild_id=w.guild.id,
        event_id=w.alices_event.id,
    )
    everyone = await w.client.http.request(users_route, params={"with_member": "true"})
    assert [u["user_id"] for u in everyone] == [str(w.alice.id), str(w.bob.id), str(carol.id)]
    assert all(u["member"]["user"]["id"] == u["user_id"] and u["response"] == 1 for u in everyone)
    after = await w.client.http.request(users_route, params={"after": w.alice.id, "limit": 1})
    before = await w.client.http.request(users_route, params={"before": carol.id, "after": w.alice.id})
    assert [u["user_id"] for u in after] == [str(w.bob.id)]
    assert [u["user_id"] for u in before] == [str(w.alice.id), str(w.bob.id)]  # before wins over after
    assert "member" not in after[0]
    with pytest.raises(discord.HTTPException) as refused:
        await w.client.http.request(users_route, params={"limit": 101})
    assert refused.value.code == 50035


@pytest.mark.skipif(not SPEC.exists(), reason="Discord's OpenAPI description is not on this machine")
async def test_the_answers_have_the_shapes_of_discords_schema(world: World) -> None:
    """Each event as the sandbox answers it validates against ``ExternalScheduledEventResponse`` /
    ``VoiceScheduledEventResponse`` (with a recurrence rule: ``RecurrenceRuleResponse``), and each
    interested user against ``ScheduledEventUserResponse``."""
    jsonschema = pytest.importorskip("jsonschema")  # not a dependency of the project: checked where present
    drafts = pytest.importorskip("referencing.jsonschema")
    from referencing import Registry, Resource

    spec = json.loads(SPEC.read_text())
    registry = Registry().with_resource("urn:discord", Resource.from_contents(spec, drafts.DRAFT202012))

    def check(schema_name: str, value: Any) -> None:
        schema = {"$ref": f"urn:discord#/components/schemas/{schema_name}"}
        errors = [
            e.message for e in jsonschema.Draft202012Validator(schema, registry=registry).iter_errors(value)
        ]
        assert errors == [], (schema_name, errors)

    w = world
    w.grant_bot(Permissions.CREATE_EVENTS)
    voice = await w.dguild.create_scheduled_event(
        name="Voice",
        start_time=soon(3),
        channel=w.dguild.get_channel(w.voice.id),
        privacy_level=discord.PrivacyLevel.guild_only,
    )
    rule = {**WEEKLY_ON_FRIDAY, "start": voice.start_time.isoformat()}
    await w.client.http.edit_scheduled_event(w.guild.id, voice.id)  # a no-op edit answers the event too
    route = Route(
        "PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", guild_id=w.guild.id, event_id=voice.id
    )
    check("VoiceScheduledEventResponse", await w.client.http.request(route, json={"recurrence_rule": rule}))
    w.server.mark_interested(w.alice, w.alices_event)
    for event in await w.client.http.get_scheduled_events(w.guild.id, True):
        kind = "External" if event["entity_type"] == 3 else "Voice"
        check(f"{kind}ScheduledEventResponse", event)
    users = await w.client.http.get_scheduled_event_users(w.guild.id, w.alices_event.id, 100, True)
    check("ScheduledEventUserResponse", users[0])


async def test_without_the_members_intent_discord_py_drops_interest_in_a_user_it_has_not_cached() -> None:
    """The sandbox sends GUILD_SCHEDULED_EVENT_USER_ADD under the scheduled events intent alone, as Discord
    does; discord.py 2.7 dispatches ``on_scheduled_event_user_add`` only for a user in its cache, so a bot
    without the members intent learns who is interested from ``event.users()``."""
    async with SandboxServer() as server:
        guild = server.add_guild("Game Night")
        alice = guild.add_member("alice")
        guild.grant(alice, Permissions.CREATE_EVENTS)
        event = server.add_scheduled_event(alice, guild, "Night", start=soon(1), end=soon(2), location="Here")
        with discord_endpoints(server):
            client = EventClient(members=False)
            task = asyncio.create_task(client.start(server.bot_token))
            try:
                await server.wait_for_bot()
                await server.wait_for(client.is_ready, message="discord.py ready")
                server.mark_interested(alice, event)
                later = server.add_scheduled_event(
                    alice, guild, "Later", start=soon(3), end=soon(4), location="x"
                )
                await server.wait_for(
                    lambda: ("create", later.id, "Later") in client.seen
                )  # events keep order
                assert client.seen == [("create", later.id, "Later")]  # no user_add
                dguild = client.get_guild(guild.id)
                assert dguild is not None
                fetched = await dguild.fetch_scheduled_event(event.id)
                assert [user.id async for user in fetched.users()] == [alice.id]
            finally:
                await client.close()
                await task
