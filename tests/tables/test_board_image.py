"""The board picture for a known layout: sizes, labels' space, and what each position shows."""

from __future__ import annotations

import io

from PIL import Image

from cogs.tables import board_image as bi
from engine import Board, Cell

LAYOUT = Board(
    row_labels=("A", "B"),
    column_labels=("1", "2", "3"),
    cells=(
        (None, Cell(), Cell("7♥", face_up=True, red=True)),
        (Cell("K♠", face_up=True, highlight=True), Cell(), None),
    ),
)


def corner_of(row: int, column: int) -> tuple[int, int]:
    return (
        bi.LABEL_SPACE + bi.GAP + column * (bi.CARD_WIDTH + bi.GAP),
        bi.LABEL_SPACE + bi.GAP + row * (bi.CARD_HEIGHT + bi.GAP),
    )


def test_each_position_is_drawn_as_what_it_holds() -> None:
    image = Image.open(io.BytesIO(bi.board_png(LAYOUT))).convert("RGB")
    assert image.size == bi.board_size(LAYOUT) == (28 + 3 * 72 + 8, 28 + 2 * 96 + 8)

    def pixel(row: int, column: int, dx: int = 4, dy: int = 10) -> tuple[int, int, int]:
        left, top = corner_of(row, column)
        return image.getpixel((left + dx, top + dy))

    assert pixel(0, 0) == bi.BACKGROUND  # no card
    assert pixel(0, 1) == bi.BACK_COLOUR  # face-down
    assert pixel(0, 2) == bi.FACE_COLOUR  # face-up
    assert pixel(1, 0, dx=-2) == bi.HIGHLIGHT  # the frame of a highlighted card
    assert pixel(1, 2) == bi.BACKGROUND

    # Red text is drawn on the red card, black text on the black one.
    def has_colour(row: int, column: int, colour: tuple[int, int, int]) -> bool:
        left, top = corner_of(row, column)
        crop = image.crop((left, top, left + bi.CARD_WIDTH, top + bi.CARD_HEIGHT))
        return colour in {found for _, found in crop.getcolors(1 << 16)}

    assert has_colour(0, 2, bi.RED_TEXT) and not has_colour(0, 2, bi.BLACK_TEXT)
    assert has_colour(1, 0, bi.BLACK_TEXT) and not has_colour(1, 0, bi.RED_TEXT)
