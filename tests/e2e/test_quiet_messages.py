"""A newcomer's first game says each thing once and in few words, through the sandbox: a link to the table
is a short masked link (a turn line, a turn DM, "already a table here"), never a long address written out;
the final scores show once, on the table message, not again in the private view of the move that ended the
game; a Foist card is its emoji or its number, not both; MINIMIZE's standings count rounds survived, not
points; and the lobby's green button is Start once the game can start, with Join grey (the host sits
already), and no option for a table of another size."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import discord
import pytest

from tests.e2e import reading
from tests.e2e.conftest import World, card_emojis_shown, card_emojis_synced

MASKED = re.compile(r"\[Go to the table\]\((https://discord\.com/channels/\d+/\d+(?:/\d+)?)\)")
"""A masked link to a table message (or its channel)."""
LINE_MAX = 80
"""The longest line of words a phone shows without a break, about (a masked link counts as its words)."""


def _shown_lines(text: str) -> list[str]:
    """The lines of ``text`` as Discord shows them: a masked link as its words."""
    return MASKED.sub("Go to the table", text).split("\n")


def _assert_one_masked_link(text: str, world: World, message_id: int | None = None) -> None:
    """``text`` links to the test channel's table message by one masked link, and writes out no address;
    its lines are short."""
    links = MASKED.findall(text)
    channel = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}"
    assert links == [channel if message_id is None else f"{channel}/{message_id}"], text
    assert "https://" not in MASKED.sub("", text), text  # no bare address beside it
    assert all(len(line) <= LINE_MAX for line in _shown_lines(text)), text


def _style(message: Any, label: str) -> int:
    (button,) = [button for button in message.buttons() if button.get("label") == label]
    return button["style"]


async def test_a_turn_line_and_a_turn_dm_link_to_the_table_by_a_masked_link(world: World) -> None:
    carol = world.players["carol"]
    by_dm = await world.server.run_command(carol, world.channel, "turns", how="dm", scope="server")
    assert by_dm.ok
    table = await world.open_table(turn_seconds=600)
    for _ in range(12):  # Foist: "No thanks" passes the turn while tokens last
        current = world.message(table.id)
        owner = world.turn_owner(current)
        if owner is carol:
            await world.server.wait_for(lambda: world.server.dm_messages(carol), timeout=5)
        else:
            await world.server.wait_for(
                lambda owner=owner: any(
                    not line.deleted and int(line.allowed_mentions["users"][0]) == owner.id
                    for line in world.turn_lines()
                ),
                timeout=5,
            )
        if world.turn_lines() and world.server.dm_messages(carol):
            break
        pressed = await world.press(owner, current, "No thanks")
        assert pressed.ok and pressed.response_type == 7
    lines = world.turn_lines()
    assert lines and world.server.dm_messages(carol)
    for line in lines:
        assert line.content.startswith("🔔 <@"), line.content
        _assert_one_masked_link(line.content, world, table.id)
    notice = world.server.dm_messages(carol)[0]
    assert notice.content.startswith("⏳ It is your turn at the **Foist** table."), notice.content
    _assert_one_masked_link(notice.content, world, table.id)


async def test_already_a_table_in_this_channel_links_to_it_by_a_masked_link(world: World) -> None:
    table = await world.open_table()
    again = await world.play(world.players["dave"], game="foist")
    assert again.ephemeral and "There is already a Foist table in this channel." in again.message.text()
    _assert_one_masked_link(again.message.text(), world, table.id)


def _final_scores_shown(world: World) -> list[Any]:
    """The channel's messages (ephemeral answers too) that show the final scores now (the winner's line)."""
    return [
        message
        for message in world.channel.messages
        if message.author.bot and not message.deleted and "1. 🏆" in message.text()
    ]


@pytest.mark.bot_settings(card_emoji_decks=["fo"])
async def test_final_scores_show_once_and_a_foist_card_is_its_emoji_alone(world: World) -> None:
    await card_emojis_synced(world)
    table = await world.open_table()
    final = await world.play_to_the_end(table, random.Random(7))
    assert "Foist: final scores" in reading.title(final)
    await world.server.wait_for(lambda: len(_final_scores_shown(world)) == 1, timeout=5)
    assert [message.id for message in _final_scores_shown(world)] == [table.id]
    ended = [m for m in world.channel.messages if m.ephemeral_for is not None and "🏁" in m.text()]
    assert [message.text() for message in ended] == [
        "🏁 The game is over.\nThe final scores are on the table message."
    ], "the private view of the last move says the game is over, without the scores"
    assert card_emojis_shown(world, final, "fo"), "cards shown as their emojis"
    for version in world.message(table.id).versions:
        text = json.dumps(version, ensure_ascii=False)
        doubled = re.search(r"<:fo_(\d+)_[0-9a-f]{6}:\d+> \1\b", text)
        assert doubled is None, doubled[0]


@pytest.mark.bot_settings(card_emoji_decks=[])
async def test_minimize_standings_count_rounds_survived(world: World) -> None:
    table = await world.open_table(game="minimize")
    final = await world.play_to_the_end(table, random.Random(5), prefer=("Challenge",))
    standings = [line for line in final.text().split("\n") if re.match(r"\d\. ", line)]
    assert len(standings) == 3, final.text()
    assert all(re.search(r"\*\*\d+\*\* rounds? survived \(", line) for line in standings), standings
    assert not any("point" in line for line in standings), standings
    assert any("won the final" in line for line in standings)


async def test_the_lobby_makes_start_green_once_it_can_start_and_join_grey(world: World) -> None:
    alice = world.players["alice"]
    opened = await world.play(alice, game="foist")
    lobby = opened.message
    assert _style(lobby, "Join") == _style(lobby, "Start") == discord.ButtonStyle.secondary.value
    for _ in range(2):
        added = await world.press(alice, lobby, "Add AI player")
        assert added.ok, added
    lobby = world.message(lobby.id)
    assert _style(lobby, "Start") == discord.ButtonStyle.success.value
    assert _style(lobby, "Join") == discord.ButtonStyle.secondary.value
    green = [b["label"] for b in lobby.buttons() if b["style"] == discord.ButtonStyle.success.value]
    assert green == ["Start"]


async def test_the_lobby_shows_only_the_options_for_the_players_seated(world: World) -> None:
    alice = world.players["alice"]
    opened = await world.play(alice, game="minimisere")
    lobby = opened.message
    alone = lobby.text(components=True)
    assert "3 players:" not in alone and "4 or 5 players" not in alone, alone
    for _ in range(2):
        assert (await world.press(alice, lobby, "Add AI player")).ok
    three = world.message(lobby.id).text(components=True)
    assert "3 players: end at the target score" in three and "4 or 5 players" not in three, three
    assert (await world.press(alice, lobby, "Add AI player")).ok
    four = world.message(lobby.id).text(components=True)
    assert "4 or 5 players: Nines instead of Deuces" in four and "3 players:" not in four, four
