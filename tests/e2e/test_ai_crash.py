"""A bot process killed (SIGKILL) while an AI seat pauses before its move: after the restart the AI plays
on, the game finishes, and its stored result (AI seats marked) is the one its seed and stored log replay."""

from __future__ import annotations

import asyncio
import json
import random
import signal
from pathlib import Path

from engine import get_rules, replay
from sandbox import SandboxServer
from tests.e2e.conftest import World, bot_process_environment, start_bot_process, stored
from tests.e2e.test_ai_seats import finish_with_ais, waits_for


async def test_a_kill_during_an_ai_pause_and_the_ai_plays_on_after_the_restart(
    tmp_path: Path, database_url: str
) -> None:
    async with SandboxServer(interaction_deadline=3.0) as server:
        guild = server.add_guild("Card Club")
        channel = guild.add_channel("cards")
        alice = guild.add_member("alice")
        settings = dict(
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            DEV_GUILD_ID=str(guild.id),
            DEFAULT_TURN_SECONDS="3600",
            LOG_LEVEL="WARNING",
        )
        world = World(server, guild, channel, channel, {"alice": alice}, None, None, database_url)

        async def start(pause: str) -> asyncio.subprocess.Process:
            env = bot_process_environment(tmp_path, database_url, AI_PAUSE_SECONDS=pause, **settings)
            return await start_bot_process(server, env, tmp_path)

        process = await start("60")  # the AIs pause a minute (the most allowed): the kill comes during one
        try:
            table = (await world.play(alice, game="foist", bots=2)).message
            assert (await world.press(alice, table, "Start")).ok
            rng = random.Random(11)
            while waits_for(world.message(table.id), "alice"):
                await world.act_somehow(alice, world.message(table.id), rng, {})
            assert "Turn: **🤖" in world.message(table.id).text()  # an AI's turn: it is pausing
            process.send_signal(signal.SIGKILL)
            await process.wait()
            await server.drop_bot_connections(resumable=False)
            process = await start("0")
            final = await finish_with_ais(world, table, alice, rng)
            assert "final scores" in final.text()
        finally:
            process.send_signal(signal.SIGKILL)
            await process.wait()

        (game_id, options, seed, actions), *more = stored(
            database_url, "SELECT id, options, seed, actions FROM games"
        )
        seats = stored(
            database_url,
            "SELECT seat, points, rank, is_ai FROM game_seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        assert more == []  # stored exactly once
        assert sorted(is_ai for *_, is_ai in seats) == [0, 1, 1]
        again = replay(
            get_rules("foist"), 3, seed, json.loads(options), [tuple(a) for a in json.loads(actions)]
        )
        assert [(s.seat, s.points, s.rank) for s in again.standings()] == [row[:3] for row in seats]
