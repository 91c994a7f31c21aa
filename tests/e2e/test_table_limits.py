"""The server's table limits and the members' press limit, through the sandbox: a member past their open
lobbies, a server past its tables or past its games with no person seated is told which limit and what to
do, ephemerally, and nothing opens (nor a thread starts); an admin raising a limit in ``/table defaults``
lets them open again; concurrent ``/play`` by one member across channels (or in threads) never pass the
limit; the rematch's "Play again" is counted too. A member pressing far faster than a person can is told
to wait and the press changes nothing, while another member's presses work."""

from __future__ import annotations

import asyncio
import random

import pytest

from cogs.press_limits import BURST, PER_SECOND, TOO_FAST
from tests.e2e.conftest import World, live_tables, session_of
from tests.e2e.test_ai_seats import finish_with_ais

MEMBER_LIMIT = "open lobbies on this server, the most a member may have: start or cancel one first"


async def _play(world: World, user, channel, **options):
    return await world.server.run_command(user, channel, "play", game="foist", **options)


def _admin(world: World):
    return world.guild.add_member("admin", manage_guild=True)


async def test_a_member_past_their_open_lobbies_is_told_why_until_an_admin_raises_the_limit(
    world: World,
) -> None:
    alice = world.players["alice"]
    channels = [world.channel, world.other_channel, world.guild.add_channel("third")]
    fourth = world.guild.add_channel("fourth")
    for channel in channels:
        opened = await _play(world, alice, channel)
        assert opened.ok and not opened.ephemeral, opened
    refused = await _play(world, alice, fourth)
    assert refused.ok and refused.ephemeral
    assert refused.message.text() == f"You have 3 {MEMBER_LIMIT}.", refused.message.text()
    assert len(live_tables(world)) == 3 and not [m for m in fourth.messages if m.ephemeral_for is None]
    bob = await _play(world, world.players["bob"], fourth)  # another member is not held by alice's count
    assert bob.ok and not bob.ephemeral
    fifth = world.guild.add_channel("fifth")
    said = await world.server.run_command(_admin(world), world.channel, "table defaults", member_lobbies=4)
    assert (
        said.ok and said.ephemeral and "A member may now host 4 open lobbies at once." in said.message.text()
    )
    assert "seconds per decision" not in said.message.text()  # the turn length is left alone
    again = await _play(world, alice, fifth)
    assert again.ok and not again.ephemeral, again
    assert len(live_tables(world)) == 5


async def test_concurrent_play_by_one_member_across_channels_opens_no_more_than_the_limit(
    world: World,
) -> None:
    alice = world.players["alice"]
    channels = [world.guild.add_channel(f"room-{n}") for n in range(8)]
    results = await asyncio.gather(*(_play(world, alice, channel) for channel in channels))
    assert all(result.ok for result in results)
    opened = [result for result in results if not result.ephemeral]
    assert len(opened) == 3, [result.message.text() for result in results]
    assert all(MEMBER_LIMIT in result.message.text() for result in results if result.ephemeral)
    assert len(live_tables(world)) == 3


async def test_concurrent_play_in_threads_starts_no_thread_past_the_limit(world: World) -> None:
    bob = world.players["bob"]
    results = await asyncio.gather(*(_play(world, bob, world.channel, thread=True) for _ in range(7)))
    assert all(result.ok for result in results)
    refused = [result for result in results if result.ephemeral]
    assert len(refused) == 4 and all(MEMBER_LIMIT in r.message.text() for r in refused), results
    for result in results:
        if not result.ephemeral:
            await result.wait_message(timeout=5)
    assert len(world.server.threads_of(world.channel)) == 3 and len(live_tables(world)) == 3


async def test_a_server_past_its_tables_is_told_why_until_an_admin_raises_the_limit(world: World) -> None:
    admin = _admin(world)
    said = await world.server.run_command(admin, world.channel, "table defaults", max_tables=2)
    assert "This server may now have 2 tables open at once." in said.message.text()
    assert (await _play(world, world.players["alice"], world.channel)).ephemeral is False
    assert (await _play(world, world.players["bob"], world.other_channel)).ephemeral is False
    third = world.guild.add_channel("third")
    refused = await _play(world, world.players["carol"], third)
    assert refused.ok and refused.ephemeral
    assert refused.message.text().startswith("This server has 2 tables open, the most it allows"), refused
    assert "`/table defaults`" in refused.message.text() and len(live_tables(world)) == 2
    said = await world.server.run_command(admin, world.channel, "table defaults", max_tables=0)
    assert "any number of tables" in said.message.text()
    opened = await _play(world, world.players["carol"], third)
    assert opened.ok and not opened.ephemeral and len(live_tables(world)) == 3


async def _leave(world: World, user, table):
    hand = await world.press(user, table, "My hand")
    asked = await world.press(user, hand.message, "Leave game")
    assert asked.ok and "Leave this game?" in asked.message.text(), asked
    return await world.press(user, asked.message, "Yes, leave the game")


async def test_the_last_person_leaving_a_game_past_the_servers_ai_games_is_refused(world: World) -> None:
    world.bot.get_cog("Tables").runtime.ai_turns.unattended_pause_seconds = 2.0  # the AI games last
    admin = _admin(world)
    said = await world.server.run_command(admin, world.channel, "table defaults", ai_tables=1)
    assert "AI players may now finish 1 game at once with no person seated." in said.message.text()
    alice, bob = world.players["alice"], world.players["bob"]
    tables = []
    for user, channel in ((alice, world.channel), (bob, world.other_channel)):
        lobby = (await _play(world, user, channel, bots=2, turn_seconds=600)).message
        started = await world.server.press(
            user, lobby, next(b["custom_id"] for b in lobby.buttons() if b["label"].startswith("Start"))
        )
        assert started.ok and not started.ephemeral, started
        tables.append(channel.messages[-1] if lobby.id != channel.messages[-1].id else lobby)
    first = world.message(tables[0].id)
    left = await _leave(world, alice, first)
    assert left.ok and "AI plays your seat" in left.message.text(), left
    other = [m for m in world.other_channel.messages if m.id == tables[1].id][0]
    before = session_of_channel(world, world.other_channel.id)
    refused = await _leave(world, bob, other)
    assert refused.ok and refused.ephemeral
    assert "1 game that AI players finish with no person seated, the most it allows" in refused.message.text()
    assert session_of_channel(world, world.other_channel.id) == before
    await world.server.run_command(admin, world.channel, "table defaults", ai_tables=2)
    left = await _leave(world, bob, other)
    assert left.ok and "AI plays your seat" in left.message.text(), left


def session_of_channel(world: World, channel_id: int):
    session = world.bot.get_cog("Tables").registry.channel_table(channel_id)
    assert session is not None
    return set(session.left_seats)


async def test_play_again_past_the_hosts_open_lobbies_opens_no_rematch_and_says_why(world: World) -> None:
    alice = world.players["alice"]
    await world.server.run_command(_admin(world), world.channel, "table defaults", member_lobbies=1)
    lobby = (await world.play(alice, game="foist", bots=2)).message
    assert (await world.press(alice, lobby, "Start")).ok
    final = await finish_with_ais(world, lobby, alice, random.Random(5))
    elsewhere = await _play(world, alice, world.other_channel)  # the game is over: not an open lobby
    assert elsewhere.ok and not elsewhere.ephemeral, elsewhere
    again = await world.press(alice, final, "Play again")
    assert again.ok, again
    await world.server.wait_for(
        lambda: "No rematch table was opened" in world.public_messages()[-1].text(), timeout=10
    )
    notice = world.public_messages()[-1].text()
    assert "alice has 1 open lobby on this server, the most a member may have" in notice, notice
    assert world.bot.get_cog("Tables").registry.channel_table(world.channel.id) is None


@pytest.mark.bot_settings(presses_per_second=PER_SECOND)
async def test_a_burst_of_presses_is_told_to_wait_and_changes_nothing(world: World) -> None:
    table = await world.open_table(turn_seconds=600)
    actor = world.turn_owner(table)
    other = next(p for p in (world.players[n] for n in ("alice", "bob", "carol")) if p is not actor)
    hand = next(b for b in table.buttons() if b["label"].startswith("My hand"))["custom_id"]
    burst = [await world.server.press(actor, table, hand) for _ in range(int(BURST) + 4)]
    assert all(result.ok and result.ephemeral for result in burst)
    told = [result for result in burst if result.message.text() == TOO_FAST]
    assert len(told) >= 4 and burst[0].message.text() != TOO_FAST
    move = next(b for b in table.buttons() if b["label"].startswith("No thanks"))["custom_id"]
    refused = await world.server.press(actor, world.message(table.id), move)
    assert refused.ok and refused.ephemeral and refused.message.text() == TOO_FAST
    assert session_of(world).state.version == 0 and world.message(table.id).text() == table.text()
    seen = await world.server.press(other, table, hand)  # another member's presses still work
    assert seen.ok and seen.ephemeral and seen.message.text() != TOO_FAST
    await asyncio.sleep(1.0)  # the bucket refills: a person's pace is never held
    moved = await world.server.press(actor, world.message(table.id), move)
    assert moved.ok and not moved.ephemeral and session_of(world).state.version == 1, moved
    assert world.server.violations == []


async def test_a_burst_of_replay_steps_is_told_to_wait(world: World) -> None:
    alice = world.players["alice"]
    lobby = (await world.play(alice, game="foist", bots=2)).message
    assert (await world.press(alice, lobby, "Start")).ok
    final = await finish_with_ais(world, lobby, alice, random.Random(6))
    from cogs.press_limits import _OF_BOT, PressLimits

    _OF_BOT[world.bot] = PressLimits()  # the bot's own rate from here on (the game was played by machine)
    replay = next(b for b in final.buttons() if b["label"].startswith("Replay"))["custom_id"]
    burst = [await world.server.press(alice, final, replay) for _ in range(6)]
    assert all(result.ok and result.ephemeral for result in burst)
    texts = [result.message.text() for result in burst]
    assert texts[0] != TOO_FAST and texts[-1] == TOO_FAST, texts  # a replay costs more than a press
    bob_sees = await world.server.press(world.players["bob"], final, replay)
    assert bob_sees.ok and bob_sees.message.text() != TOO_FAST
