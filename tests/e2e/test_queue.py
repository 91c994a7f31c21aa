"""The queues that find partners, through the sandbox: ``/queue join`` and the **Looking for a game**
message's buttons, the message edited in place, a table opening in a thread once three Foist players wait
(seated, the first one hosting), one queue per member per server, the AI fill after the server's wait, a
restart, concurrent joins, and a forged press."""

from __future__ import annotations

import asyncio
import dataclasses

from tests.e2e.conftest import World, live_tables, restartable_world
from tests.e2e.stored_rows import stored


def board(world: World):
    """The channel's Looking for a game message (the only one with that title), or ``None``."""
    found = [m for m in world.public_messages() if "Looking for a game" in m.text()]
    assert len(found) <= 1, [m.text() for m in found]
    return found[0] if found else None


async def join(world: World, name: str, game: str = "foist", **options):
    result = await world.server.run_command(
        world.players[name], world.channel, "queue join", game=game, **options
    )
    assert result.ok and result.ephemeral, result
    await result.wait_message(timeout=5)
    return result


async def answer_text(result) -> str:
    await result.wait_message(timeout=5)
    return result.message.text()


async def test_three_foist_players_fill_a_table_in_a_thread(world: World) -> None:
    first = await join(world, "alice")
    assert "waiting for a Foist table of 3 players" in first.message.text(), first.message.text()
    await world.server.wait_for(lambda: board(world) is not None and "alice" in board(world).text())
    message = board(world)
    pressed = await world.press(world.players["bob"], message, "Foist")
    assert pressed.ok and pressed.ephemeral, pressed
    assert "2 of 3" in await answer_text(pressed)
    await world.server.wait_for(lambda: "bob" in world.message(message.id).text())
    assert "alice" in world.message(message.id).text() and "<t:" in world.message(message.id).text()
    threads_before = list(world.server.threads_of(world.channel))
    third = await join(world, "carol")
    assert "table is open" in third.message.text(), third.message.text()
    (thread,) = [t for t in world.server.threads_of(world.channel) if t not in threads_before]
    in_thread = dataclasses.replace(world, channel=thread)
    (lobby,) = in_thread.public_messages()
    (ready,) = in_thread.turn_lines()  # the line that mentions the seated players
    assert all(f"<@{world.players[n].id}>" in ready.text() for n in ("alice", "bob", "carol"))
    (session,) = live_tables(world).values()
    assert session.phase.name == "LOBBY" and session.host_id == world.players["alice"].id
    assert set(session.seated_users()) == {world.players[n].id for n in ("alice", "bob", "carol")}
    await world.server.wait_for(lambda: "Nobody is waiting" in world.message(message.id).text())
    assert board(world).id == message.id  # edited in place, never posted again
    assert stored(world.database_url, "SELECT COUNT(*) FROM queue_players") == [(0,)]
    started = await in_thread.press(world.players["alice"], lobby, "Start")
    assert started.ok and started.response_type == 7, started
    assert not world.server.violations, world.server.violations
