"""What a press costs the bot: over a whole game, its end included, at most one REST request per press
(the answer itself carries the new table, the scoreboard too); the turn clock moves without job churn;
and a move writes no log line at INFO.

Besides the answers, a turn that passes to another person costs at most two background requests that no
answer waits for: the line that mentions them in the channel, and its deletion once the turn is
over. A turn over before its line went out costs none (presses in quick succession, as here)."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest
from apscheduler.events import EVENT_JOB_ADDED, EVENT_JOB_REMOVED

from tests.e2e import reading
from tests.e2e.conftest import World, live_tables


def answers_and_turn_lines(
    world: World, table: Any, requests: list[tuple[str, str, int]]
) -> tuple[list, list]:
    """Split ``requests`` into the presses' answers and the turn lines' sends and deletions; fails on any
    other request (an edit of the table message, most of all)."""
    answers = [request for request in requests if "/interactions/" in request[1]]
    lines = [request for request in requests if "/interactions/" not in request[1]]
    messages = f"/channels/{table.channel_id}/messages"
    for method, path, _ in lines:
        assert (method, path) == ("POST", messages) or (
            method == "DELETE" and path.startswith(messages + "/") and not path.endswith(str(table.id))
        ), lines
    sent = [line for line in lines if line[0] == "POST"]
    assert len(lines) == 2 * len(sent)  # every line sent was deleted: its turn is over
    return answers, sent


async def press_on_the_table_until_the_end(world: World, table: Any, rng: random.Random) -> int:
    """Press public actions on the table message until the scoreboard shows; returns the presses."""
    presses = 0
    for _ in range(500):
        current = world.message(table.id)
        if "final scores" in reading.title(current):
            return presses
        owner = world.turn_owner(current)
        actions = [button for button in current.buttons() if ":a." in button["custom_id"]]
        result = await world.server.press(owner, current, rng.choice(actions)["custom_id"])
        presses += 1
        assert result.ok and result.response_type == 7, result  # answered with the table itself
    raise AssertionError("the game did not end")


@pytest.mark.bot_settings(default_turn_seconds=600)
async def test_a_whole_game_costs_one_request_per_press_and_no_clock_churn(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    table = await world.open_table()
    (session,) = live_tables(world).values()
    churn: list[tuple[int, str]] = []
    world.bot.scheduler.add_listener(
        lambda event: churn.append((event.code, event.job_id)), EVENT_JOB_ADDED | EVENT_JOB_REMOVED
    )
    turn_job = world.bot.scheduler.get_job(f"turn:{session.table_id}")
    assert turn_job is not None
    requests_before = len(world.server.request_log)
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        presses = await press_on_the_table_until_the_end(world, table, random.Random(4))
        await asyncio.sleep(0.3)  # any edit the end would add has been sent by now
    answers, lines = answers_and_turn_lines(world, table, list(world.server.request_log)[requests_before:])
    assert presses > 10 and len(answers) <= presses, answers[-5:]  # no separate edit, not even the end
    assert len(lines) <= presses
    # One job per table, moved along: none added or removed per move; the last move removes it (and the
    # scoreboard arms its "Play again" window).
    turn_id = f"turn:{session.table_id}"
    assert churn == [(EVENT_JOB_REMOVED, turn_id), (EVENT_JOB_ADDED, f"rematch:{session.table_id}")]
    assert world.bot.scheduler.get_job(turn_id) is None
    # Nothing at INFO per move: only the end of the game swaps the turn clock for the rematch window.
    loud = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO and r.name != "bot.bot"]
    assert set(loud) <= {
        f"Removed job {turn_id}",
        'Added job "TableRuntime.rematch_ran_out" to job store "default"',
    }


async def test_a_game_ended_from_a_private_view_costs_one_table_edit_more(world: World) -> None:
    table = await world.open_table()
    rng = random.Random(9)
    hands: dict[int, Any] = {}
    for _ in range(500):
        current = world.message(table.id)
        if "final scores" in reading.title(current):
            break
        (actor,) = world.users_to_act(current)
        hand = (await world.press(actor, current, "My hand")).message
        hands[actor.id] = hand
        before = len(world.server.request_log)
        label = "Take" if rng.random() < 0.6 else "No thanks"
        result = await world.press(actor, hand, label)
        assert result.ok and result.response_type == 7  # the private view redrawn, or the final scores
        await world.server.wait_for(  # the answer and the table's edit (a turn line may come between)
            lambda n=before: any(
                method == "PATCH" and f"/messages/{table.id}" in path
                for method, path, _ in list(world.server.request_log)[n:]
            ),
            timeout=5,
        )
        await asyncio.sleep(0.05)
        made = [(method, path) for method, path, _ in list(world.server.request_log)[before:]]
        (answer,) = [path for method, path in made if path.endswith("/callback")]
        token = answer.split("/")[3]
        edits = [path for method, path in made if method == "PATCH" and f"/messages/{table.id}" in path]
        assert len(edits) == 1, made  # the answer, then one edit of the table message
        # Other players' open views may follow the game; the presser's is redrawn by the answer alone.
        assert not [path for method, path in made if token in path and path != answer], made
    final_view = result.message  # the scores are shown once, on the table message
    assert "The game is over" in final_view.text() and final_view.buttons() == []
    assert "final scores" in reading.title(world.message(table.id))


async def test_a_press_is_answered_by_its_callback_alone(world: World) -> None:
    """The answer edits the table message through the interaction callback
    (``InteractionResponse.edit_message``): one request, no edit of the message besides it."""
    table = await world.open_table()
    owner = world.turn_owner(table)
    before = len(world.server.request_log)
    result = await world.press(owner, table, "No thanks")
    assert result.ok and result.response_type == 7, result
    # The next player's turn line may follow in the background: it is no request of the press.
    made = list(world.server.request_log)[before:]
    (answer,) = [request for request in made if "/interactions/" in request[1]]
    assert answer[0] == "POST" and answer[1].endswith("/callback") and answer[2] < 300, answer
    assert not [request for request in made if request[0] == "PATCH"], made
    assert reading.footer(world.message(table.id)).endswith("move 2")
    assert world.server.violations == []


@pytest.mark.bot_settings(default_turn_seconds=600, rematch_seconds=1)
async def test_a_play_again_window_that_runs_out_costs_no_request_and_a_late_press_clears_it(
    world: World,
) -> None:
    """The scoreboard says until when "Play again" is open. When the window runs out with nobody choosing,
    the table closes without a request of its own (the game still costs one request per press, its end
    included); a late press on "Play again" is answered by taking the buttons away, in its own answer."""
    table = await world.open_table()
    requests_before = len(world.server.request_log)
    presses = await press_on_the_table_until_the_end(world, table, random.Random(4))
    scoreboard = world.message(table.id)
    assert "Play again?" in scoreboard.text() and "<t:" in scoreboard.text()
    await world.server.wait_for(lambda: live_tables(world) == {}, timeout=10)
    await asyncio.sleep(0.3)  # any edit the closing would add has been sent by now
    answers, lines = answers_and_turn_lines(world, table, list(world.server.request_log)[requests_before:])
    assert len(answers) == presses and len(lines) <= presses
    assert [button["label"] for button in world.message(table.id).buttons()] == [
        "Play again",
        "Leave",
        "Replay",
    ]
    late = await world.press(world.players["bob"], world.message(table.id), "Play again")
    assert late.ok and late.response_type == 7 and not late.ephemeral, late
    assert [button["label"] for button in world.message(table.id).buttons()] == ["Replay"]
    assert "window has closed" in world.message(table.id).text()
    assert "final scores" in world.message(table.id).text()  # the scores stay
    assert world.server.violations == []
