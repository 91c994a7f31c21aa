"""The replay message of every game, at every step of a finished game: within Discord's limits (its cards
shown with their emojis), the moves in order, and the hands revealed only at the end."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from cogs.replay import Replay, replay_message
from engine import GAMES
from storage import SeatResult, StoredGame

NAMES = ("alice", "bob", "carol")


def finished(game: str, seed: int) -> StoredGame:
    rules = GAMES[game]
    state = rules.new_game(3, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)).code)
    return StoredGame(
        id=7,
        table_id="abcd1234",
        guild_id=1,
        game=game,
        options={},
        seed=seed,
        actions=list(state.history),
        finished_at=datetime(2026, 11, 24, tzinfo=timezone.utc),
        seats=[
            SeatResult(
                standing.seat, 10 + standing.seat, NAMES[standing.seat], standing.points, standing.rank
            )
            for standing in state.standings()
        ],
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_step_of_a_replay_fits_discord_and_only_the_end_reveals_hands(game: str, card_emojis) -> None:
    replay_game = Replay(finished(game, seed=5))
    steps = sorted({0, 1, replay_game.moves // 2, replay_game.moves - 1, replay_game.moves})
    emojis = 0
    for step in steps:
        embed, view, files = replay_message(replay_game, step)
        assert len(embed) <= 6000 and len(embed.fields) <= 25 and len(embed.title) <= 256
        assert all(len(item.custom_id) <= 100 for item in view.children)
        revealed = any(field.name.startswith("🂠") for field in embed.fields)
        has_result = any(field.name == "Result" for field in embed.fields)
        assert has_result == (step == replay_game.moves)
        if step < replay_game.moves:
            assert not revealed
        texts = [embed.description, *(f"{field.name} {field.value}" for field in embed.fields)]
        assert not any(mark in text for text in texts for mark in ("{seat:", "{card:", "{b:"))
        emojis += sum(text.count("<:") for text in texts)
        assert bool(files) == (game == "memory")
    assert emojis > 0
    labels = {
        item.label: item.disabled for item in replay_message(replay_game, replay_game.moves)[1].children
    }
    assert labels == {"⏮ Start": False, "◀ Back": False, "Forward ▶": True, "End ⏭": True}


def test_a_step_beyond_the_game_shows_the_end() -> None:
    replay_game = Replay(finished("foist", seed=2))
    embed, _, _ = replay_message(replay_game, replay_game.moves + 50)
    assert f"move {replay_game.moves} of {replay_game.moves}" in embed.title
