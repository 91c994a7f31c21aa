"""Every card face of every deck, drawn with Pillow from the engine's own deck data.

Shapes: a face is 128 by 128 pixels (:data:`SIZE`, an application emoji's size), RGBA, a white rounded card
on a transparent ground. Every face shows its number (or rank, or a power card's short word) in dark ink
and its shape or suit as a drawn polygon; colour is added on top of that (the shape's fill and the card's
border), never instead of it, so a face reads with any colour vision (the test simulates three
deficiencies). Text uses Pillow's built-in scalable font (``ImageFont.load_default(size=...)``, Pillow >=
10.1), drawn with a stroke to read as bold; nothing is downloaded.

Decks (:data:`DECKS`, by short deck key):

* ``fw``: the Frazzled Wool 78-card deck (MINIMIZE, TOKENIZE, ERADICIZE), number, colour and shape;
* ``iv``: the IVAK Declare deck, numbers 1-12 in four colours (♥ red, ★ yellow, ♣ green, ♦ blue), the
  Joker and the four power cards;
* ``fo``: Foist's cards 3-35;
* ``fr``: French-suited cards, A-K in ♠ ♥ ♦ ♣ and a Joker (Minimisère, Deluxe Memory).
"""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from art import shapes
from engine.declare import cards as ivak_cards
from engine.foist import cards as foist_cards
from engine.frazzled import deck as frazzled_deck
from engine.memory import cards as memory_cards

SIZE = 128
"""A face's width and height in pixels (Discord's application emoji size)."""
SMALL = 22
"""The size in pixels Discord shows a custom emoji on a button; faces must read at it."""

INK = (24, 24, 28)
PAPER = (255, 255, 255)
CORNER = 18
BORDER = 8

FRAZZLED_RGB: dict[str, tuple[int, int, int]] = {
    "Red": (220, 38, 38),
    "Orange": (245, 130, 20),
    "Yellow": (250, 214, 30),
    "Lime": (150, 210, 40),
    "Green": (22, 140, 60),
    "Teal": (20, 160, 160),
    "Sky": (90, 180, 240),
    "Blue": (37, 80, 220),
    "Navy": (22, 32, 110),
    "Purple": (130, 50, 190),
    "Pink": (245, 120, 190),
    "Brown": (130, 80, 40),
    "Grey": (140, 140, 140),
}
"""The colour of each of the Frazzled Wool deck's 13 colour names (:data:`engine.frazzled.deck.COLOURS`)."""

IVAK_COLOURS = {
    "r": ("red", (220, 38, 38)),
    "y": ("yellow", (240, 190, 20)),
    "g": ("green", (22, 140, 60)),
    "b": ("blue", (37, 80, 220)),
}
"""Each IVAK colour letter: its name and RGB (the suit symbols follow engine.declare.words)."""
IVAK_SUITS = {"r": "Heart", "y": "Star", "g": "Club", "b": "Diamond"}
IVAK_POWERS = {
    ivak_cards.HALF_VALUE: ("1/2", "HALF VALUE", "half_value", "My Half Value"),
    ivak_cards.DECLARE_NOW: ("NOW", "DECLARE NOW", "declare_now", "I Declare Now"),
    ivak_cards.NO_PICK: ("NO", "NO PICK", "no_pick", "I Don't Pick"),
    ivak_cards.DISCOVER: ("ANY", "DISCOVER", "discover", "I Discover Now"),
}
"""Each power card: the big word on its face, its caption, its emoji stem and its name."""

FRENCH_SUITS = {
    "S": ("Spade", "spades", INK),
    "H": ("Heart", "hearts", (206, 24, 30)),
    "D": ("Diamond", "diamonds", (206, 24, 30)),
    "C": ("Club", "clubs", INK),
}
"""Each French suit letter: its shape, its plural name and its colour (red hearts and diamonds)."""
FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FOIST_ACCENT = (20, 120, 130)


@dataclass(frozen=True)
class Face:
    """One card face: ``deck`` key (see :data:`DECKS`), ``card`` (the deck's own card code as a string, e.g.
    ``"7"`` for a Frazzled id, ``"5r"``, ``"27"``, ``"10H"``), ``stem`` (the emoji name before its art hash,
    ``[a-z0-9_]``, e.g. ``"fw_7_blue_star"``) and ``label`` (the readable name, e.g. ``"7 Blue Star"``)."""

    deck: str
    card: str
    stem: str
    label: str
    paint: Callable[[ImageDraw.ImageDraw], None]

    def image(self, size: int = SIZE) -> Image.Image:
        """The face as an RGBA image of ``size`` by ``size`` pixels (drawn at 128, then scaled)."""
        made = _blank()
        self.paint(ImageDraw.Draw(made))
        return made if size == SIZE else made.resize((size, size), Image.Resampling.LANCZOS)

    def png(self) -> bytes:
        """The face as a 128 by 128 PNG (a few KB; Discord's emoji limit is 256 KB)."""
        return face_png(self)

    def art_hash(self) -> str:
        """Six hex digits of SHA-256 over the face's pixels (cached): they change when the drawing does (two
        drawings of one face share them with a chance of one in 16 million)."""
        return face_hash(self)

    def emoji_name(self) -> str:
        """The application emoji name: ``stem`` + ``_`` + :meth:`art_hash` (2-32 characters of
        ``[a-z0-9_]``, as Discord requires)."""
        return f"{self.stem}_{self.art_hash()}"


def face_png(face: Face) -> bytes:
    """The PNG bytes of ``face`` (not kept: a face is uploaded once)."""
    out = io.BytesIO()
    face.image().save(out, format="PNG")
    return out.getvalue()


@functools.lru_cache(maxsize=512)
def face_hash(face: Face) -> str:
    """See :meth:`Face.art_hash`."""
    return hashlib.sha256(face.image().tobytes()).hexdigest()[:6]


# -- drawing helpers ----------------------------------------------------------------------------------


def _blank() -> Image.Image:
    return Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))


@functools.lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def _card(draw: ImageDraw.ImageDraw, border: tuple[int, int, int], paper=PAPER) -> None:
    """The card: a rounded square of ``paper`` inside a thick ``border``."""
    draw.rounded_rectangle((1, 1, SIZE - 2, SIZE - 2), CORNER, fill=border)
    draw.rounded_rectangle(
        (1 + BORDER, 1 + BORDER, SIZE - 2 - BORDER, SIZE - 2 - BORDER), CORNER - BORDER // 2, fill=paper
    )


def _text(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: tuple[int, int, int, int],
    colour=INK,
    stroke: int = 3,
    largest: int = 90,
) -> None:
    """``text`` centred in ``box`` (left, top, right, bottom) at the largest font size that fits, bold
    by a ``stroke`` of its own colour."""
    left, top, right, bottom = box
    size = largest
    while size > 6:
        font = _font(size)
        x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font, stroke_width=stroke)
        if x1 - x0 <= right - left and y1 - y0 <= bottom - top:
            break
        size -= 2
    x = left + (right - left - (x1 - x0)) / 2 - x0
    y = top + (bottom - top - (y1 - y0)) / 2 - y0
    draw.text((x, y), text, font=font, fill=colour, stroke_width=stroke, stroke_fill=colour)


def _shape(
    draw: ImageDraw.ImageDraw, name: str, box: tuple[float, float, float], fill, width: int = 3
) -> None:
    shapes.SHAPES[name](draw, box, fill, INK, width)


def number_and_shape(draw: ImageDraw.ImageDraw, number: str, shape: str, fill, border, ink=INK) -> None:
    """The layout of every number card: the card with a ``border`` (RGB), ``number`` large at the top in
    ``ink``, the ``shape`` (a key of :data:`art.shapes.SHAPES`) below it filled with ``fill`` (RGB)."""
    _card(draw, border)
    _text(draw, number, (12, 11, SIZE - 12, 64), ink, largest=72)
    _shape(draw, shape, (SIZE / 2 - 29, 64, 58), fill)


# -- the decks ---------------------------------------------------------------------------------------


def _slug(text: str) -> str:
    return "".join(char if char.isalnum() else "_" for char in text.lower())


def frazzled_face(card: frazzled_deck.Card) -> Face:
    """The face of a Frazzled Wool card: its number at the top, its shape filled with its colour below, its
    border in its colour (the colour's name is on the label and the emoji name)."""
    colour = frazzled_deck.COLOURS[card.colour]
    shape = frazzled_deck.SHAPES[card.shape]
    number = "14/1" if card.number == frazzled_deck.FOURTEEN_ONE else str(card.number)
    rgb = FRAZZLED_RGB[colour]

    def paint(draw: ImageDraw.ImageDraw) -> None:
        number_and_shape(draw, number, shape, rgb, rgb)

    stem_number = "14" if card.number == frazzled_deck.FOURTEEN_ONE else str(card.number)
    return Face(
        "fw",
        str(card.id),
        f"fw_{stem_number}_{_slug(colour)}_{_slug(shape)}",
        f"{number} {colour} {shape}",
        paint,
    )


def ivak_face(card: str) -> Face:
    """The face of an IVAK Declare card (``"5r"``, ``"jk"``, ``"hv"``...): a number card shows its number
    and its suit symbol in its colour; the Joker and the power cards their word, on a dark card."""
    if ivak_cards.is_number(card):
        number = str(ivak_cards.rank_of(card))
        name, rgb = IVAK_COLOURS[card[1]]
        shape = IVAK_SUITS[card[1]]

        def paint(draw: ImageDraw.ImageDraw) -> None:
            number_and_shape(draw, number, shape, rgb, rgb)

        return Face("iv", card, f"iv_{number}_{name}", f"{number} {name.title()} {shape}", paint)
    if card == ivak_cards.JOKER:
        return Face("iv", card, "iv_joker", "Joker", _joker_paint(border=INK))
    big, caption, stem, label = IVAK_POWERS[card]

    def paint_power(draw: ImageDraw.ImageDraw) -> None:
        _card(draw, INK, paper=INK)
        draw.rounded_rectangle((14, 14, SIZE - 15, SIZE - 15), 10, outline=PAPER, width=3)
        _text(draw, big, (20, 20, SIZE - 20, 86), PAPER, largest=72)
        _text(draw, caption, (20, 88, SIZE - 20, 110), PAPER, stroke=1, largest=20)

    return Face("iv", card, f"iv_{stem}", label, paint_power)


def _joker_paint(border) -> Callable[[ImageDraw.ImageDraw], None]:
    """A Joker: a large "JK" above a stripe of the four IVAK colours and the word JOKER."""

    def paint(draw: ImageDraw.ImageDraw) -> None:
        _card(draw, border)
        _text(draw, "JK", (16, 14, SIZE - 16, 74), INK, largest=72)
        stripe = [(220, 38, 38), (240, 190, 20), (22, 140, 60), (37, 80, 220)]
        for index, rgb in enumerate(stripe):
            draw.rectangle((18 + index * 23, 80, 18 + (index + 1) * 23, 88), fill=rgb)
        _text(draw, "JOKER", (16, 92, SIZE - 16, 114), INK, stroke=1, largest=26)

    return paint


def foist_face(number: int) -> Face:
    """The face of a Foist card: its number, large, on a card with a teal border and a small token."""
    text = str(number)

    def paint(draw: ImageDraw.ImageDraw) -> None:
        _card(draw, FOIST_ACCENT)
        _text(draw, text, (14, 16, SIZE - 14, SIZE - 16), INK, stroke=3, largest=96)

    return Face("fo", text, f"fo_{number}", f"Card {number}", paint)


def french_face(card: str) -> Face:
    """The face of a French-suited card (``"10H"``, ``"AS"``, ``"JK"`` for the Joker): its rank above its
    suit, red for hearts and diamonds, black for spades and clubs."""
    if card == "JK":
        return Face("fr", card, "fr_joker", "Joker", _joker_paint(border=INK))
    rank, suit = card[:-1], card[-1]
    shape, plural, rgb = FRENCH_SUITS[suit]
    name = memory_cards.rank_title(FRENCH_RANKS.index(rank) + 1)

    def paint(draw: ImageDraw.ImageDraw) -> None:
        number_and_shape(draw, rank, shape, rgb, (200, 200, 205), ink=rgb)

    return Face("fr", card, f"fr_{rank.lower()}_{plural}", f"{name} of {plural.title()}", paint)


def _build() -> dict[str, tuple[Face, ...]]:
    return {
        "fw": tuple(frazzled_face(card) for card in frazzled_deck.DECK),
        "iv": tuple(
            ivak_face(card) for card in sorted(set(ivak_cards.FULL_DECK), key=ivak_cards.card_sort_key)
        ),
        "fo": tuple(foist_face(n) for n in range(foist_cards.LOWEST_CARD, foist_cards.HIGHEST_CARD + 1)),
        "fr": tuple(french_face(rank + suit) for suit in "SHDC" for rank in FRENCH_RANKS)
        + (french_face("JK"),),
    }


DECKS: dict[str, tuple[Face, ...]] = _build()
"""Every face of every deck, by deck key, in the deck's display order."""
BY_KEY: dict[tuple[str, str], Face] = {
    (face.deck, face.card): face for faces in DECKS.values() for face in faces
}
"""Every face by ``(deck, card)``."""


def all_faces() -> tuple[Face, ...]:
    """Every face of every deck (217), decks in the order of :data:`DECKS`."""
    return tuple(face for faces in DECKS.values() for face in faces)
