"""Writes the whole gallery of ``docs/gallery/`` (``python -m tools.gallery [folder]``): what
``python -m art.gallery`` writes, and Deluxe Memory's table, whose board the Discord layer draws
(``cogs/tables/board_image.py``, which the card faces' package may not import)."""

from __future__ import annotations

import sys
from pathlib import Path

from art import gallery
from cogs.tables.board_image import board_png

if __name__ == "__main__":
    for path in gallery.main(Path(sys.argv[1]) if len(sys.argv) > 1 else gallery.GALLERY, board_png):
        print(path)
