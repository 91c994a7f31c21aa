"""Clear prompts and short private views: a player whose choice is private is told by name on
the table to open **My hand**, and by DM if they asked for DMs; a private view shows its owner's hand,
choices and the turn, not the table's log or the rules; in Deluxe Memory a card looked at from the table
message is shown to the looker in the answer to that press."""

from __future__ import annotations

from engine.core import plain
from tests.e2e.conftest import World, session_of

PROMPT = "open **My hand** to make your move"


async def test_the_table_names_the_player_who_must_open_my_hand_and_dms_them(world: World) -> None:
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    lobby = (await world.play(alice, game="minimisere")).message
    for player in (bob, carol):
        await world.press(player, lobby, "Join")
    for player in (alice, bob, carol):
        dm = await world.press(player, lobby, "DM me my hand")
        assert dm.ok  # deferred at once; the wish is noted once the DM went out, when the answer says so
        await world.server.wait_for(lambda dm=dm: "Check your DMs" in dm.message.text(), timeout=15)
    await world.press(alice, lobby, "Start")
    table = world.message(lobby.id)
    (actor,) = world.users_to_act(table)
    assert f"👉 **{actor.name}**: {PROMPT}" in table.text()
    assert world.server.violations == []
    # No move button on the table for a card in hand: the prompt is the way in.
    assert not [b for b in table.buttons() if ":a." in b["custom_id"]]
    await world.server.wait_for(
        lambda: any(
            "It is your turn at the **Minimisère** table" in m.text() for m in world.server.dm_messages(actor)
        ),
        timeout=15,  # three DMs at the start share the sandbox's DM rate limit: a wait bound, not a timing
    )
    others = [p for p in (alice, bob, carol) if p is not actor]
    for other in others:
        assert not any("It is your turn" in m.text() for m in world.server.dm_messages(other))
    # The actor's private view: their hand and choices, the turn and the last move, but not the log.
    hand = await world.press(actor, table, "My hand")
    assert hand.ok and hand.ephemeral
    text = hand.message.text()
    cards = [b for b in hand.message.buttons() if ":a." in b["custom_id"]]
    assert "Turn:" in text and PROMPT not in text and cards  # a button per card, named (no emojis here)
    played = await world.server.press(actor, hand.message, cards[0]["custom_id"])
    assert played.ok and played.response_type == 7
    await world.server.wait_for(lambda: "move 2" in world.message(lobby.id).text(), timeout=5)
    (next_actor,) = world.users_to_act(world.message(lobby.id))
    assert next_actor is not actor
    await world.server.wait_for(
        lambda: f"👉 **{next_actor.name}**: {PROMPT}" in world.message(lobby.id).text()
    )
    assert f"👉 **{actor.name}**" not in world.message(lobby.id).text()


async def test_foist_needs_no_prompt(world: World) -> None:
    table = await world.open_table(game="foist")
    assert "👉" not in table.text()  # Take and No thanks are on the table itself


async def test_a_card_looked_at_from_the_table_is_shown_to_the_looker_at_once(world: World) -> None:
    table = await world.open_table(game="memory", seated=("bob",))
    (looker,) = world.users_to_act(table)
    row = next(b for b in table.buttons() if b["label"].startswith("Row "))  # a card: its row, then itself
    other = next(world.players[name] for name in ("alice", "bob") if world.players[name] != looker)
    refused = await world.server.press(other, table, row["custom_id"])
    assert refused.ephemeral and "not your turn" in refused.message.text(), refused
    shown = await world.server.press(looker, table, row["custom_id"])
    assert shown.ok and shown.response_type == 7 and shown.message.id == table.id, shown
    card = next(b for b in world.message(table.id).buttons() if ":a.look." in b["custom_id"])
    looked = await world.server.press(looker, world.message(table.id), card["custom_id"])
    assert looked.ok and looked.ephemeral and looked.message.ephemeral_for == looker.id, looked
    text = looked.message.text()
    cell = card["custom_id"].rsplit(".", 1)[1]
    assert "You looked at" in text and cell in text
    assert "Mixed Chart" not in text  # the rules are in /rules, not reprinted in every view
    seat = session_of(world).seat_of(looker.id)
    assert plain(session_of(world).view(seat).private[0].value) in text
    # The table message moved on too (by an edit of its own), and shows nobody the card.
    await world.server.wait_for(lambda: "looked at" in world.message(table.id).text(), timeout=5)
    card = plain(session_of(world).view(seat).private[0].value).split(" ", 1)[1]
    assert card not in world.message(table.id).text()
