"""Ratings through the sandbox with the real discord.py client: /leaderboard by rating, /stats with its
chart (a PNG attachment), /history, /table season, /table forget, and a server's data kept to itself.

The results are stored through the bot's own database (as a finished table stores them), so the games
and their order are known; a whole game through the sandbox is in ``test_foist_game.py``.
"""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta, timezone

from PIL import Image

from storage import GameResult, SeatResult
from tests.e2e.conftest import World, refused, stored

START = datetime(2026, 11, 1, 20, 0, tzinfo=timezone.utc)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def store_games(world: World, guild_id: int, games: list[list[str]], first_minute: int = 0) -> None:
    """Store finished Foist games in ``guild_id``: each lists the members' names from first to last place."""
    for number, order in enumerate(games):
        minute = first_minute + number * 30
        await world.bot.db.record_result(
            GameResult(
                table_id=f"{guild_id}-{minute}",
                guild_id=guild_id,
                channel_id=world.channel.id,
                game="foist",
                options={},
                seed=number,
                actions=[],
                started_at=START + timedelta(minutes=minute),
                finished_at=START + timedelta(minutes=minute + 20),
                seats=[
                    SeatResult(seat, world.players[name].id, name, -10 * place, place + 1)
                    for seat, (place, name) in enumerate(enumerate(order))
                ],
            )
        )


def board_names(text: str) -> list[str]:
    """The names on a leaderboard's lines, in order."""
    return re.findall(r"^\d+\. \*\*([^*]+)\*\*", text, flags=re.MULTILINE)


async def test_leaderboard_stats_history_and_a_server_kept_to_itself(world: World) -> None:
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    other = world.server.add_guild("Other Club")
    await store_games(
        world, world.guild.id, [["alice", "bob", "carol"]] * 4 + [["bob", "alice", "carol"]] * 2
    )
    await store_games(world, other.id, [["dave", "alice"]] * 6)  # another server: dave beats alice there

    # Default minimum of 5 games: the three of them are listed, best rating first.
    board = await world.server.run_command(bob, world.channel, "leaderboard", game="foist")
    assert board.ok and not board.ephemeral
    assert board_names(board.message.text()) == ["alice", "bob", "carol"], board.message.text()
    expected = await world.bot.db.rating_leaderboard(world.guild.id, "foist")
    assert f"**alice**: {expected.rows[0].ordinal:.1f} · 6 games · 4 wins" in board.message.text()
    best = await world.server.run_command(bob, world.channel, "leaderboard")
    assert "**alice**" in best.message.text() and "in Foist" in best.message.text()
    assert "dave" not in best.message.text()

    # An admin raises the minimum: nobody has 7 games, so all three are provisional, with their count.
    admin = world.guild.add_member("admin", manage_guild=True)
    changed = await world.server.run_command(admin, world.channel, "table defaults", min_games=7)
    assert changed.ok and changed.ephemeral and "at least 7 games" in changed.message.text()
    provisional = await world.server.run_command(bob, world.channel, "leaderboard", game="foist")
    text = provisional.message.text()
    assert board_names(text) == ["alice", "bob", "carol"] and "Provisional: fewer than 7" in text, text
    assert text.count("· 6 of 7 games ·") == 3 and "Nobody" not in text
    await world.server.run_command(admin, world.channel, "table defaults", min_games=5)

    # /stats: only for the asker unless shared, with the rating chart attached as a PNG.
    stats = await world.server.run_command(alice, world.channel, "stats")
    assert stats.ok and stats.ephemeral
    text = stats.message.text()
    assert "Games\n6" in text and "Wins\n4 (67%)" in text and "Average placement\n1.33" in text, text
    assert "Best game\nFoist (6 games)" in text and "2nd of 3 · 2nd of 3 · 1st of 3" in text
    [picture] = stats.message.attachments
    assert picture["filename"] == "rating.png" and picture["content_type"] == "image/png"
    content = world.server.attachment_content[picture["id"]]
    assert content.startswith(PNG_SIGNATURE) and Image.open(io.BytesIO(content)).size == (640, 260)
    assert stats.message.embeds[0]["image"]["url"] == "attachment://rating.png"
    shared = await world.server.run_command(
        alice, world.channel, "stats", player=bob, game="foist", share=True
    )
    assert shared.ok and not shared.ephemeral and "bob: Foist" in shared.message.text()
    await refused(
        world,
        await world.server.run_command(alice, world.channel, "stats", player=world.outsider),
        "no rated",
    )

    # /history: newest first, with each game's id; only this server's games.
    history = await world.server.run_command(alice, world.channel, "history")
    assert history.ok and history.ephemeral
    lines = history.message.embeds[0]["description"].splitlines()
    assert len(lines) == 6 and all("2026-11-01 · Foist" in line for line in lines)
    assert [line.split("· ")[-1] for line in lines] == ["2nd of 3"] * 2 + ["1st of 3"] * 4
    game_ids = [int(match) for match in re.findall(r"`#(\d+)`", history.message.text())]
    here = [
        row[0]
        for row in stored(
            world.database_url, "SELECT id FROM games WHERE guild_id = ? ORDER BY id DESC", (world.guild.id,)
        )
    ]
    assert game_ids == here
    assert "/replay game:<id>" in history.message.text()
    assert world.server.violations == []


async def test_seasons_and_forgetting_a_member(world: World) -> None:
    bob = world.players["bob"]
    admin = world.guild.add_member("admin", manage_guild=True)
    await store_games(world, world.guild.id, [["alice", "bob", "carol"]] * 5)

    started = await world.server.run_command(admin, world.channel, "table season")
    assert started.ok and not started.ephemeral and "Season 2 has begun" in started.message.text()
    now = await world.server.run_command(bob, world.channel, "leaderboard", game="foist")
    assert board_names(now.message.text()) == [] and "season 2" in now.message.text()
    assert "Nobody has a rated game yet this season." in now.message.text()
    past = await world.server.run_command(bob, world.channel, "leaderboard", game="foist", season=1)
    assert board_names(past.message.text()) == ["alice", "bob", "carol"]
    assert "season 1 (closed)" in past.message.text()
    await refused(
        world, await world.server.run_command(bob, world.channel, "leaderboard", season=3), "no season 3"
    )
    await store_games(world, world.guild.id, [["carol", "bob", "alice"]] * 5, first_minute=1000)
    now = await world.server.run_command(bob, world.channel, "leaderboard", game="foist")
    assert board_names(now.message.text()) == ["carol", "bob", "alice"]

    forgot = await world.server.run_command(admin, world.channel, "table forget", member=bob)
    assert forgot.ok and forgot.ephemeral and "10 seats" in forgot.message.text()
    for season in (1, 2):
        board = await world.server.run_command(
            admin, world.channel, "leaderboard", game="foist", season=season
        )
        assert "bob" not in board_names(board.message.text()) and len(board_names(board.message.text())) == 2
    await refused(world, await world.server.run_command(bob, world.channel, "history"), "no finished games")
    await refused(world, await world.server.run_command(bob, world.channel, "stats"), "no rated")
    seats_of = "SELECT COUNT(*) FROM game_seats WHERE user_id = ?"
    assert stored(world.database_url, seats_of, (bob.id,)) == [(0,)]
    assert stored(world.database_url, seats_of, (0,)) == [(10,)]
    await refused(
        world, await world.server.run_command(admin, world.channel, "table forget", member=bob), "nothing"
    )
    assert world.server.violations == []
