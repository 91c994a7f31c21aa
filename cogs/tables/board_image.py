"""Drawing an engine :class:`~engine.Board` (a grid of card positions) as a PNG picture, with Pillow.

Rows and columns carry their labels ("A".."G", "1".."8") so players name positions as "C5". A face-up card
is a white card with its text (red text for red suits); a face-down card is a patterned back; ``None``
leaves the position empty; highlighted cards get a thick gold frame. The font is bundled
(DejaVu Sans Bold, see ``assets/DejaVuSans-LICENSE.txt``) so suit symbols draw the same everywhere.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from engine import Board, Cell

CARD_WIDTH = 64  # pixels
CARD_HEIGHT = 88
GAP = 8
LABEL_SPACE = 28
BACKGROUND = (31, 99, 55)  # felt green
LABEL_COLOUR = (235, 235, 235)
FACE_COLOUR = (250, 250, 247)
BACK_COLOUR = (44, 62, 140)
BACK_PATTERN = (86, 108, 196)
RED_TEXT = (190, 20, 30)
BLACK_TEXT = (20, 20, 20)
HIGHLIGHT = (245, 196, 0)


@lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.FreeTypeFont:
    path = resources.files("cogs.tables").joinpath("assets/DejaVuSans-Bold.ttf")
    with resources.as_file(path) as font_file:
        return ImageFont.truetype(str(font_file), size)


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
        draw.rounded_rectangle(box, radius=7, fill=FACE_COLOUR, outline=(120, 120, 120), width=2)
        text = cell.text or "?"
        font = _font(22 if len(text) <= 3 else 15)
        draw.text(
            (left + CARD_WIDTH / 2, top + CARD_HEIGHT / 2),
            text,
            fill=RED_TEXT if cell.red else BLACK_TEXT,
            font=font,
            anchor="mm",
        )
    else:
        draw.rounded_rectangle(box, radius=7, fill=BACK_COLOUR, outline=(230, 230, 230), width=2)
        inner = (left + 8, top + 8, left + CARD_WIDTH - 8, top + CARD_HEIGHT - 8)
        draw.rounded_rectangle(inner, radius=5, outline=BACK_PATTERN, width=3)
        draw.text(
            (left + CARD_WIDTH / 2, top + CARD_HEIGHT / 2),
            "◆",
            fill=BACK_PATTERN,
            font=_font(20),
            anchor="mm",
        )
    if cell.highlight:
        draw.rounded_rectangle(
            (left - 4, top - 4, left + CARD_WIDTH + 4, top + CARD_HEIGHT + 4),
            radius=9,
            outline=HIGHLIGHT,
            width=4,
        )


def draw_board(board: Board) -> Image.Image:
    """The board as a Pillow image (RGB)."""
    image = Image.new("RGB", board_size(board), BACKGROUND)
    draw = ImageDraw.Draw(image)
    label_font = _font(16)
    for column, label in enumerate(board.column_labels):
        left = LABEL_SPACE + GAP + column * (CARD_WIDTH + GAP)
        draw.text(
            (left + CARD_WIDTH / 2, LABEL_SPACE / 2 + 2),
            label,
            fill=LABEL_COLOUR,
            font=label_font,
            anchor="mm",
        )
    for row, label in enumerate(board.row_labels):
        top = LABEL_SPACE + GAP + row * (CARD_HEIGHT + GAP)
        draw.text(
            (LABEL_SPACE / 2 + 2, top + CARD_HEIGHT / 2),
            label,
            fill=LABEL_COLOUR,
            font=label_font,
            anchor="mm",
        )
        for column, cell in enumerate(board.cells[row]):
            if cell is not None:
                _draw_cell(draw, cell, LABEL_SPACE + GAP + column * (CARD_WIDTH + GAP), top)
    return image


@lru_cache(maxsize=64)
def board_png(board: Board) -> bytes:
    """The board as PNG bytes, for a Discord attachment (cached: the same board is drawn once)."""
    buffer = io.BytesIO()
    draw_board(board).save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
