"""Time controls through the sandbox: the host chooses a time bank in the lobby, the table message shows
each seat's bank, a bank runs out (the default is played), banks come back exactly after a restart (also
when one ran out while the bot was down), and slow mode DMs the player to act each time.

Banks are a few seconds long here (bot settings), so the tests stay quick.
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.e2e.conftest import World, discord_now, restartable_world, session_of, stored

SHORT_BANK = {"time_bank_seconds": 2, "time_bank_increment_seconds": 2, "time_bank_cap_seconds": 3}


def bank_shown(table: Any, name: str) -> str | None:
    """The bank the table message shows for player ``name`` ("0:02"), or ``None``."""
    match = re.search(rf"\*\*{name}\*\* ⏳ (\d+:\d\d)", table.text())
    return match[1] if match else None


def stored_banks(world: World) -> list[tuple[float, datetime | None]]:
    """Each seat's bank as the database holds it: ``(remaining seconds, running since)``."""
    ((snapshot,),) = stored(world.database_url, "SELECT snapshot FROM live_tables")
    return [
        (bank["remaining"], bank["running_since"] and datetime.fromisoformat(bank["running_since"]))
        for bank in json.loads(snapshot)["banks"]
    ]


def banks_of(world: World) -> list[tuple[float, datetime | None]]:
    """Each seat's bank in the running bot: ``(remaining seconds, running since)`` (compared as values:
    the bot's modules are imported afresh by each start)."""
    return [(bank.remaining, bank.running_since) for bank in session_of(world).banks]


@pytest.mark.bot_settings(**SHORT_BANK)
async def test_the_lobby_chooses_a_time_bank_the_table_shows_it_and_a_bank_runs_out(world: World) -> None:
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    lobby = (await world.play(alice, game="foist")).message
    (clock_menu,) = [menu for menu in lobby.selects() if menu["custom_id"].endswith(":o.clock")]
    refused = await world.server.select(bob, lobby, clock_menu["custom_id"], ["bank"])
    assert refused.ok and refused.ephemeral and "host" in refused.message.text()
    chosen = await world.server.select(alice, lobby, clock_menu["custom_id"], ["bank"])
    assert chosen.ok and chosen.response_type == 7, chosen
    assert "bank 2 s + 2 s per move (cap 3 s)" in world.message(lobby.id).text()
    for player in (bob, carol):
        assert (await world.press(player, lobby, "Join")).ok
    assert (await world.press(alice, lobby, "Start")).ok
    table = world.message(lobby.id)
    assert [bank_shown(table, name) for name in ("alice", "bob", "carol")] == ["0:02"] * 3
    mover = world.turn_owner(table)
    moved = await world.press(mover, table, "No thanks")
    assert moved.ok and moved.response_type == 7, moved
    # Under 2 s used, then the 2 s increment: capped at 3 s.
    assert bank_shown(world.message(table.id), mover.name) == "0:03"
    waiting = world.turn_owner(world.message(table.id))
    assert waiting is not None and waiting != mover
    await world.server.wait_for(
        lambda: f"**{waiting.name}** ran out of time" in world.message(table.id).text(), timeout=6
    )
    # Empty, then the increment like after any move.
    assert bank_shown(world.message(table.id), waiting.name) == "0:02"
    assert stored(world.database_url, "SELECT timed_out FROM live_table_actions ORDER BY position")[:2] == [
        (0,),
        (1,),
    ]


async def test_banks_come_back_exactly_after_a_restart(database_url: str) -> None:
    settings = {"time_bank_seconds": 30, "time_bank_increment_seconds": 5, "time_bank_cap_seconds": 40}
    async with restartable_world(database_url, **settings) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            table = await world.open_table(seated=("bob", "carol"), clock="bank")
            for _ in range(3):
                current = world.message(table.id)
                result = await world.press(world.turn_owner(current), current, "No thanks")
                assert result.ok and result.response_type == 7
            banks, deadlines = banks_of(world), dict(session_of(world).seat_deadlines)
            assert len({remaining for remaining, _ in banks}) > 1 and banks[0][0] != 30
            assert stored_banks(world) == banks
            before = world.message(table.id).text()
            assert "⏳ 0:3" in before
        async with start_bot() as bot:
            world = world_with(bot)
            await world.server.wait_for(lambda: len(world.message(table.id).versions) > 4)
            session = session_of(world)
            assert banks_of(world) == banks and session.seat_deadlines == deadlines
            assert session.settings.time_control.kind == "bank"
            assert world.message(table.id).text() == before
            current = world.message(table.id)
            result = await world.press(world.turn_owner(current), current, "No thanks")
            assert result.ok and result.response_type == 7


async def test_a_bank_that_ran_out_while_the_bot_was_down_is_played_out_at_once(database_url: str) -> None:
    async with restartable_world(database_url, **SHORT_BANK) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            table = await world.open_table(seated=("bob", "carol"), clock="bank")
            mover = world.turn_owner(table)
            assert (await world.press(mover, table, "No thanks")).ok
            waiting = world.turn_owner(world.message(table.id))
            session = session_of(world)
            mover_seat, waiting_seat = session.seat_of(mover.id), session.seat_of(waiting.id)
            mover_bank = banks_of(world)[mover_seat]
        await asyncio.sleep(2.5)  # the waiting player's 2 s bank runs out while the bot is down
        async with start_bot() as bot:
            world = world_with(bot)
            await world.server.wait_for(
                lambda: f"**{waiting.name}** ran out of time" in world.message(table.id).text(), timeout=5
            )
            assert banks_of(world)[mover_seat] == mover_bank  # untouched, exactly
            assert banks_of(world)[waiting_seat] == (2.0, None)  # empty, then the increment


async def test_slow_mode_dms_the_player_to_act_each_time(world: World) -> None:
    carol = world.players["carol"]
    carol.dms_open = False  # a closed DM changes nothing at the table
    table = await world.open_table(seated=("bob", "carol"), clock="slow")
    assert session_of(world).deadline - discord_now() > timedelta(hours=23)  # 24 h per decision
    turns: dict[str, int] = {"alice": 0, "bob": 0, "carol": 0}
    owner = world.turn_owner(table)
    turns[owner.name] += 1
    for _ in range(8):
        current = world.message(table.id)
        result = await world.press(owner, current, "No thanks")
        if result.ephemeral:  # no tokens left: must take, and keeps the turn
            result = await world.press(owner, current, "Take")
        assert result.ok and result.response_type == 7, result
        new_owner = world.turn_owner(world.message(table.id))
        if new_owner != owner:
            turns[new_owner.name] += 1
        owner = new_owner
    # One notice per turn at most (a turn over before its notice went out gets none), each deleted once its
    # turn is over: the player to act has theirs, the others none left.
    for name in ("alice", "bob"):
        player = world.players[name]
        live = 1 if player is owner else 0
        await world.server.wait_for(
            lambda player=player, live=live: len(world.server.dm_messages(player)) == live, timeout=5
        )
        sent = world.server.dm_channel(player).messages
        assert len(sent) <= turns[name]
        assert all("It is your turn at the **Foist" in dm.text() for dm in sent)
    assert turns["carol"] > 0 and world.server.dm_messages(carol) == []
    # Her DMs are closed: tried once at most, then her turns find her by a mention in the channel.
    assert world.server.refused_dms.count(carol.id) <= 1
