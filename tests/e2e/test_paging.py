"""A decision with more choices than four menus hold, through the sandbox: the private view pages its
menus with "Next ▶" / "◀ Previous" (each press redraws the same view, changing nothing in the game), and
the generic driver reaches a choice on the last page."""

from __future__ import annotations

import random

import pytest

from engine import GAMES
from tests.e2e.conftest import NEXT, PREVIOUS, World
from tests.tables.toy_game import WidePick


@pytest.fixture
def wide_pick(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game with 130 choices in one group, opened by ``/play game:foist`` for this test (the
    command's choices are fixed when it is registered, so the toy game borrows Foist's)."""
    monkeypatch.setitem(GAMES, "foist", WidePick())


async def test_paging_a_private_view_changes_nothing_and_reaches_every_page(world: World, wide_pick) -> None:
    table = await world.open_table(seated=("bob",), game="foist")
    bob = world.players["bob"]
    hand = (await world.press(bob, table, "My hand")).message
    first_page = [option["value"] for menu in hand.selects() for option in menu["options"]]
    assert (
        len(first_page) == 100
        and [b["label"] for b in hand.buttons() if b["label"].startswith(PREVIOUS)] == []
    )
    table_before = world.message(table.id).text()
    turned = await world.press(bob, hand, NEXT)
    assert turned.ok and turned.response_type == 7 and turned.message.id == hand.id
    second_page = [option["value"] for menu in turned.message.selects() for option in menu["options"]]
    assert second_page == [f"pick.{n}" for n in range(101, 131)]
    assert world.message(table.id).text() == table_before  # paging is not a move
    back = await world.press(bob, turned.message, PREVIOUS)
    assert [option["value"] for menu in back.message.selects() for option in menu["options"]] == first_page
    picked = await world.server.select(bob, back.message, back.message.selects()[0]["custom_id"], ["pick.7"])
    assert picked.ok and picked.response_type == 7
    assert world.server.violations == []


async def test_the_generic_driver_pages_to_reach_a_choice(world: World, wide_pick) -> None:
    table = await world.open_table(seated=("bob", "carol"), game="foist")
    final = await world.play_to_the_end(table, random.Random(3), prefer=("Pick 130", "Call"))
    assert final.text().count("**130** points") == 3  # everyone picked the last choice of the last page
    assert world.server.violations == []


async def test_a_forged_page_press_on_a_public_message_shows_no_private_view(world: World, wide_pick) -> None:
    table = await world.open_table(seated=("bob",), game="foist")
    bob = world.players["bob"]
    hand = (await world.press(bob, table, "My hand")).message
    next_page = next(b["custom_id"] for b in hand.buttons() if b["label"].startswith(NEXT))
    other = await world.server.run_command(world.players["carol"], world.other_channel, "play", game="foist")
    before = other.message.text()
    forged = await world.server.press(bob, other.message, next_page, forged=True)
    assert forged.ok and forged.ephemeral and "nothing happened" in forged.message.text()
    assert other.message.text() == before and "Your hand" not in other.message.text()
