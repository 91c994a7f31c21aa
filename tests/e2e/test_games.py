"""A full game of every hosted game through the sandbox: lobby with options, private views with buttons
and select menus, the public table, and the scoreboard, with no breach of Discord's rules."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from art.cards import face_of_action
from cogs.tables import custom_ids as ids
from cogs.tables import lengths
from sandbox.models import iter_components
from tests.e2e import reading
from tests.e2e.conftest import TO_ACT, World, card_emojis_shown, card_emojis_synced, stored

DECKS = {
    "minimisere": "fr",
    "declare": "iv",
    "minimize": "fw",
    "tokenize": "fw",
    "eradicize": "fw",
    "memory": "fr",
}
"""The deck of card faces each game's cards show (``art.faces.DECKS``), synced as application emojis."""
REFERENCE = ("How to play", "📜 Rules in play")
"""The titles of the answers that show rules on demand: reference pages, read once, with no budget."""


def _kind(message: Any, version: dict[str, Any]) -> str:
    """Which budget a stored message version keeps to: "dm", "private" (an ephemeral answer), "table" (the
    table message: lobby, game, scoreboard), or "reference"."""
    title = reading.title(version)
    if message.is_dm:
        return "dm"
    if title.startswith(REFERENCE):
        return "reference"
    return "private" if message.ephemeral else "table"


def assert_within_budgets(world: World) -> dict[str, int]:
    """Every message the sandbox stored (every version of the table messages, ephemeral answers and DMs)
    keeps to its budget (:mod:`cogs.tables.lengths`); returns the longest of each kind."""
    limits = {"table": lengths.TABLE_MESSAGE, "private": lengths.PRIVATE_VIEW, "dm": lengths.DM}
    messages = [message for message in world.channel.messages if message.author.bot]
    for player in world.players.values():
        messages += world.server.dm_messages(player)
    longest = dict.fromkeys(limits, 0)
    for message in messages:
        for version in message.versions:
            kind = _kind(message, version)
            if kind in limits:
                length = lengths.text_length(version)
                longest[kind] = max(longest[kind], length)
                assert length <= limits[kind], (kind, length, version)
    assert longest["table"] and longest["private"], longest  # both kinds were seen (and DMs, where asked)
    return longest


def card_buttons_shown(world: World, game: str) -> int:
    """How many buttons the bot's messages showed (every version, DMs too) for an action that plays,
    discards, gives or takes one card; each carries that card's face, the application emoji of its name."""
    messages = [message for message in world.channel.messages if message.author.bot]
    for player in world.players.values():
        messages += world.server.dm_messages(player)
    shown = 0
    for message in messages:
        for version in message.versions:
            for button in iter_components(version.get("components")):
                is_button = button["type"] == 2 and "custom_id" in button
                pressed = ids.TableCustomId.parse(button["custom_id"]) if is_button else None
                face = face_of_action(game, pressed.action) if pressed and pressed.action else None
                if face is not None:
                    emoji = world.server.application_emojis[int(button["emoji"]["id"])]
                    assert emoji["name"] == button["emoji"]["name"] == face.emoji_name(), (button, face)
                    shown += 1
    return shown


async def finish(
    world: World,
    game: str,
    seated: tuple[str, ...],
    seed: int,
    prefer: tuple[str, ...] = (),
    dm: bool = False,
    first_turn: Callable[[World, Any], Awaitable[None]] | None = None,
    **options,
) -> str:
    """Play a whole game at random (``dm``: the first seated player asks for their hand by DM; after
    ``first_turn``, if given, played on the table message); every message stays within Discord's rules and
    its budget, and the table message shows the table's picture (:func:`picture_changes`) and cards as
    their emojis (the test's ``bot_settings`` sync the game's deck, :data:`DECKS`), and a card a player
    could choose was a button carrying its face (:func:`card_buttons_shown`)."""
    await card_emojis_synced(world)
    table = await world.open_table(seated=seated, game=game, **options)
    if dm:  # a DM a turn: slow in the sandbox (its DM rate limit), so in one game only
        assert (await world.press(world.players[seated[0]], table, "DM me my hand")).ok
    if first_turn is not None:
        await first_turn(world, table)
    final = await world.play_to_the_end(table, random.Random(seed), prefer=prefer)
    assert world.server.violations == []
    shown = next(message for message in world.channel.messages if message.id == table.id)
    assert picture_changes([shown]) > 1, "the table's picture, in a layout with its alt text, as it changed"
    assert card_emojis_shown(world, shown, DECKS[game]), "cards shown as their emojis on the table message"
    assert card_buttons_shown(world, game), "cards to choose shown as buttons carrying their faces"
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


@pytest.mark.bot_settings(card_emoji_decks=[DECKS["minimisere"]])
async def test_minimisere_three_players_by_deals(world: World) -> None:
    await card_emojis_synced(world)
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
    assert card_emojis_shown(world, world.message(lobby.id), "fr")
    assert_within_budgets(world)


@pytest.mark.bot_settings(card_emoji_decks=[DECKS["minimisere"]])
async def test_minimisere_five_players(world: World) -> None:
    text = await finish(
        world, "minimisere", ("bob", "carol", "dave", "erin"), seed=1, dm=True, turn_seconds=30
    )
    assert "Minimisère: final scores" in text


@pytest.mark.bot_settings(card_emoji_decks=[DECKS["declare"]])
async def test_minimize_declare_two_players(world: World) -> None:
    # Declare when allowed; otherwise the first throw offered (the one shedding most points), then draw.
    text = await finish(world, "declare", ("bob",), seed=2, prefer=("Declare", ""))
    assert "Minimize: Declare: final scores" in text


async def discard_a_card_by_its_face(world: World, table) -> None:
    """MINIMIZE's first turn: the player draws from the table message, then discards from their hand a card
    shown as a button carrying its face (no "Discard a card…" menu); the table then shows that card's
    emoji."""
    (actor,) = world.users_to_act(table)
    drew = await world.press(actor, table, "Draw")
    assert drew.ok and drew.response_type == 7, drew
    hand = (await world.press(actor, world.message(table.id), "My hand")).message
    cards = [b for b in hand.buttons() if ":a.discard." in b["custom_id"]]
    assert len(cards) == 6 and not hand.selects(), hand.buttons()  # the hand of six, before the card drawn
    assert all(b["emoji"]["id"] and b["label"].startswith("Discard ") for b in cards)
    discarded = await world.server.press(actor, hand, cards[-1]["custom_id"])
    assert discarded.ok and discarded.response_type == 7, discarded
    face = f"<:{cards[-1]['emoji']['name']}:{cards[-1]['emoji']['id']}>"
    await world.server.wait_for(lambda: face in world.message(table.id).text())


@pytest.mark.bot_settings(card_emoji_decks=[DECKS["minimize"]])
async def test_minimize_four_players(world: World) -> None:
    text = await finish(
        world, "minimize", ("bob", "carol", "dave"), seed=3, first_turn=discard_a_card_by_its_face
    )
    assert "MINIMIZE: final scores" in text


@pytest.mark.bot_settings(card_emoji_decks=[DECKS["tokenize"]])
async def test_tokenize_three_players(world: World) -> None:
    # Declare a set whenever one is offered (also out of turn), otherwise play at random.
    text = await finish(world, "tokenize", ("bob", "carol"), seed=4)
    assert "TOKENIZE: final scores" in text


@pytest.mark.bot_settings(card_emoji_decks=[DECKS["eradicize"]])
async def test_eradicize_three_players(world: World) -> None:
    text = await finish(world, "eradicize", ("bob", "carol"), seed=5)
    assert "ERADICIZE: final scores" in text


ROW = "Row "
VERSION = re.compile(r"^ct:[a-z0-9]+:(\d+):")


def version_of(custom_id: str) -> int:
    """The state version a table component was drawn at."""
    match = VERSION.match(custom_id)
    assert match is not None, custom_id
    return int(match[1])


def game_buttons(view) -> list[dict]:
    """A view's buttons that answer the game's decision (row buttons and actions), not the seat buttons."""
    return [b for b in view.buttons() if ":a." in b["custom_id"] or b.get("label", "").startswith(ROW)]


async def pick_in_two_presses(world: World, user, view, rng: random.Random) -> tuple[object, int]:
    """``user`` picks a card of the grid in ``view``: a row, then a card of that row (or, when the decision
    offers ten cards or fewer, a card at once). Returns the second press's result and the presses made."""
    presses = 0
    rows = [b for b in view.buttons() if b.get("label", "").startswith(ROW)]
    if rows:
        uploads = len(world.server.uploads)
        chosen = await world.server.press(user, view, rng.choice(rows)["custom_id"])
        presses += 1
        assert chosen.ok and chosen.response_type == 7 and chosen.message.id == view.id, chosen
        view = chosen.message
        assert len(world.server.uploads) == uploads, "a row shown again keeps the grid's picture"
        assert not view.selects(), "no list of coordinates"
    cards = [b for b in view.buttons() if ":a." in b["custom_id"]]
    assert 1 <= len(cards) <= 10 and not view.selects(), view.buttons()
    picked = await world.server.press(user, view, rng.choice(cards)["custom_id"])
    assert picked.ok and picked.response_type == 7, picked
    return picked, presses + 1


def view_edit_under_way(world: World, user) -> bool:
    """True while the bot edits ``user``'s live private view in the background (a press answered in the view
    meanwhile leaves what the view shows unknown, so the next edit uploads its picture again)."""
    views = world.bot.get_cog("Tables").private_views.live
    return any(live.editing for table in views.values() for seat, live in table.items() if seat == user.id)


def picture_changes(messages) -> int:
    """How many times these messages came to show a different picture, over all their versions; every
    version that shows a picture is a layout that shows it in a media gallery, with a description (alt
    text), as one of its own attachments."""
    changes = 0
    for message in messages:
        before: list[str] = []
        for version in message.versions:
            names = version.get("attachments", [])
            shown = reading.pictures(version)
            assert [item["media"]["url"] for item in shown] == [f"attachment://{name}" for name in names]
            assert all(item.get("description") for item in shown)
            assert not shown or reading.is_layout(version)
            if names and names != before:
                changes += 1
            before = names
    return changes


@pytest.mark.bot_settings(card_emoji_decks=[DECKS["memory"]])
async def test_deluxe_memory_picks_a_card_in_two_presses_and_uploads_the_grid_when_it_changes(
    world: World,
) -> None:
    await card_emojis_synced(world)
    alice = world.players["alice"]
    lobby = (await world.play(alice, game="memory", bots=1)).message
    rules_menu = next(m for m in world.message(lobby.id).selects() if m["custom_id"].endswith(".rules"))
    values = [o["value"] for o in rules_menu["options"] if "Joker" in o["label"] or "jokin" in o["value"]]
    chosen = await world.server.select(alice, world.message(lobby.id), rules_menu["custom_id"], values)
    assert chosen.ok and chosen.response_type == 7
    assert (await world.press(alice, lobby, "Start")).response_type == 7
    table = world.message(lobby.id)
    assert reading.is_layout(table) and not table.embeds  # the lobby's embed message, now a layout
    (grid,) = reading.pictures(table)
    assert [f"attachment://{a['filename']}" for a in table.attachments] == [grid["media"]["url"]]
    assert grid["description"].startswith("A grid of 7 rows (A–G) by 8 columns (1–8): ")
    rng = random.Random(6)
    view, old_row, old_pick, forged, picks = None, None, None, False, 0
    for _ in range(2000):
        table = world.message(lobby.id)
        if "final scores" in reading.title(table):
            break
        if "alice" not in [match["name"] for match in TO_ACT.finditer(table.text())]:
            seen = len(table.versions)
            await world.server.wait_for(
                lambda seen=seen: len(world.message(lobby.id).versions) > seen, timeout=10
            )
            continue
        footer_version = int(re.search(r"move (\d+)", reading.footer(table))[1]) - 1
        buttons = game_buttons(view) if view is not None else []
        if not buttons or version_of(buttons[0]["custom_id"]) != footer_version:
            opened = await world.press(alice, table, "My hand")
            if not (opened.ok and opened.ephemeral) or "game is over" in opened.message.text():
                continue  # the game moved on meanwhile (to its end, even)
            view = opened.message
            assert reading.is_layout(view) and reading.pictures(view), "the private view shows the grid"
            buttons = game_buttons(view)
        rows = [b for b in buttons if b["label"].startswith(ROW)]
        await world.server.wait_for(lambda: not view_edit_under_way(world, alice), timeout=10)
        if old_pick is not None and rows and not forged:
            # Stale and forged presses are refused privately and change nothing: a row and a card from an
            # earlier turn, a card off the grid, a row without a card.
            table_id, version = old_pick.split(":")[1], version_of(rows[0]["custom_id"])
            for custom_id in (old_row, old_pick):
                stale = await world.server.press(alice, view, custom_id, forged=True)
                assert stale.ephemeral and "earlier turn" in stale.message.text(), stale
            for custom_id in (f"ct:{table_id}:{version}:a.look.H1", f"ct:{table_id}:{version}:r.9"):
                refused = await world.server.press(alice, view, custom_id, forged=True)
                assert refused.ephemeral and refused.message.ephemeral_for == alice.id, refused
            assert f"move {version + 1}" in reading.footer(world.message(lobby.id))
            forged = True
        if rows:
            old_row = old_row or rows[0]["custom_id"]
            result, presses = await pick_in_two_presses(world, alice, view, rng)
            assert presses <= 2
            picks += 1
            old_pick = old_pick or result.record.data["custom_id"]
        elif buttons:
            result = await world.server.press(alice, view, rng.choice(buttons)["custom_id"])
        elif view.selects():  # a choice that is no position, e.g. the rank a Mixed King copies
            menu = view.selects()[0]
            value = rng.choice(menu["options"])["value"]
            result = await world.server.select(alice, view, menu["custom_id"], [value])
        else:
            view = None
            continue
        view = result.message if result.ok and result.response_type == 7 else None
    final = world.message(lobby.id)
    assert "Deluxe Memory: final scores" in reading.title(final) and reading.is_layout(final)
    assert picks >= 2 and forged
    board_uploads = sum(
        1 for _, _, names in world.server.uploads for name in names if name.startswith("board-")
    )
    shown = [m for m in world.channel.messages]
    assert board_uploads == picture_changes(shown), "every upload showed a different picture"
    assert card_emojis_shown(world, world.message(lobby.id), DECKS["memory"])
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
