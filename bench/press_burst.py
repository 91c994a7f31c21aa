"""A burst of presses at once: every one answered within Discord's 3 seconds? On demand (never in the test
suite):

    python3 bench/press_burst.py                 # 1,000 tables, one press on each at the same moment
    python3 bench/press_burst.py --tables 300

One sandbox and the bot (``python -m bot``, its own process, SQLite) as in ``bench/press_cost.py``. The bot
opens ``--tables`` Foist tables, one per channel, each with one person and two AI seats (normal level,
``AI_PAUSE_SECONDS`` 0.5: they move soon after the person). Once every table waits for its person, all of
them press **No thanks** (or **Take**, without tokens) at the same moment, while the AI seats of the tables
already answered move on.

Printed: how many presses were acknowledged within 3 s, how many of them the bot acknowledged first with a
deferred update and answered after (:mod:`cogs.tables.late_presses`), how many failed ("This interaction
failed"), how many of Discord's rules the sandbox saw broken meanwhile (a late answer, an edit after its
token expired, ...), the time from press to acknowledgement (p50 / p99 / max, as the sandbox times it: from
the interaction's creation to the answer's arrival), and, for the deferred ones, to the table shown (as the
bench sees it).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from press_cost import bot_environment, custom_id, load_average, settle, stop_process  # noqa: E402

from bot.sandbox_demo import TURN_OWNER  # noqa: E402
from sandbox import SandboxServer  # noqa: E402

MOVE = re.compile(r"move (\d+)")
"""The move number a table message's footer shows."""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


async def open_table(server: SandboxServer, channel, member) -> int:
    """A started Foist table of ``member`` and two AI seats in ``channel``; its message id."""
    opened = await server.run_command(member, channel, "play", game="foist", bots=2)
    assert opened.ok and not opened.ephemeral, opened
    started = await server.press(
        member, opened.message, custom_id(server.message(opened.message.id), "Start")
    )
    assert started.ok, started
    return opened.message.id


async def main_async(args: argparse.Namespace) -> None:
    load_at_start = load_average()
    folder = Path(tempfile.mkdtemp(prefix="press-burst-"))
    async with SandboxServer(interaction_deadline=3.0) as server:
        server.request_log = collections.deque()
        guild = server.add_guild("Press burst")
        channels = [guild.add_channel(f"table-{i}") for i in range(args.tables)]
        members = [guild.add_member(f"p{i}") for i in range(args.tables)]
        env = bot_environment(server, guild.id, folder)
        env.update(AI_PAUSE_SECONDS=str(args.ai_pause), **dict(args.setting))
        with open(folder / "bot.log", "wb") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, cwd=folder, stderr=log, stdout=log
            )
        try:
            await server.wait_for_bot(timeout=60)
            await server.wait_for_commands(["play"], timeout=60)
            await settle(server)
            opening = asyncio.Semaphore(16)

            async def opened(channel, member) -> int:
                async with opening:
                    return await open_table(server, channel, member)

            started = time.perf_counter()
            tables = await asyncio.gather(*(opened(c, m) for c, m in zip(channels, members, strict=True)))
            print(f"opened {len(tables)} tables in {time.perf_counter() - started:.1f} s", file=sys.stderr)

            def moves_shown(table_id: int) -> int:
                found = MOVE.search(server.message(table_id).text())
                return int(found[1]) if found else 0

            def waiting_for(member, table_id: int) -> bool:
                owner = TURN_OWNER.search(server.message(table_id).text())
                return owner is not None and owner["name"] == member.username

            await server.wait_for(
                lambda: all(waiting_for(m, t) for m, t in zip(members, tables, strict=True)), timeout=600
            )
            await settle(server)
            violations_before = len(server.violations)

            acknowledged: list[float] = []
            shown: list[float] = []
            deferred = failed = in_time = 0

            async def press(member, table_id: int) -> None:
                nonlocal deferred, failed, in_time
                message = server.message(table_id)
                move = moves_shown(table_id)
                pressed = time.perf_counter()
                result = await server.press(member, message, custom_id(message, "No"))
                record = result.record  # timed by the sandbox, as Discord times it, from its creation
                if record.responded_at is None:  # failed: never answered within the deadline
                    acknowledged.append(server.interaction_deadline)
                else:
                    acknowledged.append(record.responded_at - record.created)
                if not result.ok:
                    failed += 1
                    return
                in_time += acknowledged[-1] <= 3.0
                if result.response_type == 6:
                    deferred += 1
                    await server.wait_for(lambda: moves_shown(table_id) > move, timeout=600)
                    shown.append(time.perf_counter() - pressed)

            started = time.perf_counter()
            await asyncio.gather(*(press(m, t) for m, t in zip(members, tables, strict=True)))
            elapsed = time.perf_counter() - started
            await settle(server)
            violations = server.violations[violations_before:]
        except BaseException:  # never leave the bot running
            process.kill()
            raise
        await stop_process(process)

    print(
        f"\n{args.tables} tables, one press each at once (load average {load_at_start} at start, "
        f"{load_average()} at end); command: python3 bench/press_burst.py " + " ".join(sys.argv[1:])
    )
    print(
        "| presses | acknowledged within 3 s | deferred, then answered | failed | sandbox violations | "
        "press → acknowledged p50 / p99 / max | deferred: press → table shown p99 | burst drained in |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    shown_p99 = f"{percentile(shown, 0.99):.2f} s" if shown else "—"
    print(
        f"| {len(acknowledged)} | {in_time} | {deferred} | {failed} | {len(violations)} | "
        f"{statistics.median(acknowledged):.2f} / "
        f"{percentile(acknowledged, 0.99):.2f} / {max(acknowledged):.2f} s | {shown_p99} | {elapsed:.1f} s |"
    )
    for violation in violations[:5]:
        print("violation:", violation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--ai-pause", type=float, default=0.5, help="AI_PAUSE_SECONDS of the bot")
    parser.add_argument(
        "--setting",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="another bot setting",
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
