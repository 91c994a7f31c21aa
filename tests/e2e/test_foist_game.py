"""A whole Foist game through the sandbox with the real discord.py client: /play to /leaderboard."""

from __future__ import annotations

import random
import re

import pytest

from tests.e2e import reading
from tests.e2e.conftest import (
    World,
    action_labels,
    card_emojis_shown,
    card_emojis_synced,
    play_to_the_end,
    stored,
)

SCORE = re.compile(r"\*\*(?P<points>-?\d+)\*\* points?\b")


@pytest.mark.bot_settings(card_emoji_decks=["fo"])
async def test_a_full_game_from_play_to_leaderboard(world: World) -> None:
    await card_emojis_synced(world)  # a card is shown as its emoji (below), in one request per press
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    table = await world.open_table()
    assert "Foist" in reading.title(table)
    assert world.turn_owner(table) in (alice, bob, carol)
    assert "clock runs out <t:" in table.text()

    for name, player in (("alice", alice), ("bob", bob), ("carol", carol)):
        hand = await world.press(player, table, "My hand")
        assert hand.ok and hand.ephemeral and hand.message.ephemeral_for == player.id
        assert "Your tokens" in hand.message.text() and f"Private to {name}" in hand.message.text()

    # A press on the table message updates it with exactly one request: its own interaction answer,
    # which carries the new table (no extra REST edit). The open private views follow the game through
    # their own interaction webhooks. The next player's turn line (sent, then deleted when the turn is over,
    # in the background) is no request of the press.
    lines = f"/channels/{table.channel_id}/messages"
    for _ in range(5):
        current = world.message(table.id)
        sent_before = len(world.server.request_log)
        result = await world.press(world.turn_owner(current), current, "No thanks")
        assert result.ok and result.response_type == 7
        requests = list(world.server.request_log)[sent_before:]
        table_requests = [
            (method, "/callback" in path)
            for method, path, _ in requests
            if "/webhooks/" not in path
            and not (method in ("POST", "DELETE") and path.startswith(lines) and str(table.id) not in path)
        ]
        assert table_requests == [("POST", True)], requests
    live_hand = hand.message
    on_card = re.search(r"with (\d+) tokens? on it", world.message(table.id).text())[1]
    await world.server.wait_for(lambda: f"+{on_card} token" in live_hand.text())  # the hand follows the game

    table = await play_to_the_end(world, table, random.Random(7))
    assert world.server.violations == []
    assert card_emojis_shown(world, table, "fo"), "the card up shown as its emoji on the table message"

    # The scoreboard: ascending points, and the result stored once.
    points = [int(match["points"]) for match in SCORE.finditer(reading.description(table))]
    assert len(points) == 3 and points == sorted(points)

    def stored_games() -> list:
        return stored(world.database_url, "SELECT id, game, guild_id FROM games")

    games = await world.server.wait_for(stored_games, timeout=5)  # written just after the answer
    seats = stored(world.database_url, "SELECT user_id, points, rank FROM game_seats ORDER BY points")
    assert [(game, guild) for _, game, guild in games] == [("foist", world.guild.id)]
    assert [stored_points for _, stored_points, _ in seats] == points
    winners = [user for user, _, rank in seats if rank == 1]
    assert winners and all(points[0] == stored for _, stored, rank in seats if rank == 1)

    # Play again: ✅ for those who stay, leavers struck through, then a fresh lobby with those who stay.
    assert (await world.press(alice, table, "Play again")).ok
    assert "alice ✅" in world.message(table.id).text()
    assert (await world.press(bob, table, "Leave")).ok
    assert "~~bob~~" in world.message(table.id).text()
    messages_before = len(world.public_messages())
    assert (await world.press(carol, table, "Play again")).ok
    await world.server.wait_for(lambda: len(world.public_messages()) > messages_before, timeout=5)
    assert [button["label"] for button in world.message(table.id).buttons()] == ["Replay"]
    lobby = world.public_messages()[-1]
    assert "table open" in reading.title(lobby)
    assert "alice (host)" in lobby.text() and "carol" in lobby.text() and "bob" not in lobby.text()

    # The first game on a new server (minimum 5 games): the leaderboard lists the three as provisional,
    # best rated first, each with their 1 game of 5; /stats says how many rated games remain.
    winner_name = next(name for name, member in world.players.items() if member.id == winners[0])
    first = await world.server.run_command(bob, world.channel, "leaderboard")
    assert first.ok and not first.ephemeral
    text = first.message.text()
    assert "Nobody" not in text and "*Provisional: fewer than 5 rated games*" in text, text
    lines = re.findall(r"^(\d+)\. \*\*(\w+)\*\*: -?[\d,]+ in Foist · 1 of 5 games · (\d) wins?$", text, re.M)
    assert [place for place, _, _ in lines] == ["1", "2", "3"], text
    assert lines[0][1] in {name for name, member in world.players.items() if member.id in winners}
    assert {name for _, name, _ in lines} == {"alice", "bob", "carol"} and lines[0][2] == "1"
    waiting = await world.server.run_command(bob, world.channel, "stats")
    assert "Provisional\n4 more rated games of Foist and the rating counts" in waiting.message.text()

    # The leaderboard shows the result to everyone, once the server lists players after one game.
    admin = world.guild.add_member("admin", manage_guild=True)
    assert (await world.server.run_command(admin, world.channel, "table defaults", min_games=1)).ok
    board = await world.server.run_command(bob, world.channel, "leaderboard")
    assert board.ok and not board.ephemeral and "Provisional" not in board.message.text()
    assert re.search(rf"{winner_name}\*\*: -?[\d,]+ in Foist · 1 game · 1 win", board.message.text()), (
        board.message.text()
    )
    only_foist = await world.server.run_command(bob, world.channel, "leaderboard", game="foist")
    assert "1 game" in only_foist.message.text()

    # Each player's stats: the game counted, with the rating chart as a PNG; the history names the game.
    stats = await world.server.run_command(world.players[winner_name], world.channel, "stats")
    assert stats.ok and stats.ephemeral and "Games\n1" in stats.message.text()
    assert "Provisional" not in stats.message.text() and "more rated game" not in stats.message.text()
    [picture] = stats.message.attachments
    assert world.server.attachment_content[picture["id"]].startswith(b"\x89PNG\r\n\x1a\n")
    history = await world.server.run_command(bob, world.channel, "history")
    assert f"`#{games[0][0]}`" in history.message.text() and "Foist" in history.message.text()

    assert world.server.violations == []


async def test_no_player_ever_sees_another_players_secret(world: World) -> None:
    """Every version of every message each member could see: private views only ever their own."""
    bob = world.players["bob"]
    lobby = (await world.play(world.players["alice"], game="foist")).message
    for name in ("bob", "carol"):
        assert (await world.press(world.players[name], lobby, "Join")).ok
    assert (await world.press(bob, lobby, "DM me my hand")).ok  # DMs count as seen too
    assert (await world.press(world.players["alice"], lobby, "Start")).ok
    table = world.message(lobby.id)
    rng = random.Random(3)
    for _ in range(12):
        for name in ("alice", "bob", "carol"):
            if rng.random() < 0.3:
                await world.press(world.players[name], table, "My hand")
        current = world.message(table.id)
        actor = world.turn_owner(current)
        labels = action_labels(current)
        await world.press(actor, current, rng.choice(labels))
    await play_to_the_end(world, table, rng)

    names = ("alice", "bob", "carol")
    for viewer in names:
        seen = world.server.seen_texts(world.players[viewer])
        assert seen, viewer
        for text in seen:
            for other in names:
                if other != viewer:
                    assert f"Private to {other}" not in text, (viewer, text)
            if "Your tokens" in text:
                assert f"Private to {viewer}" in text, (viewer, text)
    # The public table, in every version it ever had, shows no token count of any player while playing.
    for version in world.message(table.id).versions[:-1]:
        assert "Your tokens" not in str(version)
    assert any("Private to bob" in text for text in world.server.seen_texts(bob))
    assert world.server.violations == []


async def test_the_generic_driver_plays_foist_through_private_views(world: World) -> None:
    table = await world.open_table(seated=("bob", "carol", "dave"))
    final = await world.play_to_the_end(table, random.Random(3))
    assert "Foist: final scores" in final.text()
    assert world.server.violations == []
