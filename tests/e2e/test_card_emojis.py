"""Card faces as application emojis through the sandbox, with the real discord.py client: made once
across restarts (a second start uploads nothing), a face whose art changed replaces its old emoji (and
emojis not of ours are left alone), a card a player can play is a button carrying its face (five a row,
and, once "Bid the Lot…" is pressed, the Lot's bids in red buttons, each with its card's face) and pressing
it plays that card, a card the hand, the trick
and the log name is shown with its emoji beside its text, and with the emoji endpoints
failing the bot logs once and a Foist game plays to the end with text cards.

SQLite only: nothing here touches the database beyond what every game does."""

from __future__ import annotations

import asyncio
import logging
import random
import re

import aiohttp
import pytest

from art.faces import BY_KEY, DECKS
from bot.sandbox_demo import sandbox_bot
from cogs.card_emojis import CARD_EMOJIS, CardEmojis
from cogs.tables import custom_ids as ids
from cogs.tables import layouts
from sandbox import SandboxServer
from tests.e2e import reading
from tests.e2e.conftest import MACHINE_SPEED, World, play_to_the_end, restartable_world, sqlite_only

pytestmark = sqlite_only

SHOWN_CARD = re.compile(r"<:(?P<name>fr_\w+):(?P<id>\d+)> (?P<text>Joker|(?:10|[AKQJ2-9])[♠♥♦♣])")
"""A French-suited card shown in text: its emoji, then its text (``<:fr_10_hearts_a1b2c3:123> 10♥``)."""


def requests(world_server, method: str) -> int:
    return sum(1 for m, path, _ in world_server.request_log if m == method and "/emojis" in path)


async def test_card_emojis_are_made_once_across_restarts_and_changed_art_replaces_its_emoji(
    database_url: str,
) -> None:
    foist = DECKS["fo"]
    async with restartable_world(database_url, card_emoji_decks=["fo"]) as (start_bot, world_with):
        server = None
        async with start_bot() as bot:
            report = await bot.card_emoji_sync
            server = world_with(bot).server
            assert (report.found, report.uploaded, report.deleted, report.failure) == (0, len(foist), 0, None)
        names = {emoji["name"] for emoji in server.application_emojis.values()}
        assert names == {face.emoji_name() for face in foist}
        three = server.emoji_named(BY_KEY[("fo", "3")].emoji_name())
        async with aiohttp.ClientSession() as http:  # the image is served where Discord's CDN has it
            base = server.api_base.removesuffix("/api/v10")
            async with http.get(f"{base}/emojis/{three['id']}.png") as answer:
                assert answer.status == 200 and await answer.read() == BY_KEY[("fo", "3")].png()

        posts = requests(server, "POST")
        async with start_bot() as bot:  # a restart reuses every emoji
            report = await bot.card_emoji_sync
            assert (report.found, report.uploaded, report.deleted) == (len(foist), 0, 0)
            assert len(CARD_EMOJIS) == len(foist)
        assert requests(server, "POST") == posts

        # An upgrade changed the art of "3": its emoji there has another hash. An emoji not of ours stays.
        three["name"] = "fo_3_000000"
        server.application_emojis[server._ids.next()] = {**three, "id": "1", "name": "party_parrot"}
        async with start_bot() as bot:
            report = await bot.card_emoji_sync
            assert (report.found, report.uploaded, report.deleted) == (len(foist) - 1, 1, 1)
        names = {emoji["name"] for emoji in server.application_emojis.values()}
        assert names == {face.emoji_name() for face in foist} | {"party_parrot"}
        assert requests(server, "POST") == posts + 1 and requests(server, "DELETE") == 1
        assert server.violations == []


def card_buttons(world: World, hand) -> list[dict]:
    """The buttons of a private view that play a card (``:a.<card>``), each carrying an application emoji the
    sandbox holds, of the face of that card, beside its text; the Lot bids (``<card>+lot``) and the steps to
    and from them ("Bid the Lot…", "Cancel": no card) left out."""
    cards = [
        b
        for b in hand.buttons()
        if ":a." in b["custom_id"] and "lot" not in b["custom_id"].rsplit(":a.", 1)[1]
    ]
    for button in cards:
        emoji = world.server.application_emojis[int(button["emoji"]["id"])]
        assert emoji["name"] == button["emoji"]["name"]
        face = next(face for face in DECKS["fr"] if face.emoji_name() == emoji["name"])
        assert face.card == ids.TableCustomId.parse(button["custom_id"]).action.split("+")[0]  # 10H, JK+win
        assert button["label"][:-1] in face.label or face.card == "JK"  # "10♥" beside "10 of Hearts"
    return cards


async def play_the_card_of(world: World, actor, hand, button: dict, table) -> None:
    """``actor`` presses the card ``button`` of their ``hand``: the table message's trick and log then show
    that card, its emoji beside its text ("led **<:…:…> 10♥**")."""
    played = await world.server.press(actor, hand, button["custom_id"])
    assert played.ok and played.response_type == 7
    shown = f"<:{button['emoji']['name']}:{button['emoji']['id']}> {button['label'].split(' ')[0]}"
    for _ in range(100):  # the table message is edited in the background
        if shown in world.message(table.id).text():
            break
        await asyncio.sleep(0.02)
    assert shown in world.message(table.id).text()
    assert "{card:" not in world.message(table.id).text()


@pytest.mark.bot_settings(card_emoji_decks=["fr"])
async def test_a_card_a_player_can_play_is_a_button_carrying_its_face(world: World) -> None:
    await world.bot.card_emoji_sync
    table = await world.open_table(seated=("bob", "carol", "dave", "erin"), game="minimisere")
    (actor,) = world.users_to_act(table)
    hand = (await world.press(actor, table, "My hand")).message
    cards = card_buttons(world, hand)
    assert len(cards) == 5 and not hand.selects(), hand.buttons()  # five players hold five cards
    assert not [b for b in hand.buttons() if b["custom_id"].endswith("+lot")]  # no second button per card
    # "Bid the Lot…" in a row of its own above the cards.
    assert [len(row["components"]) for row in layouts.action_rows(hand.components)][:2] == [1, 5]
    # Its step: bidding the Lot with a card, a red button each, with the card's face.
    step = (await world.press(actor, hand, "Bid the Lot…")).message
    bids = [b for b in step.buttons() if b["custom_id"].endswith("+lot")]
    assert [b["label"] for b in bids] == [f"{b['label']} and bid the Lot" for b in cards]
    assert all(b["style"] == 4 and b["emoji"] == card["emoji"] for b, card in zip(bids, cards, strict=True))
    hand = (await world.press(actor, step, "Cancel")).message
    assert [b["label"] for b in card_buttons(world, hand)] == [b["label"] for b in cards]  # as before
    cards = card_buttons(world, hand)
    held = SHOWN_CARD.findall(hand.text())  # "Your hand": each card its emoji and its text
    assert len(held) >= len(cards) and all(
        world.server.application_emojis[int(emoji_id)]["name"] == name for name, emoji_id, _ in held
    )
    assert {text for _, _, text in held} >= {button["label"] for button in cards}
    await play_the_card_of(world, actor, hand, cards[0], table)
    assert world.server.violations == []


@pytest.mark.bot_settings(card_emoji_decks=["fr"])
async def test_seven_cards_are_two_rows_of_buttons_each_carrying_its_face(world: World) -> None:
    await world.bot.card_emoji_sync
    table = await world.open_table(game="minimisere")  # three players hold seven cards (and no Lot)
    (actor,) = world.users_to_act(table)
    hand = (await world.press(actor, table, "My hand")).message
    cards = card_buttons(world, hand)
    assert len(cards) == 7 and not hand.selects(), hand.buttons()  # no "Play a card…" menu
    rows = [row["components"] for row in layouts.action_rows(hand.components)]
    assert rows[0] == cards[:5] and rows[1] == cards[5:]
    await play_the_card_of(world, actor, hand, cards[6], table)  # a card of the second row
    assert world.server.violations == []


async def test_with_the_emoji_endpoints_failing_a_foist_game_plays_to_the_end_with_text_cards(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with SandboxServer(interaction_deadline=3.0) as server:
        guild = server.add_guild("Card Club")
        channel, lounge = guild.add_channel("cards"), guild.add_channel("lounge")
        players = {name: guild.add_member(name) for name in ("alice", "bob", "carol")}
        server.inject_failure("*", r"/applications/\d+/emojis", status=403, code=50013, times=100)
        settings = {"min_turn_seconds": 1, "ai_pause_seconds": 0, "card_emoji_decks": ["fo", "fr"]}
        settings.update(MACHINE_SPEED)
        with caplog.at_level(logging.WARNING, logger="cogs.card_emojis"):
            async with sandbox_bot(server, guild.id, database_url, **settings) as bot:
                world = World(
                    server, guild, channel, lounge, players, guild.add_member("mallory"), bot, database_url
                )
                report = await bot.card_emoji_sync
                assert report.failure is not None and report.uploaded == 0
                table = await world.open_table()
                final = await play_to_the_end(world, table, random.Random(3))
                assert "final scores" in reading.title(final)
                shown = [m for m in world.public_messages() if m.buttons()] + [final]
                assert not any(b.get("emoji", {}).get("id") for m in shown for b in m.buttons())
                texts = [text for m in world.public_messages() for text in m.all_texts()]
                assert any("took **" in text for text in texts)  # cards named as text, as before emojis
                assert not any("<:" in text or "{card:" in text for text in texts)
        assert server.application_emojis == {} and server.violations == []
    warnings = [r for r in caplog.records if r.name == "cogs.card_emojis"]
    assert len(warnings) == 1 and "stay text" in warnings[0].getMessage()


async def test_two_processes_syncing_at_once_share_the_emojis(world: World) -> None:
    """Processes holding different shards of one bot start together: each takes what the other made."""
    one, other = CardEmojis(), CardEmojis()
    foist = DECKS["fo"]
    reports = await asyncio.gather(one.sync(world.bot, foist), other.sync(world.bot, foist))
    assert [report.failure for report in reports] == [None, None]
    assert len(one) == len(other) == len(world.server.application_emojis) == len(foist)
    assert sum(report.uploaded for report in reports) == len(foist)
    assert all("ALREADY_TAKEN" in line for line in world.server.violations)
    world.server.violations.clear()


async def test_uploads_wait_out_discord_s_rate_limit(world: World) -> None:
    world.server.inject_failure("POST", r"/applications/\d+/emojis", status=429, times=2, retry_after=0.1)
    emojis = CardEmojis()
    report = await emojis.sync(world.bot, DECKS["fo"][:3])
    assert (report.uploaded, report.failure) == (3, None) and len(emojis) == 3
    statuses = [
        status for method, path, status in world.server.request_log if method == "POST" and "emojis" in path
    ]
    assert statuses == [429, 429, 200, 200, 200]  # one at a time, each refused one retried
