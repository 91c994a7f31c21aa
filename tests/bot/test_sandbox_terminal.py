"""What the terminal of ``cardtable --sandbox`` shows: the page's address and how to stop it, then nothing
but warnings and errors; and the sandbox's gateway answering heartbeats as Discord does, so discord.py
never reads its own heartbeats as a websocket falling behind ("Can't keep up")."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp
import discord.gateway
import pytest

from bot.sandbox_demo import sandbox_bot
from bot.sandbox_page import STOPPED_LINE, opened_line
from sandbox import SandboxServer

ROOT = Path(__file__).resolve().parents[2]
HEARTBEAT_SECONDS = 0.4
"""The gateway's heartbeat interval in the heartbeat test (Discord's is a hundred times longer)."""


@pytest.mark.xfail(
    strict=False,
    reason="in the whole suite under CI, Ctrl+C has twice failed to stop the sandbox within 30 s (alone it "
    "always stops at once): a known open bug, kept visible here until it is found",
)
async def test_the_terminal_says_where_the_page_is_how_to_stop_it_and_nothing_else(tmp_path: Path) -> None:
    environment = {  # no display (no browser opens), and none of the tests' own bots' settings
        key: value
        for key, value in os.environ.items()
        if key not in ("DISPLAY", "WAYLAND_DISPLAY", "DATABASE_URL")
        and not key.startswith(("DISCORD_", "DEV_"))
    }
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH")]))
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--sandbox",
        "--game",
        "foist",
        "--bots",
        "2",
        cwd=tmp_path,  # no .env of the repository's
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 60)).decode().rstrip("\n")
        url = re.fullmatch(
            r"cardtable: the sandbox is open at (http://127\.0\.0\.1:\d+/) \(Ctrl\+C stops it\)", first
        )
        assert url, first
        assert first == opened_line(url[1])
        async with aiohttp.ClientSession() as http:
            async with http.get(url[1]) as page:
                assert page.status == 200 and "cardtable sandbox" in await page.text()
            await asyncio.wait_for(_lobby_shown(http, url[1]), 60)  # the bot is up: its lobby is posted
        process.send_signal(signal.SIGINT)  # what Ctrl+C does
        try:
            rest, errors = await asyncio.wait_for(process.communicate(), 30)
        except TimeoutError:
            process.send_signal(signal.SIGUSR1)  # every thread's stack to stderr (bot.cli)
            await asyncio.sleep(2)
            process.kill()
            rest, errors = await process.communicate()
            raise AssertionError(f"Ctrl+C did not stop it within 30 s: {errors.decode()[-12000:]}") from None
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0
    assert rest.decode().splitlines() == [STOPPED_LINE]
    assert errors.decode() == ""


async def test_heartbeats_are_answered_as_discord_does_while_ai_seats_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py measures each ACK against the time its keep-alive thread noted the heartbeat sent; an ACK
    that beats that note is measured against the heartbeat before, a whole interval earlier (on Discord's
    interval, over the 10 s at which it warns). The AI seats think in worker threads meanwhile, as they do
    in a real game."""
    latencies: list[float] = []
    acknowledge = discord.gateway.KeepAliveHandler.ack

    def ack(handler: discord.gateway.KeepAliveHandler) -> None:
        acknowledge(handler)
        latencies.append(handler.latency)

    monkeypatch.setattr(discord.gateway.KeepAliveHandler, "ack", ack)
    caplog.set_level(logging.WARNING, logger="discord.gateway")
    async with SandboxServer(heartbeat_interval=HEARTBEAT_SECONDS) as server:
        guild = server.add_guild("Sandbox Server")
        channel = guild.add_channel("card-table")
        you = guild.add_member("Sam")
        settings = {"ai_pause_seconds": 0.05, "card_emoji_decks": ["fo"]}
        async with sandbox_bot(server, guild.id, tmp_path / "sandbox.db", **settings):
            table = (await server.run_command(you, channel, "play", game="foist", bots=2)).message
            await server.press(you, table, table.button("Start")["custom_id"])
            hand = (await server.press(you, table, table.button("My hand")["custom_id"])).message
            question = (await server.press(you, hand, hand.button("Leave game")["custom_id"])).message
            await server.press(you, question, question.button("Yes, leave the game")["custom_id"])
            await server.wait_for(lambda: len(latencies) >= 8, timeout=20)  # the AI seats play meanwhile
    # Each ACK is measured against its own heartbeat: far less than an interval (the round trip, and the
    # loop's own delays on a busy machine), never the interval and more.
    assert max(latencies) < 0.75 * HEARTBEAT_SECONDS, latencies
    assert [r.getMessage() for r in caplog.records if r.name == "discord.gateway"] == []
    assert server.violations == []


async def _lobby_shown(http: aiohttp.ClientSession, url: str) -> None:
    """Read the page's event stream until the table the command opened is in it (its Start button)."""
    start_button = re.compile(rb'"custom_id":\s*"ct:[0-9a-f]+:\d+:start"')
    async with http.get(f"{url}api/events") as events:
        async for line in events.content:
            if start_button.search(line):
                return
