"""Races through the sandbox: a double-click, presses at the same instant, and a press racing the turn
clock each give exactly one effect, and every press is answered in time."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import World, discord_now, live_tables, logged_moves, session_of


async def test_a_double_click_moves_once_and_both_clicks_are_answered(world: World) -> None:
    table = await world.open_table(turn_seconds=600)
    actor = world.turn_owner(table)
    button = next(b for b in table.buttons() if b["label"].startswith("No thanks"))["custom_id"]
    first, second = await asyncio.gather(
        world.server.press(actor, table, button), world.server.press(actor, table, button)
    )
    assert first.ok and second.ok  # both answered within the deadline
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    refusal = first if first.ephemeral else second
    assert "earlier turn" in refusal.message.text() or "busy" in refusal.message.text()
    assert session_of(world).state.version == 1 and logged_moves(world) == 1
    assert world.server.violations == []


async def test_everyone_pressing_at_the_same_instant_gives_one_move(world: World) -> None:
    table = await world.open_table(seated=("bob", "carol", "dave"), turn_seconds=600)
    button = next(b for b in table.buttons() if b["label"].startswith("Take"))["custom_id"]
    players = [world.players[name] for name in ("alice", "bob", "carol", "dave")]
    results = await asyncio.gather(*(world.server.press(p, table, button) for p in players))
    assert all(result.ok for result in results)
    assert sum(not result.ephemeral for result in results) == 1
    assert session_of(world).state.version == 1 and logged_moves(world) == 1


@pytest.mark.bot_settings(idle_after_timeouts=99)
async def test_a_press_racing_the_turn_clock_gives_one_effect(world: World) -> None:
    for attempt in range(3):
        if attempt:
            world.bot.get_cog("Tables").registry.forget(session_of(world), "test: next race")
        table = await world.open_table(turn_seconds=1)
        session = session_of(world)
        actor = world.turn_owner(table)
        button = next(b for b in table.buttons() if b["label"].startswith("No thanks"))["custom_id"]
        wait = (session.deadline - discord_now()).total_seconds()
        await asyncio.sleep(max(0.0, wait - 0.01 * attempt))
        result = await world.server.press(actor, table, button)
        assert result.ok
        await asyncio.sleep(0.3)
        # Exactly one of the two took the first decision: the press (and the clock did nothing), or the
        # clock (and the press was refused as stale).
        pressed = not result.ephemeral and result.response_type == 7
        clocked = 0 in session.timed_out_positions
        assert pressed != clocked, (result, session.state.history[:3])
        if not pressed:
            assert "earlier turn" in result.message.text()
        assert session.state.history[0][0] == session.seat_of(actor.id)
    assert world.server.violations == []


async def test_a_forged_menu_choice_is_refused(world: World) -> None:
    table = await world.open_table(game="minimisere", turn_seconds=600)
    actor = world.turn_owner(table)
    hand = await world.press(actor, table, "My hand")
    menu_or_button = hand.message.selects() or hand.message.buttons()
    custom_id = menu_or_button[0]["custom_id"].rsplit(":", 1)[0] + ":s.0"
    forged = await world.server.select(actor, hand.message, custom_id, ["evil:code"], forged=True)
    assert forged.ok and forged.ephemeral and "not one of mine" in forged.message.text()
    assert session_of(world).state.version == 0


async def test_a_background_edit_during_a_save_shows_the_table_as_stored(world: World) -> None:
    """A background edit of the table message drawn while a move is being stored shows the table without
    that move: a move becomes the table only once it is stored (drawn from a table changed in place, a
    MINIMIZE final's scores once reached the channel while their save was still under way). The move's own
    answer then shows it."""
    table = await world.open_table(turn_seconds=600)
    session = session_of(world)
    cog = world.bot.get_cog("Tables")
    database = cog.runtime.store.db
    stored_save, saving, release = database.save_table, asyncio.Event(), asyncio.Event()

    async def held_save(*args, **kwargs):
        saving.set()
        await release.wait()
        return await stored_save(*args, **kwargs)

    before = world.message(table.id).text()
    database.save_table = held_save
    try:
        press = asyncio.ensure_future(world.press(world.turn_owner(table), table, "No thanks"))
        await asyncio.wait_for(saving.wait(), timeout=2)
        edits = len(world.message(table.id).versions)
        cog.messages.refresh(session)
        await world.server.wait_for(lambda: len(world.message(table.id).versions) > edits, timeout=2)
        assert world.message(table.id).text() == before  # the move is not stored yet: not shown
        assert session.state.version == 0
    finally:
        release.set()
        del database.save_table
    answered = await press
    assert answered.ok and not answered.ephemeral and session.state.version == 1
    assert world.message(table.id).text() != before and logged_moves(world) == 1
    assert world.server.violations == []


async def test_three_plays_at_the_same_moment_open_one_table_in_the_channel(world: World) -> None:
    """One table per channel under any interleaving: three ``/play`` sent at once in one channel open one
    table; the other two are told, privately, that the channel has one."""
    players = [world.players[name] for name in ("alice", "bob", "carol")]
    results = await asyncio.gather(*(world.play(player, game="foist") for player in players))
    assert all(result.ok for result in results)
    opened = [result for result in results if not result.ephemeral]
    refused = [result for result in results if result.ephemeral]
    assert len(opened) == 1 and len(refused) == 2
    assert all("already a Foist table in this channel" in result.message.text() for result in refused)
    tables = [table for table in live_tables(world).values() if table.channel_id == world.channel.id]
    messages = world.bot.get_cog("Tables").messages
    assert len(tables) == 1 and messages.message_id(tables[0]) == opened[0].message.id
    assert world.server.violations == []
