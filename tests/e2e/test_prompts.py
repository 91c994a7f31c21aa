"""Clear prompts and short private views: a player whose choice is private is told by name on
the table to open **My hand**, and by DM if they asked for DMs; a private view shows its owner's hand,
choices, score and turn, not the table's log, the other seats or the rules; Deluxe Memory is played from
the private view alone, where a card looked at is seen at once."""

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
    # The actor's private view: their hand and choices, their score and their turn; not the log, not the
    # other seats (the table, just above it, shows those).
    hand = await world.press(actor, table, "My hand")
    assert hand.ok and hand.ephemeral
    text = hand.message.text()
    cards = [b for b in hand.message.buttons() if ":a." in b["custom_id"]]
    assert "Your turn" in text and PROMPT not in text and cards  # a button per card, named (no emojis here)
    assert "**Your hand**" in text and "**You**: **0** pts · 0 tricks" in text
    assert "Trick 1 of" in text  # what the decision needs: the trick to lead or follow
    assert "Last move" not in text and "The game begins" not in text and "Players" not in text
    assert not any(f"**{other.name}**" in text for other in others), text
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


async def test_deluxe_memory_is_played_from_the_private_view_alone(world: World) -> None:
    table = await world.open_table(game="memory", seated=("bob",))
    (looker,) = world.users_to_act(table)
    other = next(world.players[name] for name in ("alice", "bob") if world.players[name] != looker)
    # One place to pick from: no picker on the table message, which names who must open My hand.
    assert not [b for b in table.buttons() if ":a." in b["custom_id"] or b["label"].startswith("Row ")]
    assert f"👉 **{looker.name}**: {PROMPT}" in table.text()
    assert not [
        b for b in (await world.press(other, table, "My hand")).message.buttons() if ":a." in b["custom_id"]
    ]
    view = await world.press(looker, table, "My hand")
    assert view.ok and view.ephemeral
    row = next(
        b for b in view.message.buttons() if b["label"].startswith("Row ")
    )  # a card: its row, then itself
    shown = await world.server.press(looker, view.message, row["custom_id"])
    assert shown.ok and shown.response_type == 7 and shown.message.id == view.message.id, shown
    card = next(b for b in shown.message.buttons() if ":a.look." in b["custom_id"])
    looked = await world.server.press(looker, shown.message, card["custom_id"])
    assert looked.ok and looked.response_type == 7 and looked.message.id == view.message.id, looked
    text = looked.message.text()
    cell = card["custom_id"].rsplit(".", 1)[1]
    assert "You looked at" in text and cell in text  # seen at once, in the same message
    assert "Mixed Chart" not in text  # the rules are in /rules, not reprinted in every view
    seat = session_of(world).seat_of(looker.id)
    assert plain(session_of(world).view(seat).private[0].value) in text
    # The second look is picked in the same message, which the looker already has.
    assert any(
        b["label"].startswith("Row ") or ":a.look." in b["custom_id"] for b in looked.message.buttons()
    )
    # The table message moved on too (by an edit of its own), shows nobody the card and still no picker.
    await world.server.wait_for(lambda: "looked at" in world.message(table.id).text(), timeout=5)
    card = plain(session_of(world).view(seat).private[0].value).split(" ", 1)[1]
    assert card not in world.message(table.id).text()
    assert not [b for b in world.message(table.id).buttons() if ":a." in b["custom_id"]]
