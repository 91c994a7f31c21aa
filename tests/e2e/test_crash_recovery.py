"""Crash recovery: the bot process is killed with SIGKILL at random moments of several games running at
once, restarted, and the games are finished. Every move a player was told had happened is in the stored
log, nothing is stored twice, each table's result is stored exactly once, and it equals the result of
the same game (seed and moves) replayed without interruption."""

from __future__ import annotations

import asyncio
import json
import random
import signal
from pathlib import Path

from engine import get_rules, replay
from sandbox import SandboxServer
from tests.e2e import reading
from tests.e2e.conftest import PLAYER_NAMES, World, bot_process_environment, start_bot_process, stored

KILLS = 20
GAMES = (("foist", ("bob", "carol")), ("minimisere", ("erin", "frank")), ("foist", ("heidi", "ivan", "judy")))
HOSTS = ("alice", "dave", "grace")


class Recorder:
    """Counts, per table message, the moves players were told happened (an accepted press)."""

    def __init__(self) -> None:
        self.acknowledged: dict[int, int] = {}
        self.unanswered: dict[int, int] = {}


async def one_move(world: World, table_id: int, rng: random.Random, recorder: Recorder) -> bool:
    """One random move at this table; False once its scoreboard shows."""
    current = world.message(table_id)
    if "final scores" in reading.title(current):
        return False
    waiting = world.users_to_act(current)
    if not waiting:
        return True
    try:
        result = await world.act_somehow(rng.choice(waiting), current, rng, {})
    except Exception:  # the bot died under the press: it may or may not have been stored
        recorder.unanswered[table_id] = recorder.unanswered.get(table_id, 0) + 1
        return True
    if result is not None and result.ok and result.response_type == 7:
        recorder.acknowledged[table_id] = recorder.acknowledged.get(table_id, 0) + 1
    elif result is None or not result.ok:  # no answer: the kill came first, stored or not
        recorder.unanswered[table_id] = recorder.unanswered.get(table_id, 0) + 1
    return True


async def test_sigkill_at_random_moments_loses_and_doubles_nothing(tmp_path: Path, database_url: str) -> None:
    rng = random.Random(2026)
    async with SandboxServer(interaction_deadline=3.0) as server:
        guild = server.add_guild("Card Club")
        channels = [guild.add_channel(f"table-{n}") for n in range(len(GAMES))]
        players = {name: guild.add_member(name) for name in PLAYER_NAMES}
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
        worlds = [
            World(server, guild, channel, channel, players, None, None, database_url) for channel in channels
        ]

        async def start() -> asyncio.subprocess.Process:
            return await start_bot_process(server, env, tmp_path)

        process = await start()
        tables = []
        for world, host, (game, seated) in zip(worlds, HOSTS, GAMES, strict=True):
            tables.append((await world.open_table(host=host, seated=seated, game=game)).id)
        recorder = Recorder()
        kills = 0
        try:
            while kills < KILLS:
                for _ in range(rng.randint(1, 6)):
                    index = rng.randrange(len(tables))
                    move = asyncio.ensure_future(one_move(worlds[index], tables[index], rng, recorder))
                    if rng.random() < 0.3:
                        await asyncio.sleep(rng.uniform(0, 0.02))  # kill while a press is in flight
                        break
                    await move
                process.send_signal(signal.SIGKILL)
                await process.wait()
                kills += 1
                await asyncio.gather(move, return_exceptions=True)
                # The killed process cannot close its gateway socket: drop it, so the next bot identifies
                # afresh at once instead of waiting for the heartbeat to time out.
                await server.drop_bot_connections(resumable=False)
                assert not server.bot_connected  # the dead bot's session is gone, not waiting to resume
                identified = server.identify_count
                process = await start()
                assert server.identify_count > identified  # the new bot identified afresh
            # Finish every game.
            for world, table_id in zip(worlds, tables, strict=True):
                for _ in range(3000):
                    if not await one_move(world, table_id, rng, recorder):
                        break
                else:
                    raise AssertionError("a game did not end")
            # No turn line is left in any channel, whichever process posted it, and no row of one.
            await server.wait_for(
                lambda: all(line.deleted for world in worlds for line in world.turn_lines()), timeout=20
            )
            await server.wait_for(lambda: not stored(database_url, "SELECT * FROM turn_notices"), timeout=10)
        finally:
            process.send_signal(signal.SIGKILL)
            await process.wait()

        results = stored(database_url, "SELECT table_id, game, options, seed, actions FROM games")
        seats = stored(
            database_url, "SELECT game_id, seat, points, rank FROM game_seats ORDER BY game_id, seat"
        )
        ids = stored(database_url, "SELECT id, table_id FROM games")
        assert len(results) == len(tables) == len({row[0] for row in results})  # each result exactly once
        stored_standings = {table_id: [] for _, table_id in ids}
        by_game_id = dict(ids)
        for game_id, seat, points, rank in seats:
            stored_standings[by_game_id[game_id]].append((seat, points, rank))
        total_acknowledged = sum(recorder.acknowledged.values())
        total_logged = 0
        for table_id, game, options, seed, actions in results:
            log = [tuple(action) for action in json.loads(actions)]
            total_logged += len(log)
            uninterrupted = replay(
                get_rules(game), len(stored_standings[table_id]), seed, json.loads(options), log
            )
            assert [(s.seat, s.points, s.rank) for s in uninterrupted.standings()] == stored_standings[
                table_id
            ]
        # Zero lost: every acknowledged move is logged; extra ones only from presses cut off by a kill.
        assert total_acknowledged <= total_logged <= total_acknowledged + sum(recorder.unanswered.values())
        assert kills >= 20
