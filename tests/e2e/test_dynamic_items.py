"""Table presses through discord.py's dynamic items (``cogs/tables/components.py``), with the real bot and
the sandbox: a press on a table component goes to its ``DynamicItem`` (discord.py dispatches it), a press
no item takes (a forged custom_id, one not on the message) to the cog's fallback, and each is answered
once. The fallback decides as discord.py does: for every press, the bot's ``claimed`` agrees with what
``View.from_message`` (discord.py's own rebuild of the pressed message) finds."""

from __future__ import annotations

import asyncio
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from engine import GAMES
from tests.e2e.conftest import NEXT, World, play_to_the_end, refused
from tests.tables.toy_game import WidePick


@dataclass
class Press:
    """What the bot did with one interaction: its custom_id, the dynamic item callbacks that ran (by class
    name, with the kind of view discord.py rebuilt around it), whether the fallback saw it as claimed, and
    whether discord.py's own ``View.from_message`` finds it."""

    custom_id: str = ""
    items: list[tuple[str, str]] = field(default_factory=list)
    claimed: bool | None = None
    found_by_discord_py: bool | None = None


def found_by_discord_py(interaction: discord.Interaction, templates: list[str]) -> bool:
    """discord.py's test, through its public API: the custom_id matches a template whole, and the view
    ``from_message`` rebuilds of the pressed message has an item of the pressed type with that custom_id."""
    data: Any = interaction.data
    message = interaction.message
    if message is None or not any(re.fullmatch(template, data["custom_id"]) for template in templates):
        return False
    view_class = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = view_class.from_message(message, timeout=None)
    return any(
        getattr(item, "custom_id", None) == data["custom_id"] and item.type.value == data["component_type"]
        for item in view.walk_children()
    )


@pytest.fixture
def presses(world: World, monkeypatch: pytest.MonkeyPatch) -> dict[int, Press]:
    """Every component press the bot gets from now on, by interaction id (what it did with it)."""
    seen: dict[int, Press] = defaultdict(Press)
    cog = world.bot.get_cog("Tables")
    # The bot's own modules: loading the extension imports them afresh for each bot.
    cog_module, components = sys.modules[type(cog).__module__], sys.modules["cogs.tables.components"]
    items = cog.items
    templates = [item.TEMPLATE for item in items]
    for item_class in items:

        async def callback(self: Any, interaction: discord.Interaction, original: Any = item_class.callback):
            seen[interaction.id].items.append((type(self).__name__, type(self.view).__name__))
            await original(self, interaction)

        monkeypatch.setattr(item_class, "callback", callback)
    fallback = cog_module.answer_unclaimed

    async def answer_unclaimed(
        handler: Any, interaction: discord.Interaction, others: Any = (), gate: Any = None
    ) -> None:
        press = seen[interaction.id]
        press.custom_id = str((interaction.data or {}).get("custom_id"))
        press.claimed = components.claimed(interaction)
        press.found_by_discord_py = found_by_discord_py(interaction, templates)
        await fallback(handler, interaction, others, gate)

    monkeypatch.setattr(cog_module, "answer_unclaimed", answer_unclaimed)
    return seen


async def settled(world: World, presses: dict[int, Press], count: int) -> list[Press]:
    """The ``count`` presses the bot got, once each was seen by the fallback; checks that each went one
    way: to a dynamic item exactly when discord.py's test and the fallback's say it is claimed."""
    await world.server.wait_for(
        lambda: len(presses) == count and all(press.claimed is not None for press in presses.values()),
        message=f"{count} presses seen by the fallback: {presses}",
    )
    found = list(presses.values())
    for press in found:
        assert press.claimed == press.found_by_discord_py, press
        assert len(press.items) == (1 if press.claimed else 0), press
    assert world.server.violations == []  # none answered twice
    return found


async def test_table_buttons_and_menus_are_answered_by_their_dynamic_items(
    world: World, presses: dict[int, Press]
) -> None:
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    lobby = (await world.play(alice, game="minimisere")).message
    join = next(b["custom_id"] for b in lobby.buttons() if b.get("label") == "Join")
    for name in (bob, carol):
        joined = await world.press(name, lobby, "Join")
        assert joined.ok and joined.response_type == 7, joined
    menu = next(
        m for m in world.message(lobby.id).selects() if any(o["value"] == "deals" for o in m["options"])
    )
    chosen = await world.server.select(alice, world.message(lobby.id), menu["custom_id"], ["deals"])
    assert chosen.ok and chosen.response_type == 7, chosen
    started = await world.press(alice, lobby, "Start")
    assert started.ok and started.response_type == 7, started
    table = world.message(lobby.id)
    actor = world.turn_owner(table)
    hand = await world.press(actor, table, "My hand")
    assert hand.ok and hand.ephemeral, hand
    moved = await world.act_somehow(actor, table, random.Random(3), {actor.id: hand.message})
    assert moved.ok and moved.response_type == 7, moved

    found = await settled(world, presses, 6)  # two joins, the menu, start, "My hand", the move
    assert all(press.claimed for press in found), found
    by_id = {press.custom_id: press for press in found}
    assert by_id[menu["custom_id"]].items == [("TableSelect", "View")]  # the lobby: an embed message
    assert by_id[join].items == [("TableButton", "View")]
    my_hand = next(b["custom_id"] for b in table.buttons() if b.get("label") == "My hand")
    assert by_id[my_hand].items == [("TableButton", "LayoutView")]  # the table: a Components V2 layout


@pytest.fixture
def wide_pick(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game with 130 choices in one group (menus of actions, over pages), opened by ``/play
    game:foist`` for this test."""
    monkeypatch.setitem(GAMES, "foist", WidePick())


async def test_action_menus_and_their_pages_are_answered_by_their_dynamic_items(
    world: World, presses: dict[int, Press], wide_pick: None
) -> None:
    table = await world.open_table(seated=("bob",), game="foist")
    bob = world.players["bob"]
    presses.clear()
    hand = (await world.press(bob, table, "My hand")).message
    turned = await world.press(bob, hand, NEXT)
    assert turned.ok and turned.response_type == 7, turned
    menu = turned.message.selects()[0]["custom_id"]
    # A value the menu does not offer: the menu's dynamic item takes the press and refuses it.
    forged = await world.server.select(bob, turned.message, menu, ["evil:code"], forged=True)
    await refused(world, forged, "not one of mine")
    picked = await world.server.select(bob, turned.message, menu, ["pick.101"])
    assert picked.ok and picked.response_type == 7, picked

    found = await settled(world, presses, 4)
    assert [press.items for press in found] == [
        [("TableButton", "LayoutView")],
        [("TableButton", "LayoutView")],
        [("TableSelect", "LayoutView")],
        [("TableSelect", "LayoutView")],
    ]


async def test_presses_no_dynamic_item_takes_are_answered_once_by_the_fallback(
    world: World, presses: dict[int, Press]
) -> None:
    table = await world.open_table()
    presses.clear()
    actor = world.turn_owner(table)
    take = next(button for button in table.buttons() if button["label"].startswith("Take"))
    my_hand = next(button for button in table.buttons() if button["label"] == "My hand")
    table_id = take["custom_id"].split(":")[1]
    assert (await world.press(actor, table, "My hand")).ok
    forged = {
        "evil:1": "not one of mine",  # no template
        f"ct:{table_id}:0:bogus": "not one of mine",  # a button's template, not on the message
        f"ct:{table_id}:0:join": "not taking players",  # a table press, not on the message
        "ct:zzzz9999:0:join": "no longer exists",
        f"ct:{table_id}:7:a.take": "earlier turn",
        f"ct:{table_id}:1:s.0": "not one of mine",  # a menu's template, pressed as a button
    }
    for custom_id, words in forged.items():
        await refused(world, await world.server.press(actor, table, custom_id, forged=True), words)

    found = await settled(world, presses, len(forged) + 1)
    by_id = {press.custom_id: press for press in found}
    assert all(not by_id[custom_id].claimed for custom_id in forged)
    assert by_id[my_hand["custom_id"]].items == [("TableButton", "LayoutView")]


async def test_every_press_of_a_whole_game_goes_one_way(world: World, presses: dict[int, Press]) -> None:
    table = await world.open_table()
    final = await play_to_the_end(world, table, random.Random(5))
    assert "final scores" in final.text().lower()
    await asyncio.sleep(0)
    found = await settled(world, presses, len(presses))
    assert len(found) > 20 and all([name for name, _ in press.items] == ["TableButton"] for press in found)
