"""Durable tables through the sandbox: a bot restart loses nothing, old buttons work again, a deadline that
passed while the bot was down is applied at once, and a failed save undoes the move it tried to store."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from contextlib import closing
from typing import Any

import pytest

from cogs.tables import layouts
from sandbox.limits import FLAG_COMPONENTS_V2
from tests.e2e import reading
from tests.e2e.conftest import World, restartable_world, sqlite_only, stored
from tests.e2e.stored_rows import change


def as_before_layouts(message: Any) -> None:
    """Make ``message`` (a table message, a private view, a DM) what the bot sent before it drew layouts:
    its text in an embed, its action rows, no Components V2 flag."""
    text = reading.description(message) or message.text()
    message.embeds = [{"type": "rich", "title": reading.title(message) or "table", "description": text}]
    message.components = layouts.action_rows(message.components)
    message.flags &= ~FLAG_COMPONENTS_V2
    message.content = ""


async def test_a_restart_mid_game_loses_nothing_and_old_buttons_work(database_url: str) -> None:
    async with restartable_world(database_url, rematch_seconds=1) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            table = await world.open_table(seated=("bob", "carol"))
            carol = world.players["carol"]
            asked = await world.press(carol, table, "DM me my hand")  # one live DM, kept across the restart
            await world.server.wait_for(lambda: "Check your DMs" in asked.message.text(), timeout=5)
            assert reading.is_layout(world.message(table.id)) and not world.message(table.id).embeds
            for _ in range(4):
                current = world.message(table.id)
                result = await world.press(world.turn_owner(current), current, "No thanks")
                assert result.ok and result.response_type == 7
            before = world.message(table.id).text()
            history = stored(
                world.database_url, "SELECT seat, code FROM live_table_actions ORDER BY position"
            )
            assert len(history) == 4
            owner = world.turn_owner(world.message(table.id))
            hand = (await world.press(owner, world.message(table.id), "My hand")).message
            assert reading.is_layout(hand) and hand.ephemeral
            if owner is not carol:  # her turns come by DM
                await world.server.wait_for(
                    lambda: [line.deleted for line in world.turn_lines()][-1:] == [False]
                )
        # The bot is gone (its turn lines with it); a press now goes unanswered. Then it comes back on the
        # same database, upgraded: the table message, Bob's private view and Carol's DM are what the bot
        # sent before layouts (embeds), and each is edited into its layout (flag 32768 added, the embed
        # cleared: the sandbox refuses an edit that leaves it).
        assert all(line.deleted for line in world.turn_lines())
        (dm,) = [m for m in world.server.dm_messages(carol) if "Private to carol" in m.text()]
        for message in (world.message(table.id), hand, dm):
            as_before_layouts(message)
        async with start_bot() as bot:
            world = world_with(bot)
            # The restored table redraws its message with the same state.
            await world.server.wait_for(lambda: reading.is_layout(world.message(table.id)))
            assert world.message(table.id).text() == before and not world.message(table.id).embeds
            if owner is not carol:  # the player to act is told again
                await world.server.wait_for(lambda: not world.turn_lines()[-1].deleted, timeout=5)
            # The buttons on the old private view work again: play on from where it stopped.
            result = await world.press(owner, hand, "Take")
            assert result.ok and result.response_type == 7, result
            assert reading.is_layout(result.message) and not result.message.embeds
            final = await world.play_to_the_end(world.message(table.id), random.Random(5))
            assert "final scores" in final.text()
            games = stored(world.database_url, "SELECT table_id, actions FROM games")
            assert len(games) == 1
            assert [tuple(action) for action in json.loads(games[0][1])][:4] == history
            await world.server.wait_for(lambda: all(line.deleted for line in world.turn_lines()), timeout=5)
            # Carol's DM of the table was edited all along, before and after the restart: still one.
            await world.server.wait_for(
                lambda: "final scores" in world.server.dm_messages(carol)[-1].text(), timeout=5
            )
            assert len(world.server.dm_messages(carol)) == 1  # her turn notices went with their turns
            assert reading.is_layout(dm) and not dm.embeds
            assert world.server.violations == []
            # After the Play again window, the table is no longer stored as live.
            await world.server.wait_for(
                lambda: stored(world.database_url, "SELECT COUNT(*) FROM live_tables") == [(0,)], timeout=10
            )


LATER_MIGRATIONS_UNDONE = [
    ("DROP TABLE queue_players", ()),  # V013
    ("DROP TABLE queue_boards", ()),
    ("ALTER TABLE guild_settings DROP COLUMN queue_ai_after", ()),
    ("DROP TABLE night_tables", ()),  # V014
    ("DROP TABLE night_signups", ()),
    ("DROP TABLE nights", ()),
]
"""What the migrations after V012 added, taken out again (each later migration adds its own here)."""


def as_the_release_before(database_url: str) -> None:
    """Make the bot's stopped database what the release before this schema's V012 wrote: each table's message
    id, its posting time and its live DMs in the table's snapshot (``message_id``, ``message_posted_at``,
    ``live_dms``), no rows of their own, nothing of the migrations after it (:data:`LATER_MIGRATIONS_UNDONE`),
    the schema at version 11."""
    from storage.backend import database_target

    ((table_id, message_id, posted_at),) = stored(
        database_url, "SELECT table_id, message_id, posted_at FROM table_messages"
    )
    dms = stored(
        database_url, "SELECT user_id, channel_id, message_id FROM table_dms WHERE table_id = ?", [table_id]
    )
    ((snapshot,),) = stored(database_url, "SELECT snapshot FROM live_tables WHERE table_id = ?", [table_id])
    old = {
        **json.loads(snapshot),
        "message_id": message_id,
        "message_posted_at": posted_at,
        "live_dms": {str(user): [channel, message] for user, channel, message in dms},
    }
    statements = [
        ("UPDATE live_tables SET snapshot = ? WHERE table_id = ?", (json.dumps(old), table_id)),
        ("DROP TABLE table_dms", ()),
        ("DROP TABLE table_messages", ()),
        *LATER_MIGRATIONS_UNDONE,
    ]
    found = database_target(database_url)
    if found.url is None:
        with closing(sqlite3.connect(found.path)) as db, db:
            for sql, parameters in statements:
                db.execute(sql, parameters)
            db.execute("PRAGMA user_version = 11")
        return
    import psycopg

    from storage.postgres import postgresql_sql

    with psycopg.connect(found.url) as db, db.transaction():
        for sql, parameters in [*statements, ("UPDATE schema_version SET version = 11", ())]:
            db.execute(postgresql_sql(sql), parameters)


async def test_a_table_stored_by_the_release_before_has_its_messages_edited_not_posted_again(
    database_url: str,
) -> None:
    """A database written by the release before, which kept where a table is shown in its snapshot, comes
    back after the upgrade (V012 moves it to the Discord layer's rows): the table message and Carol's live DM
    are edited, none is posted again."""
    async with restartable_world(database_url, rematch_seconds=1) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            table = await world.open_table(seated=("bob", "carol"))
            carol = world.players["carol"]
            asked = await world.press(carol, table, "DM me my hand")
            await world.server.wait_for(lambda: "Check your DMs" in asked.message.text(), timeout=5)
            current = world.message(table.id)
            assert (await world.press(world.turn_owner(current), current, "No thanks")).ok
            await world.server.wait_for(
                lambda: stored(world.database_url, "SELECT COUNT(*) FROM table_dms") == [(1,)], timeout=5
            )
            before = world.message(table.id).text()
        posted = [message.id for message in world.public_messages()]
        (dm,) = [m for m in world.server.dm_messages(carol) if "Private to carol" in m.text()]
        dm_versions = len(dm.versions)
        as_the_release_before(world.database_url)
        async with start_bot() as bot:
            world = world_with(bot)
            redrawn = len(world.message(table.id).versions)
            await world.server.wait_for(lambda: len(world.message(table.id).versions) > redrawn, timeout=5)
            assert world.message(table.id).text() == before
            assert [message.id for message in world.public_messages()] == posted  # edited, not posted again
            current = world.message(table.id)
            assert (await world.press(world.turn_owner(current), current, "No thanks")).ok
            await world.server.wait_for(lambda: len(dm.versions) > dm_versions, timeout=5)  # her DM edited
            assert [m.id for m in world.server.dm_messages(carol) if "Private to carol" in m.text()] == [
                dm.id
            ]
            assert [message.id for message in world.public_messages()] == posted
            assert stored(world.database_url, "SELECT message_id FROM table_messages") == [(table.id,)]
            assert world.server.violations == []


async def test_lobby_and_options_survive_a_restart(database_url: str) -> None:
    async with restartable_world(database_url) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            opened = await world.play(world.players["alice"], game="foist")
            lobby = opened.message
            joined = await world.press(world.players["bob"], lobby, "Join")
            assert joined.ok
        async with start_bot() as bot:
            world = world_with(bot)
            joined = await world.press(world.players["carol"], lobby, "Join")
            assert joined.ok and joined.response_type == 7, joined
            text = world.message(lobby.id).text()
            assert "alice" in text and "bob" in text and "carol" in text
            started = await world.press(world.players["alice"], lobby, "Start")
            assert started.ok and started.response_type == 7


async def test_a_deadline_that_passed_while_the_bot_was_down_is_applied_at_once(database_url: str) -> None:
    async with restartable_world(database_url) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            table = await world.open_table(seated=("bob", "carol"), turn_seconds=2)
            waiting = world.turn_owner(table)
        await asyncio.sleep(2.5)
        async with start_bot() as bot:
            world = world_with(bot)
            await world.server.wait_for(
                lambda: "ran out of time" in world.message(table.id).text(), timeout=5
            )
            assert f"{waiting.name}** ran out of time" in world.message(table.id).text()


def backend_error(database_url: str) -> Exception:
    """A failed write as the database of ``database_url`` reports one, of a kind a retry would not mend (a
    failure that may pass, such as a lock or a lost connection, gets "busy, try again in a moment")."""
    if database_url.startswith("sqlite:"):
        return sqlite3.OperationalError("disk I/O error")
    import psycopg

    return psycopg.errors.DiskFull("could not extend file: No space left on device")


@pytest.mark.bot_settings()
async def test_a_move_that_cannot_be_saved_does_not_happen(world: World, monkeypatch) -> None:
    table = await world.open_table(seated=("bob", "carol"))
    actor = world.turn_owner(table)
    before = world.message(table.id).text()
    real_save = world.bot.db.save_table
    failures = {"left": 1}

    async def failing_save(*args: Any, **kwargs: Any) -> None:
        if failures["left"]:
            failures["left"] -= 1
            raise backend_error(world.database_url)
        await real_save(*args, **kwargs)

    monkeypatch.setattr(world.bot.db, "save_table", failing_save)
    result = await world.press(actor, table, "No thanks")
    assert result.ok and result.ephemeral and "could not save" in result.message.text()
    assert world.message(table.id).text() == before
    again = await world.press(actor, table, "No thanks")
    assert again.ok and again.response_type == 7
    assert len(stored(world.database_url, "SELECT * FROM live_table_actions")) == 1


@sqlite_only  # backups are copies of the SQLite file (PostgreSQL's are pg_dump's job)
@pytest.mark.bot_settings(backup_keep=2)
async def test_scheduled_backups_hold_the_live_tables_and_only_the_newest_are_kept(world: World) -> None:
    assert world.bot.scheduler.get_job("database-backup") is not None  # armed at start
    table = await world.open_table()
    await world.press(world.turn_owner(table), table, "No thanks")
    made = [await world.bot.back_up_database() for _ in range(3)]
    folder = world.database_path.parent / "backups"
    kept = sorted(folder.glob("cardtable-*.sqlite3"))
    assert kept == sorted(made[1:])
    assert stored(kept[-1], "SELECT COUNT(*) FROM live_table_actions") == [(1,)]


async def test_a_table_stored_with_an_older_engines_log_comes_back_and_plays_on(database_url: str) -> None:
    """A Minimize: Declare table whose stored log holds the old engine's "family" steps (``f3``, ``fback``:
    they changed nothing but the list a player saw) is restored after an upgrade as the same game; its
    stored log is rewritten without them, so later moves are saved after it and the game finishes."""
    async with restartable_world(database_url, rematch_seconds=1) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            table = await world.open_table(seated=("bob",), game="declare")
            hands: dict[int, Any] = {}
            rng = random.Random(3)
            for _ in range(4):
                current = world.message(table.id)
                await world.act_somehow(rng.choice(world.users_to_act(current)), current, rng, hands)
            moves = len(stored(world.database_url, "SELECT code FROM live_table_actions"))
            await world.server.wait_for(lambda: f"move {moves + 1}" in world.message(table.id).text())
            before = world.message(table.id).text()
        log = stored(
            world.database_url, "SELECT seat, code, timed_out FROM live_table_actions ORDER BY position"
        )
        assert len(log) >= 2
        # As the old engine stored it: two family steps in the middle of the log.
        old = [log[0], (log[1][0], "f3", 0), (log[1][0], "fback", 0), *log[1:]]
        ((table_id,),) = stored(world.database_url, "SELECT table_id FROM live_tables")
        change(
            world.database_url,
            [
                ("DELETE FROM live_table_actions", [()]),
                (
                    "INSERT INTO live_table_actions (table_id, position, seat, code, timed_out)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(table_id, position, *action) for position, action in enumerate(old)],
                ),
            ],
        )
        async with start_bot() as bot:
            world = world_with(bot)
            redrawn = len(world.message(table.id).versions)
            await world.server.wait_for(lambda: len(world.message(table.id).versions) > redrawn)
            assert world.message(table.id).text() == before

            def stored_codes() -> list[str]:
                rows = stored(world.database_url, "SELECT code FROM live_table_actions ORDER BY position")
                return [code for (code,) in rows]

            # Rewritten in the background as the game is replayed (before any later move is stored).
            await world.server.wait_for(lambda: stored_codes() == [code for _, code, _ in log], timeout=5)
            final = await world.play_to_the_end(
                world.message(table.id), random.Random(5), prefer=("Declare",)
            )
            assert "final scores" in final.text()
            games = stored(world.database_url, "SELECT actions FROM games")
            played = [tuple(action) for action in json.loads(games[0][0])]
            assert played[: len(log)] == [(seat, code) for seat, code, _ in log]


@sqlite_only  # backups are copies of the SQLite file (PostgreSQL's are pg_dump's job)
async def test_a_backup_is_taken_at_start(world: World) -> None:
    """A bot restarted more often than BACKUP_INTERVAL_MINUTES still writes backups: one at every start."""
    kept = sorted((world.database_path.parent / "backups").glob("cardtable-*.sqlite3"))
    assert len(kept) == 1
    assert stored(kept[0], "PRAGMA user_version") != [(0,)]
