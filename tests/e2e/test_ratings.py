"""Ratings through the sandbox with the real discord.py client: /leaderboard by rating, /stats with its
chart (a PNG attachment), /history, /table season, /table forget, and a server's data kept to itself; a
rating read in players' words (a number on a familiar scale and how sure it is, never the model's names)
and a chart that spells every game's and player's name.

The results are stored through the bot's own database (as a finished table stores them), so the games
and their order are known; a whole game through the sandbox is in ``test_foist_game.py``.
"""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta, timezone

from PIL import Image

from art.fonts import bold
from cogs.rating_chart import AXIS_SIZE, TITLE_SIZE, rating_chart_png
from engine import GAMES
from storage import GameResult, SeatResult
from tests.e2e.conftest import World, refused, stored

START = datetime(2026, 11, 1, 20, 0, tzinfo=timezone.utc)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MODEL_WORDS = re.compile(r"μ|σ|\bmu\b|\bsigma\b|ordinal|openskill|plackett", re.IGNORECASE)
"""The rating model's names, which no message a player reads uses."""
MISSING_GLYPH = "\U0010fffd"
"""A character no font has: what a font draws for it is its box for a missing glyph."""


def shown(ordinal: float) -> str:
    """A stored rating as players read it: everyone starts at 1,000, 40 points per point of openskill's
    conservative estimate."""
    return f"{round(1000 + 40 * ordinal):,}"


def stored_rating(world: World, guild_id: int, user_id: int, game: str) -> tuple[float, float]:
    """``(ordinal, sigma)`` of a player's stored rating in a game, in the first season."""
    [(ordinal, sigma)] = stored(
        world.database_url,
        "SELECT ordinal, sigma FROM ratings WHERE guild_id = ? AND user_id = ? AND game = ? AND season = 1",
        (guild_id, user_id, game),
    )
    return ordinal, sigma


async def store_games(
    world: World, guild_id: int, games: list[list[str]], first_minute: int = 0, game: str = "foist"
) -> None:
    """Store finished games of ``game`` in ``guild_id``: each lists members (keys of ``world.players``,
    stored under their display names) from first to last place."""
    for number, order in enumerate(games):
        minute = first_minute + number * 30
        await world.bot.db.record_result(
            GameResult(
                table_id=f"{guild_id}-{minute}",
                guild_id=guild_id,
                channel_id=world.channel.id,
                game=game,
                options={},
                seed=number,
                actions=[],
                started_at=START + timedelta(minutes=minute),
                finished_at=START + timedelta(minutes=minute + 20),
                seats=[
                    SeatResult(
                        seat, world.players[name].id, world.players[name].global_name, -10 * place, place + 1
                    )
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
    assert f"**alice**: {shown(expected.rows[0].ordinal)} · 6 games · 4 wins" in board.message.text()
    assert not MODEL_WORDS.search(board.message.text()), board.message.text()
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
    ordinal, sigma = stored_rating(world, world.guild.id, alice.id, "foist")
    assert sigma > 5 and f"Rating\n**{shown(ordinal)}** in Foist, settling" in text, text
    assert not MODEL_WORDS.search(text), text
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


async def test_a_rating_reads_in_players_words(world: World) -> None:
    bob, carol = world.players["bob"], world.players["carol"]
    zoe = world.players["zoe"] = world.guild.add_member("zoe", global_name="Zoë Ångström")
    await store_games(world, world.guild.id, [["zoe", "alice", "bob"]], game="minimisere")

    # A newcomer after one game: a number on the familiar scale, provisional, and no model names.
    stats = await world.server.run_command(zoe, world.channel, "stats", game="minimisere")
    assert stats.ok
    text = stats.message.text()
    ordinal, _ = stored_rating(world, world.guild.id, zoe.id, "minimisere")
    assert f"Rating\n**{shown(ordinal)}**, provisional" in text, text
    assert "Provisional\n4 more rated games and the rating counts on the leaderboard." in text
    assert "Everyone starts at 1,000" in text and not MODEL_WORDS.search(text), text
    everything = await world.server.run_command(zoe, world.channel, "stats")
    assert f"Rating\n**{shown(ordinal)}** in Minimisère, provisional" in everything.message.text()
    assert not MODEL_WORDS.search(everything.message.text())
    board = await world.server.run_command(bob, world.channel, "leaderboard", game="minimisere")
    text = board.message.text()
    assert f"**Zoë Ångström**: {shown(ordinal)} · 1 of 5 games · 1 win" in text, text
    assert "Provisional: fewer than 5 rated games" in text and not MODEL_WORDS.search(text), text

    # The chart spells the game's and the player's name: the font draws è, ë and Å (none is its box
    # for a missing glyph), the attached chart is the one drawn with the accents, and it differs from the
    # one drawn without them.
    [picture] = stats.message.attachments
    content = world.server.attachment_content[picture["id"]]
    title = "Zoë Ångström: Minimisère rating"
    assert content == rating_chart_png([round(1000 + 40 * ordinal)], title)
    assert content != rating_chart_png([round(1000 + 40 * ordinal)], "Zoë Ångström: Minimisere rating")
    names = "".join(rules.display_name for rules in GAMES.values()) + "Zoë Ångström ÀÉÎÕÜàéîõüçñøßłő"
    for size in (TITLE_SIZE, AXIS_SIZE):
        box = bytes(bold(size).getmask(MISSING_GLYPH))
        assert [char for char in set(names) if char != " " and bytes(bold(size).getmask(char)) == box] == []
    # A character the font lacks is left out rather than drawn as a box.
    assert rating_chart_png([1000], "Zoë 🎲: Foist rating") == rating_chart_png([1000], "Zoë : Foist rating")

    # Enough games and the rating settles.
    await store_games(
        world,
        world.guild.id,
        [[("alice", "bob", "carol")[(number + seat) % 3] for seat in range(3)] for number in range(30)],
        first_minute=100,
    )
    ordinal, sigma = stored_rating(world, world.guild.id, carol.id, "foist")
    stats = await world.server.run_command(carol, world.channel, "stats", game="foist")
    text = stats.message.text()
    assert sigma <= 5 and f"Rating\n**{shown(ordinal)}**, settled" in text, text
    assert world.server.violations == []
