"""Frazzled Wool's rule cards as tiles of a table picture (:mod:`art.table_picture`): a card the height of a
face and about twice as wide, a coloured band naming its kind ("BONUS RULE", "SHAPE OR COLOUR",
"ACTIONS") over its short name ("Wild Ones", "Shape side", "Side A" / "Blind swap"), and the same in words
for the alt text ("Bonus rule: Wild Ones"). The rule's full text is not drawn: it stays in the view's rules
fields (the Rules in play button). Scene cards ``("rc", <id>)``, ids of
:data:`engine.frazzled.scene.RULE_CARDS`. Tiles are drawn once at the asked size and kept."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from art.fonts import bold
from engine.frazzled.rule_cards import COLOUR_SIDE, SHAPE_SIDE, ActionsSide, BonusCard
from engine.frazzled.scene import RULE_CARDS, RULE_DECK

PAPER = (252, 247, 232)
INK = (24, 24, 28)
BAND_INK = (255, 255, 255)
BONUS_COLOUR = (178, 120, 10)
SIDES_COLOUR = (108, 64, 160)
ACTIONS_COLOUR = (170, 52, 44)
BAND_SIZE = 10
NAME_SIZE = 15
"""Font sizes, pixels, of the kind band and of the name (at a 56-pixel tile; they scale with its height)."""


@dataclass(frozen=True)
class RuleTile:
    """What a rule card's tile shows: its ``kind`` (the band's words, ``"Bonus rule"``), its ``name`` in
    one or two ``lines`` (``("Wild Ones",)``, ``("Side A", "Blind swap")``), the band's ``colour`` (RGB),
    and ``words`` for the alt text (``"Bonus rule: Wild Ones"``)."""

    kind: str
    lines: tuple[str, ...]
    colour: tuple[int, int, int]
    words: str


def _tile(rule: BonusCard | ActionsSide) -> RuleTile:
    if isinstance(rule, ActionsSide):
        side, _, name = rule.name.partition(": ")
        return RuleTile("Actions", (side, name), ACTIONS_COLOUR, f"Actions card: {side} ({name})")
    if rule in (COLOUR_SIDE, SHAPE_SIDE):
        side = "Colour side" if rule == COLOUR_SIDE else "Shape side"
        return RuleTile("Shape or Colour", (side,), SIDES_COLOUR, f"Shape or Colour: {side}")
    return RuleTile("Bonus rule", (rule.title,), BONUS_COLOUR, f"Bonus rule: {rule.title}")


TILES: dict[tuple[str, str], RuleTile] = {(RULE_DECK, key): _tile(rule) for key, rule in RULE_CARDS.items()}
"""Every rule card's tile by its scene card ``("rc", <id>)``."""


def _fit(text: str, size: int, width: int) -> ImageFont.FreeTypeFont:
    """The bundled bold font at ``size`` or smaller (down to 70 %), so that ``text`` fits ``width``."""
    font = bold(size)
    while font.getlength(text) > width and font.size > size * 0.7:
        font = bold(int(font.size) - 1)
    return font


def _name_lines(tile: RuleTile, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """The name in at most two lines ``width`` wide: its own lines, or its words wrapped."""
    if len(tile.lines) > 1:
        return list(tile.lines)
    lines: list[str] = []
    for word in tile.lines[0].split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines[:2]


@functools.lru_cache(maxsize=64)
def tile_image(card: tuple[str, str], width: int, height: int) -> Image.Image:
    """The tile of the rule card ``card`` (``("rc", <id>)``), RGBA, ``width`` × ``height`` pixels: drawn
    once per size, kept.

    Raises
    ------
    KeyError
        If ``card`` is no rule card of :data:`TILES`.
    """
    tile = TILES[card]
    scale = height / 56
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius, band = round(7 * scale), round(15 * scale)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=tile.colour)
    draw.rounded_rectangle((2, band, width - 3, height - 3), radius - 2, fill=PAPER, corners=(0, 0, 1, 1))
    inner = width - round(10 * scale)
    kind = tile.kind.upper()
    band_font = _fit(kind, round(BAND_SIZE * scale), inner)
    draw.text((width / 2, band / 2 + 1), kind, font=band_font, fill=BAND_INK, anchor="mm")
    name_font = bold(round(NAME_SIZE * scale))
    lines = _name_lines(tile, name_font, inner)
    if len(lines) == 1:
        name_font = _fit(lines[0], round(NAME_SIZE * scale), inner)
    else:
        name_font = min((_fit(line, round(NAME_SIZE * scale), inner) for line in lines), key=lambda f: f.size)
    step = name_font.size + round(2 * scale)
    middle = (band + height) / 2
    for index, line in enumerate(lines):
        y = middle + (index - (len(lines) - 1) / 2) * step
        draw.text((width / 2, y), line, font=name_font, fill=INK, anchor="mm")
    return image
