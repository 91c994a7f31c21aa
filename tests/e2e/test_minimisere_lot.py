"""Minimisère's Lot through the sandbox with the real discord.py client (ruling 13 of
docs/rules/minimisere.md): a hand of six shows one button per card and one "Bid the Lot…", never a second
button per card; pressing it opens the Lot step (a red button per card with the bid, and a way back), where
cancelling gives the plain plays back and a card bids the Lot, which the table then shows.

SQLite only: nothing here touches the database beyond what every game does."""

from __future__ import annotations

from cogs.tables import custom_ids as ids
from tests.e2e.conftest import World, sqlite_only

pytestmark = sqlite_only

DANGER = 4
"""Discord's red button style."""


def codes(message) -> list[str]:
    """The game actions a message's buttons play, in order (``a.<code>`` custom_ids)."""
    return [
        ids.TableCustomId.parse(button["custom_id"]).action
        for button in message.buttons()
        if ":a." in button.get("custom_id", "")
    ]


async def test_a_hand_shows_one_button_per_card_and_the_lot_takes_its_confirmation_step(world: World) -> None:
    table = await world.open_table(seated=("bob", "carol", "dave"), game="minimisere")  # four hold six each
    (actor,) = world.users_to_act(table)
    hand = (await world.press(actor, table, "My hand")).message
    plays = codes(hand)
    assert len(plays) == 7 and plays.count("lot") == 1, plays  # six cards and one "Bid the Lot…"
    cards = [code for code in plays if code != "lot"]
    assert not any(code.endswith("+lot") for code in plays) and len(set(cards)) == 6
    assert not hand.selects()

    opened = await world.press(actor, hand, "Bid the Lot…")
    assert opened.ok and opened.response_type == 7, opened
    step = opened.message
    bids = [button for button in step.buttons() if button.get("custom_id", "").endswith("+lot")]
    assert [ids.TableCustomId.parse(b["custom_id"]).action for b in bids] == [f"{c}+lot" for c in cards]
    assert all(b["style"] == DANGER and b["label"].endswith("and bid the Lot") for b in bids)
    assert "lot" not in codes(step) and not set(cards) & set(codes(step))  # no plain play in the step
    assert "bid the Lot" not in world.message(table.id).text()  # nothing is bid yet, nothing is said

    back = await world.press(actor, step, "Cancel")
    assert back.ok and back.response_type == 7, back
    assert codes(back.message) == plays  # back to the plain plays, exactly as before

    again = await world.press(actor, back.message, "Bid the Lot…")
    step = again.message
    bid = next(button for button in step.buttons() if button.get("custom_id", "").endswith("+lot"))
    played = await world.server.press(actor, step, bid["custom_id"])
    assert played.ok and played.response_type == 7, played
    await world.server.wait_for(lambda: "🎯" in world.message(table.id).text())
    assert "bid the Lot" in world.message(table.id).text()
    assert world.server.violations == []
