"""A full game of every hosted game through the sandbox: lobby with options, private views with buttons
and select menus, the public table, and the scoreboard, with no breach of Discord's rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cogs.tables import budgets
from tests.e2e.conftest import World, stored

REFERENCE = ("How to play", "📜 Rules in play")
"""The titles of the answers that show rules on demand: reference pages, read once, with no budget."""


def _kind(message: Any, version: dict[str, Any]) -> str:
    """Which budget a stored message version keeps to: "dm", "private" (an ephemeral answer), "table" (the
    table message: lobby, game, scoreboard), or "reference"."""
    title = next((embed.get("title") or "" for embed in version.get("embeds") or ()), "")
    if message.is_dm:
        return "dm"
    if title.startswith(REFERENCE):
        return "reference"
    return "private" if message.ephemeral else "table"


def assert_within_budgets(world: World) -> dict[str, int]:
    """Every message the sandbox stored (every version of the table messages, ephemeral answers and DMs)
    keeps to its budget (:mod:`cogs.tables.budgets`); returns the longest of each kind."""
    limits = {"table": budgets.TABLE_MESSAGE, "private": budgets.PRIVATE_VIEW, "dm": budgets.DM}
    messages = [message for message in world.channel.messages if message.author.bot]
    for player in world.players.values():
        messages += world.server.dm_messages(player)
    longest = dict.fromkeys(limits, 0)
    for message in messages:
        for version in message.versions:
            kind = _kind(message, version)
            if kind in limits:
                length = budgets.text_length(version)
                longest[kind] = max(longest[kind], length)
                assert length <= limits[kind], (kind, length, version)
    assert longest["table"] and longest["private"], longest  # both kinds were seen (and DMs, where asked)
    return longest


async def finish(
    world: World,
    game: str,
    seated: tuple[str, ...],
    seed: int,
    prefer: tuple[str, ...] = (),
    dm: bool = False,
    **options,
) -> str:
    """Play a whole game at random (``dm``: the first seated player asks for their hand by DM); every
    message stays within Discord's rules and its budget."""
    table = await world.open_table(seated=seated, game=game, **options)
    if dm:  # a DM a turn: slow in the sandbox (its DM rate limit), so in one game only
        assert (await world.press(world.players[seated[0]], table, "DM me my hand")).ok
    final = await world.play_to_the_end(table, random.Random(seed), prefer=prefer)
    assert world.server.violations == []
    longest = assert_within_budgets(world)
    assert longest["dm"] or not dm, longest  # the DMs were checked
    assert stored(world.database_url, "SELECT game FROM games") == [(game,)]
    return final.text()


async def set_lobby_option(world: World, lobby, placeholder_start: str, value: str) -> None:
    """The host picks ``value`` in the lobby menu whose placeholder starts with ``placeholder_start``."""
    current = world.message(lobby.id)
    menu = next(m for m in current.selects() if (m.get("placeholder") or "").startswith(placeholder_start))
    result = await world.server.select(world.players["alice"], current, menu["custom_id"], [value])
    assert result.ok and result.response_type == 7, result


async def test_minimisere_three_players_by_deals(world: World) -> None:
    opened = await world.play(world.players["alice"], game="minimisere")
    lobby = opened.message
    for name in ("bob", "carol"):
        assert (await world.press(world.players[name], lobby, "Join")).ok
    # The host chooses to end after a number of deals, and two deals.
    menus = world.message(lobby.id).selects()
    assert menus, "the lobby offers Minimisère's options"
    end_menu = next(m for m in menus if any(o["value"] == "deals" for o in m["options"]))
    await world.server.select(
        world.players["alice"], world.message(lobby.id), end_menu["custom_id"], ["deals"]
    )
    deals_menu = next(m for m in world.message(lobby.id).selects() if m["custom_id"].endswith(".deals"))
    await world.server.select(world.players["alice"], world.message(lobby.id), deals_menu["custom_id"], ["1"])
    refused = await world.server.select(
        world.players["bob"], world.message(lobby.id), deals_menu["custom_id"], ["2"]
    )
    assert refused.ephemeral and "host" in refused.message.text().lower()
    started = await world.press(world.players["alice"], lobby, "Start")
    assert started.ok and started.response_type == 7
    final = await world.play_to_the_end(world.message(lobby.id), random.Random(4))
    assert "Minimisère: final scores" in final.text()
    assert world.server.violations == []
    assert_within_budgets(world)


async def test_minimisere_five_players(world: World) -> None:
    text = await finish(
        world, "minimisere", ("bob", "carol", "dave", "erin"), seed=1, dm=True, turn_seconds=30
    )
    assert "Minimisère: final scores" in text


async def test_minimize_declare_two_players(world: World) -> None:
    # Declare when allowed; otherwise the first throw offered (the one shedding most points), then draw.
    text = await finish(world, "declare", ("bob",), seed=2, prefer=("Declare", ""))
    assert "Minimize: Declare: final scores" in text


async def test_minimize_four_players(world: World) -> None:
    text = await finish(world, "minimize", ("bob", "carol", "dave"), seed=3)
    assert "MINIMIZE: final scores" in text


async def test_tokenize_three_players(world: World) -> None:
    # Declare a set whenever one is offered (also out of turn), otherwise play at random.
    text = await finish(world, "tokenize", ("bob", "carol"), seed=4)
    assert "TOKENIZE: final scores" in text


async def test_eradicize_three_players(world: World) -> None:
    text = await finish(world, "eradicize", ("bob", "carol"), seed=5)
    assert "ERADICIZE: final scores" in text


async def test_deluxe_memory_with_jokers_draws_the_grid(world: World) -> None:
    opened = await world.play(world.players["alice"], game="memory")
    lobby = opened.message
    assert (await world.press(world.players["bob"], lobby, "Join")).ok
    rules_menu = next(m for m in world.message(lobby.id).selects() if m["custom_id"].endswith(".rules"))
    values = [o["value"] for o in rules_menu["options"] if "Joker" in o["label"] or "jokin" in o["value"]]
    chosen = await world.server.select(
        world.players["alice"], world.message(lobby.id), rules_menu["custom_id"], values
    )
    assert chosen.ok and chosen.response_type == 7
    started = await world.press(world.players["alice"], lobby, "Start")
    assert started.ok and started.response_type == 7
    table = world.message(lobby.id)
    # The public table carries the grid as a picture, drawn from the public board.
    assert [a["filename"] for a in table.attachments] == ["board.png"]
    assert table.embeds[0]["image"]["url"].endswith("board.png")
    hand = await world.press(world.turn_owner(table), table, "My hand")
    assert hand.message.attachments and hand.message.selects(), "positions are offered in select menus"
    final = await world.play_to_the_end(world.message(lobby.id), random.Random(6))
    assert "Deluxe Memory: final scores" in final.text()
    assert world.server.violations == []
    assert_within_budgets(world)


@pytest.mark.parametrize(
    ("game", "seats"),
    [("minimize", 8), ("tokenize", 8), ("eradicize", 8), ("declare", 10), ("minimisere", 6)],
)
async def test_the_largest_tables_stay_within_discords_limits(world: World, game: str, seats: int) -> None:
    names = tuple(world.players)[1:seats]
    table = await world.open_table(seated=names, game=game)
    with pytest.raises(AssertionError, match="did not end"):
        await world.play_to_the_end(table, random.Random(seats), max_moves=40)
    assert world.server.violations == []
