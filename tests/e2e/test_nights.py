"""Game nights through the sandbox with the real discord.py client: ``/gamenight create`` makes the
server's scheduled event (external, at the channel, ending after an estimate per round) and posts the
sign-up message; members sign up with its buttons or by marking Interested on the event; ``edit`` moves
the event; ``cancel`` cancels it; bad requests are refused privately and change nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from datetime import datetime, timedelta, timezone

from sandbox.models import Permissions
from tests.e2e.conftest import World, restartable_world
from tests.e2e.stored_rows import stored


def organiser(world: World):
    """A member with Manage Events (the bot may create events too)."""
    member = world.guild.add_member("olga")
    world.guild.grant(member, Permissions.MANAGE_EVENTS)
    world.guild.grant(world.server.bot_user, Permissions.CREATE_EVENTS)
    return member


async def command(world: World, user, name: str, **options):
    result = await world.server.run_command(user, world.channel, name, **options)
    assert result.ok and result.ephemeral, result
    await result.wait_message(timeout=5)
    return result


def sign_up_message(world: World):
    (found,) = [m for m in world.public_messages() if "game night" in m.text() and not m.deleted]
    return found


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


async def test_a_night_makes_its_event_and_members_sign_up_by_button_and_by_interest(world: World) -> None:
    olga = organiser(world)
    day = (datetime.now(timezone.utc) + timedelta(days=30)).replace(
        hour=20, minute=0, second=0, microsecond=0
    )
    later = day + timedelta(hours=23)
    made = await command(
        world, olga, "gamenight create", game="foist", start=f"{day:%Y-%m-%d %H:%M}", rounds=3
    )
    assert "planned" in made.message.text(), made.message.text()
    ((night_id, event_id, message_id, state),) = stored(
        world.database_url, "SELECT night_id, event_id, signup_message_id, state FROM nights"
    )
    assert state == "scheduled"
    event = world.server.scheduled_event(event_id)
    assert event.name == "Foist game night" and event.status == 1 and event.creator == world.server.bot_user
    assert event.fields["entity_type"] == 3 and event.fields["privacy_level"] == 2
    assert event.fields["entity_metadata"] == {"location": "#cards"}
    assert moment(event.fields["scheduled_start_time"]) == day
    assert moment(event.fields["scheduled_end_time"]) == day + timedelta(hours=3)
    assert "3 rounds" in event.fields["description"]
    message = sign_up_message(world)
    assert message.id == message_id and "nobody yet" in message.text()
    for name in ("alice", "bob"):
        pressed = await world.press(world.players[name], world.message(message_id), "I'm in")
        assert pressed.ok and pressed.response_type == 7, pressed
    assert "**In** (2 players): alice, bob" in world.message(message_id).text()
    world.server.mark_interested(world.players["carol"], event_id)
    world.server.mark_interested(world.players["bob"], event_id)
    out = await world.press(world.players["bob"], world.message(message_id), "Not this time")
    assert out.ok and out.response_type == 7, out
    assert "**In** (2 players): alice, carol" in world.message(message_id).text()  # bob said no
    rows = stored(world.database_url, "SELECT user_id, status FROM night_signups ORDER BY since, user_id")
    assert rows == [(world.players["alice"].id, "in"), (world.players["bob"].id, "out")]

    moved = await command(world, olga, "gamenight edit", start=f"{later:%Y-%m-%d %H:%M}", rounds=2)
    assert "2 rounds" in moved.message.text(), moved.message.text()
    assert moment(event.fields["scheduled_start_time"]) == later
    assert moment(event.fields["scheduled_end_time"]) == later + timedelta(hours=2)
    await world.server.wait_for(lambda: "2 rounds" in world.message(message_id).text())

    canceled = await command(world, olga, "gamenight cancel")
    assert "canceled" in canceled.message.text()
    assert world.server.scheduled_event(event_id).status == 4
    assert stored(world.database_url, "SELECT state FROM nights WHERE night_id = ?", (night_id,)) == [
        ("canceled",)
    ]
    await world.server.wait_for(lambda: "canceled" in world.message(message_id).text())
    assert not world.message(message_id).components
    again = await command(world, olga, "gamenight cancel")
    assert "no game night planned" in again.message.text()
    assert not world.server.violations, world.server.violations


async def test_bad_requests_are_refused_privately_and_change_nothing(world: World) -> None:
    member = await command(world, world.players["dave"], "gamenight create", game="foist", start="in 2h")
    assert "Manage Events" in member.message.text()
    olga = world.guild.add_member("olga")
    world.guild.grant(olga, Permissions.MANAGE_EVENTS)
    no_permission = await command(world, olga, "gamenight create", game="foist", start="in 2h")
    assert "Create Events" in no_permission.message.text(), no_permission.message.text()
    world.guild.grant(world.server.bot_user, Permissions.CREATE_EVENTS)
    past = await command(world, olga, "gamenight create", game="foist", start="2020-01-01 20:00")
    assert "already passed" in past.message.text()
    unreadable = await command(world, olga, "gamenight create", game="foist", start="friday-ish")
    assert "can't read" in unreadable.message.text()
    nothing = await command(world, olga, "gamenight edit", rounds=2)
    assert "no game night planned" in nothing.message.text()
    assert stored(world.database_url, "SELECT COUNT(*) FROM nights") == [(0,)]
    assert not world.guild.scheduled_events
    soon = datetime.now(timezone.utc) + timedelta(hours=2)
    made = await command(world, olga, "gamenight create", game="foist", start="in 2h")
    ((start,),) = stored(world.database_url, "SELECT starts_at FROM nights")
    assert abs(moment(start) - soon) < timedelta(minutes=2) and "planned" in made.message.text()
    forged = await world.server.press(
        world.players["dave"], sign_up_message(world), "night:in:x", forged=True
    )
    assert forged.ok and forged.ephemeral and "not one of mine" in forged.message.text(), forged
    unknown = await world.server.press(
        world.players["dave"], sign_up_message(world), "night:in:123", forged=True
    )  # a night id on no message of this night
    assert unknown.ok and unknown.ephemeral and "not one of mine" in unknown.message.text(), unknown
    # Its start comes with nobody in: the channel is told, the night and its event are canceled.
    ((night_id,),) = stored(world.database_url, "SELECT night_id FROM nights")
    world.bot.scheduler.get_job(f"night:{night_id}:start").modify(next_run_time=datetime.now(timezone.utc))
    await world.server.wait_for(lambda: any("is canceled" in m.text() for m in world.public_messages()))
    (said,) = [m for m in world.public_messages() if "is canceled" in m.text()]
    assert "Nobody is here to seat" in said.text(), said.text()
    assert stored(world.database_url, "SELECT state FROM nights") == [("canceled",)]
    (event_id,) = world.guild.scheduled_events
    assert world.server.scheduled_event(event_id).status == 4


def runner(world: World):
    """The bot's night runner, its watch made quick for the test."""
    found = world.bot.get_cog("Game nights").runner
    found.watch_seconds = 0.2
    return found


def table_message_in(world: World, thread):
    """The table message of the table in ``thread`` (the one with a My hand button)."""
    in_thread = dataclasses.replace(world, channel=thread)
    for message in in_thread.public_messages():
        if any(b.get("label") == "My hand" for b in message.buttons()):
            return in_thread, message
    return in_thread, None


async def play_round(world: World, threads_before: set[int], rng: random.Random) -> list:
    """Play every table opened since ``threads_before`` to its end; returns those threads."""
    await world.server.wait_for(lambda: len(new_threads(world, threads_before)) > 0, timeout=10)
    await asyncio.sleep(0.5)  # every table of the round opened
    played = new_threads(world, threads_before)
    for thread in played:
        await world.server.wait_for(lambda t=thread: table_message_in(world, t)[1] is not None, timeout=10)
        in_thread, table = table_message_in(world, thread)
        await in_thread.play_to_the_end(table, rng)
    return played


def new_threads(world: World, before: set[int]) -> list:
    return [t for t in world.server.threads_of(world.channel) if t.id not in before]


async def sign_up(world: World, message_id: int, names) -> None:
    for name in names:
        pressed = await world.press(world.players[name], world.message(message_id), "I'm in")
        assert pressed.ok and pressed.response_type == 7, pressed


async def test_a_night_reminds_starts_takes_a_late_sign_up_drops_a_leaver_and_ends(world: World) -> None:
    olga = organiser(world)
    runner(world)
    await command(world, olga, "gamenight create", game="foist", start="in 2h", rounds=2)
    message = sign_up_message(world)
    await sign_up(world, message.id, ("alice", "bob"))
    world.server.mark_interested(
        world.players["carol"], world.guild.scheduled_events[next(iter(world.guild.scheduled_events))]
    )
    ((night_id,),) = stored(world.database_url, "SELECT night_id FROM nights")
    job = world.bot.scheduler.get_job(f"night:{night_id}:remind")  # armed for 15 minutes before the start
    assert job is not None and job.next_run_time < datetime.now(timezone.utc) + timedelta(hours=2)
    job.modify(next_run_time=datetime.now(timezone.utc))  # the reminder's time comes
    await world.server.wait_for(lambda: any("starts <t:" in m.text() for m in world.turn_lines()))
    (reminder,) = [m for m in world.turn_lines() if "starts <t:" in m.text()]
    assert all(f"<@{world.players[n].id}>" in reminder.text() for n in ("alice", "bob", "carol"))
    started = await command(world, olga, "gamenight start")
    assert "has started" in started.message.text(), started.message.text()
    assert world.message(reminder.id).deleted  # gone once the night starts
    (event_id,) = world.guild.scheduled_events
    assert world.server.scheduled_event(event_id).status == 2  # the server's event is on
    assert "has started" in world.message(message.id).text()
    late = await world.press(world.players["dave"], world.message(message.id), "I'm in")  # joins round 2
    assert late.ok and late.response_type == 7, late
    rng = random.Random(1)
    await world.server.wait_for(lambda: len(new_threads(world, set())) == 1, timeout=10)
    (first,) = new_threads(world, set())
    await world.server.wait_for(lambda: table_message_in(world, first)[1] is not None, timeout=10)
    in_thread, table = table_message_in(world, first)
    carol = world.players["carol"]
    hand = await in_thread.press(carol, table, "My hand")
    asked = await in_thread.press(carol, hand.message, "Leave game")
    left = await in_thread.press(carol, asked.message, "Yes, leave the game")  # an AI plays her seat on
    assert left.ok, left
    await in_thread.play_to_the_end(in_thread.message(table.id), rng)
    await world.server.wait_for(lambda: len(new_threads(world, {first.id})) == 1, timeout=15)
    (second,) = new_threads(world, {first.id})
    rows = stored(world.database_url, "SELECT round_number, players, ai_seats FROM night_tables ORDER BY 1")
    assert rows[1][0] == 2 and rows[1][2] == 0
    assert set(rows[1][1].split(",")) == {str(world.players[n].id) for n in ("alice", "bob", "dave")}
    await play_round(world, {first.id}, rng)
    await world.server.wait_for(
        lambda: stored(world.database_url, "SELECT state FROM nights") == [("over",)], timeout=15
    )
    (standings,) = [m for m in world.public_messages() if "final standings**" in m.text()]
    for name in ("alice", "bob", "carol", "dave"):
        assert f"**{name}**" in standings.text()
    assert "**carol** (left)" in standings.text()
    await world.server.wait_for(lambda: not world.message(message.id).components)  # no more sign-ups
    assert world.server.scheduled_event(event_id).status == 3  # the server's event is over
    shown = await command(world, olga, "gamenight standings")
    assert "final standings" in shown.message.text()
    assert not world.server.violations, world.server.violations


NINE = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")  # and ivan, by interest


def check_night(world: World, night_id: int) -> None:
    """Every round seated everyone once at a table of 5 and one of 4; the final standings follow the
    stored places (60 for a win, evenly spaced to 0), best first."""
    rows = stored(
        world.database_url,
        "SELECT round_number, players, ranks FROM night_tables WHERE night_id = ? ORDER BY round_number,"
        " table_index",
        (night_id,),
    )
    points: dict[int, float] = {}
    for number in (1, 2, 3):
        tables = [(players, ranks) for n, players, ranks in rows if n == number]
        seated = [int(p) for players, _ in tables for p in players.split(",")]
        assert sorted(len(players.split(",")) for players, _ in tables) == [4, 5]
        assert len(seated) == len(set(seated)) == 9
        for players, ranks in tables:
            places = [int(r) for r in ranks.split(",")]
            size = len(places)
            for player, rank in zip(players.split(","), places, strict=True):
                ties = places.count(rank)
                share = sum(60 * (size - 1 - (rank - 1 + k)) / (size - 1) for k in range(ties)) / ties
                points[int(player)] = points.get(int(player), 0) + share
    (standings,) = [m for m in world.public_messages() if "standings**" in m.text()]
    assert "final standings**" in standings.text()
    lines = standings.text().splitlines()[1:]
    assert len(lines) == 9
    by_name = {user.id: name for name, user in world.players.items()}
    shown = [line.split("**")[1] for line in lines]
    expected = sorted(points, key=lambda p: -points[p])
    assert [points[world.players[name].id] for name in shown] == [points[p] for p in expected]
    assert {by_name[p] for p in points} == set(shown)


async def test_nine_players_over_three_rounds_of_foist_with_a_restart_in_round_two(database_url: str) -> None:
    rng = random.Random(9)
    async with restartable_world(database_url) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            olga = organiser(world)
            runner(world)
            await command(world, olga, "gamenight create", game="foist", start="in 3h", rounds=3)
            message = sign_up_message(world)
            await sign_up(world, message.id, NINE)
            (event_id,) = world.guild.scheduled_events
            world.server.mark_interested(world.players["ivan"], event_id)
            started = await command(world, olga, "gamenight start")
            assert "has started" in started.message.text(), started.message.text()
            first = await play_round(world, set(), rng)
            assert len(first) == 2
            seen = {t.id for t in first}
            await world.server.wait_for(lambda: len(new_threads(world, seen)) == 2, timeout=15)
            (standings,) = [m for m in world.public_messages() if "standings**" in m.text()]
            assert "after 1 round of 3" in standings.text()
            # Round 2 is open; one of its tables is played half-way, then the bot stops.
            second = new_threads(world, seen)
            in_thread, table = table_message_in(world, second[0])
            hands: dict = {}
            for _ in range(5):
                waiting = in_thread.users_to_act(in_thread.message(table.id))
                await in_thread.act_somehow(rng.choice(waiting), in_thread.message(table.id), rng, hands)
            (night_id,) = stored(world.database_url, "SELECT night_id FROM nights")[0]
        async with start_bot() as bot:
            world = world_with(bot)
            assert stored(world.database_url, "SELECT state, round_number FROM nights") == [("running", 2)]
            seen_now = {t.id for t in first}
            await play_round(world, seen_now, rng)
            seen_now |= {t.id for t in second}
            await world.server.wait_for(lambda: len(new_threads(world, seen_now)) == 2, timeout=20)
            await play_round(world, seen_now, rng)
            await world.server.wait_for(
                lambda: stored(world.database_url, "SELECT state FROM nights") == [("over",)], timeout=20
            )
            check_night(world, night_id)
            (standings,) = [m for m in world.public_messages() if "standings**" in m.text()]
            assert standings.id == [m for m in world.public_messages() if "standings**" in m.text()][0].id
            assert not world.server.violations, world.server.violations
