"""Two bot processes, one shard each, on one PostgreSQL database: what a press costs with 1,000 live tables
per process, against one process holding both shards on SQLite, in one run (never in the test suite).

    python3 bench/shards.py                   # 1,000 live tables per guild, 20 whole games per guild
    python3 bench/shards.py --quick           # 100 tables per guild, 6 games per guild: about a minute
    python3 bench/shards.py --profile prof    # also profile each bot's event loop: prof-<setup>-<k>.txt
    python3 bench/shards.py --compare sqlite,postgresql   # also one process on PostgreSQL

The pieces are ``bench/press_cost.py``'s (its press, its windows, CPU from ``/proc``, its profiler). Each
setup runs against a sandbox of its own with a sharded gateway (``shard_count=2``) and two guilds, one per
shard, ``--tables`` channels each:

- **two processes on PostgreSQL** (the setup measured): ``python -m bot`` twice, ``SHARD_COUNT=2`` and
  ``SHARD_IDS=0`` / ``1``, one ``DATABASE_URL``: a database on a throwaway PostgreSQL 16 cluster that is
  durable as a real server (``tests.postgres_server.ThrowawayPostgres(durable=True)``: ``fsync`` and
  ``synchronous_commit`` on), on this machine's disk, over loopback TCP;
- **for comparison** (``--compare``, default ``sqlite``): one process holding both shards (``SHARD_COUNT=2``,
  no ``SHARD_IDS``) on SQLite (WAL, ``synchronous = FULL``), or (``postgresql``) on a fresh database of the
  same PostgreSQL server.

In each guild the bots open ``--tables`` Foist tables, one per channel, three simulated players each, all
started (1-hour turn clocks: nothing times out). Then ``--games`` tables of EACH guild are played to their
end, both guilds at once, ``--concurrency`` games at a time per guild, while the others stay live, as
press_cost plays them. Meanwhile ``--dm-hands`` players of the shard-1 guild type ``/hand`` in their DM with
the bot, one every ``--dm-every`` seconds: Discord delivers those to shard 0, so with two processes the
shard-0 process looks the table up in PostgreSQL and relays the interaction to the shard-1 process
(``bot/interaction_relay.py``), which answers by editing the answer shard 0's process deferred. Their
latency (until the edit) is reported apart from the presses'.

Reported per setup: press → answer latency (the simulated user's press until the sandbox holds the answer)
per guild (with two processes: per process) and overall; CPU seconds per press of each process over the
window (utime + stime, ``/proc/<pid>/stat``; the shard-0 process's includes relaying the DMs); REST
requests per press (the DM answers counted apart); the DM ``/hand`` latencies and how many went through
PostgreSQL's relay table; each process's CPU share while idle with every table live (``--idle`` seconds
before the window); this process's CPU per press (the sandbox and the simulated players, on the same
cores). Before the window this process freezes its garbage (``gc.freeze()``: the sandbox holds every message
of every table), so the sandbox's collections do not stall presses in flight. Goal: press →
answer p99 at most 20 ms with two processes and 1,000 live tables each.

``--profile PREFIX`` runs each bot under press_cost's profiler for the window and writes
``PREFIX-<setup>-<process>.txt``; its CPU figures are inflated by the profiler.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.press_cost import (  # noqa: E402
    Window,
    bot_environment,
    cpu_seconds,
    load_average,
    open_foist_table,
    percentile,
    play_foist_game,
    request_kind,
    settle,
    stop_process,
    write_profile,
)
from bot.run import GC_THRESHOLDS  # noqa: E402
from sandbox import SandboxServer  # noqa: E402
from tests.postgres_server import ThrowawayPostgres  # noqa: E402

SHARD_COUNT = 2
PRESS_COST = ROOT / "bench" / "press_cost.py"


@dataclass
class Setup:
    """One way to run the bot: ``processes`` is each process's ``SHARD_IDS`` (``None``: every shard)."""

    key: str
    name: str
    database: str  # "postgresql" or "sqlite"
    processes: list[list[int] | None]


SETUPS = {
    "two": Setup("two", "two processes, PostgreSQL (durable)", "postgresql", [[0], [1]]),
    "sqlite": Setup("sqlite", "one process, both shards, SQLite", "sqlite", [None]),
    "postgresql": Setup("postgresql", "one process, both shards, PostgreSQL (durable)", "postgresql", [None]),
}


@dataclass
class BotProcess:
    """A running ``python -m bot`` of a setup: its shards, folder (log, SQLite file, profile) and CPU."""

    shard_ids: list[int] | None
    folder: Path
    process: asyncio.subprocess.Process
    cpu: float = 0.0
    idle_share: float = 0.0  # CPU seconds per second with every table live and nothing pressed

    @property
    def label(self) -> str:
        shards = "0,1" if self.shard_ids is None else ",".join(map(str, self.shard_ids))
        return f"shards {shards}"


@dataclass
class Result:
    """What one setup measured."""

    setup: Setup
    processes: list[BotProcess] = field(default_factory=list)
    guilds: list[Window] = field(default_factory=list)  # one per guild (shard 0, shard 1)
    dm_latencies: list[float] = field(default_factory=list)
    dm_relayed: int | None = None  # rows that went through PostgreSQL's relayed_interactions
    log_problems: list[str] = field(default_factory=list)  # warnings, errors, tracebacks per process log
    dm_requests: int = 0
    requests: collections.Counter = field(default_factory=collections.Counter)
    opened_in: float = 0.0
    harness_cpu: float = 0.0  # this process's CPU in the window: the sandbox and the simulated players
    violations: list[str] = field(default_factory=list)

    @property
    def presses(self) -> int:
        return sum(window.presses for window in self.guilds)

    @property
    def latencies(self) -> list[float]:
        return [value for window in self.guilds for value in window.latencies]

    @property
    def elapsed(self) -> float:
        return max(window.elapsed for window in self.guilds)


def latency_text(seconds: list[float]) -> str:
    ms = sorted(value * 1e3 for value in seconds)
    if not ms:
        return "none"
    return (
        f"{percentile(ms, 0.5):.1f} / {percentile(ms, 0.95):.1f} / {percentile(ms, 0.99):.1f} ms "
        f"(max {ms[-1]:.1f})"
    )


async def start_bots(
    args: argparse.Namespace, server: SandboxServer, setup: Setup, database_url: str, folder: Path
) -> list[BotProcess]:
    """Start the setup's processes at once, as a deployment does, and wait until every shard is ready and
    the commands are synced."""
    bots = []
    for index, shard_ids in enumerate(setup.processes):
        where = folder / f"process-{index}"
        where.mkdir(parents=True)
        env = bot_environment(server, 0, where)
        env.pop("DEV_GUILD_ID")  # global commands: both guilds have them
        env.update(DATABASE_URL=database_url, SHARD_COUNT=str(SHARD_COUNT), DATA_DIR=str(where))
        if shard_ids is not None:
            env["SHARD_IDS"] = ",".join(map(str, shard_ids))
        if args.pool_size:
            env["DATABASE_POOL_SIZE"] = str(args.pool_size)
        command = [sys.executable, "-m", "bot"]
        if args.profile:
            env["PRESS_COST_PROFILE"] = str(where / "bot.prof")
            command = [sys.executable, str(PRESS_COST), "--profiled-bot"]
        with open(where / "bot.log", "wb") as log:
            process = await asyncio.create_subprocess_exec(
                *command, env=env, cwd=where, stderr=log, stdout=log
            )
        bots.append(BotProcess(shard_ids, where, process))
    await server.wait_for_shards(range(SHARD_COUNT), SHARD_COUNT, timeout=90)
    await server.wait_for_commands(["play", "hand", "leaderboard"], timeout=60)
    return bots


async def run_setup(args: argparse.Namespace, setup: Setup, database_url: str, folder: Path) -> Result:
    result = Result(setup)
    async with SandboxServer(
        interaction_deadline=3.0, shard_count=SHARD_COUNT, max_concurrency=SHARD_COUNT
    ) as server:
        server.request_log = collections.deque()  # every request of the run, not the last 5,000
        guilds = [server.add_guild(f"Shard {shard} club", shard=shard) for shard in range(SHARD_COUNT)]
        channels = [[g.add_channel(f"table-{i}") for i in range(args.tables)] for g in guilds]
        members = [
            [g.add_member(f"g{n}p{i}") for i in range(max(30, 3 * args.games))] for n, g in enumerate(guilds)
        ]
        result.processes = await start_bots(args, server, setup, database_url, folder)
        try:
            await measure(args, server, result, channels, members)
        finally:
            for bot in result.processes:
                await stop_process(bot.process)
        result.violations = list(server.violations)
    gc.unfreeze()
    gc.collect()
    if setup.database == "postgresql":
        relayed_to_another = any(shards is not None for shards in setup.processes)
        result.dm_relayed = relayed_rows(database_url, len(result.dm_latencies) if relayed_to_another else 0)
    if args.profile:
        for index, bot in enumerate(result.processes):
            target = Path(f"{args.profile}-{setup.key}-{index}.txt")
            if (bot.folder / "bot.prof").exists():
                write_profile(bot.folder / "bot.prof", target)
    return result


async def measure(args, server: SandboxServer, result: Result, channels, members) -> None:
    # -- open every table in both guilds -----------------------------------------------------------
    tables: dict[int, int] = {}  # channel id -> table message id
    seats: dict[int, list] = {}
    opening = asyncio.Semaphore(16)

    async def open_table(index: int, channel, guild_members) -> None:
        seated = [guild_members[(index * 3 + k) % len(guild_members)] for k in range(3)]
        async with opening:
            tables[channel.id] = await open_foist_table(server, channel, seated)
        seats[channel.id] = seated

    started = time.perf_counter()
    await asyncio.gather(
        *(
            open_table(i, channel, members[guild])
            for i in range(args.tables)
            for guild in range(SHARD_COUNT)
            for channel in [channels[guild][i]]
        )
    )
    result.opened_in = time.perf_counter() - started
    print(f"{result.setup.name}: opened {SHARD_COUNT} x {args.tables} tables in {result.opened_in:.1f} s",
          file=sys.stderr)  # fmt: skip
    await settle(server)
    # The sandbox stands in for Discord: its own garbage collections (this process holds every message of
    # 2,000 tables) must not stall the presses in flight, so what it has built so far is left out of them.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    idle_before = [cpu_seconds(bot.process.pid) for bot in result.processes]
    await asyncio.sleep(args.idle)
    for bot, before in zip(result.processes, idle_before, strict=True):
        bot.idle_share = (cpu_seconds(bot.process.pid) - before) / args.idle

    # -- the press window: whole games in both guilds at once, DM /hand commands meanwhile -------------
    result.guilds = [Window(f"guild of shard {shard}") for shard in range(SHARD_COUNT)]
    rng = random.Random(args.seed)
    dm_ids: set[int] = set()
    dm_tokens: set[str] = set()  # a relayed DM's answer is an edit through its webhook, named by its token

    async def play_game(channel, window: Window, playing: asyncio.Semaphore) -> None:
        async with playing:
            await play_foist_game(server, seats[channel.id], tables[channel.id], window, rng)

    async def play_guild(guild: int) -> None:
        window = result.guilds[guild]
        playing = asyncio.Semaphore(args.concurrency)
        started = time.perf_counter()
        await asyncio.gather(*(play_game(c, window, playing) for c in channels[guild][: args.games]))
        window.elapsed = time.perf_counter() - started

    async def dm_hands() -> None:
        # Players of the shard-1 guild's tables that are NOT played out (their hand stays the same table's).
        players = [seats[channel.id][0] for channel in channels[1][args.games :]][: args.dm_hands]
        for player in players:
            await asyncio.sleep(args.dm_every)
            started = time.perf_counter()
            answer = await server.run_command(player, None, "hand")
            assert answer.ok and answer.ephemeral and answer.shard == 0, answer
            shown = await answer.wait_message()  # relayed: deferred, then edited by the shard-1 process
            result.dm_latencies.append(time.perf_counter() - started)
            dm_ids.add(answer.interaction_id)
            dm_tokens.add(answer.record.token)
            assert f"Private to {player.username}" in shown.text(), shown.text()

    for bot in result.processes:
        if args.profile:
            bot.process.send_signal(signal.SIGUSR1)
    if args.profile:
        await asyncio.sleep(0.2)
    first_request = len(server.request_log)
    cpu_before = [cpu_seconds(bot.process.pid) for bot in result.processes]
    harness_before = time.process_time()
    await asyncio.gather(*(play_guild(guild) for guild in range(SHARD_COUNT)), dm_hands())
    await asyncio.sleep(1.0)  # REMATCH_SECONDS: the scoreboards close
    await settle(server)
    result.harness_cpu = time.process_time() - harness_before
    for bot, before in zip(result.processes, cpu_before, strict=True):
        bot.cpu = cpu_seconds(bot.process.pid) - before
    for method, path, _ in list(server.request_log)[first_request:]:
        if any(f"/interactions/{dm}/" in path for dm in dm_ids) or any(token in path for token in dm_tokens):
            result.dm_requests += 1
        else:
            result.requests[request_kind(method, path)] += 1
    if args.profile:
        for bot in result.processes:
            bot.process.send_signal(signal.SIGUSR2)
        await server.wait_for(
            lambda: all((bot.folder / "bot.prof").exists() for bot in result.processes), timeout=60
        )
        await asyncio.sleep(1.0)
    for bot in result.processes:
        lines = (bot.folder / "bot.log").read_text(errors="replace").splitlines()
        problems = sum(" WARNING " in line or " ERROR " in line or "Traceback" in line for line in lines)
        result.log_problems.append(f"{bot.label}: {problems} warning/error lines in its log")


def relayed_rows(database_url: str, expected: int) -> int | None:
    """How many interactions went through the relay table (PostgreSQL's statistics: rows inserted). A
    backend reports its counts up to 10 s after it goes idle, so this waits that long for ``expected``."""
    import psycopg

    deadline = time.monotonic() + 12.0
    with psycopg.connect(database_url, autocommit=True) as db:
        while True:
            row = db.execute(
                "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'relayed_interactions'"
            ).fetchone()
            db.execute("SELECT pg_stat_clear_snapshot()")
            found = None if row is None else int(row[0])
            if expected == 0 or (found or 0) >= expected or time.monotonic() > deadline:
                return found
            time.sleep(0.5)


def git_commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def report(args: argparse.Namespace, results: list[Result], load_at_start: str, uptime_start: str) -> None:
    print(
        f"\n{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, commit {git_commit()}, {os.cpu_count()} cores, "
        f"{platform.machine()}, Python {platform.python_version()}; command: python3 bench/shards.py "
        + " ".join(sys.argv[1:])
    )
    print(f"uptime at start: {uptime_start}")
    print(f"uptime at end:   {uptime()}")
    print(
        f"{SHARD_COUNT} guilds (one per shard) x {args.tables} live tables; {args.games} whole Foist games "
        f"per guild, {args.concurrency} at a time per guild, both guilds at once; "
        f"{args.dm_hands} DM /hand commands by players of the shard-1 guild; PostgreSQL: durable "
        f"(fsync on, synchronous_commit on), pool {args.pool_size or 'default'} per process\n"
    )
    print("| setup | process | presses | CPU per press | idle CPU | press → answer p50 / p95 / p99 |")
    print("| --- | --- | --- | --- | --- | --- |")
    for result in results:
        for index, bot in enumerate(result.processes):
            if len(result.processes) == len(result.guilds):
                window = result.guilds[index]
            else:  # one process, both guilds
                window = Window("both guilds", presses=result.presses, latencies=result.latencies)
            cpu_text = f"{bot.cpu / window.presses * 1e3:.2f} ms ({bot.cpu:.2f} s)"
            print(
                f"| {result.setup.name} | {bot.label} | {window.presses} | {cpu_text} | "
                f"{bot.idle_share:.1%} | {latency_text(window.latencies)} |"
            )
        cpu = sum(bot.cpu for bot in result.processes)
        print(
            f"| {result.setup.name} | all | {result.presses} | {cpu / result.presses * 1e3:.2f} ms "
            f"| {sum(bot.idle_share for bot in result.processes):.1%} | {latency_text(result.latencies)} |"
        )
    print(
        "\n| setup | REST per press | DM /hand p50 / max (n) | presses/s | sandbox CPU per press "
        "| tables opened in | violations |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for result in results:
        kinds = ", ".join(f"{count} {kind}" for kind, count in result.requests.most_common())
        dm = sorted(value * 1e3 for value in result.dm_latencies)
        dm_text = f"{percentile(dm, 0.5):.1f} / {dm[-1]:.1f} ms ({len(dm)})" if dm else "none"
        print(
            f"| {result.setup.name} | {sum(result.requests.values()) / result.presses:.3f} ({kinds}) | "
            f"{dm_text} | {result.presses / result.elapsed:,.0f} | "
            f"{result.harness_cpu / result.presses * 1e3:.2f} ms | {result.opened_in:.0f} s | "
            f"{len(result.violations)} |"
        )
    main_result = results[0]
    p99 = percentile(main_result.latencies, 0.99) * 1e3
    print(f"\n{main_result.setup.name}: press → answer p99 {p99:.1f} ms (goal <= 20 ms)")
    for result in results:
        relayed = "n/a" if result.dm_relayed is None else str(result.dm_relayed)
        print(f"{result.setup.name}: interactions relayed through PostgreSQL {relayed}; "
              + "; ".join(result.log_problems))  # fmt: skip
        for violation in result.violations[:5]:
            print("  violation:", violation)
    print(f"load average {load_at_start} at start, {load_average()} at end")


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"load average {load_average()}"


async def main_async(args: argparse.Namespace) -> None:
    uptime_start, load_at_start = uptime(), load_average()
    folder = Path(tempfile.mkdtemp(prefix="bench-shards-"))
    results = []
    with ThrowawayPostgres(durable=True, max_connections=100) as postgres:
        for key in ["two", *args.compare]:
            setup = SETUPS[key]
            url = postgres.create_database() if setup.database == "postgresql" else ""
            if setup.database == "sqlite":
                url = f"sqlite:///{folder / key / 'bot.db'}"
            results.append(await run_setup(args, setup, url, folder / key))
            if setup.database == "postgresql":
                postgres.drop_database(url)
    report(args, results, load_at_start, uptime_start)
    print(f"logs and files: {folder}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="100 tables and 6 games per guild (a minute)")
    parser.add_argument("--tables", type=int, default=None, help="live tables per guild (default 1000)")
    parser.add_argument("--games", type=int, default=None, help="games played out per guild (default 20)")
    parser.add_argument("--concurrency", type=int, default=2, help="games pressed at once, per guild")
    parser.add_argument("--dm-hands", type=int, default=None, help="DM /hand commands (default 20, quick 6)")
    parser.add_argument("--dm-every", type=float, default=1.0, help="seconds between DM /hand commands")
    parser.add_argument(
        "--compare", default="sqlite",
        help="comparison setups after the two processes, comma-separated: sqlite, postgresql, or none",
    )  # fmt: skip
    parser.add_argument("--pool-size", type=int, default=0, help="DATABASE_POOL_SIZE (default: the bot's)")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="PREFIX", help="profile each bot's press window: PREFIX-*.txt")
    args = parser.parse_args()
    args.tables = args.tables or (100 if args.quick else 1000)
    args.games = args.games or (6 if args.quick else 20)
    args.dm_hands = args.dm_hands if args.dm_hands is not None else (6 if args.quick else 20)
    args.compare = [] if args.compare == "none" else [key for key in args.compare.split(",") if key]
    if any(key not in ("sqlite", "postgresql") for key in args.compare):
        parser.error("--compare takes sqlite, postgresql or none")
    if args.games > args.tables or args.dm_hands > args.tables - args.games:
        parser.error("--games and --dm-hands must leave tables: games <= tables, dm-hands <= tables - games")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
