"""Bad input, timed turns and DMs through the sandbox: every press answered in time, nothing corrupted."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.e2e.conftest import World, action_labels, answered_with, play_to_the_end, refused


def snapshot(message: Any) -> tuple[int, str, list]:
    """What a message shows now, and how many versions it had."""
    return len(message.versions), message.text(), message.buttons()


async def test_lobby_bad_input_is_refused_ephemerally_and_changes_nothing(world: World) -> None:
    alice, bob = world.players["alice"], world.players["bob"]
    lobby = (await world.play(alice, game="foist")).message
    await world.press(bob, lobby, "Join")
    before = snapshot(world.message(lobby.id))

    await refused(world, await world.press(bob, lobby, "Join"), "already joined")
    await refused(world, await world.press(bob, lobby, "Start"), "Only the host")
    await refused(world, await world.press(alice, lobby, "Start"), "at least 3 players")
    await refused(world, await world.press(bob, lobby, "Cancel"), "Only the host")
    await refused(world, await world.press(world.outsider, lobby, "Leave"), "not at this table")
    await refused(world, await world.server.run_command(world.outsider, world.channel, "hand"), "not playing")
    second = await world.play(bob, game="foist")
    await refused(world, second, "already a Foist table in this channel")
    assert snapshot(world.message(lobby.id)) == before

    elsewhere = await world.server.run_command(bob, world.other_channel, "play", game="foist")
    assert elsewhere.ok and not elsewhere.ephemeral  # one table per channel, not per server
    assert world.server.violations == []


@pytest.mark.bot_settings(dev_guild_id=None)  # commands synced globally, so they exist in DMs too
async def test_play_in_a_dm_and_out_of_range_turns_are_refused(world: World) -> None:
    alice = world.players["alice"]
    await refused(world, await world.server.run_command(alice, None, "play", game="foist"), "server channels")
    await refused(world, await world.server.run_command(alice, None, "leaderboard"), "in a server")
    await refused(world, await world.play(alice, game="foist", turn_seconds=5000), "Turns can last")
    assert [message for message in world.public_messages()] == []


async def test_play_bad_input_is_refused_and_changes_nothing(world: World) -> None:
    table = await world.open_table()
    actor = world.turn_owner(table)
    waiting = next(
        player for player in (world.players[n] for n in ("alice", "bob", "carol")) if player is not actor
    )
    before = snapshot(world.message(table.id))
    labels = action_labels(table)

    await refused(world, await world.press(waiting, table, labels[0]), "not your turn")
    await refused(world, await world.press(world.outsider, table, labels[0]), "not playing at this table")
    await refused(world, await world.press(world.outsider, table, "My hand"), "not playing at this table")
    await refused(world, await world.server.run_command(world.outsider, world.channel, "hand"), "not playing")
    take = next(button for button in table.buttons() if button["label"].startswith("Take"))
    table_id = take["custom_id"].split(":")[1]
    forged = {
        "evil:1": "not one of mine",
        f"ct:{table_id}:0:a.steal": "not allowed",
        f"ct:{table_id}:0:bogus": "not one of mine",
        f"ct:{table_id}:0:join": "not taking players",
        "ct:zzzz9999:0:join": "no longer exists",
        f"ct:{table_id}:7:a.take": "earlier turn",
    }
    for custom_id, words in forged.items():
        result = await world.server.press(actor, table, custom_id, forged=True)
        await refused(world, result, words)
    assert snapshot(world.message(table.id)) == before

    # A private view from an earlier turn: its buttons are refused once the table has moved on.
    old_hand = (await world.press(actor, table, "My hand")).message
    moved = await world.press(actor, table, "No thanks")
    assert moved.ok and moved.response_type == 7
    await refused(world, await world.press(actor, old_hand, "Take"), "earlier turn")
    assert world.server.violations == []


async def test_presses_on_a_finished_table_are_refused(world: World) -> None:
    table = await world.open_table()
    action_custom_id = next(b["custom_id"] for b in table.buttons() if ":a." in b["custom_id"])
    table = await play_to_the_end(world, table, random.Random(1))
    await refused(
        world,
        await world.server.press(world.players["alice"], table, action_custom_id, forged=True),
        "game is over",
    )
    for name in ("alice", "bob", "carol"):
        assert (await world.press(world.players[name], table, "Leave")).ok
    assert [button["label"] for button in world.message(table.id).buttons()] == ["Replay"]
    await refused(
        world,
        await world.server.press(world.players["bob"], table, action_custom_id, forged=True),
        "game is over",
    )
    await refused(
        world, await world.server.run_command(world.players["alice"], world.channel, "hand"), "not playing"
    )
    assert world.server.violations == []


@pytest.mark.bot_settings(idle_after_timeouts=2)
async def test_a_timed_out_turn_plays_the_default_and_idles_the_player(world: World) -> None:
    table = await world.open_table(turn_seconds=1)
    first = world.turn_owner(table)
    name = next(n for n, member in world.players.items() if member is first)

    def table_text() -> str:
        return world.message(table.id).text()

    await world.server.wait_for(lambda: "ran out of time" in table_text(), timeout=10)
    text = table_text()
    assert f"**{name}** ran out of time." in text
    assert f"**{name}** said no thanks" in text  # the default: pay a token while you have one
    # The idle marker stays on the seat (the log line saying so may scroll out between edits).
    await world.server.wait_for(lambda: f"**{name}** 💤" in table_text(), timeout=20)
    assert world.server.violations == []


async def test_hand_by_dm_with_open_and_closed_dms(world: World) -> None:
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    carol.dms_open = False
    lobby = (await world.play(alice, game="foist", turn_seconds=600)).message
    for player in (bob, carol):
        await world.press(player, lobby, "Join")

    asked = await world.press(bob, lobby, "DM me my hand")
    await answered_with(world, asked, "Check your DMs")
    assert asked.message.ephemeral_for == bob.id
    assert world.server.dm_messages(bob), "bob got a DM"
    await world.server.wait_for(lambda: "bob ✉️" in world.message(lobby.id).text(), timeout=5)

    closed = await world.press(carol, lobby, "DM me my hand")
    await answered_with(world, closed, "can't DM you")
    assert world.server.dm_messages(carol) == []
    assert world.server.refused_dms == [carol.id]  # asked once, by carol herself

    await world.press(alice, lobby, "Start")
    table = world.message(lobby.id)

    # The ephemeral hand view offers DMs too: alice turns them on from there.
    hand = (await world.press(alice, table, "My hand")).message
    from_hand = await world.press(alice, hand, "DM me my hand")
    await answered_with(world, from_hand, "Check your DMs")
    await world.server.wait_for(  # drawn once the press's commit is over (under the table's lock)
        lambda: any("Private to alice" in dm.text() for dm in world.server.dm_messages(alice)), timeout=5
    )
    # Bob's DM from the lobby became his hand: one live DM for the table.
    await world.server.wait_for(
        lambda: "Private to bob" in world.server.dm_messages(bob)[0].text(), timeout=5
    )
    live_dm = world.server.dm_messages(bob)[0]

    # Play until it is bob's turn: he gets a DM saying so, and can act from his live DM.
    for _ in range(40):
        current = world.message(table.id)
        if world.turn_owner(current) is bob:
            break
        await world.press(world.turn_owner(current), current, "No thanks")
    else:
        raise AssertionError("bob never got the turn")
    await world.server.wait_for(
        lambda: (
            "It is your turn" in world.server.dm_messages(bob)[-1].text()
            or "It is your turn" in (world.server.dm_messages(bob)[-1].content or "")
        ),
        timeout=5,
    )
    await world.server.wait_for(lambda: "No thanks" in str(live_dm.buttons()), timeout=5)
    pressed = await world.press(bob, live_dm, "No thanks")
    assert pressed.ok and pressed.response_type == 7
    await world.server.wait_for(lambda: world.turn_owner(world.message(table.id)) is not bob, timeout=5)
    # His turn is over: the notice goes, the live DM stays.
    await world.server.wait_for(lambda: world.server.dm_messages(bob) == [live_dm], timeout=5)

    # /hand dm:true with closed DMs: an explanation and the hand, ephemerally.
    closed_hand = await world.server.run_command(carol, world.channel, "hand", dm=True)
    await answered_with(world, closed_hand, "can't DM you")
    assert "Private to carol" in closed_hand.message.text() and "Your tokens" in closed_hand.message.text()
    assert closed_hand.message.ephemeral_for == carol.id
    assert world.server.violations == []


async def test_private_views_leave_no_background_tasks_behind(world: World) -> None:
    """Table views are renderings routed by custom_id: discord.py must not keep them (or a 15-minute
    timeout task for each ephemeral one) alive after they are sent."""
    import asyncio

    table = await world.open_table()
    for _ in range(5):
        for name in ("alice", "bob", "carol"):
            assert (await world.press(world.players[name], table, "My hand")).ephemeral
    view_tasks = [task for task in asyncio.all_tasks() if "timeout_task" in repr(task.get_coro())]
    assert view_tasks == []


@pytest.mark.bot_settings(lobby_idle_seconds=1)
async def test_an_idle_lobby_closes_by_itself_and_frees_the_channel(world: World) -> None:
    lobby = (await world.play(world.players["alice"], game="foist")).message
    join_custom_id = lobby.buttons()[0]["custom_id"]
    await world.server.wait_for(lambda: "table closed" in world.message(lobby.id).text(), timeout=10)
    closed = world.message(lobby.id)
    assert "Nobody started the game" in closed.text() and closed.buttons() == []
    late_join = await world.server.press(world.players["bob"], lobby, join_custom_id, forged=True)
    await refused(world, late_join, "closed")
    again = await world.play(world.players["bob"], game="foist")
    assert again.ok and not again.ephemeral
    assert world.server.violations == []


@pytest.mark.bot_settings(rematch_seconds=1)
async def test_play_again_closes_after_its_window_with_those_who_opted_in(world: World) -> None:
    table = await world.open_table()
    table = await play_to_the_end(world, table, random.Random(5))
    assert (await world.press(world.players["carol"], table, "Play again")).ok
    await world.server.wait_for(lambda: len(world.public_messages()) == 2, timeout=10)
    await world.server.wait_for(
        lambda: [button["label"] for button in world.message(table.id).buttons()] == ["Replay"], timeout=5
    )
    final = world.message(table.id)
    assert "carol ✅" in final.text() and "~~alice~~" in final.text() and "~~bob~~" in final.text()
    lobby = world.public_messages()[-1]
    assert "1. carol (host)" in lobby.text() and "Players (1 of 3–7)" in lobby.text()
    assert world.server.violations == []


async def test_a_failed_answer_still_shows_the_move_and_keeps_the_clock(world: World) -> None:
    """Discord may refuse an answer (here: "Unknown interaction"). The move stands, the table message
    is updated by a plain edit, and the next player's clock runs."""
    table = await world.open_table(turn_seconds=2)
    actor = world.turn_owner(table)
    world.server.inject_failure(
        method="POST", path_regex=r"/interactions/\d+/[^/]+/callback", status=404, code=10062
    )
    await world.press(actor, table, "No thanks")
    await world.server.wait_for(lambda: "said no thanks" in world.message(table.id).text(), timeout=5)
    assert world.turn_owner(world.message(table.id)) is not actor
    await world.server.wait_for(lambda: "ran out of time" in world.message(table.id).text(), timeout=10)


@pytest.mark.bot_settings(dev_guild_id=None)
async def test_hand_in_a_dm_finds_the_players_running_table(world: World) -> None:
    bob = world.players["bob"]
    lonely = await world.server.run_command(bob, None, "hand")
    await refused(world, lonely, "not playing at a table")
    await world.open_table()
    in_dm = await world.server.run_command(bob, None, "hand")
    assert in_dm.ok and in_dm.ephemeral
    assert "Private to bob" in in_dm.message.text() and "Your tokens" in in_dm.message.text()
    await refused(world, await world.server.run_command(world.outsider, None, "hand"), "not playing")
    assert world.server.violations == []


async def test_slow_table_edits_do_not_stop_the_turn_clock(world: World) -> None:
    """Rate-limited edits of the table message (2.5 s each) must not make the clock skip a turn."""
    table = await world.open_table(turn_seconds=1)
    first = world.turn_owner(table)
    name = next(n for n, member in world.players.items() if member is first)
    world.server.inject_failure("PATCH", r"/channels/\d+/messages/\d+", 429, times=2, retry_after=2.5)
    await world.server.wait_for(lambda: f"**{name}** 💤" in world.message(table.id).text(), timeout=20)


async def test_a_refused_rematch_lobby_does_not_block_the_channel(world: World) -> None:
    table = await world.open_table()
    table = await play_to_the_end(world, table, random.Random(2))
    world.server.inject_failure("POST", r"/channels/\d+/messages$", 403, times=1, code=50013)
    for name in ("alice", "bob", "carol"):
        assert (await world.press(world.players[name], table, "Play again")).ok
    await world.server.wait_for(lambda: any(status == 403 for _, _, status in world.server.request_log))
    # The 403 is sent: wait for the bot to have read it and dropped the lobby it could not post.
    registry = world.bot.get_cog("Tables").registry
    await world.server.wait_for(lambda: registry.channel_table(world.channel.id) is None)
    opened = await world.play(world.players["bob"], game="foist")
    assert opened.ok and not opened.ephemeral and "table open" in opened.message.text(), opened.message.text()


async def test_a_slow_dm_does_not_hold_up_the_table(world: World) -> None:
    """Discord fails the DM twice (discord.py retries it for seconds): the game goes on meanwhile."""
    table = await world.open_table(turn_seconds=600)
    actor = world.turn_owner(table)
    bob = world.players["bob"]
    world.server.inject_failure("POST", r"/channels/\d+/messages$", 500, times=2)
    asking = asyncio.create_task(world.press(bob, table, "DM me my hand"))
    await asyncio.sleep(0.3)
    moved = await world.press(actor, table, "No thanks")
    assert moved.ok and moved.response_type == 7, moved
    asked = await asking
    await answered_with(world, asked, "Check your DMs")


async def test_hand_in_the_lobby_says_the_game_has_not_started(world: World) -> None:
    await world.play(world.players["alice"], game="foist")
    await refused(
        world, await world.server.run_command(world.players["alice"], world.channel, "hand"), "not started"
    )


async def test_a_delayed_plain_edit_never_leaves_an_older_table_showing(world: World) -> None:
    """Bob's DM toggle refreshes the lobby with a plain edit that Discord rate-limits for a second;
    meanwhile Carol joins (answered at once). The delayed edit must not leave the lobby without Carol."""
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    lobby = (await world.play(alice, game="foist")).message
    await world.press(bob, lobby, "Join")
    world.server.inject_failure("PATCH", r"/channels/\d+/messages/\d+", 429, times=1, retry_after=1.0)
    asked = await world.press(bob, lobby, "DM me my hand")
    await answered_with(world, asked, "Check your DMs")
    joined = await world.press(carol, lobby, "Join")
    assert joined.ok and joined.response_type == 7
    await asyncio.sleep(2.0)  # the rate-limited edit lands, and whatever follows it
    text = world.message(lobby.id).text()
    assert "3. carol" in text and "bob ✉️" in text, text
