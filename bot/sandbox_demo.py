"""``cardtable --sandbox --transcript``: the real bot plays a whole game in a local sandbox, printed as a
channel (``--sandbox`` alone opens it in a browser instead: :mod:`bot.sandbox_page`).

The sandbox (``sandbox/``) is a Discord-compatible server on 127.0.0.1; the bot connects to it with the
unmodified discord.py client, exactly as it would to Discord. Simulated players run slash commands and
press buttons; this module prints what the channel shows them. No Discord application is needed.
"""

from __future__ import annotations

import asyncio
import random
import re
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.bot import CardTableBot
from bot.settings import load_settings
from engine.core import plural
from sandbox import SandboxServer
from sandbox.models import iter_components
from sandbox.transcript import render_message

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace")
TURN_OWNER = re.compile(r"Turn: \*\*(?P<name>[^*]+)\*\*")
CARD_UP = re.compile(r"\*\*(?:<:\w+:\d+> )?(?P<card>\d+)\*\* with (?P<tokens>\d+) tokens? on it")


@asynccontextmanager
async def sandbox_bot(
    server: SandboxServer, guild_id: int, database: Path | str, **settings: Any
) -> AsyncIterator[CardTableBot]:
    """The real bot, connected to ``server`` and ready for interactions, closed on exit.

    Parameters
    ----------
    server:
        A started sandbox.
    guild_id:
        The guild to sync slash commands to (``settings`` may set ``dev_guild_id=None`` for a global sync).
    database:
        The database to use: a database URL (``sqlite:///...`` or ``postgresql://...``, as
        ``DATABASE_URL`` takes it), or else the path of a SQLite file.
    settings:
        Overrides of :class:`bot.settings.Settings` (e.g. ``min_turn_seconds=1``).

    Raises
    ------
    TimeoutError
        If the bot does not connect and sync its commands within 20 seconds.
    """
    bot = CardTableBot(
        load_settings(
            **{
                "discord_token": server.bot_token,
                "discord_api_base": server.api_base,
                "database_url": str(database) if "://" in str(database) else f"sqlite:///{database}",
                "dev_guild_id": guild_id,
                "log_level": "WARNING",
                **settings,
            }
        )
    )
    runner = asyncio.create_task(bot.start(server.bot_token))
    try:
        await server.wait_for_bot(timeout=20)
        await server.wait_for_commands(["play", "hand", "leaderboard", "rules"], timeout=20)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(runner, timeout=10)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _description(message: Any) -> str:
    """The text under a table message's title: its embed's description, or the first text display's of
    its layout (whose turn, the log)."""
    if message.embeds:
        return message.embeds[0].get("description") or ""
    texts = [c["content"] for c in iter_components(message.components) if c.get("type") == 10]
    return texts[0].partition("\n")[2] if texts else ""


class _Narrator:
    """Prints the channel: whole messages at key moments, new log lines in between."""

    def __init__(self, say: Callable[..., None] = print) -> None:
        self.say = say
        self.log_lines: list[str] = []

    def show(self, title: str, message: Any) -> None:
        self.say(f"\n── {title} " + "─" * max(0, 60 - len(title)))
        self.say(_indent(render_message(message)))

    def new_log_lines(self, message: Any) -> list[str]:
        lines = [line for line in _description(message).splitlines() if line and not line.startswith("Turn:")]
        overlap = 0
        for size in range(min(len(lines), len(self.log_lines)), 0, -1):
            if self.log_lines[-size:] == lines[:size]:
                overlap = size
                break
        fresh = lines[overlap:]
        self.log_lines = lines
        return fresh


def _button(message: Any, label: str) -> dict:
    for button in message.buttons():
        if button.get("label", "").startswith(label):
            return button
    raise LookupError(f"no {label!r} button")


async def run_demo(players: int = 4, seed: int | None = None) -> int:
    """Play one Foist game with ``players`` simulated players; return 0 if Discord's rules were kept."""
    if not 3 <= players <= 7:
        print("Foist needs 3 to 7 players.")
        return 2
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="cardtable-sandbox-") as folder:
        async with SandboxServer() as server:
            guild = server.add_guild("Sandbox Server")
            channel = guild.add_channel("card-table")
            members = [guild.add_member(name) for name in NAMES[:players]]
            async with sandbox_bot(server, guild.id, Path(folder) / "sandbox.db"):
                print(f"Sandbox Discord at {server.api_base}: the bot logged in with discord.py and synced.")
                print(f"Server 'Sandbox Server', channel #card-table, players: {', '.join(NAMES[:players])}.")
                await play_one_game(server, channel, members, rng)
            print(f"\n{len(server.violations)} violations of Discord's rules.")
            for violation in server.violations:
                print(f"  - {violation}")
            return 1 if server.violations or server.unhandled_routes else 0


async def play_one_game(
    server: SandboxServer,
    channel: Any,
    members: list,
    rng: random.Random,
    pause: float = 0.0,
    *,
    narrate: bool = True,
) -> None:
    """Simulated ``members`` (named as :data:`NAMES`, 3-7 of them) play one Foist game in ``channel``,
    printed as they go: the first opens the table, all join and press the buttons, then each presses
    [Play again] but the last, and the first runs /leaderboard and /stats. ``pause`` (seconds) is waited
    after each press, so a person watching the channel can follow. ``narrate=False`` prints nothing (the
    web page shows the game; the terminal is left to what the person who started it needs)."""
    by_name = dict(zip(NAMES, members, strict=False))
    say = print if narrate else _silent
    narrator = _Narrator(say)
    host = members[0]
    say(f"\n{NAMES[0]} runs /play game:Foist turn_seconds:60")
    opened = await server.run_command(host, channel, "play", game="foist", turn_seconds=60)
    table = opened.message
    for member, name in zip(members[1:], NAMES[1:], strict=False):
        await server.press(member, table, _button(table, "Join")["custom_id"])
        say(f"{name} presses [Join]")
        await asyncio.sleep(pause)
    narrator.show("the lobby", _current(channel, table))
    await server.press(host, table, _button(table, "Start")["custom_id"])
    say(f"{NAMES[0]} presses [Start]")
    await asyncio.sleep(pause)
    table = _current(channel, table)
    narrator.new_log_lines(table)
    narrator.show("the table", table)

    peeker = members[1]
    hand = await server.press(peeker, table, _button(table, "My hand")["custom_id"])
    narrator.show(f"{NAMES[1]} presses [My hand]: only {NAMES[1]} sees this", hand.message)

    say("\n── the game " + "─" * 50)
    moves = 0
    while "final scores" not in table.text():
        actor_name = TURN_OWNER.search(table.text())["name"]
        card_up = CARD_UP.search(table.text())
        take = int(card_up["tokens"]) * 3 >= int(card_up["card"]) - 6 or rng.random() < 0.1
        actor = by_name[actor_name]
        pressed = await server.press(
            actor, table, _button(table, "Take" if take else "No thanks")["custom_id"]
        )
        if pressed.ephemeral:  # refused privately: no tokens left
            say(f"    (only {actor_name} sees: {pressed.message.text()})")
            await server.press(actor, table, _button(table, "Take")["custom_id"])
        moves += 1
        await asyncio.sleep(pause)
        table = _current(channel, table)
        if "final scores" not in table.text():
            for line in narrator.new_log_lines(table):
                say(f"    {line}")
    narrator.show(f"the scoreboard, after {plural(moves, 'move')}", table)

    for index, member in enumerate(members):
        choice = "Leave" if index == len(members) - 1 else "Play again"
        await server.press(member, table, _button(table, choice)["custom_id"])
        say(f"{NAMES[index]} presses [{choice}]")
    await asyncio.sleep(max(pause, 0.2))
    narrator.show(
        "a new lobby for those who stay", [m for m in channel.messages if m.ephemeral_for is None][-1]
    )

    board = await server.run_command(host, channel, "leaderboard")
    narrator.show(f"{NAMES[0]} runs /leaderboard", board.message)
    stats = await server.run_command(host, channel, "stats", share=True)
    narrator.show(f"{NAMES[0]} runs /stats share:true (the rating chart comes as a picture)", stats.message)


def _silent(*_: Any, **__: Any) -> None:
    pass


def _current(channel: Any, message: Any) -> Any:
    return next(m for m in channel.messages if m.id == message.id)
