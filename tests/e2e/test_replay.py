"""``/replay`` and the scoreboard's "Replay" button through the sandbox: a finished game stepped through
from its stored seed and log, forth and back, to the start and the end, every hand revealed at the end."""

from __future__ import annotations

import random
import re

from tests.e2e import reading
from tests.e2e.conftest import World, stored

REPLAY_TITLE = re.compile(
    r"Replay of game #(?P<id>\d+): Foist, (?P<where>the deal|move (?P<step>\d+) of (?P<moves>\d+))"
)


def where(message) -> str:
    match = REPLAY_TITLE.search(reading.title(message))
    assert match, reading.title(message)
    return match["where"]


async def finished_foist(world: World):
    table = await world.open_table(seated=("bob", "carol"), game="foist")
    final = await world.play_to_the_end(table, random.Random(3), prefer=("Take",))
    assert "final scores" in reading.title(final)
    return final


async def test_the_scoreboard_replay_button_steps_through_the_game_and_reveals_hands_at_the_end(
    world: World,
) -> None:
    final = await finished_foist(world)
    ((game_id, log),) = stored(world.database_url, "SELECT id, actions FROM games")
    moves = log.count("],") + 1
    opened = await world.press(world.players["dave"], final, "Replay")  # anyone in the server may watch it
    assert opened.ok and opened.ephemeral, opened
    replay = opened.message
    assert where(replay) == "the deal" and f"game #{game_id}" in reading.title(replay)
    assert "Next move" in replay.text() and "the hard AI" in replay.text()  # the coach's view of the move
    assert {button["label"]: button.get("disabled", False) for button in replay.buttons()} == {
        "⏮ Start": True,
        "◀ Back": True,
        "Forward ▶": False,
        "End ⏭": False,
    }
    forward = await world.press(world.players["dave"], replay, "Forward ▶")
    assert forward.ok and forward.response_type == 7
    assert where(forward.message) == f"move 1 of {moves}"
    assert "took" in reading.description(forward.message) or "paid" in reading.description(forward.message)
    assert "Result" not in forward.message.text()
    end = await world.press(world.players["dave"], forward.message, "End ⏭")
    text = end.message.text()
    assert where(end.message) == f"move {moves} of {moves}"
    assert "Result" in text and "🏆" in text
    assert all(f"🂠 {name}" in text for name in ("alice", "bob", "carol"))  # every hand revealed at the end
    back = await world.press(world.players["dave"], end.message, "◀ Back")
    assert where(back.message) == f"move {moves - 1} of {moves}" and "🂠" not in back.message.text()
    start = await world.press(world.players["dave"], back.message, "⏮ Start")
    assert where(start.message) == "the deal"
    assert world.server.violations == []


async def test_replay_command_and_the_closed_scoreboard_keeps_its_replay_button(world: World) -> None:
    final = await finished_foist(world)
    for name in ("alice", "bob", "carol"):
        await world.press(world.players[name], final, "Leave")
    closed = world.message(final.id)
    assert [button["label"] for button in closed.buttons()] == ["Replay"]
    ((game_id,),) = stored(world.database_url, "SELECT id FROM games")
    shown = await world.server.run_command(world.players["erin"], world.channel, "replay", game=game_id)
    assert shown.ok and shown.ephemeral and where(shown.message) == "the deal"
    missing = await world.server.run_command(world.players["erin"], world.channel, "replay", game=game_id + 7)
    assert missing.ok and missing.ephemeral and "No finished game with that id" in missing.message.text()
    forged = await world.server.press(
        world.players["erin"], shown.message, f"rp:{game_id + 7}:3:f", forged=True
    )
    assert forged.ok and forged.ephemeral and "No finished game with that id" in forged.message.text()
    # A replay's stepping button pressed on the table message: a replay of its own, not an edit of the table.
    misplaced = await world.server.press(world.players["erin"], closed, f"rp:{game_id}:3:f", forged=True)
    assert misplaced.ok and misplaced.ephemeral and where(misplaced.message).startswith("move 3 of ")
    assert [button["label"] for button in world.message(final.id).buttons()] == ["Replay"]  # unchanged
    assert world.server.violations == []
