"""A game night survives a SIGKILL of the bot's process in the middle of round 2: the bot runs in its own
process (as in ``test_crash_recovery.py``), nine players sign up (eight by button, one by marking
Interested on the event), round 1 is played, round 2 opens and is half played, the process is killed and
a new one started on the same database; the night plays on to its final standings with nothing lost."""

from __future__ import annotations

import random
import signal
from pathlib import Path

from sandbox import SandboxServer
from sandbox.models import Permissions
from tests.e2e.conftest import PLAYER_NAMES, World, bot_process_environment, start_bot_process, stored
from tests.e2e.test_nights import (
    NINE,
    check_night,
    command,
    new_threads,
    play_round,
    sign_up,
    sign_up_message,
    table_message_in,
)


async def test_a_night_played_on_after_a_sigkill_in_round_two(tmp_path: Path, database_url: str) -> None:
    rng = random.Random(41)
    async with SandboxServer(interaction_deadline=3.0) as server:
        guild = server.add_guild("Card Club")
        channel = guild.add_channel("cards")
        players = {name: guild.add_member(name) for name in PLAYER_NAMES}
        olga = guild.add_member("olga")
        guild.grant(olga, Permissions.MANAGE_EVENTS)
        guild.grant(server.bot_user, Permissions.CREATE_EVENTS)
        env = bot_process_environment(
            tmp_path,
            database_url,
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            DEV_GUILD_ID=str(guild.id),
            DEFAULT_TURN_SECONDS="3600",
            REMATCH_SECONDS="3600",
            LOG_LEVEL="WARNING",
        )
        world = World(server, guild, channel, channel, players, None, None, database_url)

        async def start():
            return await start_bot_process(server, env, tmp_path, ("play", "gamenight"))

        process = await start()
        try:
            await command(world, olga, "gamenight create", game="foist", start="in 3h", rounds=3)
            message = sign_up_message(world)
            await sign_up(world, message.id, NINE)
            (event_id,) = guild.scheduled_events
            server.mark_interested(players["ivan"], event_id)
            started = await command(world, olga, "gamenight start")
            assert "has started" in started.message.text(), started.message.text()
            first = await play_round(world, set(), rng)
            seen = {t.id for t in first}
            await server.wait_for(lambda: len(new_threads(world, seen)) == 2, timeout=20)
            second = new_threads(world, seen)
            in_thread, table = table_message_in(world, second[0])
            hands: dict = {}
            for _ in range(5):
                waiting = in_thread.users_to_act(in_thread.message(table.id))
                await in_thread.act_somehow(rng.choice(waiting), in_thread.message(table.id), rng, hands)
            process.send_signal(signal.SIGKILL)
            await process.wait()
            await server.drop_bot_connections(resumable=False)
            process = await start()
            assert stored(database_url, "SELECT state, round_number FROM nights") == [("running", 2)]
            await play_round(world, seen, rng)
            seen |= {t.id for t in second}
            await server.wait_for(lambda: len(new_threads(world, seen)) == 2, timeout=20)
            await play_round(world, seen, rng)
            await server.wait_for(
                lambda: stored(database_url, "SELECT state FROM nights") == [("over",)], timeout=30
            )
            ((night_id,),) = stored(database_url, "SELECT night_id FROM nights")
            check_night(world, night_id)
            assert len(stored(database_url, "SELECT table_id FROM games")) == 6  # each table's result once
        finally:
            process.send_signal(signal.SIGKILL)
            await process.wait()
