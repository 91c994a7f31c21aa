"""Discord's sharding rule, and which guilds a process of a sharded bot owns.

Discord splits a bot's guilds into ``shard_count`` shards: guild ``g`` belongs to shard
``(g >> 22) % shard_count`` (the guild id's creation time, in milliseconds since Discord's epoch, modulo the
shard count; see Discord's "Gateway: Sharding"). A process of the bot holds some shards (``SHARD_IDS``)
and owns their guilds and those guilds' tables.
"""

from __future__ import annotations

from collections.abc import Collection


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard (0 .. ``shard_count`` - 1) that Discord delivers guild ``guild_id``'s events to."""
    return (guild_id >> 22) % shard_count


def shard_owns_guild(shard_count: int | None, shard_ids: Collection[int] | None, guild_id: int) -> bool:
    """True if a process holding shards ``shard_ids`` of ``shard_count`` owns guild ``guild_id``.

    ``shard_ids=None`` means every shard (a single process owns every guild), whatever the count.
    """
    if shard_ids is None or shard_count is None:
        return True
    return shard_of(guild_id, shard_count) in shard_ids
