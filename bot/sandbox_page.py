"""``cardtable --sandbox``: play in a browser, no Discord needed.

Starts the sandbox (a Discord-compatible server on 127.0.0.1, :mod:`sandbox`), the real bot connected to it
with discord.py, and the sandbox's web page (:class:`sandbox.web.WebPage`), which shows the sandbox's
channel to one simulated member, "you", as a Discord client would: you run slash commands, press buttons,
pick options and fill modals there. Options:

- ``--game G --bots N``: you have run ``/play game:G bots:N``, and the table's lobby waits for your Start;
- ``--watch``: with ``--game``, the table starts and your seat goes to an AI player too
  (:func:`watch_table`), so its AI seats play it to the end while you watch; alone, simulated players
  (:func:`bot.sandbox_demo.play_one_game`) play a Foist game in the channel;
- ``--port P``: the page's port (default: a free one).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
import webbrowser
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.sandbox_demo import NAMES, play_one_game, sandbox_bot
from sandbox import Channel, Message, SandboxServer, SimUser
from sandbox.web import WebPage

YOUR_NAME = "Sam"
"""The name of the one person the page shows the sandbox to: a name, not "you", since the bot's messages
speak of every player in the third person ("Sam chooses a first card")."""

WATCH_PAUSE_SECONDS = 1.0
"""How long the simulated players of ``--watch`` wait after each press, so you can follow."""


@dataclass(frozen=True)
class PageSession:
    """A running sandbox with the bot and the web page: ``page.url`` is where to look."""

    server: SandboxServer
    page: WebPage
    you: SimUser
    channel: Channel
    table: Message | None = None  # the table message of ``--game``'s table


@asynccontextmanager
async def sandbox_page(
    folder: Path, *, game: str | None = None, bots: int = 0, port: int = 0, **settings: Any
) -> AsyncIterator[PageSession]:
    """The sandbox, the bot (its SQLite database in ``folder``) and the web page, stopped on exit.

    Parameters
    ----------
    folder:
        A folder for the bot's database.
    game, bots:
        When ``game`` is given, "you" run ``/play game:<game> bots:<bots>`` before the page opens.
    port:
        The page's port on 127.0.0.1; 0 picks a free one.
    settings:
        Overrides of :class:`bot.settings.Settings` (e.g. ``ai_pause_seconds=0.1``).

    Raises
    ------
    sandbox.SandboxUsageError
        If ``/play`` refuses the options (an unknown game, too many bots).
    OSError
        If ``port`` is taken.
    TimeoutError
        If the bot does not connect within 20 seconds.

    The bot's card emojis are uploaded (:mod:`cogs.card_emojis`) before ``/play`` is run and the page opens.
    """
    async with SandboxServer() as server:
        guild = server.add_guild("Sandbox Server")
        channel = guild.add_channel("card-table")
        you = guild.add_member(YOUR_NAME, manage_guild=True)
        async with (
            WebPage(server, you, channel, port=port) as page,  # first: a taken port fails at once
            sandbox_bot(server, guild.id, folder / "sandbox.db", **settings) as bot,
        ):
            if bot.card_emoji_sync is not None:  # the cards show as emojis from the first table message
                await asyncio.gather(bot.card_emoji_sync, return_exceptions=True)
            table = None
            if game is not None:
                options: dict[str, Any] = {"game": game, "bots": bots} if bots else {"game": game}
                table = (await server.run_command(you, channel, "play", **options)).message
            yield PageSession(server, page, you, channel, table)


async def run_page(
    *, game: str | None, bots: int, watch: bool, players: int, seed: int | None, port: int
) -> int:
    """Serve the page until Ctrl+C (or until the process is stopped); return the exit code.

    With ``watch``, the ``game`` table's AI seats play it out (:func:`watch_table`); without a ``game``,
    ``players`` simulated players (3-7) play Foist, choosing with ``seed``.

    The terminal gets what the person who started it needs and nothing else: :func:`opened_line` once the
    page answers, :data:`STOPPED_LINE` once everything is closed, and in between only warnings and
    errors (logged, e.g. a bot error or a breach of Discord's rules the sandbox saw).
    """
    if watch and game is None and not 3 <= players <= 7:
        print("cardtable: --watch plays Foist, which needs 3 to 7 --players", file=sys.stderr)
        return 2
    opened = False
    try:
        with tempfile.TemporaryDirectory(prefix="cardtable-sandbox-") as folder:
            async with sandbox_page(Path(folder), game=game, bots=bots, port=port) as session:
                opened = True
                print(opened_line(session.page.url), flush=True)
                open_in_browser(session.page.url)
                if watch and session.table is not None:
                    await watch_table(session)
                elif watch:
                    members = [session.channel.guild.add_member(name) for name in NAMES[:players]]
                    await play_one_game(
                        session.server,
                        session.channel,
                        members,
                        random.Random(seed),
                        WATCH_PAUSE_SECONDS,
                        narrate=False,  # the page shows the game
                    )
                await asyncio.Event().wait()
    finally:
        if opened:
            print(STOPPED_LINE, flush=True)
    return 0


STOPPED_LINE = "cardtable: the sandbox has stopped"
"""What the terminal says once Ctrl+C has closed the page, the bot and the sandbox."""


def opened_line(url: str) -> str:
    """What the terminal says once the page at ``url`` answers: where it is and how to stop it."""
    return f"cardtable: the sandbox is open at {url} (Ctrl+C stops it)"


async def watch_table(session: PageSession) -> None:
    """Start the table "you" opened (``session.table``) and hand your seat to an AI player, as a player
    does with "Leave game": its AI seats then play it to the end while you watch.

    Raises
    ------
    KeyError
        If a button this needs is not where a player would find it (the table is not in its lobby).
    """
    server, you = session.server, session.you
    assert session.table is not None
    table = session.table
    await server.press(you, table, table.button("Start")["custom_id"])
    table = server.message(table.id)
    hand = (await server.press(you, table, table.button("My hand")["custom_id"])).message
    question = (await server.press(you, hand, hand.button("Leave game")["custom_id"])).message
    await server.press(you, question, question.button("Yes, leave the game")["custom_id"])


def open_in_browser(url: str) -> bool:
    """Open ``url`` in the default graphical browser, where there is a display; True if one opened.

    Without a display Python's :mod:`webbrowser` would fall back to a text browser in this terminal, so it
    is not asked then."""
    graphical = (
        sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if not graphical:
        return False
    try:
        return webbrowser.open(url)
    except webbrowser.Error:
        return False
