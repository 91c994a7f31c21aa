"""Writes the sample sheets of ``docs/gallery/`` (``python -m art.gallery``): for each deck, every face at
full size (128 px), then every face at the size of an emoji on a Discord button (22 px), shown once as is
and once enlarged four times pixel for pixel so a reader sees what those 22 pixels hold, and a sheet of the
faces under each simulated colour-vision deficiency (:mod:`art.vision`)."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from art import vision
from art.faces import DECKS, SIZE, SMALL, Face

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "gallery"
DECK_TITLES = {
    "fw": "Frazzled Wool (MINIMIZE, TOKENIZE, ERADICIZE)",
    "iv": "IVAK Declare",
    "fo": "Foist",
    "fr": "French-suited (Minimisère, Deluxe Memory)",
}
BACKGROUND = (54, 57, 63)  # Discord's dark theme
PER_ROW = 13
GAP = 6


def _title(sheet: Image.Image, y: int, text: str) -> None:
    ImageDraw.Draw(sheet).text((GAP, y), text, font=ImageFont.load_default(size=18), fill=(235, 235, 235))


def _grid(faces: list[Image.Image], size: int) -> Image.Image:
    rows = -(-len(faces) // PER_ROW)
    grid = Image.new("RGB", (PER_ROW * (size + GAP) + GAP, rows * (size + GAP) + GAP), BACKGROUND)
    for index, face in enumerate(faces):
        x = GAP + (index % PER_ROW) * (size + GAP)
        y = GAP + (index // PER_ROW) * (size + GAP)
        grid.paste(face, (x, y), face)
    return grid


def deck_sheet(faces: tuple[Face, ...]) -> Image.Image:
    """One deck's sheet: full size, 22 px, and 22 px enlarged four times (nearest neighbour)."""
    full = _grid([face.image() for face in faces], SIZE)
    small_faces = [face.image(SMALL) for face in faces]
    small = _grid(small_faces, SMALL)
    enlarged = _grid(
        [face.resize((SMALL * 4, SMALL * 4), Image.Resampling.NEAREST) for face in small_faces], SMALL * 4
    )
    return _stacked(
        [("Full size (128 px)", full), ("On a button (22 px)", small), ("22 px, enlarged 4x", enlarged)]
    )


def vision_sheet(faces: tuple[Face, ...]) -> Image.Image:
    """One deck at 22 px enlarged, as seen with normal vision and each simulated deficiency."""
    blocks = []
    for kind in ("normal", *vision.DEFICIENCIES):
        seen = [
            vision.seen_small(face, kind).resize((SMALL * 3, SMALL * 3), Image.Resampling.NEAREST)
            for face in faces
        ]
        blocks.append((kind, _grid([image.convert("RGBA") for image in seen], SMALL * 3)))
    return _stacked(blocks)


def _stacked(blocks: list[tuple[str, Image.Image]]) -> Image.Image:
    """The ``(title, image)`` blocks one under the other on the gallery's background, each under its title."""
    height = sum(block.height + 28 for _, block in blocks)
    sheet = Image.new("RGB", (max(block.width for _, block in blocks), height), BACKGROUND)
    y = 0
    for title, block in blocks:
        _title(sheet, y + 4, title)
        sheet.paste(block, (0, y + 28))
        y += block.height + 28
    return sheet


def main(out: Path = GALLERY) -> list[Path]:
    """Write ``faces-<deck>.png`` and ``vision-<deck>.png`` for every deck into ``out``; the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for deck, faces in DECKS.items():
        for name, sheet in (
            (f"faces-{deck}.png", deck_sheet(faces)),
            (f"vision-{deck}.png", vision_sheet(faces)),
        ):
            path = out / name
            sheet.save(path, optimize=True)
            written.append(path)
    return written


if __name__ == "__main__":
    for path in main(Path(sys.argv[1]) if len(sys.argv) > 1 else GALLERY):
        print(path)
