"""Card faces: every deck has a face for each of its cards, with a valid emoji name and PNG; no two faces of
a deck look alike at button size under simulated protanopia, deuteranopia or tritanopia; and the measure
used for that does catch two faces that differ only by a red/green pair."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageDraw

from art import faces, vision
from art.cards import face_of_action
from art.faces import DECKS, Face
from engine.declare import cards as ivak_cards
from engine.foist import cards as foist_cards
from engine.frazzled import deck as frazzled_deck

DISTINCT = 1.0
"""Two faces are told apart when, scaled to 22 px on Discord's dark ground and seen through the simulation,
they differ by at least this mean absolute difference per pixel and channel (0..255). The most alike
pairs of the decks (a 3 and an 8 of the same suit) sit near 2; faces differing only by a colour pair on a
confusion line sit near 0 (the negative test below)."""


def test_every_card_of_every_deck_has_one_face() -> None:
    assert [face.card for face in DECKS["fw"]] == [str(card.id) for card in frazzled_deck.DECK]
    assert {face.card for face in DECKS["iv"]} == set(ivak_cards.FULL_DECK)
    assert [face.card for face in DECKS["fo"]] == [
        str(n) for n in range(foist_cards.LOWEST_CARD, foist_cards.HIGHEST_CARD + 1)
    ]
    assert len(DECKS["fr"]) == 53 and "JK" in {face.card for face in DECKS["fr"]}
    assert faces.BY_KEY[("fw", "0")].label == "14/1 Red Circle"


def test_faces_are_valid_application_emojis() -> None:
    names = [face.emoji_name() for face in faces.all_faces()]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9_]{2,32}", name) for name in names)
    for face in faces.all_faces()[::7]:
        png = face.png()
        assert len(png) < 256 * 1024
        with Image.open(io.BytesIO(png)) as image:
            assert image.size == (128, 128) and image.format == "PNG"


def alike(deck: tuple[Face, ...], kind: str) -> list[tuple[str, str, float]]:
    """The pairs of faces of ``deck`` that ``kind`` cannot tell apart: labels and distance."""
    seen = [vision.seen_small(face, kind) for face in deck]
    return [(deck[i].label, deck[j].label, d) for i, j, d in vision.alike_pairs(seen, DISTINCT)]


@pytest.mark.parametrize("deck", list(DECKS))
def test_no_two_faces_of_a_deck_look_alike_with_any_colour_vision(deck: str) -> None:
    for kind in vision.DEFICIENCIES:
        assert alike(DECKS[deck], kind) == [], kind


def _linear(rgb: tuple[int, int, int]) -> list[float]:
    return [vision._TO_LINEAR[v] for v in rgb]


def _confused_with(rgb: tuple[int, int, int], kind: str, step: float) -> tuple[int, int, int]:
    """A colour that ``kind`` sees as ``rgb``: moved along the null direction of its matrix (the cross
    product of two of its rows) in linear RGB."""
    (a, b, c), (d, e, f), _ = vision.MATRICES[kind]
    null = (b * f - c * e, c * d - a * f, a * e - b * d)
    moved = [v + step * n for v, n in zip(_linear(rgb), null, strict=True)]
    assert all(0 <= v <= 1 for v in moved)
    return tuple(vision._to_srgb(v) for v in moved)  # type: ignore[return-value]


def _face(colour: tuple[int, int, int]) -> Face:
    def paint(draw: ImageDraw.ImageDraw) -> None:
        faces.number_and_shape(draw, "7", "Star", colour, colour)

    return Face("test", "7", "test_7", "7 Star", paint)


def test_the_measure_catches_faces_that_differ_only_by_a_red_green_pair() -> None:
    red = (203, 89, 63)
    green = _confused_with(red, "deuteranopia", -2.5)
    assert green[1] > green[0] + 40  # a green, clearly not the red
    one, other = _face(red), _face(green)
    normal = vision.distance(vision.seen_small(one, "normal"), vision.seen_small(other, "normal"))
    assert normal >= 10 * DISTINCT  # plain to see with normal vision...
    seen = vision.distance(vision.seen_small(one, "deuteranopia"), vision.seen_small(other, "deuteranopia"))
    assert seen < DISTINCT, seen  # ...and caught under deuteranopia (about 0.7)
    assert [(a, b) for a, b, _ in alike((one, other), "deuteranopia")] == [("7 Star", "7 Star")]
    assert alike((one, other), "tritanopia") == []  # tritanopia tells this red from this green


@pytest.mark.parametrize(
    ("game", "code", "label"),
    [
        ("eradicize", "play.7", "2 Yellow Diamond"),
        ("minimize", "discard.0", "14/1 Red Circle"),
        ("minimize", "give.77", "13 Green Moon"),
        ("tokenize", "draw.1", None),  # a pile, not a card of the hand
        ("declare", "take5r", "5 Red Heart"),
        ("declare", "t5r", "5 Red Heart"),
        ("declare", "t5r6r7r", None),  # a throw of several cards
        ("declare", "discCb", "12 Blue Diamond"),
        ("declare", "tbjk", "Joker"),
        ("declare", "declare", None),
        ("minimisere", "10H", "10 of Hearts"),
        ("minimisere", "JK+win", "Joker"),
        ("minimisere", "AS+lot", "Ace of Spades"),
        ("foist", "take", None),
        ("memory", "look.3", None),
        ("minimisere", "forged", None),
    ],
)
def test_the_face_of_an_action_is_the_one_card_it_plays(game: str, code: str, label: str | None) -> None:
    face = face_of_action(game, code)
    assert (face.label if face else None) == label
