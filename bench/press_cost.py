"""What a press costs: the card-table bot against two baselines, a bare discord.py bot and the durable floor,
in one run, on demand (never in the test suite).

    python3 bench/press_cost.py                # 1,000 live tables, 40 whole Foist games, then the bare bot
    python3 bench/press_cost.py --quick        # 100 live tables, 6 games: a minute
    python3 bench/press_cost.py --profile top.txt   # also profile the bot's event loop during the presses
    python3 bench/press_cost.py --clock bank   # every table on a time bank (an hour: nothing runs out)

One sandbox (``sandbox/``) serves both bots, one after the other, each in its own process:

1. The bot (``python -m bot``, logging at its default INFO) opens ``--tables`` tables, one per channel,
   three simulated players each, all started (Foist, 1-hour turn clocks: nothing times out). Then
   ``--games`` of them are played to their end, ``--concurrency`` games at a time, every press by the
   player whose turn it is (Take or No thanks), while the others stay live. The window ends once each
   finished table's scoreboard has closed (``REMATCH_SECONDS=1``), so the game's end is counted.
2. The bare bot (``bench/bare_bot.py``: a plain ``discord.Client`` that answers each press with
   ``response.edit_message``) gets the same number of presses, on one message in each of ``--games``
   channels, with the same concurrency, after a short warm-up.
3. The durable floor (``bench/durable_floor_bot.py``: a plain ``discord.Client`` that, per press, commits
   one row of about 400 bytes to SQLite in WAL mode with ``synchronous=FULL`` and answers with a Components
   V2 layout of a table's size, a new PNG of about 10 KB on every other press) gets the same presses the
   same way: the work any card table must do for a press, with none of a game's.

Reported for each: CPU seconds of the bot process per press (utime + stime from ``/proc/<pid>/stat``,
over the press window only), the press-to-answer latency (the simulated user's press until the sandbox
has the interaction's answer) and the REST requests the bot made per press (the sandbox's request log;
the interaction callback is one of them). Goals: CPU per press at most 1.5 times the durable
floor's, p99 at most 20 ms with 1,000 live tables, at most 1.0 request per press over whole games. Also the
bot's memory per live table: its resident memory (``VmRSS``) once every table is open and started, less
what it held once started with none, divided by the tables (the pictures a table's start drew included).

``--profile FILE`` runs the bot under cProfile switched on for the press window only, timing the event
loop thread's own CPU (``time.thread_time``: waits for epoll, the GIL or the database thread are not
counted; the database thread itself is not profiled), and writes the functions with the most own time and
the most cumulative time to FILE; its CPU figures are inflated by the profiler.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import platform
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.no_limits import no_limits_environment  # noqa: E402
from bot.sandbox_demo import TURN_OWNER  # noqa: E402
from sandbox import SandboxServer  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process ``pid`` has used so far (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime: fields 14 and 15


def cpu_by_thread(pid: int) -> dict[str, tuple[float, float]]:
    """The process ``pid``'s CPU so far split into its main thread (the event loop) and all its other threads
    (the database thread, the pictures' worker threads...): ``{"event loop": (user, system), "other threads":
    (user, system)}`` in seconds, from ``/proc/<pid>/task/<tid>/stat``
    (a thread that ended is not counted)."""
    split = {"event loop": [0.0, 0.0], "other threads": [0.0, 0.0]}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            with open(task / "stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:  # the thread ended meanwhile
            continue
        part = split["event loop" if int(task.name) == pid else "other threads"]
        part[0] += int(fields[11]) / CLOCK_TICKS
        part[1] += int(fields[12]) / CLOCK_TICKS
    return {name: (user, system) for name, (user, system) in split.items()}


def rss_kib(pid: int) -> int:
    """The resident memory of the process ``pid``, KiB (``VmRSS`` of ``/proc/<pid>/status``)."""
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


@dataclass
class Window:
    """What one bot did in its press window."""

    name: str
    presses: int = 0
    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0
    elapsed: float = 0.0  # the presses only (the window's CPU also counts the scoreboards closing)
    requests: collections.Counter = field(default_factory=collections.Counter)
    rss_ready: int = 0  # KiB: the bot started, no table open
    rss_opened: int = 0  # KiB: every table open and started
    threads: dict[str, tuple[float, float]] = field(default_factory=dict)  # CPU by thread: (user, system) s

    @property
    def cpu_per_press_ms(self) -> float:
        return self.cpu / self.presses * 1e3

    @property
    def requests_per_press(self) -> float:
        return sum(self.requests.values()) / self.presses

    def latency(self) -> str:
        ms = [value * 1e3 for value in self.latencies]
        return (
            f"p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
            f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
        )


async def open_foist_table(server: SandboxServer, channel, seated: list, **options: str) -> int:
    """Open a Foist table in ``channel`` (``/play`` by ``seated[0]``, ``options`` passed to it), seat the
    others of ``seated`` and start it; returns the table message's id.

    Raises
    ------
    AssertionError
        If the bot refuses or does not answer a step.
    """
    opened = await server.run_command(seated[0], channel, "play", game="foist", **options)
    assert opened.ok and not opened.ephemeral, opened
    table = opened.message
    for player in seated[1:]:
        joined = await server.press(player, table, custom_id(table, "Join"))
        assert joined.ok, joined
    started = await server.press(seated[0], table, custom_id(server.message(table.id), "Start"))
    assert started.ok and started.response_type == 7, started
    return table.id


async def play_foist_game(
    server: SandboxServer, members: list, table_message_id: int, window: Window, rng: random.Random
) -> None:
    """Play the started Foist table of message ``table_message_id`` to its end: every press (Take about a
    third of the time, else No thanks; Take when refused for want of tokens) by the member of ``members``
    whose turn the table shows. Each press's latency (seconds, press until the sandbox holds the answer) and
    count go into ``window``.

    Raises
    ------
    AssertionError
        If a press is not answered as it should be, or the game does not end within 1,000 presses.
    """
    by_name = {member.username: member for member in members}
    for _ in range(1000):
        current = server.message(table_message_id)
        if "final scores" in current.text():
            return
        name = TURN_OWNER.search(current.text())["name"]
        label = "Take" if rng.random() < 0.35 else "No"
        started = time.perf_counter()
        result = await server.press(by_name[name], current, custom_id(current, label))
        window.latencies.append(time.perf_counter() - started)
        window.presses += 1
        assert result.ok, result
        if result.ephemeral:  # refused (no tokens left): take instead
            started = time.perf_counter()
            again = await server.press(by_name[name], current, custom_id(current, "Take"))
            window.latencies.append(time.perf_counter() - started)
            window.presses += 1
            assert again.ok and again.response_type == 7, again
    raise AssertionError("the game did not end")


def request_kind(method: str, path: str) -> str:
    if "/interactions/" in path:
        return "interaction answer"
    if "/webhooks/" in path:
        return f"{method} followup"
    if "/messages" in path:
        return f"{method} message"
    return f"{method} other"


def custom_id(message, label: str) -> str:
    return next(button for button in message.buttons() if button["label"].startswith(label))["custom_id"]


def bot_environment(server: SandboxServer, guild_id: int, folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DATABASE_URL=f"sqlite:///{folder / 'bot.db'}",
        DISCORD_TOKEN=server.bot_token,
        DISCORD_API_BASE=server.api_base,
        DEV_GUILD_ID=str(guild_id),
        DEFAULT_TURN_SECONDS="3600",
        LOBBY_IDLE_SECONDS="3600",
        REMATCH_SECONDS="1",
        LOG_LEVEL="INFO",
        BACKUP_INTERVAL_MINUTES="0",
        TIME_BANK_SECONDS="3600",  # a --clock bank table: nothing times out either
        TIME_BANK_CAP_SECONDS="7200",
        # Each idle table's first player would get one turn line 10 s in, during the window (80 lines in a
        # --quick run): not a press's cost. 600 s is the longest the settings allow, longer than a run.
        TURN_ALERT_DELAY_SECONDS="600",
    )
    env.update(no_limits_environment())
    return env


async def stop_process(process: asyncio.subprocess.Process) -> None:
    process.send_signal(signal.SIGINT)
    try:
        await asyncio.wait_for(process.wait(), 30)
    except TimeoutError:
        process.kill()
        await process.wait()


async def settle(server: SandboxServer, quiet: float = 0.5) -> None:
    """Wait until the bot has made no request for ``quiet`` seconds."""
    seen = -1
    while seen != len(server.request_log):
        seen = len(server.request_log)
        await asyncio.sleep(quiet)


async def run_bot(args: argparse.Namespace, server: SandboxServer, guild, channels, members, folder: Path):
    env = bot_environment(server, guild.id, folder)
    command = [sys.executable, "-m", "bot"]
    if args.profile:
        env["PRESS_COST_PROFILE"] = str(folder / "bot.prof")
        command = [sys.executable, str(Path(__file__).resolve()), "--profiled-bot"]
    with open(folder / "bot.log", "wb") as log:
        process = await asyncio.create_subprocess_exec(*command, env=env, cwd=folder, stderr=log, stdout=log)
    await server.wait_for_bot(timeout=60)
    await server.wait_for_commands(["play", "hand", "leaderboard"], timeout=60)
    await settle(server)
    await asyncio.sleep(2.0)  # the faces scaled for the pictures (a worker thread at start)
    rss_ready = rss_kib(process.pid)

    # -- open every table ------------------------------------------------------------------------
    tables: dict[int, int] = {}  # channel id -> table message id
    seats: dict[int, list] = {}
    opening = asyncio.Semaphore(16)

    async def open_table(index: int, channel) -> None:
        seated = [members[(index * 3 + k) % len(members)] for k in range(3)]
        async with opening:
            tables[channel.id] = await open_foist_table(server, channel, seated, clock=args.clock)
        seats[channel.id] = seated

    started = time.perf_counter()
    await asyncio.gather(*(open_table(i, channel) for i, channel in enumerate(channels)))
    print(f"opened {len(channels)} tables in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    await settle(server)

    # -- the press window: whole games on the first --games tables ---------------------------------
    window = Window("card-table bot", rss_ready=rss_ready, rss_opened=rss_kib(process.pid))
    playing = asyncio.Semaphore(args.concurrency)
    rng = random.Random(args.seed)

    async def play_game(channel) -> None:
        async with playing:
            await play_foist_game(server, seats[channel.id], tables[channel.id], window, rng)

    if args.profile:
        process.send_signal(signal.SIGUSR1)
        await asyncio.sleep(0.2)
    first_request = len(server.request_log)
    cpu_before = cpu_seconds(process.pid)
    threads_before = cpu_by_thread(process.pid)
    started = time.perf_counter()
    log_at_start = (folder / "bot.log").stat().st_size
    await asyncio.gather(*(play_game(channel) for channel in channels[: args.games]))
    window.elapsed = time.perf_counter() - started
    await asyncio.sleep(1.0)  # REMATCH_SECONDS: the scoreboards close
    await settle(server)
    window.cpu = cpu_seconds(process.pid) - cpu_before
    window.threads = {
        name: (user - threads_before[name][0], system - threads_before[name][1])
        for name, (user, system) in cpu_by_thread(process.pid).items()
    }
    window.requests.update(request_kind(m, p) for m, p, _ in list(server.request_log)[first_request:])
    if args.profile:
        process.send_signal(signal.SIGUSR2)
        await server.wait_for(lambda: (folder / "bot.prof").exists(), timeout=30)
        await asyncio.sleep(0.5)
    with open(folder / "bot.log", "rb") as log:
        log.seek(log_at_start)
        log_lines = (
            log.read(max(0, (folder / "bot.log").stat().st_size - log_at_start))
            .decode(errors="replace")
            .splitlines()
        )
    await stop_process(process)
    return window, log_lines


BASELINES = {
    "bare discord.py bot": "bare_bot.py",
    "durable floor": "durable_floor_bot.py",
}
"""Each baseline bot's name and its script in ``bench/``."""


async def run_bare(
    args, server: SandboxServer, channels, members, presses: int, name: str = "bare discord.py bot"
) -> Window:
    """Press a baseline bot (:data:`BASELINES` ``name``) ``presses`` times on one message in each of
    ``channels``, after a warm-up, and measure it as :func:`run_bot` measures the card-table bot."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN=server.bot_token,
        DISCORD_API_BASE=server.api_base,
        BARE_CHANNELS=",".join(str(channel.id) for channel in channels),
        FLOOR_DATABASE=str(Path(tempfile.mkdtemp(prefix="durable-floor-")) / "floor.sqlite3"),
    )
    posted_before = {channel.id: len(channel.messages) for channel in channels}
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "bench" / BASELINES[name]), env=env, stderr=asyncio.subprocess.DEVNULL
    )
    await server.wait_for_bot(timeout=60)

    def bare_message(channel):
        posted = channel.messages[posted_before[channel.id] :]  # this bot's, not an earlier baseline's
        return next(
            (m for m in reversed(posted) if not m.deleted and m.component("bare:take") is not None),
            None,
        )

    await server.wait_for(lambda: all(bare_message(c) for c in channels), timeout=60)
    messages = {channel.id: bare_message(channel) for channel in channels}
    rng = random.Random(args.seed)
    window = Window(name)
    turn = iter(range(10**9))

    async def one_channel(index: int, channel, count: int, measure: bool) -> None:
        for _ in range(count):
            user = members[(index * 3 + next(turn)) % len(members)]
            started = time.perf_counter()
            result = await server.press(user, messages[channel.id], rng.choice(["bare:take", "bare:pass"]))
            if measure:
                window.latencies.append(time.perf_counter() - started)
                window.presses += 1
            assert result.ok and result.response_type == 7, result

    async def drive(total: int, measure: bool) -> None:
        playing = asyncio.Semaphore(args.concurrency)
        share, extra = divmod(total, len(channels))

        async def limited(index, channel):
            async with playing:
                await one_channel(index, channel, share + (index < extra), measure)

        await asyncio.gather(*(limited(i, c) for i, c in enumerate(channels)))

    await drive(min(200, presses), measure=False)  # warm-up
    await settle(server)
    first_request = len(server.request_log)
    cpu_before = cpu_seconds(process.pid)
    threads_before = cpu_by_thread(process.pid)
    started = time.perf_counter()
    await drive(presses, measure=True)
    window.elapsed = time.perf_counter() - started
    await settle(server)
    window.cpu = cpu_seconds(process.pid) - cpu_before
    window.threads = {
        name: (user - threads_before[name][0], system - threads_before[name][1])
        for name, (user, system) in cpu_by_thread(process.pid).items()
    }
    window.requests.update(request_kind(m, p) for m, p, _ in list(server.request_log)[first_request:])
    await stop_process(process)
    return window


# Where the event loop's CPU goes, by part: (name, test on a profiled function's (file, line, name)).
PROFILE_PARTS: list[tuple[str, object]] = [
    (
        "gateway: frames in, decoded and parsed (all events)",
        lambda f: f[0].endswith("discord/gateway.py") and f[2] == "received_message",
    ),
    ("  of which: INTERACTION_CREATE into discord.py objects", lambda f: f[2] == "parse_interaction_create"),
    ("the bot's code (cogs/), all it does and calls", lambda f: "/cogs/" in f[0]),
    ("rendering (cogs/**/render*.py)", lambda f: "/cogs/" in f[0] and "render" in Path(f[0]).name),
    ("the engine (engine/)", lambda f: "/engine/" in f[0]),
    ("storage (storage/, the event loop's side)", lambda f: "/storage/" in f[0]),
    ("APScheduler", lambda f: "/apscheduler/" in f[0]),
    ("logging", lambda f: f[0].endswith("logging/__init__.py")),
    (
        "the answer (discord.py's InteractionResponse.edit_message)",
        lambda f: f[2] == "edit_message" and f[0].endswith("discord/interactions.py"),
    ),
    (
        "discord.py REST, all requests (HTTPClient and webhook adapter)",
        lambda f: f[2] == "request" and f[0].endswith(("discord/http.py", "webhook/async_.py")),
    ),
]


def profile_parts(stats) -> list[tuple[str, float]]:
    """Each part's share of the profiled CPU: the time spent in its functions and what they call, counted
    once (calls from one function of the part to another are not added again). Parts overlap: the engine
    runs inside rendering, and both inside the bot's code."""
    total = stats.total_tt
    shares = []
    for name, belongs in PROFILE_PARTS:
        members = {func for func in stats.stats if belongs(func)}
        inside = 0.0
        for func in members:
            callers = stats.stats[func][4]
            inside += sum(entry[3] for caller, entry in callers.items() if caller not in members)
            if not callers:  # a root (the profiler started inside it)
                inside += stats.stats[func][3]
        shares.append((name, inside / total if total else 0.0))
    return shares


def write_profile(source: Path, target: Path, top: int = 40) -> list[tuple[str, float]]:
    """Write the profile's summary by part, then its top functions, to ``target``; return the parts."""
    import io
    import pstats

    text = io.StringIO()
    stats = pstats.Stats(str(source), stream=text)
    parts = profile_parts(stats)
    text.write("# cProfile of the bot's event loop (thread CPU time) during the press window\n\n")
    text.write(f"total profiled CPU {stats.total_tt:.2f} s\n\n")
    for name, share in parts:
        text.write(f"{share:6.1%}  {name}\n")
    stats.strip_dirs()
    text.write("\n## by own time (tottime)\n")
    stats.sort_stats("tottime").print_stats(top)
    text.write("\n## by cumulative time (a coroutine's ncalls counts each of its resumptions)\n")
    stats.sort_stats("cumulative").print_stats(top)
    target.write_text(text.getvalue())
    return parts


def load_average() -> str:
    """The 1-minute load average: above the core count, other work competed for the CPUs."""
    with open("/proc/loadavg") as loadavg:
        return loadavg.read().split()[0]


async def main_async(args: argparse.Namespace) -> None:
    load_at_start = load_average()
    folder = Path(tempfile.mkdtemp(prefix="press-cost-"))
    async with SandboxServer(interaction_deadline=3.0) as server:
        server.request_log = collections.deque()  # every request of the run, not the last 5,000
        guild = server.add_guild("Press cost")
        channels = [guild.add_channel(f"table-{i}") for i in range(args.tables)]
        members = [guild.add_member(f"p{i}") for i in range(max(30, 3 * args.games))]
        bot, log_lines = await run_bot(args, server, guild, channels, members, folder)
        bare = await run_bare(args, server, channels[: args.games], members, bot.presses)
        floor = await run_bare(args, server, channels[: args.games], members, bot.presses, "durable floor")
        violations = list(server.violations)

    info_lines = sum(" INFO " in line for line in log_lines)
    print(
        f"\n{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
        f"{platform.machine()}, Python {platform.python_version()}, load average {load_at_start} at start "
        f"and {load_average()} at end; command: python3 bench/press_cost.py " + " ".join(sys.argv[1:])
    )
    print(
        f"{args.tables} live tables; {args.games} whole Foist games, {args.concurrency} at a time: "
        f"{bot.presses} presses for each bot; {len(violations)} sandbox violations\n"
    )
    print("| bot | CPU per press | press → answer | REST requests per press | presses/s |")
    print("| --- | --- | --- | --- | --- |")
    for window in (bot, bare, floor):
        kinds = ", ".join(f"{count} {kind}" for kind, count in window.requests.most_common())
        print(
            f"| {window.name} | {window.cpu_per_press_ms:.2f} ms ({window.cpu:.2f} s / {window.presses}) | "
            f"{window.latency()} | {window.requests_per_press:.3f} ({kinds}) | "
            f"{window.presses / window.elapsed:,.0f} |"
        )
    print(
        f"\nCPU ratio bot / durable floor: {bot.cpu / bot.presses / (floor.cpu / floor.presses):.2f} "
        "(goal <= 1.5); "
        f"bot / bare: {bot.cpu / bot.presses / (bare.cpu / bare.presses):.2f}; "
        f"bot p99 {percentile(bot.latencies, 0.99) * 1e3:.1f} ms (goal <= 20 ms); "
        f"bot requests per press {bot.requests_per_press:.3f} (goal <= 1.0)"
    )
    for window in (bot, bare, floor):
        print(
            f"{window.name}, CPU per press by thread: "
            + "; ".join(
                f"{name} {(user + system) / window.presses * 1e3:.2f} ms "
                f"(user {user / window.presses * 1e3:.2f}, system {system / window.presses * 1e3:.2f})"
                for name, (user, system) in window.threads.items()
            )
        )
    if bot.rss_opened:
        print(
            f"bot memory (RSS): {bot.rss_ready / 1024:.1f} MiB started, {bot.rss_opened / 1024:.1f} MiB with "
            f"{args.tables} tables open: {(bot.rss_opened - bot.rss_ready) / args.tables:.1f} KiB per live "
            "table (goal <= 50 KB)"
        )
    print(
        f"bot log in the press window: {len(log_lines)} lines, {info_lines} at INFO "
        f"({info_lines / bot.presses:.2f} per press)"
    )
    if args.profile:
        parts = write_profile(folder / "bot.prof", Path(args.profile))
        print(f"\nwhere the bot's event loop CPU goes (profiled; full listing in {args.profile}):")
        for name, share in parts:
            print(f"{share:6.1%}  {name}")
    if violations:
        print("violations:", *violations[:5], sep="\n  ")


def profiled_bot() -> int:
    """``python -m bot`` with cProfile on the main thread between SIGUSR1 and SIGUSR2 (then dumped to
    ``$PRESS_COST_PROFILE``)."""
    import cProfile

    from bot.__main__ import main

    # The main thread's own CPU time, not wall time: waiting in epoll, for the GIL or for the database
    # thread is not charged to whatever function happened to be running.
    profiler = cProfile.Profile(time.thread_time)

    def start(*_: object) -> None:
        profiler.enable()

    def stop(*_: object) -> None:
        profiler.disable()
        profiler.dump_stats(os.environ["PRESS_COST_PROFILE"])

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    return main([])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="100 tables, 6 games (about a minute)")
    parser.add_argument("--tables", type=int, default=None, help="live tables (default 1000, quick 100)")
    parser.add_argument("--games", type=int, default=None, help="games played out (default 40, quick 6)")
    parser.add_argument("--concurrency", type=int, default=1, help="games (bare: channels) pressed at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=("fixed", "bank"), default="fixed", help="the tables' clock")
    parser.add_argument("--profile", metavar="FILE", help="profile the bot's press window into FILE")
    parser.add_argument("--profiled-bot", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profiled_bot:
        sys.exit(profiled_bot())
    args.tables = args.tables or (100 if args.quick else 1000)
    args.games = args.games or (6 if args.quick else 40)
    if args.games > args.tables:
        parser.error("--games must not exceed --tables")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
