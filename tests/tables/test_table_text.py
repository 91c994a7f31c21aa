"""Text on the table: house rules marked where invented cards show, lobby option labels that do
not repeat their question, and singular/plural counts."""

from __future__ import annotations

import random
import re
from datetime import datetime, timezone

import pytest

from cogs.card_emojis import CardEmojis
from cogs.tables import embeds, house_rules, layouts, lengths, prompts, render, table_text
from cogs.tables.rules_in_play import rules_in_play
from engine.core import plain
from engine.frazzled.deck import DECK, Card
from engine.frazzled.words import card_fields, card_label
from engine.registry import GAMES
from engine.tables.session import TableDraft, TableSession, TableSettings
from tests.tables import drawing

NOW = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)


def started(key: str, players: int = 3, **options) -> TableSession:
    session = TableDraft(f"{key[:4]}text", 10, 20, GAMES[key], TableSettings(60, 5, 2), 1, "Ann")
    for user in range(2, players + 1):
        session.join(user, f"P{user}")
    for name, value in options.items():
        session.set_option(1, name, value)
    if players:
        session.start(1, 7, NOW)
    return session


@pytest.mark.parametrize("key", ["minimize", "tokenize"])
def test_the_invented_rule_cards_are_marked_as_house_rules_in_the_rules_in_play(key: str) -> None:
    session = started(key)
    embed = rules_in_play(session).embed
    names = [field["name"] for field in embed["fields"]]
    invented = [name for name in names if name.startswith(house_rules.HOUSE_RULE_FIELDS[key])]
    assert len(invented) >= (4 if key == "minimize" else 3)  # 2 bonus cards + 2 double-sided; 3 bonus cards
    assert all(name.endswith(house_rules.MARKER) for name in invented)
    assert house_rules.MARKER not in drawing.text(render.table_message(session))  # not repeated at every move


@pytest.mark.parametrize("key", ["foist", "eradicize", "declare", "minimisere", "memory"])
def test_games_from_the_text_alone_show_no_house_rule(key: str) -> None:
    session = started(key, players=GAMES[key].min_seats)
    assert house_rules.MARKER not in drawing.text(render.table_message(session))
    assert house_rules.MARKER not in drawing.text(rules_in_play(session))


def test_lobby_menus_ask_their_question_once_and_show_the_value_set() -> None:
    session = started("minimisere", players=0)
    menus = drawing.menus(render.lobby_message(session))
    target = next(menu for menu in menus if menu.get("placeholder", "").startswith("Game ends"))
    unset = "Game ends when someone reaches this score (now: 25 (the rules' default for this many players))"
    assert target["placeholder"] == unset
    assert not any(option.get("description") == "now set" for option in target["options"])
    session.set_option(1, "target", 25)
    menus = drawing.menus(render.lobby_message(session))
    target = next(menu for menu in menus if menu.get("placeholder", "").startswith("Game ends"))
    assert target["placeholder"] == "Game ends when someone reaches this score (now: 25)"
    assert [option["label"] for option in target["options"]][:3] == ["15", "16", "17"]
    now_set = [option["label"] for option in target["options"] if option.get("description") == "now set"]
    assert now_set == ["25"]
    assert not any(option["default"] for option in target["options"])  # so the question shows


def test_lobby_options_read_without_stray_full_stops() -> None:
    embed = render.lobby_message(started("memory", players=0)).embed
    options = next(field["value"] for field in embed["fields"] if field["name"].startswith("Options"))
    assert "(no Mixed Chart): **off**" in options and ".:" not in options


def test_only_the_host_changes_the_options_in_plain_words() -> None:
    session = started("memory", players=0)
    session.join(2, "Bob")
    with pytest.raises(Exception, match=r"^Only the host, <@1>, can change the options\.$"):
        session.set_option(2, "underdogs", True)
    with pytest.raises(Exception, match=r"can cancel this table\.$"):
        session.cancel(2)


@pytest.mark.parametrize("key", ["minimisere", "declare"])
def test_a_private_view_shows_the_hand_and_the_state_not_the_log_or_the_rules(key: str) -> None:
    session = started(key)
    user = session.users_to_act()[0]
    table = render.table_message(session)
    private = render.private_message(session, user)
    names = drawing.field_names(private)
    assert any(name.startswith("Your hand") for name in names)
    rules = [field["name"] for field in rules_in_play(session).embed["fields"]]
    assert {"Scoring", "Cards", "Additional rules"} & set(rules)  # behind "Rules in play", ...
    table_names = drawing.field_names(table)
    assert table_names and not set(rules) & (set(names) | set(table_names))  # ... on neither of the two
    assert "The game begins" in layouts.texts(table.components)[0]  # the heading: title, turn, log
    heading = layouts.texts(private.components)[0]  # the title, the turn line and the last move
    assert heading.count("\n") <= 2 and "Last move: The game begins" in heading


def _width(row: list[dict]) -> int:
    return sum(5 if component["type"] == drawing.SELECT else 1 for component in row)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_how_to_play_sits_on_the_lobbys_ai_row_within_discords_rows(key: str) -> None:
    rows = drawing.rows(render.lobby_message(started(key, players=0)))
    labels = [component.get("label") for component in rows[1]]
    assert labels == ["Add AI player", "Remove AI player", "How to play"]
    assert len(rows) <= 5 and all(_width(row) <= 5 for row in rows)


def test_rules_in_play_stays_on_the_table_beside_every_seat_control() -> None:
    session = started("foist", players=3)
    session.idle_seats.update(range(3))  # every seat taken over: "I'm back" and "End table" both show
    rows = drawing.rows(render.table_message(session))
    labels = [component.get("label") for component in rows[-1]]  # the fifth row, under the game's actions
    assert labels == ["My hand", "Rules in play", "I'm back", "End table"]
    assert len(rows) <= 5 and all(_width(row) <= 5 for row in rows)


def test_a_seat_an_ai_plays_is_not_told_to_open_my_hand() -> None:
    session = started("minimisere", players=3)
    (actor,) = session.users_to_act()
    assert prompts.private_deciders(session) == [actor] and prompts.PROMPT in table_text.turn_line(session)
    session.idle_seats.add(session.seat_of(actor))  # taken over while away: the AI decides, not the player
    assert prompts.private_deciders(session) == [] and prompts.PROMPT not in table_text.turn_line(session)
    session.idle_seats.clear()  # "I'm back", with no move in between
    assert prompts.private_deciders(session) == [actor]


def test_a_part_every_seat_shares_is_named_once_only_at_a_crowded_table() -> None:
    shared = table_text.shared_segment
    assert shared(["6 cards · **0** pts", "6 cards · **3** pts · dealer", "⚠ · 6 cards"]) == "6 cards"
    assert shared(["6 cards · **0** pts", "5 cards · **0** pts", "6 cards · **0** pts"]) == "**0** pts"
    assert shared(["6 cards", "6 cards"]) == ""  # two seats: each line says it
    crowded = render.table_message(started("tokenize", 8))
    assert drawing.field_names(crowded)[-1] == "Players (all: **0** pts)"
    lines = drawing.seat_lines(crowded)
    assert len(lines) == 8 and not any("pts" in line for line in lines)
    assert all("🪙" in line for line in lines)  # what differs stays on each line
    roomy = render.table_message(started("tokenize", 3))
    assert drawing.field_names(roomy)[-1] == "Players"
    assert sum(line.count("**0** pts") for line in drawing.seat_lines(roomy)) == 3


def test_a_crowded_table_shows_the_brief_fields_and_leaves_out_what_the_log_and_turn_line_say() -> None:
    """MINIMIZE's "Now" (what the game waits for) has an empty brief: shown while there is room, left out of
    a table too crowded for it, which then keeps to its budget."""
    session = started("minimize", 8)
    rng = random.Random(2)
    left_out = 0
    for _ in range(600):
        if session.phase.name != "PLAYING":
            break
        names = [shown.name for shown in session.view(None).table]
        drawn = render.table_message(session)
        shown = drawing.field_names(drawn)
        assert "Now" in names
        if "Now" not in shown:
            left_out += 1
            assert lengths.text_length(drawing.payload(drawn)) <= lengths.TABLE_MESSAGE
        user = rng.choice(session.users_with_actions())
        actions = session.view(session.seat_of(user)).legal_actions
        session.act(user, session.state.version, rng.choice(actions).code, NOW)
    assert left_out > 0
    assert "Now" in drawing.field_names(render.table_message(started("minimize", 3)))


def test_a_hand_in_brief_names_each_number_once() -> None:
    hand = [Card(1, 7, 0, 0), Card(2, 7, 7, 3), Card(3, 9, 3, 2), Card(4, 14, 1, 1)]
    (field,) = card_fields("Your hand", hand)
    assert field.value.count("7 ") == 2 and field.value.count(", ") == 3
    assert field.brief is not None and field.brief.count("7 ") == 1 and " · " in field.brief
    assert field.brief.startswith("14/1 ")  # the display order: 14/1 first


def test_a_card_shows_as_its_emoji_and_its_text_and_no_cut_splits_an_emoji(card_emojis) -> None:
    """A card mark is the card's emoji and text with an emoji, its text alone without one; a budget reads
    an emoji as one character; cutting to any length (Discord's limits: ``clip``; a budget: ``clip_reading``;
    an embed's 6,000: ``fit_embed``; a layout's 4,000: ``fit_card``) keeps every emoji whole or drops it."""
    session = started("minimize", 3)
    hand = list(DECK[:40])
    (marked,) = card_fields("Your hand", hand[:3])
    shown = table_text.with_names(session, f"{{b:{marked.value}}}")
    for card in hand[:3]:
        emoji = card_emojis.markup("fw", str(card.id))
        assert emoji is not None and emoji.startswith("<:fw_") and f"{emoji} {card_label(card)}" in shown
    assert shown.startswith("**<:fw_") and shown.endswith("**") and "{card:" not in shown
    assert CardEmojis().shown(marked.value) == plain(marked.value)  # no emoji (yet, or the API failed): text
    assert lengths.reading_length(shown) == len(plain(marked.value)) + 4 + 2 * 3
    long = table_text.with_names(session, ", ".join(field.value for field in card_fields("Hand", hand)))
    whole = re.compile(r"<:fw_\w+:\d{19}>")
    for size in range(1, len(long), 7):
        for cut in (lengths.clip(long, size), lengths.clip_reading(long, size)):
            assert cut.count("<:") == len(whole.findall(cut)), cut
        assert len(lengths.clip(long, size)) <= size
        assert lengths.reading_length(lengths.clip_reading(long, size)) <= size
    assert lengths.clip(long, 1024) == plain(", ".join(field.value for field in card_fields("H", hand)))
    fifteen = table_text.with_names(session, card_fields("Hand", hand[:15])[0].value)
    assert 800 < len(fifteen) <= 1024  # a field's limit: with its emojis
    embed = embeds.embed("T", "Turn: **bob**\n\n" + "\n".join(f"drew {long}" for _ in range(3)), 0)
    embed["fields"] = [embeds.field(f"F{n}", fifteen) for n in range(5)]
    lengths.fit_embed(embed)
    assert lengths.embed_size(embed) <= 6000 and embed["description"].startswith("Turn: **bob**")
    texts = [embed["description"], *(field["value"] for field in embed["fields"])]
    assert all(text.count("<:") == len(whole.findall(text)) for text in texts)
    card = layouts.Card(0, "T", "Turn: **bob**\n\n" + "\n".join(f"drew {long}" for _ in range(3)))
    card.fields = [layouts.CardField(f"F{n}", fifteen) for n in range(4)]
    lengths.fit_card(card)
    assert lengths.message_size({"components": layouts.card(card)}) <= lengths.LAYOUT_TEXT_MAX
    assert card.description.startswith("Turn: **bob**")
    texts = [card.description, *(field.value for field in card.fields)]
    assert all(text.count("<:") == len(whole.findall(text)) for text in texts)


def test_a_foist_card_with_its_emoji_is_the_emoji_alone_and_a_frazzled_card_keeps_its_words(
    card_emojis,
) -> None:
    """A Foist card's face is its number: "<emoji> 5" would say it twice. A Frazzled Wool face shows a
    number, a colour and a shape, so its words stay beside it."""
    session = started("foist")
    foist = card_emojis.markup("fo", "5")
    assert foist is not None
    assert table_text.with_names(session, "took {card:fo:5|5}") == f"took {foist}"
    frazzled = card_emojis.markup("fw", "7")
    assert frazzled is not None
    assert table_text.with_names(session, "{card:fw:7|7 Blue ★}") == f"{frazzled} 7 Blue ★"


def test_a_foist_card_without_its_emoji_is_its_number() -> None:
    assert table_text.with_names(started("foist"), "took {card:fo:5|5}") == "took 5"


def test_minimize_standings_count_rounds_survived_not_points() -> None:
    session = started("minimize")
    rng = random.Random(3)
    while session.state is not None and not session.state.is_terminal():
        user = rng.choice(session.users_with_actions())
        actions = session.view(session.seat_of(user)).legal_actions
        session.act(user, session.state.version, rng.choice(actions).code, NOW)
    text = drawing.text(render.scoreboard_message(session))
    standings = [line for line in text.split("\n") if re.match(r"\d\. ", line)]
    assert len(standings) == 3 and not any("point" in line for line in standings), standings
    assert all(re.search(r"\*\*\d+\*\* rounds? survived", line) for line in standings), standings
