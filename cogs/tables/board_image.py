"""Drawing an engine :class:`~engine.Board` (a grid of card positions) as a PNG picture, with Pillow.

Rows and columns carry their labels ("A".."G", "1".."8") so players name positions as "C5". A face-up card
is a white card with its text (red text for red suits); a face-down card is a patterned back; ``None``
leaves the position empty; highlighted cards get a thick gold frame. The font is bundled
(DejaVu Sans Bold, :mod:`art.fonts`) so suit symbols draw the same everywhere.

A board is put together from pictures drawn once: the felt with its labels per grid size, and each kind of
position (a :class:`~engine.Cell` is a value: a face, a back, highlighted or not) as a tile; the picture is
then mapped to one fixed palette (the colours above and the blends between them that antialiasing makes)
and saved as a paletted PNG at zlib's fastest level: several times cheaper than drawing every card and
saving full colour (``docs/performance.md``, "Table pictures").
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache

from PIL import Image, ImageDraw

from art.fonts import bold
from art.table_picture import (  # one felt, one back, one PNG level
    BACK_COLOUR,
    BACK_OUTLINE,
    BACK_PATTERN,
    BACKGROUND,
    PNG_LEVEL,
)
from cogs.tables.lengths import ALT_TEXT_MAX, clip
from engine import Board, Cell
from engine.core import plural

CARD_WIDTH = 64  # pixels
CARD_HEIGHT = 88
GAP = 8
LABEL_SPACE = 28
LABEL_COLOUR = (235, 235, 235)
FACE_COLOUR = (250, 250, 247)
RED_TEXT = (190, 20, 30)
BLACK_TEXT = (20, 20, 20)
HIGHLIGHT = (245, 196, 0)
FACE_OUTLINE = (120, 120, 120)
FRAME = 4  # the highlight frame's reach beyond a card, within half the gap
BLENDS = 8  # steps between two colours that meet, for antialiased edges


def board_size(board: Board) -> tuple[int, int]:
    """The picture's ``(width, height)`` in pixels."""
    columns = len(board.column_labels)
    rows = len(board.row_labels)
    return (
        LABEL_SPACE + columns * (CARD_WIDTH + GAP) + GAP,
        LABEL_SPACE + rows * (CARD_HEIGHT + GAP) + GAP,
    )


def _draw_cell(draw: ImageDraw.ImageDraw, cell: Cell, left: int, top: int) -> None:
    box = (left, top, left + CARD_WIDTH, top + CARD_HEIGHT)
    if cell.face_up:
        draw.rounded_rectangle(box, radius=7, fill=FACE_COLOUR, outline=FACE_OUTLINE, width=2)
        text = cell.text or "?"
        font = bold(22 if len(text) <= 3 else 15)
        draw.text(
            (left + CARD_WIDTH / 2, top + CARD_HEIGHT / 2),
            text,
            fill=RED_TEXT if cell.red else BLACK_TEXT,
            font=font,
            anchor="mm",
        )
    else:
        draw.rounded_rectangle(box, radius=7, fill=BACK_COLOUR, outline=BACK_OUTLINE, width=2)
        inner = (left + 8, top + 8, left + CARD_WIDTH - 8, top + CARD_HEIGHT - 8)
        draw.rounded_rectangle(inner, radius=5, outline=BACK_PATTERN, width=3)
        draw.text(
            (left + CARD_WIDTH / 2, top + CARD_HEIGHT / 2),
            "◆",
            fill=BACK_PATTERN,
            font=bold(20),
            anchor="mm",
        )
    if cell.highlight:
        draw.rounded_rectangle(
            (left - 4, top - 4, left + CARD_WIDTH + 4, top + CARD_HEIGHT + 4),
            radius=9,
            outline=HIGHLIGHT,
            width=4,
        )


@lru_cache(maxsize=256)
def _tile(cell: Cell) -> Image.Image:
    """One position drawn on the felt, with room for the highlight frame around the card."""
    tile = Image.new("RGB", (CARD_WIDTH + 2 * FRAME, CARD_HEIGHT + 2 * FRAME), BACKGROUND)
    _draw_cell(ImageDraw.Draw(tile), cell, FRAME, FRAME)
    return tile


@lru_cache(maxsize=8)
def _felt(row_labels: tuple[str, ...], column_labels: tuple[str, ...]) -> Image.Image:
    """The empty board of this size with its row and column labels."""
    size = (
        LABEL_SPACE + len(column_labels) * (CARD_WIDTH + GAP) + GAP,
        LABEL_SPACE + len(row_labels) * (CARD_HEIGHT + GAP) + GAP,
    )
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    label_font = bold(16)
    for column, label in enumerate(column_labels):
        left = LABEL_SPACE + GAP + column * (CARD_WIDTH + GAP)
        draw.text(
            (left + CARD_WIDTH / 2, LABEL_SPACE / 2 + 2),
            label,
            fill=LABEL_COLOUR,
            font=label_font,
            anchor="mm",
        )
    for row, label in enumerate(row_labels):
        top = LABEL_SPACE + GAP + row * (CARD_HEIGHT + GAP)
        draw.text(
            (LABEL_SPACE / 2 + 2, top + CARD_HEIGHT / 2),
            label,
            fill=LABEL_COLOUR,
            font=label_font,
            anchor="mm",
        )
    return image


def draw_board(board: Board) -> Image.Image:
    """The board as a Pillow image (RGB)."""
    image = _felt(board.row_labels, board.column_labels).copy()
    for row, cells in enumerate(board.cells):
        top = LABEL_SPACE + GAP + row * (CARD_HEIGHT + GAP)
        for column, cell in enumerate(cells):
            if cell is not None:
                left = LABEL_SPACE + GAP + column * (CARD_WIDTH + GAP)
                image.paste(_tile(cell), (left - FRAME, top - FRAME))
    return image


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The one palette of every board picture: its colours, and the blends between each two that meet."""
    meeting = (
        (BACKGROUND, LABEL_COLOUR),
        (BACKGROUND, HIGHLIGHT),
        (BACKGROUND, FACE_OUTLINE),
        (BACKGROUND, BACK_OUTLINE),
        (FACE_COLOUR, FACE_OUTLINE),
        (FACE_COLOUR, RED_TEXT),
        (FACE_COLOUR, BLACK_TEXT),
        (BACK_COLOUR, BACK_OUTLINE),
        (BACK_COLOUR, BACK_PATTERN),
        (HIGHLIGHT, FACE_OUTLINE),
        (HIGHLIGHT, BACK_OUTLINE),
    )
    colours = []
    for first, second in meeting:
        for step in range(BLENDS + 1):
            colour = tuple(round(a + (b - a) * step / BLENDS) for a, b in zip(first, second, strict=True))
            if colour not in colours:
                colours.append(colour)
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette


@lru_cache(maxsize=64)
def board_png(board: Board) -> bytes:
    """The board as PNG bytes (paletted), for a Discord attachment (cached: the same board is drawn
    once)."""
    buffer = io.BytesIO()
    picture = draw_board(board).quantize(palette=_palette(), dither=Image.Dither.NONE)
    picture.save(buffer, format="PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


@lru_cache(maxsize=1024)
def board_filename(board: Board) -> str:
    """The name of ``board``'s picture, different for every different board (``board-<digest>.png``, the
    same in every process), so a message that shows it already keeps it
    (:meth:`cogs.tables.drawn.Drawn.keeps`)."""
    return f"board-{hashlib.blake2b(repr(board).encode(), digest_size=8).hexdigest()}.png"


@lru_cache(maxsize=64)
def board_description(board: Board) -> str:
    """What the board's picture shows, in words (its alt text, within Discord's 1,024 characters): the
    grid's size, the cards face down, each card face up by position ("C5 7♥"), the highlighted ones
    marked "(new)"; e.g. "A grid of 7 rows (A–G) by 8 columns (1–8): 52 cards face down; face up: C5 7♥
    (new), D2 7♠"."""
    face_up, face_down = [], 0
    for row, cells in zip(board.row_labels, board.cells, strict=True):
        for column, cell in zip(board.column_labels, cells, strict=True):
            if cell is None:
                continue
            if cell.face_up:
                face_up.append(f"{row}{column} {cell.text}{' (new)' if cell.highlight else ''}")
            else:
                face_down += 1
    rows, columns = board.row_labels, board.column_labels
    text = (
        f"A grid of {plural(len(rows), 'row')} ({rows[0]}–{rows[-1]}) by {plural(len(columns), 'column')} "
        f"({columns[0]}–{columns[-1]}): {plural(face_down, 'card')} face down"
    )
    if face_up:
        text += f"; face up: {', '.join(face_up)}"
    return clip(text, ALT_TEXT_MAX)
