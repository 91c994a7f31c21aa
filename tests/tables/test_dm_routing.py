"""Which table a DM interaction is about: a table button names its table; ``/hand`` is about the table
where the user plays, this process's first; anything else is for the process that received it."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from cogs.tables.dm_routing import DmRouting
from engine.tables.registry import TableRegistry
from engine.tables.session import TableDraft, TableSession, TableSettings
from storage import Database
from tests.tables.toy_game import PickAndCall

NOW = datetime(2026, 11, 24, 8, 0, tzinfo=timezone.utc)
HOST, BOB = 1, 2
OUR_GUILD, THEIR_GUILD = 100, 200


def button(custom_id: str) -> Any:
    """A component interaction from a DM, as the routing reads it (``discord.Interaction``'s attributes)."""
    data = {"custom_id": custom_id, "component_type": 2}
    return SimpleNamespace(type=discord.InteractionType.component, data=data, user=SimpleNamespace(id=BOB))


def command(name: str, user_id: int) -> Any:
    """A slash command typed in a DM, as the routing reads it."""
    return SimpleNamespace(
        type=discord.InteractionType.application_command,
        data={"name": name, "type": 1},
        user=SimpleNamespace(id=user_id),
    )


def routing_of(registry: TableRegistry, db: Database | None, owns_guild: Any) -> DmRouting:
    """The routing of a bot with ``db`` that owns the guilds ``owns_guild`` says (no relay, no handler)."""
    host = SimpleNamespace(db=db, owns_guild=owns_guild, relay=None)
    return DmRouting(host, registry, None, None)  # type: ignore[arg-type]


def running_table(table_id: str) -> TableSession:
    draft = TableDraft(table_id, 10, 20, PickAndCall(), TableSettings(30, 5, 2), HOST, "host")
    draft.join(BOB, "bob")
    draft.start(HOST, 1, NOW)
    return TableSession(draft)


def test_a_dm_interaction_is_placed_here_from_memory_when_its_table_is_here() -> None:
    registry = TableRegistry()
    routing = routing_of(registry, None, lambda guild_id: True)  # no database read
    registry.register(running_table("aaaa1111"))
    assert routing.is_here(button("ct:aaaa1111:3:a.take"))
    assert routing.is_here(button("ct:aaaa1111:0:s.0"))  # a select menu of the table
    assert not routing.is_here(button("ct:bbbb2222:3:a.take"))  # not here: ask the database
    assert routing.is_here(button("rp:t:bbbb2222"))  # a replay button: any process answers it
    assert routing.is_here(command("hand", BOB))  # BOB plays here
    assert not routing.is_here(command("hand", 99))  # nobody plays here: ask the database
    assert routing.is_here(command("rules", 99))  # not about a table
    assert DmRouting.table_named(button("ct:bbbb2222:3:a.take")) == "bbbb2222"
    assert DmRouting.table_named(command("hand", BOB)) is None
    assert DmRouting.is_hand(command("hand", BOB))
    assert not DmRouting.is_hand(button("ct:bbbb2222:3:a.take"))
    assert not DmRouting.is_hand(command("rules", BOB))


async def test_the_database_names_the_guild_of_a_table_or_of_the_users_table_elsewhere(
    tmp_path: Path,
) -> None:
    db = await Database.open(tmp_path / "bot.db")
    try:
        registry = TableRegistry()
        routing = routing_of(registry, db, lambda guild_id: guild_id == OUR_GUILD)
        await db.save_table("cccc3333", THEIR_GUILD, 21, "toy", {}, seated_users=[HOST, BOB])
        await db.save_table("dddd4444", OUR_GUILD, 22, "toy", {}, seated_users=[BOB, 7])
        assert await routing.guild_of(button("ct:cccc3333:3:a.take")) == THEIR_GUILD
        assert await routing.guild_of(button("ct:dddd4444:3:a.take")) == OUR_GUILD  # ours: handled here
        assert await routing.guild_of(button("ct:eeee5555:3:a.take")) is None  # gone: handled here
        assert await routing.guild_of(command("hand", BOB)) == THEIR_GUILD  # the one not in our guild
        assert await routing.guild_of(command("hand", 7)) is None  # only at a table of ours
        assert await routing.guild_of(command("hand", 99)) is None  # at no table
        assert await routing.guild_of(command("rules", BOB)) is None
    finally:
        await db.close()
