"""AI seats through the sandbox: one person plus AIs plays every game to the end (``/play bots:``); the
lobby's Add / Remove AI player buttons (host only); idle takeover and "I'm back"; a player who leaves
mid-game is replaced by an AI and the game finishes; results store the AI seats marked; the coach's Hint;
and ``/table defaults count_ai_games`` and ``hints_in_rated``. The AIs act with no pause here
(``AI_PAUSE_SECONDS=0``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.registry import GAMES
from tests.e2e import reading
from tests.e2e.conftest import TO_ACT, World, live_tables, refused, sqlite_only, stored

PREFER = {"declare": ("Declare", "")}  # shortens Declare's long games, as tests/e2e/test_games.py does


def waits_for(table: Any, name: str) -> bool:
    """True if the table message says the game waits for the player ``name``."""
    return any(match["name"] == name for match in TO_ACT.finditer(table.text()))


async def finish_with_ais(
    world: World,
    table: Any,
    person: Any,
    rng: random.Random,
    prefer: tuple[str, ...] = (),
    told: list[Any] | None = None,
) -> Any:
    """``person`` plays whenever the table waits for them; the AIs play the other turns by themselves.
    Returns the final table message. With ``told``, each time before ``person`` acts: the one line that
    mentions them in the channel, appended to ``told`` (the same line for the same turn)."""
    hands: dict[int, Any] = {}
    tables = None if told is None else world.bot.get_cog("Tables")  # told: the bot runs in this process
    for _ in range(6000):
        current = world.message(table.id)
        if "final scores" in reading.title(current):
            return current
        if waits_for(current, person.name):
            if told is not None:
                shown = current.text()
                (session,) = live_tables(world).values()
                # Her line, once the bot's lines are as the game is (not the last turn's, on its way out).
                await world.server.wait_for(
                    lambda was=shown, table_id=session.table_id: (
                        (len(live_lines(world)) == 1 and tables.turn_alerts.in_line(table_id))
                        or world.message(table.id).text() != was
                    ),
                    timeout=5,
                )
                if len(live_lines(world)) != 1 or world.message(table.id).text() != shown:
                    continue  # the message showed a turn of theirs already over: look again
                (line,) = live_lines(world)
                if not told or told[-1] is not line:
                    told.append(line)
            await world.act_somehow(person, current, rng, hands, prefer)
        else:
            await world.server.wait_for(changed(world, table, current.text()), timeout=20)
    raise AssertionError("the game did not end")


def live_lines(world: World) -> list[Any]:
    """The turn lines of the test channel not deleted yet."""
    return [line for line in world.turn_lines() if not line.deleted]


def changed(world: World, table: Any, text: str):
    """A predicate: the table message no longer shows ``text``."""
    return lambda: world.message(table.id).text() != text


SNAPSHOTS = "SELECT snapshot FROM live_tables"


def stored_seats(world: World) -> list[tuple]:
    return stored(
        world.database_url,
        "SELECT seat, user_id, display_name, is_ai FROM game_seats ORDER BY game_id, seat",
    )


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_one_person_plays_each_game_with_ais_to_the_end(world: World, game: str) -> None:
    """Also: her turns find her by a mention in the channel, which she chose for this table
    although she gets her hand by DM, one line per turn, only her, deleted when the turn is over; her DM
    of the table is one message, edited all game long into the final scores."""
    alice = world.players["alice"]
    bots = GAMES[game].min_seats - 1
    opened = await world.play(alice, game=game, bots=bots)
    assert opened.ok and not opened.ephemeral, opened
    assert opened.message.text().count("🤖") >= bots  # the AI seats show their marker in the lobby
    assert (await world.press(alice, opened.message, "DM me my hand")).ok
    chose = await world.server.run_command(alice, world.channel, "turns", how="channel")
    assert chose.ok and chose.ephemeral and "by a mention" in chose.message.text(), chose
    started = await world.press(alice, opened.message, "Start")
    assert started.ok and started.response_type == 7, started
    told: list[Any] = []
    final = await finish_with_ais(world, opened.message, alice, random.Random(7), PREFER.get(game, ()), told)
    assert "final scores" in final.text() and "🤖" in final.text()
    await world.server.wait_for(lambda: not live_lines(world), timeout=5)  # her last turn is over
    seats = stored_seats(world)
    (her_seat,) = [seat for seat, user_id, _, _ in seats if user_id == alice.id]
    ((log,),) = stored(world.database_url, "SELECT actions FROM games")
    if any(seat == her_seat for seat, *_ in json.loads(log)):  # MINIMIZE may put her out before her turn
        assert told
    assert world.turn_lines() == told  # one line per turn of hers, none for an AI seat
    for line in told:
        assert line.allowed_mentions == {"parse": [], "users": [alice.id]}  # her, and nobody else
        assert line.content.startswith(f"🔔 <@{alice.id}>")
    await world.server.wait_for(
        lambda: "final scores" in world.server.dm_messages(alice)[0].text(), timeout=5
    )
    assert len(world.server.dm_messages(alice)) == 1 and len(world.server.dm_channel(alice).messages) == 1
    assert len(seats) == bots + 1
    assert [(user_id, is_ai) for _, user_id, _, is_ai in seats if user_id == alice.id] == [(alice.id, 0)]
    ai_rows = [row for row in seats if row[3] == 1]
    assert len(ai_rows) == bots and all(user_id < 0 and "🤖" in name for _, user_id, name, _ in ai_rows)
    assert len({name for _, _, name, _ in ai_rows}) == bots  # distinct names
    assert world.server.violations == []


SEARCHING_HARD = ("declare", "eradicize", "memory", "tokenize")
"""The games whose hard level is a search of its own, not the normal player with more budget."""


@sqlite_only  # AI turns are stored as any move: the backend is tested above
@pytest.mark.parametrize("game", SEARCHING_HARD)
async def test_one_person_plays_with_hard_ais_to_the_end(world: World, game: str) -> None:
    """``/play bots: level:hard`` seats the searching hard players, and a game with them ends through the
    sandbox like any other: their moves are stored moves of the AI seats."""
    alice = world.players["alice"]
    bots = GAMES[game].min_seats - 1
    opened = await world.play(alice, game=game, bots=bots, level="hard")
    assert opened.ok, opened
    assert opened.message.text().count("(hard)") == bots
    assert (await world.press(alice, opened.message, "Start")).ok
    final = await finish_with_ais(world, opened.message, alice, random.Random(11), PREFER.get(game, ()))
    assert "final scores" in final.text() and "(hard)" in final.text()
    ai_seats = {seat for seat, _, _, is_ai in stored_seats(world) if is_ai}
    ((log,),) = stored(world.database_url, "SELECT actions FROM games")
    assert len(ai_seats) == bots and any(seat in ai_seats for seat, *_ in json.loads(log))
    assert world.server.violations == []


async def test_the_host_adds_and_removes_ai_players_in_the_lobby(world: World) -> None:
    alice, bob = world.players["alice"], world.players["bob"]
    lobby = (await world.play(alice, game="foist")).message
    by_bob = await world.press(bob, lobby, "Add AI player")
    await refused(world, by_bob, "only the host")
    assert "🤖" not in world.message(lobby.id).text()
    for _ in range(3):
        added = await world.press(alice, lobby, "Add AI player")
        assert added.ok and added.response_type == 7, added
    text = world.message(lobby.id).text()
    assert "🤖 Ada" in text and "🤖 Alan" in text and "🤖 Grace" in text
    removed = await world.press(alice, lobby, "Remove AI player")
    assert removed.ok and removed.response_type == 7
    assert "🤖 Grace" not in world.message(lobby.id).text()
    await refused(world, await world.press(bob, lobby, "Remove AI player"), "only the host")
    started = await world.press(alice, lobby, "Start")  # one person and two AIs
    assert started.ok and started.response_type == 7
    assert "🤖 Ada" in world.message(lobby.id).text()


async def test_play_refuses_more_bots_than_the_game_seats(world: World) -> None:
    result = await world.play(world.players["alice"], game="memory", bots=4)
    await refused(world, result, "at most 3 AI players")


@pytest.mark.bot_settings(ai_pause_seconds=0.5)  # the AIs must not finish the game before she is back
async def test_a_player_away_is_played_by_an_ai_until_they_are_back(world: World) -> None:
    alice = world.players["alice"]
    lobby = (await world.play(alice, game="foist", bots=2, turn_seconds=1)).message
    dm = await world.press(alice, lobby, "DM me my hand")
    assert dm.ok
    await world.server.wait_for(lambda: world.server.dm_messages(alice))
    assert (await world.press(alice, lobby, "Start")).ok
    # Alice does nothing: her clock runs out twice, then an AI plays her seat and she is told by DM.
    await world.server.wait_for(
        lambda: any("plays your seat" in m.text() for m in world.server.dm_messages(alice)), timeout=30
    )
    table = world.message(lobby.id)
    await world.server.wait_for(lambda: "I'm back" in _labels(world.message(lobby.id)), timeout=10)
    assert "away" in world.message(lobby.id).text()
    # Her seat is played on without her: moves of her seat that are no timeouts.
    await world.server.wait_for(
        lambda: (0, 0) in stored(world.database_url, "SELECT seat, timed_out FROM live_table_actions"),
        timeout=10,
    )  # a move of her seat (seat 0) that is no timeout: the AI's
    hand = await world.press(alice, table, "My hand")
    assert hand.ok and hand.ephemeral and "plays your seat" in hand.message.text()
    assert "I'm back" in _labels(hand.message) and "Leave game" in _labels(hand.message)
    back = await world.press(alice, hand.message, "I'm back")
    assert back.ok and back.response_type == 7, back
    assert "I'm back" not in _labels(back.message)
    await world.server.wait_for(lambda: "I'm back" not in _labels(world.message(lobby.id)), timeout=10)
    assert world.server.violations == []


def _labels(message: Any) -> list[str]:
    return [button.get("label", "") for button in message.buttons()]


async def test_a_leaver_is_replaced_by_an_ai_and_ranked_where_the_seat_finishes(world: World) -> None:
    alice, bob = world.players["alice"], world.players["bob"]
    lobby = (await world.play(alice, game="foist", bots=1)).message
    assert (await world.press(bob, lobby, "Join")).ok
    assert (await world.press(alice, lobby, "Start")).ok
    table = world.message(lobby.id)
    hand = await world.press(bob, table, "My hand")
    asked = await world.press(bob, hand.message, "Leave game")
    assert asked.ok and asked.ephemeral and "Leave this game?" in asked.message.text()
    left = await world.press(bob, asked.message, "Yes, leave the game")
    assert left.ok, left
    await world.server.wait_for(lambda: "left the game" in world.message(table.id).text(), timeout=10)
    again = await world.press(bob, world.message(table.id), "My hand")
    await refused(world, again, "you left this game")
    final = await finish_with_ais(world, table, alice, random.Random(3))
    assert "final scores" in final.text()
    seats = stored_seats(world)
    assert sorted((user_id, is_ai) for _, user_id, _, is_ai in seats if user_id > 0) == sorted(
        [(alice.id, 0), (bob.id, 0)]
    )  # the leaver's seat is stored as theirs, ranked where it finished
    assert [is_ai for _, user_id, _, is_ai in seats if user_id < 0] == [1]
    # Alice plays again (the leaver is not asked): a new lobby, with the game's AI player seated again.
    again = await world.press(alice, final, "Play again")
    assert again.ok, again
    await world.server.wait_for(lambda: "Playing again" in world.public_messages()[-1].text(), timeout=10)
    lobby_again = world.public_messages()[-1].text()
    assert "🤖 Ada" in lobby_again and "bob" not in lobby_again


@pytest.mark.bot_settings(ai_pause_seconds=0.5)
async def test_the_host_of_a_table_nobody_plays_can_end_it(world: World) -> None:
    alice, bob = world.players["alice"], world.players["bob"]
    lobby = (await world.play(alice, game="foist", bots=1, turn_seconds=1)).message
    assert (await world.press(bob, lobby, "Join")).ok
    assert (await world.press(alice, lobby, "Start")).ok
    table = world.message(lobby.id)
    hand = await world.press(bob, table, "My hand")
    asked = await world.press(bob, hand.message, "Leave game")
    assert (await world.press(bob, asked.message, "Yes, leave the game")).ok
    # Alice's clock runs out twice: nobody plays any seat now, and she (the host) may end the table.
    await world.server.wait_for(lambda: "End table" in _labels(world.message(table.id)), timeout=30)
    await refused(world, await world.press(bob, world.message(table.id), "End table"), "only the host")
    ended = await world.press(alice, world.message(table.id), "End table")
    assert ended.ok, ended
    await world.server.wait_for(lambda: "ended the table" in world.message(table.id).text(), timeout=10)
    assert stored(world.database_url, "SELECT COUNT(*) FROM games") == [(0,)]


async def test_table_defaults_say_whether_games_with_ais_count(world: World) -> None:
    admin = world.guild.add_member("admin", manage_guild=True)
    turned_off = await world.server.run_command(admin, world.channel, "table defaults", count_ai_games=False)
    assert turned_off.ok and "do not count" in turned_off.message.text(), turned_off
    assert not await world.bot.db.guild_counts_ai_games(world.guild.id)
    turned_on = await world.server.run_command(admin, world.channel, "table defaults", count_ai_games=True)
    assert "count on the leaderboard" in turned_on.message.text()
    assert await world.bot.db.guild_counts_ai_games(world.guild.id)


@sqlite_only  # levels are stored like any table field (tests/tables/test_ai_turns.py): one backend suffices
async def test_a_table_with_an_easy_a_normal_and_a_hard_ai_plays_to_the_end(world: World) -> None:
    """On a server that rates games with AIs: no Hint at first; then (``/table defaults
    hints_in_rated:true``) the next table offers it, and its scoreboard says how many hints each used."""
    alice, bob = world.players["alice"], world.players["bob"]
    lobby = (await world.play(alice, game="foist", bots=1, level="easy")).message
    assert "🤖 Ada (easy)" in world.message(lobby.id).text()
    for _ in range(2):
        assert (await world.press(alice, lobby, "Add AI player")).ok  # normal, as nobody chose
    menu = next(m for m in world.message(lobby.id).selects() if m["custom_id"].endswith("o.levels"))
    assert {option["value"] for option in menu["options"]} >= {"-1:easy", "-2:normal", "-3:hard"}
    by_bob = await world.server.select(bob, world.message(lobby.id), menu["custom_id"], ["-3:hard"])
    await refused(world, by_bob, "only the host")
    chosen = await world.server.select(alice, world.message(lobby.id), menu["custom_id"], ["-3:hard"])
    assert chosen.ok and chosen.response_type == 7, chosen
    text = world.message(lobby.id).text()
    assert "🤖 Ada (easy)" in text and "🤖 Alan" in text and "Alan (" not in text
    assert "🤖 Grace (hard)" in text
    assert (await world.press(alice, lobby, "Start")).ok
    await world.server.wait_for(lambda: waits_for(world.message(lobby.id), alice.name), timeout=20)
    hand = await world.press(alice, lobby, "My hand")
    assert hand.ok and "Hint" not in _labels(hand.message)  # this server rates games with AIs: no coach
    final = await finish_with_ais(world, lobby, alice, random.Random(3))
    assert "final scores" in final.text() and "🤖 Grace (hard)" in final.text()
    assert "💡" not in final.text()

    admin = world.guild.add_member("admin", manage_guild=True)
    turned_on = await world.server.run_command(admin, world.channel, "table defaults", hints_in_rated=True)
    assert turned_on.ok and turned_on.ephemeral, turned_on
    assert "Hints on in rated games too" in turned_on.message.text()
    assert await world.bot.db.guild_counts_ai_games(world.guild.id)  # still rated
    table = (await world.play(alice, game="foist", bots=2)).message  # the scoreboard freed the channel
    assert (await world.press(alice, table, "Start")).ok
    await world.server.wait_for(lambda: waits_for(world.message(table.id), alice.name), timeout=20)
    hand = await world.press(alice, table, "My hand")
    for _ in range(2):
        hint = await world.press(alice, hand.message, "Hint")
        assert hint.ok and hint.ephemeral, hint
    words = hint.message.text()
    assert words.startswith("💡") and ("**Take it**" in words or "**No thanks**" in words), words
    hinted = "Take" if "**Take it**" in words else "No thanks"
    counted = f'"hint_counts":{{"{alice.id}":2}}'  # kept with the table (its snapshot), not as a move
    await world.server.wait_for(
        lambda: any(counted in snapshot for (snapshot,) in stored(world.database_url, SNAPSHOTS)), timeout=5
    )
    assert (await world.press(alice, hand.message, hinted)).ok  # the hinted move is a legal one
    final = await finish_with_ais(world, table, alice, random.Random(4))
    lines = reading.description(final).split("\n")
    hers = next(line for line in lines if alice.name in line)
    assert hers.endswith(" · 💡 2 hints") and all("💡" not in line for line in lines if line != hers), lines
    assert world.server.violations == []


@sqlite_only
async def test_hint_answers_with_the_hard_ai_s_move_and_its_reason_where_games_with_ais_are_unrated(
    world: World,
) -> None:
    admin = world.guild.add_member("admin", manage_guild=True)
    assert (await world.server.run_command(admin, world.channel, "table defaults", count_ai_games=False)).ok
    alice, bob = world.players["alice"], world.players["bob"]
    lobby = (await world.play(alice, game="foist", bots=2)).message
    assert (await world.press(alice, lobby, "Start")).ok
    await world.server.wait_for(lambda: waits_for(world.message(lobby.id), alice.name), timeout=20)
    hand = await world.press(alice, lobby, "My hand")
    assert "Hint" in _labels(hand.message)
    hint = await world.press(alice, hand.message, "Hint")
    assert hint.ok and hint.ephemeral, hint
    words = hint.message.text()
    assert words.startswith("💡") and ("**Take it**" in words or "**No thanks**" in words), words
    assert "points" in words
    forged = next(b["custom_id"] for b in hand.message.buttons() if b.get("label") == "Hint")
    by_bob = await world.server.press(bob, world.message(lobby.id), forged, forged=True)
    await refused(world, by_bob, "not playing")
    assert world.server.violations == []


@pytest.mark.bot_settings(ai_pause_seconds=0.5)
async def test_a_declare_player_is_away_after_two_missed_turns_not_two_missed_decisions(world: World) -> None:
    """A Declare turn is a throw and a pick: a player whose clock runs out on both has missed one turn, so an
    AI takes the seat only once a second turn runs out: after three timed-out decisions, not two (Declare
    ruling 26)."""
    alice = world.players["alice"]
    lobby = (await world.play(alice, game="declare", bots=1, turn_seconds=1)).message
    assert (await world.press(alice, lobby, "DM me my hand")).ok
    await world.server.wait_for(lambda: world.server.dm_messages(alice))
    assert (await world.press(alice, lobby, "Start")).ok
    await world.server.wait_for(
        lambda: any("plays your seat" in m.text() for m in world.server.dm_messages(alice)), timeout=40
    )
    timed_out = stored(
        world.database_url, "SELECT COUNT(*) FROM live_table_actions WHERE seat = 0 AND timed_out = 1"
    )
    assert timed_out == [(3,)], timed_out  # her first turn's throw and pick, her second turn's throw
    assert world.server.violations == []


@pytest.mark.bot_settings(ai_pause_seconds=0)
async def test_a_game_whose_every_person_left_ends_on_a_scoreboard_that_offers_only_its_replay(
    world: World,
) -> None:
    """As ``cardtable --sandbox --watch`` does: the only person leaves the game, its AI seats play it to the
    end, and with everyone's choice made there is no "Play again" to press (only "Replay")."""
    alice = world.players["alice"]
    lobby = (await world.play(alice, game="foist", bots=2)).message
    assert (await world.press(alice, lobby, "Start")).ok
    hand = await world.press(alice, world.message(lobby.id), "My hand")
    asked = await world.press(alice, hand.message, "Leave game")
    assert (await world.press(alice, asked.message, "Yes, leave the game")).ok
    await world.server.wait_for(lambda: "final scores" in reading.title(world.message(lobby.id)), timeout=30)
    assert _labels(world.message(lobby.id)) == ["Replay"]
    assert "Play again" not in world.message(lobby.id).text()
    assert world.server.violations == []
