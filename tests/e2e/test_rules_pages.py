"""``/rules`` through the sandbox: every game's pages as Discord receives them (a quick start first, then the
reference pages; no page hard-wrapped, with stray asterisks or an unset default shown as "None"; rulings a
few to a page), paging with the buttons and the section menu (an edit of the same private message), the
"How to play" button of a lobby, and the "Rules in play" button of a table message (that table's rules, with
"How to play" for the whole game's)."""

from __future__ import annotations

import pytest

from cogs.rules import pages
from cogs.tables import house_rules
from engine import GAMES
from tests.e2e.conftest import session_of
from tests.rules import page_checks


def page_problems(embed: dict) -> list[str]:
    """What is wrong with one rules page as the sandbox received it (its embed's description)."""
    text = embed.get("description", "")
    problems = [f"hard-wrapped: {wrap}" for wrap in page_checks.hard_wraps(text)]
    problems += [f"asterisks: {line}" for line in page_checks.stray_markdown(text)]
    problems += [f"unset default: {line}" for line in page_checks.unset_defaults(text)]
    if "· Quick start" in embed["title"]:
        problems += page_checks.quick_start_problems(text)
    if "· Rulings" in embed["title"] and len(text) > page_checks.RULINGS_PAGE_CHARS:
        problems.append(f"a rulings page of {len(text)} characters")
    return [f"{embed['title']}: {problem}" for problem in problems]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_rules_shows_every_page_of_every_game_privately(world, game: str) -> None:
    alice = world.players["alice"]
    result = await world.server.run_command(alice, world.channel, "rules", game=game)
    assert result.ok and result.ephemeral, result
    assert result.message.ephemeral_for == alice.id
    message = result.message
    assert message.embeds[0]["title"] == f"How to play {GAMES[game].display_name} · Quick start"
    headings, problems = [], []
    for number in range(len(pages.pages(game))):
        title = message.embeds[0]["title"]
        assert title.startswith(f"How to play {GAMES[game].display_name}"), title
        assert f"Page {number + 1} of {len(pages.pages(game))}" in message.embeds[0]["footer"]["text"]
        headings.append(title.split(" · ")[1].split(" (")[0])
        problems += page_problems(message.embeds[0])
        if number + 1 < len(pages.pages(game)):
            turned = await world.press(alice, message, "Next ▶")
            assert turned.ok and turned.response_type == 7 and turned.ephemeral, turned
            message = turned.message if turned.message is not None else message
    assert list(dict.fromkeys(headings)) == list(pages.SECTIONS.values())
    assert headings.count("Quick start") == 1
    assert not problems, "\n".join(problems)
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


async def test_how_to_play_on_the_lobby_and_rules_in_play_on_the_table_open_rules_privately(world) -> None:
    alice, carol = world.players["alice"], world.players["carol"]
    lobby = (await world.play(alice, game="tokenize")).message
    asked = await world.press(world.outsider, lobby, "How to play")  # anyone may read, seated or not
    assert asked.ok and asked.ephemeral and asked.message.ephemeral_for == world.outsider.id
    assert asked.message.embeds[0]["title"] == "How to play TOKENIZE · Quick start"
    assert page_checks.quick_start_problems(asked.message.embeds[0]["description"]) == []
    setup = await world.press(world.outsider, asked.message, "Next ▶")
    assert setup.ok and setup.response_type == 7, setup
    assert "TOKENIZE · Setup" in (setup.message or asked.message).embeds[0]["title"]
    assert pages.HOUSE_RULE in (setup.message or asked.message).text()
    for name in ("bob", "carol"):
        await world.press(world.players[name], lobby, "Join")
    await world.press(alice, lobby, "Start")
    table = world.message(lobby.id)
    before = len(table.versions)
    assert "Bonus rule" not in table.text()  # the rule cards are not on the table message, ...
    in_play = await world.press(world.outsider, table, "Rules in play")  # ... but one press away, for anyone
    assert in_play.ok and in_play.ephemeral and in_play.message.ephemeral_for == world.outsider.id
    shown = in_play.message.embeds[0]
    assert shown["title"] == "📜 Rules in play · TOKENIZE"
    session = session_of(world)
    dealt = [f"{field.name}{house_rules.MARKER}" for field in session.view(None).rules]
    assert [field["name"] for field in shown["fields"]] == dealt  # this table's three bonus rule cards
    asked = await world.press(world.outsider, in_play.message, "How to play")
    assert asked.ok and asked.ephemeral and "TOKENIZE" in asked.message.embeds[0]["title"]
    assert "Quick start" in asked.message.embeds[0]["title"]
    turned = await world.press(world.outsider, asked.message, "Next ▶")
    assert turned.ok and turned.response_type == 7 and "Setup" in (turned.message or asked.message).text()
    assert len(world.message(lobby.id).versions) == before  # the table message was not touched
    rules_id = table.button("Rules in play")["custom_id"]
    other = await world.server.run_command(world.players["dave"], world.other_channel, "play", game="foist")
    for forged_id, words in (
        (rules_id.replace(session.table_id, "0badc0de"), "no longer exists"),
        (rules_id.replace(":rules", ":rulez"), "not one of mine"),
    ):
        forged = await world.server.press(carol, other.message, forged_id, forged=True)
        assert forged.ok and forged.ephemeral and words in forged.message.text(), forged.message.text()
    assert len(world.message(lobby.id).versions) == before
