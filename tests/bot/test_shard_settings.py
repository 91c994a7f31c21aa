"""SHARD_COUNT and SHARD_IDS: each mistake is one clear line; shards that other processes share need
PostgreSQL; a process owns exactly the guilds of its shards (Discord's rule, (guild_id >> 22) % count)."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.bot import CardTableBot
from bot.settings import ConfigurationError, load_settings
from bot.shards import shard_of, shard_owns_guild


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No shard settings in the environment, and a working folder without a .env."""
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("shards", "line"),
    [
        ({"shard_count": "0"}, "SHARD_COUNT is not valid: Input should be greater than or equal to 1"),
        ({"shard_count": "two"}, "SHARD_COUNT is not valid"),
        ({"shard_count": "2", "shard_ids": "0;1"}, "SHARD_IDS is not valid: must be shard numbers separated"),
        ({"shard_ids": "0"}, "SHARD_IDS (0) needs SHARD_COUNT"),
        ({"shard_count": "2", "shard_ids": "0,2"}, "SHARD_IDS must each lie between 0 and SHARD_COUNT - 1"),
        ({"shard_count": "2", "shard_ids": "-1"}, "SHARD_IDS must each lie between 0 and SHARD_COUNT - 1"),
        ({"shard_count": "3", "shard_ids": "1,1"}, "SHARD_IDS names a shard twice (now 1,1)"),
        ({"shard_count": "2", "shard_ids": "1"}, "SHARD_IDS 1 leaves the other shards of 2 to other"),
    ],
)
def test_bad_shard_settings_are_one_line_naming_the_setting(
    clean_environment: Path, shards: dict, line: str
) -> None:
    with pytest.raises(ConfigurationError) as error:
        load_settings(discord_token="t", **shards)
    assert str(error.value).startswith(line), str(error.value)
    assert "\n" not in str(error.value)


def test_shards_that_others_share_need_postgresql(clean_environment: Path) -> None:
    with pytest.raises(ConfigurationError, match="set DATABASE_URL to a postgresql:// database"):
        load_settings(discord_token="t", shard_count="4", shard_ids="0,1", database_url="sqlite:///x.db")
    shared = load_settings(
        discord_token="t", shard_count="4", shard_ids="3,1", database_url="postgresql://u:pw@db:5432/cards"
    )
    assert (shared.shard_count, shared.shard_ids, shared.holds_every_shard) == (4, [3, 1], False)


def test_shard_settings_come_from_the_environment(
    clean_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unset = load_settings(discord_token="t")
    assert (unset.shard_count, unset.shard_ids, unset.holds_every_shard) == (None, None, True)
    monkeypatch.setenv("SHARD_COUNT", "3")
    monkeypatch.setenv("SHARD_IDS", "2, 0,1")  # every shard, in any order: SQLite will do
    every = load_settings(discord_token="t")
    assert (every.shard_count, every.shard_ids, every.holds_every_shard) == (3, [2, 0, 1], True)
    monkeypatch.setenv("SHARD_IDS", "")  # blank: all of them
    assert load_settings(discord_token="t").shard_ids is None


def guild_on_shard(shard: int, count: int, serial: int = 0) -> int:
    """A guild id (snowflake) that Discord puts on ``shard`` of ``count``."""
    return (((1_000 + serial) * count + shard) << 22) | (serial & 0x3FFFFF)


@pytest.mark.parametrize("count", [1, 2, 5])
def test_a_process_owns_exactly_the_guilds_of_its_shards(count: int) -> None:
    guilds = {shard: [guild_on_shard(shard, count, serial) for serial in range(4)] for shard in range(count)}
    for shard, ids in guilds.items():
        assert all(shard_of(guild_id, count) == shard for guild_id in ids)
    held = [0] if count == 1 else [0, count - 1]
    for shard, ids in guilds.items():
        for guild_id in ids:
            assert shard_owns_guild(count, held, guild_id) is (shard in held)
            assert shard_owns_guild(count, None, guild_id)  # every shard: every guild
            assert shard_owns_guild(None, None, guild_id)  # Discord's recommended count, all here


async def test_the_bot_is_discord_py_s_sharded_bot_owning_its_shards_guilds() -> None:
    async with CardTableBot(load_settings(discord_token="t", shard_count="2", shard_ids="0,1")) as bot:
        assert isinstance(bot, commands.AutoShardedBot)
        assert (bot.shard_count, bot.shard_ids) == (2, [0, 1])
        assert bot.owns_guild(guild_on_shard(0, 2)) and bot.owns_guild(guild_on_shard(1, 2))
        assert bot.relay is None  # one process holds every shard: nothing is relayed
    async with CardTableBot(load_settings(discord_token="t")) as unset:
        assert unset.shard_ids is None and unset.owns_guild(guild_on_shard(1, 7))


def test_processes_of_one_bot_sharing_a_folder_keep_separate_health_reports(clean_environment: Path) -> None:
    url = "postgresql://bot@127.0.0.1:5432/cards"
    first = load_settings(discord_token="x", database_url=url, shard_count="3", shard_ids="0,2")
    second = load_settings(discord_token="x", database_url=url, shard_count="3", shard_ids="1")
    every = load_settings(discord_token="x", database_url=url, shard_count="3", shard_ids="2,0,1")
    assert first.health_path.name == "cardtable.health.shards-0-2.json"
    assert second.health_path.name == "cardtable.health.shards-1.json"
    assert every.health_path.name == "cardtable.health.json"  # one process holds them all: the usual name
    assert first.health_path.parent == second.health_path.parent == every.health_path.parent
