"""Tables nobody plays at, left running: how many REST requests do they cost, and does a person's table beside
them stay quick? On demand (never in the test suite):

    python3 bench/unwatched_tables.py                       # 30 tables, 20 s, unwatched after 60 s
    python3 bench/unwatched_tables.py --watched-seconds 1   # unwatched at once: redrawn every 30 s
    python3 bench/unwatched_tables.py --tables 30 --seconds 20 --game declare

One sandbox and the bot (``python -m bot``, its own process, SQLite), as in ``bench/press_cost.py``. Each of
``--tables`` channels gets a ``--game`` table of one person and two AI seats; the person starts it and leaves
the game ("Leave game"), so its AI seats play every move, one in 0.1 s
(:data:`engine.tables.ai_turns.UNATTENDED_PAUSE_SECONDS`). ``--watched-seconds`` is the bot's
``TABLE_WATCHED_SECONDS``: how long after that last press a table counts as watched (its message edited as
often as its channel allows, drawing on the shared budget of tables with no person seated) before it is
redrawn only every ``TABLE_UNWATCHED_REDRAW_SECONDS``.

Two runs, each a fresh bot: the tables alone for ``--seconds``; then the same with one person's Foist table
beside them (``AI_PAUSE_SECONDS`` 0.5), its person pressing **No thanks** (or **Take**) on the table message
whenever it is their turn.

Printed for each run: REST requests a second overall (mean, and the busiest second), the most edits of one
channel's messages in any 5 s, how many AI moves the tables made, and for the person's table its presses'
answer time (press → the interaction's answer, p50 / max) and how many of its message's edits landed.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from press_cost import bot_environment, custom_id, load_average, settle, stop_process  # noqa: E402

from bot.sandbox_demo import CARD_UP, TURN_OWNER  # noqa: E402
from sandbox import SandboxServer  # noqa: E402


class TimedLog(collections.deque):
    """The sandbox's request log, with the time each request was answered (``times``, perf_counter)."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def append(self, item) -> None:
        super().append(item)
        self.times.append(time.perf_counter())


CHANNEL_EDIT = re.compile(r"^/channels/(?P<channel>\d+)/messages/\d+$")
"""The path of a plain edit (``PATCH``) of a channel message; a press's answer goes elsewhere."""


def most_in_a_window(times: list[float], seconds: float) -> int:
    """The most of ``times`` (sorted) within any ``seconds``."""
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= seconds:
            start += 1
        most = max(most, end - start + 1)
    return most


async def open_and_leave(server: SandboxServer, channel, member, game: str) -> int:
    """A started ``game`` table of ``member`` and two AI seats in ``channel``, which ``member`` then leaves;
    its message id."""
    opened = await server.run_command(member, channel, "play", game=game, bots=2)
    assert opened.ok and not opened.ephemeral, opened
    table_id = opened.message.id
    started = await server.press(
        member, server.message(table_id), custom_id(server.message(table_id), "Start")
    )
    assert started.ok, started
    hand = await server.press(
        member, server.message(table_id), custom_id(server.message(table_id), "My hand")
    )
    assert hand.ok and hand.ephemeral, hand
    asked = await server.press(member, hand.message, custom_id(hand.message, "Leave game"))
    left = await server.press(member, asked.message, custom_id(asked.message, "Yes, leave"))
    assert left.ok, left
    return table_id


async def play_person(
    server: SandboxServer, member, table_id: int, until: float, answers: list[float]
) -> None:
    """``member`` plays Foist at ``table_id`` from its table message until ``until`` (perf_counter) or the
    game's end; each press's answer time goes to ``answers`` (seconds)."""
    rng = random.Random(3)
    while time.perf_counter() < until:
        message = server.message(table_id)
        owner = TURN_OWNER.search(message.text())
        if owner is None:
            return  # the game is over
        if owner["name"] != member.username:
            shown = message.text()
            try:
                await server.wait_for(lambda was=shown: server.message(table_id).text() != was, timeout=10)
            except TimeoutError:
                pass
            continue
        card_up = CARD_UP.search(message.text())
        take = card_up is None or int(card_up["tokens"]) * 3 >= int(card_up["card"]) - 6 or rng.random() < 0.2
        labels = [button["label"] for button in message.buttons()]
        label = "Take" if take or not any(text.startswith("No") for text in labels) else "No"
        pressed = time.perf_counter()
        result = await server.press(member, message, custom_id(message, label))
        answers.append(time.perf_counter() - pressed)
        assert result.ok, result


async def run(args: argparse.Namespace, *, with_person: bool) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="unwatched-tables-"))
    async with SandboxServer(interaction_deadline=3.0) as server:
        server.request_log = requests_log = TimedLog()  # every request of the run, with when it was answered
        guild = server.add_guild("Unwatched tables")
        channels = [guild.add_channel(f"table-{i}") for i in range(args.tables)]
        members = [guild.add_member(f"host{i}") for i in range(args.tables)]
        env = bot_environment(server, guild.id, folder)
        env.update(
            AI_PAUSE_SECONDS="0.5", TABLE_WATCHED_SECONDS=str(args.watched_seconds), CARD_EMOJI_DECKS=""
        )
        with open(folder / "bot.log", "wb") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, cwd=folder, stderr=log, stdout=log
            )
        await server.wait_for_bot(timeout=60)
        await server.wait_for_commands(["play"], timeout=60)
        await settle(server)
        tables = [
            await open_and_leave(server, c, m, args.game) for c, m in zip(channels, members, strict=True)
        ]
        person_table = person_channel = None
        answers: list[float] = []
        requests_before = len(requests_log)
        moves_before = moves_stored(folder / "bot.db")
        started = time.perf_counter()
        until = started + args.seconds
        if with_person:
            channel, alice = guild.add_channel("person"), guild.add_member("alice")
            opened = await server.run_command(alice, channel, "play", game="foist", bots=2)
            assert opened.ok, opened
            person_table, person_channel = opened.message.id, channel.id
            message = server.message(person_table)
            assert (await server.press(alice, message, custom_id(message, "Start"))).ok
            await play_person(server, alice, person_table, until, answers)
        while time.perf_counter() < until:
            await asyncio.sleep(0.2)
        elapsed = time.perf_counter() - started
        requests = list(
            zip(list(requests_log)[requests_before:], requests_log.times[requests_before:], strict=True)
        )
        edits: dict[str, list[float]] = collections.defaultdict(list)  # plain edits by channel id
        for (method, path, _), at in requests:
            found = CHANNEL_EDIT.match(path)
            if method == "PATCH" and found:
                edits[found["channel"]].append(at)
        person_edits = edits.get(str(person_channel), []) if person_channel is not None else []
        moves = moves_stored(folder / "bot.db") - moves_before
        running = sum(1 for t in tables if TURN_OWNER.search(server.message(t).text()))
        await stop_process(process)
    return {
        "requests per second": len(requests) / elapsed,
        "busiest second": most_in_a_window([at for _, at in requests], 1.0),
        "most edits of one channel in 5 s": max(
            (most_in_a_window(t, 5.0) for t in edits.values()), default=0
        ),
        "edits": sum(len(t) for t in edits.values()),
        "AI moves": moves,
        "still running at the end": running,
        "answers": answers,
        "person edits": len(person_edits),
        "seconds": elapsed,
    }


def moves_stored(database: Path) -> int:
    """How many moves the bot's database holds: of the live tables, and of the games finished. (Read from
    the database, as an unwatched table's message does not show every move.)"""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
        ((live,),) = connection.execute("SELECT COUNT(*) FROM live_table_actions").fetchall()
        finished = connection.execute("SELECT actions FROM games").fetchall()
    return live + sum(len(json.loads(actions)) for (actions,) in finished)


async def main_async(args: argparse.Namespace) -> None:
    load_at_start = load_average()
    alone = await run(args, with_person=False)
    beside = await run(args, with_person=True)
    print(
        f"\n{args.tables} {args.game} tables nobody plays at, {args.seconds:g} s, TABLE_WATCHED_SECONDS "
        f"{args.watched_seconds:g} (load average {load_at_start} at start, {load_average()} at end); "
        "command: python3 bench/unwatched_tables.py " + " ".join(sys.argv[1:])
    )
    print(
        "| run | REST requests / s (mean, busiest second) | most edits of one channel in 5 s | edits "
        "| AI moves | person's presses: answer p50 / max | person's table: edits landed |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, figures in (("the tables alone", alone), ("with one person's table", beside)):
        answers = figures["answers"]
        answer = "—"
        if answers:
            p50, most = statistics.median(answers) * 1000, max(answers) * 1000
            answer = f"{len(answers)}: {p50:.0f} / {most:.0f} ms"
        print(
            f"| {name} | {figures['requests per second']:.1f}, {figures['busiest second']} | "
            f"{figures['most edits of one channel in 5 s']} | {figures['edits']} | {figures['AI moves']} | "
            f"{answer} | {figures['person edits'] if answers else '—'} |"
        )
    for figures in (alone, beside):
        if figures["still running at the end"] < args.tables:
            print(f"note: {args.tables - figures['still running at the end']} tables ended during a run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="declare", help="the tables' game (a long one keeps them running)")
    parser.add_argument(
        "--watched-seconds", type=float, default=60.0, help="TABLE_WATCHED_SECONDS of the bot"
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
