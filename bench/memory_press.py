"""Deluxe Memory's press-to-answer latency through the sandbox, on demand (never in the test suite):

    python3 bench/memory_press.py                  # one table, 200 presses, 0.1 s between presses
    python3 bench/memory_press.py --tables 6 --presses 60 --think 0

The real bot (real discord.py client, real SQLite) and the sandbox run in this process, as in
``bench/bench_tables.py``. Each table seats three simulated players and plays Deluxe Memory: the player to
act opens **My hand** (a press), then picks in it, however the bot offers the choice: a choice in a select
menu (as the bot once did), or a row and then a card (as it does now), or another action's button. Every
press is timed from the simulated user's press until the sandbox has the interaction's answer; a player
waits ``--think`` seconds before each press (the background edits of the last move, of the table message
and of the other players' views, then no longer queue before the press). Printed: p50 / p99 / max of
every press and of each kind, the presses per second, the grid pictures uploaded (when the sandbox
logs uploads) and Discord-rule violations, as Markdown rows for ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.no_limits import NO_LIMITS  # noqa: E402
from bot.sandbox_demo import TURN_OWNER, sandbox_bot  # noqa: E402
from sandbox import SandboxServer  # noqa: E402

SEATS = 3
NOT_MOVES = ("My hand", "DM me my hand", "How to play", "Leave game", "I'm back", "◀", "Next")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


async def play(
    server: SandboxServer, channel, seated: list, presses: int, rng: random.Random, timed, think: float
) -> None:
    """Play one table with ``presses`` presses at most, ``think`` seconds before each (``timed(kind,
    seconds)`` records each)."""
    table = (await server.run_command(seated[0], channel, "play", game="memory")).message

    async def press(kind: str, user, message, custom_id: str, value: str | None = None):
        await asyncio.sleep(think)
        started = time.perf_counter()
        if value is None:
            result = await server.press(user, message, custom_id)
        else:
            result = await server.select(user, message, custom_id, [value])
        timed(kind, time.perf_counter() - started)
        return result

    def button(message, label: str) -> str:
        return next(b for b in message.buttons() if b.get("label") == label)["custom_id"]

    for player in seated[1:]:
        await server.press(player, table, button(server.message(table.id), "Join"))
    await server.press(seated[0], table, button(server.message(table.id), "Start"))
    by_name = {member.username: member for member in seated}
    made = 0
    while made < presses:
        current = server.message(table.id)
        turn = TURN_OWNER.search(current.text())
        if turn is None:
            return  # the game is over
        user = by_name[turn["name"]]
        view = (await press("My hand", user, current, button(current, "My hand"))).message
        made += 1
        while view is not None and made < presses:
            buttons = [b for b in view.buttons() if not b.get("label", "").startswith(NOT_MOVES)]
            menus = view.selects()
            if menus:
                menu = rng.choice(menus)
                option = rng.choice(menu["options"])["value"]
                result = await press("select a card", user, view, menu["custom_id"], option)
            elif any(b.get("label", "").startswith("Row ") for b in buttons):
                rows = [b for b in buttons if b["label"].startswith("Row ")]
                shown = await press("row", user, view, rng.choice(rows)["custom_id"])
                made += 1
                cards = [b for b in shown.message.buttons() if ":a." in b["custom_id"]]
                result = await press("card of the row", user, shown.message, rng.choice(cards)["custom_id"])
            elif buttons:
                kind = "card" if ":a.look." in buttons[0]["custom_id"] else "other action"
                result = await press(kind, user, view, rng.choice(buttons)["custom_id"])
            else:
                break
            made += 1
            if not (result.ok and result.response_type == 7 and result.message.id == view.id):
                break  # answered elsewhere (the table, a refusal): look at the table again
            view = result.message
            turn = TURN_OWNER.search(server.message(table.id).text())
            if turn is None or by_name.get(turn["name"]) is not user:
                break


async def main_async(args: argparse.Namespace) -> None:
    latencies: dict[str, list[float]] = collections.defaultdict(list)

    def timed(kind: str, seconds: float) -> None:
        latencies[kind].append(seconds)
        latencies["every press"].append(seconds)

    with tempfile.TemporaryDirectory() as folder:
        async with SandboxServer() as server:
            guild = server.add_guild("Bench")
            channels = [guild.add_channel(f"t{i}") for i in range(args.tables)]
            members = [guild.add_member(f"p{i}") for i in range(args.tables * SEATS)]
            async with sandbox_bot(server, guild.id, Path(folder) / "bench.db", **NO_LIMITS):
                started = time.perf_counter()
                await asyncio.gather(
                    *(
                        play(
                            server,
                            channel,
                            members[index * SEATS : (index + 1) * SEATS],
                            args.presses,
                            random.Random(args.seed + index),
                            timed,
                            args.think,
                        )
                        for index, channel in enumerate(channels)
                    )
                )
                elapsed = time.perf_counter() - started
            uploads = getattr(server, "uploads", None)
            violations = len(server.violations)
    print("| presses | count | p50 (ms) | p99 (ms) | max (ms) |\n| --- | ---: | ---: | ---: | ---: |")
    for kind in sorted(latencies, key=lambda kind: kind != "every press"):
        values = latencies[kind]
        print(
            f"| {kind} | {len(values)} | {statistics.median(values) * 1e3:.1f} | "
            f"{percentile(values, 0.99) * 1e3:.1f} | {max(values) * 1e3:.1f} |"
        )
    total = len(latencies["every press"])
    pictures = "not logged" if uploads is None else sum(len(names) for _, _, names in uploads)
    print(
        f"\n{args.tables} tables at once, {total} presses in {elapsed:.1f} s, {args.think} s before each; "
        f"pictures uploaded: {pictures}; violations: {violations}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1, help="tables playing at once")
    parser.add_argument("--presses", type=int, default=200, help="presses per table")
    parser.add_argument("--think", type=float, default=0.1, help="seconds a player waits before a press")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
