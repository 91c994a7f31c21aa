"""A game's table scene (:class:`engine.core.Scene`) as a PNG picture, with its alt text.

Shapes: each row of the scene is a line of the picture, its label (a seat's display name where the label is
``{seat:N}``) and its note in a column on the left, its cards on the right at :data:`FACE` pixels (the faces
of :mod:`art.faces`, scaled once and kept; a Frazzled Wool rule card a tile with its name,
:data:`RULE_WIDTH` wide, :mod:`art.rule_cards`), groups :data:`GROUP_GAP` apart, a hand of backs fanned, an
empty group as an empty place; a row too long for :data:`MAX_WIDTH` goes on over more lines. The ground is
the felt of Deluxe Memory's board (``cogs/tables/board_image.py``). Text uses the bundled DejaVu Sans Bold
(:mod:`art.fonts`), so accented names draw everywhere; a character it has no glyph for (an
emoji in a name) is left out of the picture, never out of the alt text.

A picture is drawn when first asked for and kept (:func:`table_png`, cached on the scene's value and the
names), put together in palette mode from pieces drawn once (each card, fan of backs and text) and saved as
a paletted PNG at zlib's fastest level, as the Memory board is (its cost: ``docs/performance.md``, "Table
pictures"). Its file name (:func:`table_filename`) is a digest of the same value, so it
changes exactly when the picture does.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from art import rule_cards
from art.faces import BY_KEY, DECKS, SIZE
from art.fonts import bold
from engine.core import BACK, CardRef, Scene, SceneRow, plural

FACE = 56
"""A card's width and height in the picture, pixels."""
RULE_WIDTH = 112
"""A rule card's width in the picture, pixels (its height is :data:`FACE`): :mod:`art.rule_cards`."""
CARD_GAP = 3
"""Pixels between two cards of a group."""
GROUP_GAP = 18
"""Pixels between two groups of a row."""
BACK_STEP = 12
"""Pixels between two backs of a fanned hand."""
LINE_GAP = 6
"""Pixels between two lines of cards of one row."""
ROW_GAP = 10
"""Pixels between two rows."""
MARGIN = 10
LABEL_WIDTH = 140
"""The label column's widest, pixels (a longer name goes on over two lines, then is cut)."""
MIN_LABEL_WIDTH = 80
"""The label column's narrowest, pixels (it is as wide as the picture's longest label or note)."""
COLUMN_GAP = 24
"""Pixels between two rows side by side (:func:`_shelves`)."""
COLUMNS = 2
"""The most rows side by side: more would leave a row's cards between two names."""
MAX_WIDTH = 680
"""The widest picture, pixels (Discord shows it at about 400-550)."""
LABEL_SIZE = 16
NOTE_SIZE = 13
BACKGROUND = (31, 99, 55)
"""The felt, here and on Deluxe Memory's board (``cogs/tables/board_image.py`` uses these colours)."""
LABEL_COLOUR = (240, 240, 240)
NOTE_COLOUR = (190, 222, 198)
EMPTY_COLOUR = (84, 140, 100)
BACK_COLOUR = (44, 62, 140)
BACK_PATTERN = (86, 108, 196)
BACK_OUTLINE = (230, 230, 230)
PNG_LEVEL = 1
"""zlib's fastest level, for these pictures and Deluxe Memory's board: faster than the default 6, for a
somewhat larger file."""
DESCRIPTION_LIMIT = 1024
"""Discord's limit on a media item's description (alt text), characters."""
SEAT = re.compile(r"\{seat:(\d{1,2})\}")


# -- names --------------------------------------------------------------------------------------------


def seat_name(names: Sequence[str], seat: int) -> str:
    """The name of ``seat`` from ``names`` (display names in seat order), ``"Seat N"`` (1-based) past
    their end."""
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def resolve(text: str, names: Sequence[str]) -> str:
    """``text`` with each ``{seat:N}`` written as the seat's name (:func:`seat_name`)."""
    return SEAT.sub(lambda match: seat_name(names, int(match.group(1))), text) if "{seat:" in text else text


@functools.lru_cache(maxsize=1024)
def _has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char`` (rather than its box for a missing glyph)."""
    font = bold(LABEL_SIZE)
    return char == " " or bytes(font.getmask(char)) != bytes(font.getmask("\U0010fffd"))


def drawable(text: str) -> str:
    """``text`` without the characters the bundled font cannot draw, spaces squeezed."""
    return " ".join("".join(char for char in text if _has_glyph(char)).split())


# -- the pieces, drawn once ---------------------------------------------------------------------------


def _back_image() -> Image.Image:
    """A face-down card, RGBA, :data:`art.faces.SIZE` square: the Memory board's back, scaled."""
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((1, 1, SIZE - 2, SIZE - 2), 18, fill=BACK_COLOUR, outline=BACK_OUTLINE, width=6)
    draw.rounded_rectangle((20, 20, SIZE - 21, SIZE - 21), 10, outline=BACK_PATTERN, width=6)
    middle = SIZE / 2
    draw.polygon([(middle, 38), (SIZE - 38, middle), (middle, SIZE - 38), (38, middle)], fill=BACK_PATTERN)
    return image


@functools.lru_cache(maxsize=512)
def card_image(card: CardRef) -> Image.Image:
    """``card`` at :data:`FACE` pixels, RGBA (scaled once, kept).

    A rule card (``("rc", <id>)``) is its tile, :data:`RULE_WIDTH` wide (:mod:`art.rule_cards`).

    Raises
    ------
    KeyError
        If ``card`` is neither a face of :data:`art.faces.BY_KEY`, a back of a known deck, nor a rule card.
    """
    deck, code = card
    if card in rule_cards.TILES:
        return rule_cards.tile_image(card, RULE_WIDTH, FACE)
    if code == BACK:
        if deck not in DECKS:
            raise KeyError(card)
        return _back_image().resize((FACE, FACE), Image.Resampling.LANCZOS)
    return BY_KEY[card].image(FACE)


def _palette_sample() -> list[CardRef]:
    """A face of each colour of each deck (Frazzled Wool and IVAK by colour, French by suit, one Foist
    card, the Joker and power cards), and each deck's back: the colours every face is made of."""
    sample: dict[tuple[str, str], CardRef] = {}
    for (deck, card), face in BY_KEY.items():
        words = face.label.split()
        colour = "" if deck == "fo" else words[-1] if deck == "fr" else words[min(1, len(words) - 1)]
        sample.setdefault((deck, colour), (deck, card))
    return [*sample.values(), *((deck, BACK) for deck in DECKS)]


@functools.lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The one palette of every table picture: 256 colours chosen once from a face of each colour of each
    deck and the backs on the felt, with the label and note colours (about 0.1 s, once: :func:`warm`)."""
    faces = [card_image(card) for card in _palette_sample()]
    per_row = 12
    rows = -(-len(faces) // per_row) + 1  # and a row of rule cards, one of each kind
    sheet = Image.new("RGB", (per_row * FACE, rows * FACE + 40), BACKGROUND)
    for index, face in enumerate(faces):
        sheet.paste(face, ((index % per_row) * FACE, (index // per_row) * FACE), face)
    kinds = {tile.kind: card for card, tile in rule_cards.TILES.items()}
    for index, card in enumerate(kinds.values()):
        tile = card_image(card)
        sheet.paste(tile, (index * (RULE_WIDTH + 4), (rows - 1) * FACE), tile)
    draw = ImageDraw.Draw(sheet)
    draw.text((4, rows * FACE + 2), "Draw piles Discard 0123456789", font=bold(LABEL_SIZE), fill=LABEL_COLOUR)
    draw.text((4, rows * FACE + 22), "12 · 11 cards in hand", font=bold(NOTE_SIZE), fill=NOTE_COLOUR)
    draw.rounded_rectangle((400, rows * FACE + 4, 440, rows * FACE + 36), 8, outline=EMPTY_COLOUR, width=2)
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _paletted(image: Image.Image) -> Image.Image:
    """An RGB piece mapped to the one palette (:func:`_palette`), ready to paste into a picture."""
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


Piece = tuple[str, str, int]
"""What one place of a row shows: ``(deck, card, count)``: a card (``count`` 1), ``count`` backs fanned
(``card`` :data:`~engine.core.BACK`), or an empty place (``("", "", 0)``)."""
EMPTY: Piece = ("", "", 0)


def _piece_width(piece: Piece) -> int:
    card_width = RULE_WIDTH if piece[:2] in rule_cards.TILES else FACE
    return card_width + max(0, piece[2] - 1) * BACK_STEP


@functools.lru_cache(maxsize=1024)
def _piece_image(piece: Piece) -> Image.Image:
    """A piece drawn on the felt and paletted (drawn once, kept)."""
    deck, card, count = piece
    image = Image.new("RGB", (_piece_width(piece), FACE), BACKGROUND)
    if piece == EMPTY:
        ImageDraw.Draw(image).rounded_rectangle((2, 2, FACE - 3, FACE - 3), 8, outline=EMPTY_COLOUR, width=2)
    for index in range(count):
        face = card_image((deck, card))
        image.paste(face, (index * BACK_STEP, 0), face)
    return _paletted(image)


@functools.lru_cache(maxsize=1)
def _felt_index() -> int:
    """The felt's colour in the palette."""
    return _paletted(Image.new("RGB", (1, 1), BACKGROUND)).getpixel((0, 0))  # type: ignore[return-value]


# -- layout -------------------------------------------------------------------------------------------


def _pieces(group: tuple[CardRef, ...]) -> list[Piece]:
    """A group's pieces: each card, but backs of a deck in a row as one fan; an empty group is an empty
    place."""
    if not group:
        return [EMPTY]
    pieces: list[Piece] = []
    for deck, card in group:
        if card == BACK and pieces and pieces[-1][:2] == (deck, BACK):
            pieces[-1] = (deck, BACK, pieces[-1][2] + 1)
        else:
            pieces.append((deck, card, 1))
    return pieces


def _layout(row: SceneRow, width: int) -> list[tuple[Piece, int, int]]:
    """Where the pieces of ``row`` go in a card area ``width`` wide: ``(piece, left, line)``; a group goes
    on the next line when it does not fit on this one (and is split over lines only when it is wider than
    a line)."""
    placed: list[tuple[Piece, int, int]] = []
    x, line = 0, 0
    for group in row.groups:
        pieces = _pieces(group)
        span = sum(_piece_width(piece) for piece in pieces) + CARD_GAP * (len(pieces) - 1)
        if x and x + span > width:
            x, line = 0, line + 1
        for index, piece in enumerate(pieces):
            if index and x + _piece_width(piece) > width:  # a group wider than a line: on to the next
                x, line = 0, line + 1
            placed.append((piece, x, line))
            x += _piece_width(piece) + CARD_GAP
        x += GROUP_GAP - CARD_GAP
    return placed


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` in lines at most ``width`` pixels wide (a word too long for a line is cut with "…")."""
    lines: list[str] = []
    for word in text.split():
        while font.getlength(word) > width and len(word) > 1:
            word = word[:-2] + "…"
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


TextLines = tuple[tuple[str, int], ...]
"""Lines of text with their font sizes."""


@functools.lru_cache(maxsize=2048)
def _text_lines(label: str, note: str) -> tuple[TextLines, int]:
    """A row's label (at most two lines) and note (names written in) as lines with their font sizes, and
    the widest line's width in pixels (worked out once per text, kept)."""
    text_width = LABEL_WIDTH - 10
    lines = tuple((line, LABEL_SIZE) for line in _wrap(drawable(label), bold(LABEL_SIZE), text_width)[:2])
    lines += tuple((line, NOTE_SIZE) for line in _wrap(drawable(note), bold(NOTE_SIZE), text_width))
    return lines, int(max((bold(size).getlength(line) for line, size in lines), default=0))


@functools.lru_cache(maxsize=2048)
def _text_image(lines: TextLines, width: int) -> Image.Image:
    """Text lines drawn on the felt and paletted (drawn once per text, kept)."""
    image = Image.new("RGB", (width, sum(size + 4 for _, size in lines)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = 0
    for line, size in lines:
        draw.text((0, y), line, font=bold(size), fill=LABEL_COLOUR if size == LABEL_SIZE else NOTE_COLOUR)
        y += size + 4
    return _paletted(image)


@dataclass
class _Block:
    """A row ready to draw: its pieces' places (see :func:`_layout`), its text lines, the width its cards
    use and its height, pixels, and whether it is a seat's row (its label is ``{seat:N}``)."""

    seat_row: bool
    placed: list[tuple[Piece, int, int]]
    text: TextLines
    used: int
    height: int


def _block(row: SceneRow, text: TextLines, area: int) -> _Block:
    placed = _layout(row, area)
    lines = 1 + max((line for _, _, line in placed), default=-1)
    cards_height = lines * FACE + max(0, lines - 1) * LINE_GAP
    text_height = sum(size + 4 for _, size in text)
    used = max((left + _piece_width(piece) for piece, left, _ in placed), default=0)
    return _Block(SEAT.fullmatch(row.label) is not None, placed, text, used, max(cards_height, text_height))


def _shelves(blocks: list[_Block], label_width: int) -> list[tuple[list[_Block], int]]:
    """The blocks in shelves, top to bottom: each block on its own, but a run of two or more seats' rows
    that each take one line and at most half the width (the seats of a crowded table) side by side, left to
    right, two by two. Each shelf comes with the width of its cells (label and cards), the same for all
    the shelves of a run so its columns line up."""
    inner = MAX_WIDTH - 2 * MARGIN
    narrow = [
        block.seat_row
        and all(line == 0 for _, _, line in block.placed)
        and label_width + block.used <= (inner - COLUMN_GAP) // 2
        for block in blocks
    ]
    shelves: list[tuple[list[_Block], int]] = []
    index = 0
    while index < len(blocks):
        end = index
        while end < len(blocks) and narrow[end]:
            end += 1
        if end - index < 2:
            shelves.append(([blocks[index]], label_width + blocks[index].used))
            index += 1
            continue
        cell = label_width + max(block.used for block in blocks[index:end])
        per_shelf = min(COLUMNS, max(1, (inner + COLUMN_GAP) // (cell + COLUMN_GAP)))
        shelves.extend(
            (blocks[start : min(end, start + per_shelf)], cell) for start in range(index, end, per_shelf)
        )
        index = end
    return shelves


def draw_table(scene: Scene, names: tuple[str, ...] = ()) -> Image.Image:
    """The picture of ``scene``, paletted (mode ``"P"``), ``{seat:N}`` written as ``names[N]`` (``"Seat
    N+1"`` past its end): at most :data:`MAX_WIDTH` pixels wide. It is put together from pieces drawn once
    (each card, fan of backs and text) and kept.

    Raises
    ------
    KeyError
        If the scene names a card no deck has.
    """
    texts = [_text_lines(resolve(row.label, names), resolve(row.note, names)) for row in scene.rows]
    widest = max((width for _, width in texts), default=0)
    label_width = max(MIN_LABEL_WIDTH, min(LABEL_WIDTH, widest + 14))
    area = MAX_WIDTH - 2 * MARGIN - label_width
    blocks = [_block(row, text, area) for row, (text, _) in zip(scene.rows, texts, strict=True)]
    shelves = _shelves(blocks, label_width)
    width = 2 * MARGIN + max(
        (len(shelf) * cell + (len(shelf) - 1) * COLUMN_GAP for shelf, cell in shelves), default=label_width
    )
    heights = [max(block.height for block in shelf) for shelf, _ in shelves]
    height = 2 * MARGIN + sum(heights) + ROW_GAP * max(0, len(shelves) - 1)
    image = Image.new("P", (width, height), _felt_index())
    image.putpalette(_palette().getpalette())  # type: ignore[arg-type]
    top = MARGIN
    for (shelf, cell), shelf_height in zip(shelves, heights, strict=True):
        for column, block in enumerate(shelf):
            left = MARGIN + column * (cell + COLUMN_GAP)
            if block.text:
                image.paste(_text_image(block.text, label_width - 4), (left, top))
            for piece, x, line in block.placed:
                image.paste(_piece_image(piece), (left + label_width + x, top + line * (FACE + LINE_GAP)))
        top += shelf_height + ROW_GAP
    return image


def warm() -> None:
    """Scale every face and back to :data:`FACE`, draw every rule card's tile, and work out the palette
    every picture shares (once per process), so that no picture pays for a card's first use; for a worker
    thread at start. Without it a picture scales the faces it shows the first time. Idempotent."""
    for card in (*BY_KEY, *((deck, BACK) for deck in DECKS), *rule_cards.TILES):
        _piece_image((*card, 1))
    _felt_index()


@functools.lru_cache(maxsize=256)
def table_png(scene: Scene, names: tuple[str, ...] = ()) -> bytes:
    """The picture of ``scene`` as PNG bytes (paletted), drawn once per ``(scene, names)`` and kept.

    Raises
    ------
    KeyError
        If the scene names a card no deck has.
    """
    buffer = io.BytesIO()
    draw_table(scene, names).save(buffer, format="PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


@functools.lru_cache(maxsize=1024)
def table_filename(scene: Scene, names: tuple[str, ...] = ()) -> str:
    """The attachment's file name, ``table-<16 hex digits>.png``: a digest of what the picture shows (the
    scene and the names of the seats it names, as drawn), so it changes exactly when the picture does."""
    seats = sorted({int(seat) for row in scene.rows for seat in SEAT.findall(row.label + row.note)})
    shown = tuple(drawable(seat_name(names, seat)) for seat in seats)
    digest = hashlib.sha256(repr((scene, shown)).encode()).hexdigest()[:16]
    return f"table-{digest}.png"


# -- alt text -----------------------------------------------------------------------------------------


def card_words(card: CardRef) -> str:
    """A card in words: its face's label ("7 Blue Star", "10 of Hearts"; a Foist card by its number), a
    rule card's kind and name ("Bonus rule: Wild Ones", :mod:`art.rule_cards`)."""
    deck, code = card
    if code == BACK:
        return "a face-down card"
    if card in rule_cards.TILES:
        return rule_cards.TILES[card].words
    return code if deck == "fo" else BY_KEY[card].label


def _group_words(group: tuple[CardRef, ...]) -> str:
    if not group:
        return "empty"
    backs = sum(1 for card in group if card[1] == BACK)
    shown = [card_words(card) for card in group if card[1] != BACK]
    if backs:
        shown.append(plural(backs, "face-down card"))
    return ", ".join(shown)


@functools.lru_cache(maxsize=1024)
def description(scene: Scene, names: tuple[str, ...] = ()) -> str:
    """The picture's alt text: each row as ``"Label: cards (note)."``, groups separated by ``;`` (``"Draw
    piles: 7 Blue Star; empty; 3 Red Circle (12 · 0 · 9 left). Discard pile: ..."``); a row of backs only
    with a note says its note alone (``"Ada: 7 cards."``, not "7 face-down cards (7 cards)"). At most
    :data:`DESCRIPTION_LIMIT` characters (cut after the last whole row that fits, with "…")."""
    parts = []
    for row in scene.rows:
        note = resolve(row.note, names)
        backs_only = all(card == BACK for group in row.groups for _, card in group) and any(row.groups)
        cards = "" if backs_only and note else "; ".join(_group_words(group) for group in row.groups)
        text = resolve(row.label, names) + ":"
        if cards:
            text += f" {cards}"
        if note:
            text += f" ({note})" if cards else f" {note}"
        parts.append(text + ".")
    words = " ".join(parts)
    if len(words) <= DESCRIPTION_LIMIT:
        return words
    kept = ""
    for part in parts:
        if len(kept) + len(part) + 2 > DESCRIPTION_LIMIT:
            break
        kept += part + " "
    return (kept or words[: DESCRIPTION_LIMIT - 1]).rstrip() + "…"
