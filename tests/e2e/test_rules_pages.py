"""``/rules`` through the sandbox: every game's pages, paging with the buttons and the section menu (an edit
of the same private message), and the "How to play" button of a lobby and a table message."""

from __future__ import annotations

import pytest

from cogs.rules import pages
from engine import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_rules_shows_every_page_of_every_game_privately(world, game: str) -> None:
    alice = world.players["alice"]
    result = await world.server.run_command(alice, world.channel, "rules", game=game)
    assert result.ok and result.ephemeral, result
    assert result.message.ephemeral_for == alice.id
    message = result.message
    headings = []
    for number in range(len(pages.pages(game))):
        title = message.embeds[0]["title"]
        assert title.startswith(f"How to play {GAMES[game].display_name}"), title
        assert f"Page {number + 1} of {len(pages.pages(game))}" in message.embeds[0]["footer"]["text"]
        headings.append(title.split(" · ")[1].split(" (")[0])
        if number + 1 < len(pages.pages(game)):
            turned = await world.press(alice, message, "Next ▶")
            assert turned.ok and turned.response_type == 7 and turned.ephemeral, turned
            message = turned.message if turned.message is not None else message
    assert list(dict.fromkeys(headings)) == list(pages.SECTIONS.values())
    assert message.button("Next ▶")["disabled"]
    assert world.server.violations == []


async def test_the_section_menu_and_previous_turn_the_same_message(world) -> None:
    bob = world.players["bob"]
    opened = await world.server.run_command(bob, world.channel, "rules", game="memory", section="scoring")
    assert "Scoring" in opened.message.embeds[0]["title"]
    assert "Mixed Chart" in opened.message.text()
    (menu,) = opened.message.selects()
    rulings = next(option["value"] for option in menu["options"] if option["label"] == "Rulings")
    chosen = await world.server.select(bob, opened.message, menu["custom_id"], [rulings])
    assert chosen.ok and chosen.response_type == 7, chosen
    message = chosen.message or opened.message
    assert "Rulings" in message.embeds[0]["title"]
    assert "1. **Layout and Jokers.**" in message.text()
    back = await world.press(bob, message, "◀ Previous")
    assert back.ok and back.response_type == 7
    assert "Examples" in (back.message or message).embeds[0]["title"]


async def test_how_to_play_on_the_lobby_and_the_table_opens_the_rules_privately(world) -> None:
    alice, carol = world.players["alice"], world.players["carol"]
    lobby = (await world.play(alice, game="tokenize")).message
    asked = await world.press(world.outsider, lobby, "How to play")  # anyone may read, seated or not
    assert asked.ok and asked.ephemeral and asked.message.ephemeral_for == world.outsider.id
    assert "How to play TOKENIZE · Setup" in asked.message.embeds[0]["title"]
    assert pages.HOUSE_RULE in asked.message.text()
    for name in ("bob", "carol"):
        await world.press(world.players[name], lobby, "Join")
    await world.press(alice, lobby, "Start")
    table = world.message(lobby.id)
    before = len(table.versions)
    asked = await world.press(carol, table, "How to play")
    assert asked.ok and asked.ephemeral and "TOKENIZE" in asked.message.embeds[0]["title"]
    turned = await world.press(carol, asked.message, "Next ▶")
    assert turned.ok and turned.response_type == 7 and "A turn" in (turned.message or asked.message).text()
    assert len(world.message(lobby.id).versions) == before  # the table message was not touched
