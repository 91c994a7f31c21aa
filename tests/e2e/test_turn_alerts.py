"""How turns find players through the sandbox: a player who chose "don't tell me" for the server
gets no line, one who chose DMs a DM notice while it is their turn, the others a line per turn, each
mentioning only them; a player whose private view can no longer be edited finds a "My hand" button on their
line that opens a fresh one; a server whose admins turned table mentions off gets none; a turn is told
only once it has waited the delay. Every game's turn lines are checked in ``test_ai_seats.py``'s walk."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import World, session_of


def live_lines(world: World) -> dict[int, Any]:
    """The turn lines not deleted yet, by the user each mentions."""
    lines: dict[int, Any] = {}
    for line in world.turn_lines():
        if not line.deleted:
            (user,) = line.allowed_mentions["users"]
            assert int(user) not in lines, "two live lines for one player"
            lines[int(user)] = line
    return lines


async def test_a_player_who_chose_nothing_is_not_mentioned_and_a_server_can_turn_mentions_off(
    world: World,
) -> None:
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    chose = await world.server.run_command(bob, world.channel, "turns", how="off", scope="server")
    assert chose.ok and chose.ephemeral and "nothing" in chose.message.text()
    by_dm = await world.server.run_command(carol, world.channel, "turns", how="dm", scope="server")
    assert "by a DM" in by_dm.message.text()
    table = await world.open_table(turn_seconds=600)
    waited_for: list[int] = []
    for turn in range(7):  # Foist: one player at a time; "No thanks" passes the turn while tokens last
        current = world.message(table.id)
        owner = world.turn_owner(current)
        waited_for.append(owner.id)
        want = {owner.id} if owner is alice else set()
        await world.server.wait_for(lambda want=want: set(live_lines(world)) == want, timeout=5)
        notices = 1 if owner is carol else 0  # her turn notice by DM, and only while it is her turn
        await world.server.wait_for(
            lambda notices=notices: len(world.server.dm_messages(carol)) == notices, timeout=5
        )
        if turn == 6:
            break  # the seventh turn's line (or none) is out: the lines are read while it waits
        pressed = await world.press(owner, current, "No thanks")
        assert pressed.ok and pressed.response_type == 7
    mentioned = [int(line.allowed_mentions["users"][0]) for line in world.turn_lines()]
    assert {bob.id, carol.id} <= set(waited_for) and mentioned == [alice.id] * waited_for.count(alice.id)
    # Nobody pressed "My hand": each line carries the button that opens it.
    assert all([b["label"] for b in line.buttons()] == ["My hand"] for line in world.turn_lines())

    admin = world.guild.add_member("admin", manage_guild=True)
    off = await world.server.run_command(admin, world.channel, "table defaults", turn_mentions=False)
    assert off.ok and "no longer mention" in off.message.text()
    sent = len(world.turn_lines())
    for _ in range(3):
        current = world.message(table.id)
        pressed = await world.press(world.turn_owner(current), current, "No thanks")
        assert pressed.ok and pressed.response_type == 7
    await world.server.wait_for(lambda: not live_lines(world), timeout=5)  # the last line's turn is over
    assert len(world.turn_lines()) == sent  # none since
    again = await world.server.run_command(alice, world.channel, "turns", how="channel")
    assert "turned table mentions off" in again.message.text()
    assert world.server.violations == []


async def test_a_line_offers_my_hand_once_the_private_view_can_no_longer_be_edited(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await world.open_table(turn_seconds=600)
    owner = world.turn_owner(table)
    await world.server.wait_for(lambda: owner.id in live_lines(world), timeout=5)
    hand = await world.press(owner, table, "My hand")  # a view the bot keeps live: no button needed
    assert hand.ok and hand.ephemeral

    async def round_back_to_the_owner() -> Any:
        """Pass until the owner's turn comes again; their new line."""
        before = live_lines(world)[owner.id]
        for _ in range(3):
            current = world.message(table.id)
            assert (await world.press(world.turn_owner(current), current, "No thanks")).ok
        assert world.turn_owner(world.message(table.id)) is owner
        await world.server.wait_for(
            lambda: owner.id in live_lines(world) and live_lines(world)[owner.id] is not before, timeout=5
        )
        return live_lines(world)[owner.id]

    assert (await round_back_to_the_owner()).buttons() == []
    views = world.bot.get_cog("Tables").private_views
    monkeypatch.setattr(views, "live_seconds", -1)  # as if 14 minutes had passed
    line = await round_back_to_the_owner()
    fresh = await world.press(owner, line, "My hand")
    assert fresh.ok and fresh.ephemeral and f"Private to {owner.name}" in fresh.message.text()
    assert session_of(world).table_id in fresh.message.buttons()[0]["custom_id"]
    assert world.server.violations == []


@pytest.mark.bot_settings(turn_alert_delay_seconds=1.5)
async def test_a_turn_is_told_only_once_it_has_waited_the_delay(world: World) -> None:
    """``TURN_ALERT_DELAY_SECONDS``: a player who moves within it is never pinged; one who does not is,
    once it has passed."""
    table = await world.open_table(turn_seconds=600)
    first = world.turn_owner(table)
    assert live_lines(world) == {}  # the turn has just begun
    await world.server.wait_for(lambda: first.id in live_lines(world), timeout=5)
    assert (await world.press(first, world.message(table.id), "No thanks")).ok
    quick = world.turn_owner(world.message(table.id))
    assert (await world.press(quick, world.message(table.id), "No thanks")).ok  # within the delay
    third = world.turn_owner(world.message(table.id))
    await world.server.wait_for(lambda: third.id in live_lines(world), timeout=5)
    mentioned = [int(line.allowed_mentions["users"][0]) for line in world.turn_lines()]
    assert len({first.id, quick.id, third.id}) == 3 and mentioned == [first.id, third.id]
    assert first.id not in live_lines(world)  # its turn is over: its line is gone
    assert world.server.violations == []
