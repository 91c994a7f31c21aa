"""Table pictures: every game but Deluxe Memory shows a scene of public cards only, the same to
every viewer; its picture's file name changes exactly when the scene does; its alt text names every card;
its PNG decodes to the size the layout gives."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from art import gallery, table_picture
from art.faces import BY_KEY
from art.rule_cards import TILES
from art.table_picture import card_words, description, draw_table, table_filename, table_png
from engine import GAMES
from engine.core import BACK, Scene, SceneRow
from engine.frazzled.scene import RULE_CARDS, RULE_DECK, rule_ref
from tests.engine.conftest import games_in_play

SCENE_GAMES = sorted(key for key in GAMES if key != "memory")


def hidden_cards(key: str, state) -> set[tuple[str, str]]:
    """The cards in the seats' hidden hands (Frazzled Wool cards by id, which are unique; Minimisère's
    cards are unique too); empty for Foist (no hidden hand) and Declare (its deck holds twins, so its hands
    are checked by the resample below)."""
    if key in ("minimize", "tokenize", "eradicize", "minimisere"):
        return {card for seat in range(state.num_seats) for card in gallery.hand_cards(key, state, seat)}
    return set()


@pytest.mark.parametrize("key", SCENE_GAMES)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_a_scene_shows_public_cards_only_the_same_to_every_viewer(key: str, data) -> None:
    _, state = data.draw(games_in_play(GAMES[key]))
    public = state.view(None).scene
    if state.is_terminal() and public is None:
        return
    assert public is not None
    assert all(state.view(seat).scene == public for seat in range(state.num_seats))
    for card in public.cards():  # every card has something to draw: a face, a back, a rule card's tile
        assert card[1] == BACK or card in BY_KEY or card in TILES
        width = table_picture.RULE_WIDTH if card in TILES else table_picture.FACE
        assert table_picture.card_image(card).size == (width, table_picture.FACE)
    assert not set(public.cards()) & hidden_cards(key, state)
    other = state.resample_hidden(None, random.Random(state.seed))
    assert other.view(None).scene == public


def test_deluxe_memory_keeps_its_board() -> None:
    view = gallery.mid_game("memory", 2, 1, 6).view(None)
    assert view.scene is None and view.board is not None


def scenes_of_play(key: str, num_seats: int, seed: int, moves: int) -> list[Scene]:
    state = GAMES[key].new_game(num_seats, seed)
    rng = random.Random(seed)
    scenes = [state.view(None).scene]
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = rng.choice(state.seats_to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)).code)
        scenes.append(state.view(None).scene)
    return [scene for scene in scenes if scene is not None]


@pytest.mark.parametrize("key", SCENE_GAMES)
def test_the_file_name_changes_exactly_when_the_scene_does_and_alt_text_names_every_card(key: str) -> None:
    scenes = scenes_of_play(key, 4, 5, 40)
    names = ("Ada", "Björn", "Chloé", "Dev")
    changes = 0
    for before, after in zip(scenes, scenes[1:], strict=False):
        same = table_filename(before, names) == table_filename(after, names)
        assert same == (before == after)
        changes += not same
    assert changes >= 3
    assert len({table_filename(scene, names) for scene in scenes}) == len(set(scenes))
    for scene in scenes[::5]:
        words = description(scene, names)
        assert len(words) <= table_picture.DESCRIPTION_LIMIT
        for deck, card in set(scene.cards()):
            if card != BACK:
                assert card_words((deck, card)) in words
        for row in scene.rows:
            backs = sum(card == BACK for group in row.groups for _, card in group)
            if backs:  # a hand's size, or tricks won: the note says it
                assert row.note and f": {row.note}." in words
        assert "{seat:" not in words
    shown = scenes[len(scenes) // 2]
    png = table_png(shown, names)
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.mode == "P"
        assert image.size == draw_table(shown, names).size
        assert image.width <= table_picture.MAX_WIDTH


def test_names_change_the_file_name_only_where_the_picture_writes_them() -> None:
    seats = Scene((SceneRow("{seat:1}", ((("fo", "27"),),), "led by {seat:0}"),))
    assert table_filename(seats, ("Ada", "Bo")) != table_filename(seats, ("Ada", "Cy"))
    assert table_filename(seats, ("Ada", "Bo")) == table_filename(seats, ("Ada", "Bo", "Cy"))
    piles = Scene((SceneRow("Discard pile", ((("fw", "7"),),), "3 cards"),))
    assert table_filename(piles, ("Ada",)) == table_filename(piles, ("Bo",))


def test_a_picture_has_the_size_of_its_layout() -> None:
    """One row of a label and three groups: the cards sit after the label column, groups apart; a seat
    beyond the names is "Seat N"; a name's emoji is left out of the picture, not out of the alt text."""
    scene = Scene(
        (
            SceneRow("Piles", ((("fw", "7"),), (), (("fw", "0"), ("fw", "1"))), "13 cards"),
            SceneRow("{seat:2}", ((("iv", BACK),) * 5,), "5 cards"),
        )
    )
    names = ("Ada", "Bo 🎲")
    with Image.open(io.BytesIO(table_png(scene, names))) as image:
        size = image.size
    label_width = table_picture.MIN_LABEL_WIDTH  # the longest text ("Seat 3") is shorter
    face, gap, group = table_picture.FACE, table_picture.CARD_GAP, table_picture.GROUP_GAP
    cards = face + group + face + group + face + gap + face
    assert size == (
        2 * table_picture.MARGIN + label_width + cards,
        2 * table_picture.MARGIN + 2 * face + table_picture.ROW_GAP,
    )
    words = description(scene, names)
    assert words == (
        "Piles: 2 Yellow Diamond; empty; 14/1 Red Circle, 14/1 Orange Triangle (13 cards). Seat 3: 5 cards."
    )
    assert description(Scene((SceneRow("Pile", ((("iv", BACK),) * 3,)),))) == "Pile: 3 face-down cards."
    assert table_picture.drawable("Bo 🎲") == "Bo"
    assert "Bo 🎲" in description(Scene((SceneRow("{seat:1}"),)), names)


def test_the_gallery_draws_a_table_and_a_hand_of_every_game() -> None:
    for key in GAMES:
        pictures = gallery.game_pictures(key, board_png=lambda board: b"board")
        expected = {f"table-{key}.png"} | ({f"hand-{key}.png"} if key != "memory" else set())
        assert set(pictures) == expected


def test_alt_text_stops_at_discords_limit_after_a_whole_row() -> None:
    rows = tuple(
        SceneRow(f"{{seat:{seat}}}", ((("fw", str(seat)), ("fw", str(seat + 20))),)) for seat in range(40)
    )
    words = description(Scene(rows), ())
    assert len(words) <= table_picture.DESCRIPTION_LIMIT
    assert words.endswith(".…") and words.startswith("Seat 1: ")


def test_every_rule_card_has_its_own_tile_and_words() -> None:
    assert set(TILES) == {(RULE_DECK, key) for key in RULE_CARDS}
    tiles = {card: table_picture.card_image(card) for card in TILES}
    assert all(image.size == (table_picture.RULE_WIDTH, table_picture.FACE) for image in tiles.values())
    assert len({image.tobytes() for image in tiles.values()}) == len(TILES)  # each draws its own name
    assert len({card_words(card) for card in TILES}) == len(TILES)
    assert card_words(("rc", "wild")) == "Bonus rule: Wild Ones"
    assert card_words(("rc", "dupshape")) == "Shape or Colour: Shape side"
    assert card_words(("rc", "actions-B")) == "Actions card: Side B (Pass it on)"


@pytest.mark.parametrize("key", ["minimize", "tokenize"])
def test_the_rule_cards_in_play_are_on_the_table_and_named_in_its_alt_text(key: str) -> None:
    state = gallery.mid_game(key, 4, 2, 12)
    scene = state.view(None).scene
    (row,) = [row for row in scene.rows if row.label == "Rule cards"]
    expected = [state.bonus_cards]
    if key == "minimize":
        expected += [(state.duplicates_rule,), (state.actions_side,)]
    assert row.groups == tuple(tuple(rule_ref(card) for card in group) for group in expected)
    words = description(scene, ())
    for card in state.bonus_cards:
        assert f"Bonus rule: {card.title}" in words
    if key == "minimize":
        side = "Shape" if state.duplicates_rule.id == "dupshape" else "Colour"
        assert f"Shape or Colour: {side} side" in words
        assert f"Actions card: {state.actions_side.name.replace(': ', ' (')})" in words
    with Image.open(io.BytesIO(table_png(scene, ()))) as image:
        assert image.width <= table_picture.MAX_WIDTH
