"""Writes the sample sheets of ``docs/gallery/`` (``python -m art.gallery``): for each deck, every face at
full size (128 px), then every face at the size of an emoji on a Discord button (22 px), shown once as is
and once enlarged four times pixel for pixel so a reader sees what those 22 pixels hold, and a sheet of the
faces under each simulated colour-vision deficiency (:mod:`art.vision`); and for each game a table picture
(:mod:`art.table_picture`) and a hand from a seeded game in the middle of play (:func:`mid_game`).
Deluxe Memory's table is its board, which the Discord layer draws: ``python -m tools.gallery`` writes
that one too."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from art import vision
from art.faces import DECKS, SIZE, SMALL, Face
from art.table_picture import table_png
from engine.core import Board, CardRef, GameState, Scene, SceneRow, plural
from engine.registry import GAMES

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


SAMPLES: dict[str, tuple[int, int, int]] = {
    "foist": (5, 3, 30),
    "minimize": (4, 3, 30),
    "tokenize": (4, 3, 20),
    "eradicize": (4, 3, 24),
    "declare": (4, 1, 17),
    "minimisere": (4, 15, 15),
    "memory": (3, 3, 14),
}
"""The sample game of each game: ``(seats, seed, moves)`` of random legal play."""
NAMES = ("Ada", "Björn", "Chloé", "Dev", "Émile", "Farah", "Gus", "Hana")
"""The players' names in the gallery."""


def mid_game(game: str, num_seats: int, seed: int, moves: int) -> GameState:
    """A game of ``game`` (a key of :data:`engine.registry.GAMES`) after ``moves`` random legal moves (fewer
    if it ends sooner), chosen by a ``random.Random(seed)``, dealt with the same seed."""
    state = GAMES[game].new_game(num_seats, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = rng.choice(state.seats_to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)).code)
    return state


def hand_cards(game: str, state: GameState, seat: int) -> tuple[CardRef, ...]:
    """``seat``'s hand as scene cards (Foist: the cards it took, which are public); empty for Deluxe
    Memory, whose players hold no hand."""
    if game in ("minimize", "tokenize", "eradicize"):
        return tuple(("fw", str(card.id)) for card in state.hand(seat))  # type: ignore[attr-defined]
    if game == "declare":
        return tuple(("iv", card) for card in state.hand(seat))  # type: ignore[attr-defined]
    if game == "minimisere":
        return tuple(("fr", card) for card in state.hand(seat))  # type: ignore[attr-defined]
    if game == "foist":
        return tuple(("fo", str(card)) for card in state.cards(seat))  # type: ignore[attr-defined]
    return ()


def hand_scene(cards: tuple[CardRef, ...]) -> Scene:
    """A hand as a one-row scene: the cards side by side."""
    return Scene((SceneRow("Your hand", (cards,), plural(len(cards), "card")),))


def game_pictures(game: str, board_png: Callable[[Board], bytes] | None = None) -> dict[str, bytes]:
    """The gallery's pictures of ``game``'s sample (:data:`SAMPLES`): ``table-<game>.png`` (Deluxe Memory:
    its board, drawn by ``board_png``, left out without it) and ``hand-<game>.png`` (the first seat to act's
    hand, for a game with hands), by file name."""
    num_seats, seed, moves = SAMPLES[game]
    state = mid_game(game, num_seats, seed, moves)
    view = state.view(None)
    names = NAMES[:num_seats]
    pictures = {}
    if view.scene is not None:
        pictures[f"table-{game}.png"] = table_png(view.scene, names)
    elif view.board is not None and board_png is not None:
        pictures[f"table-{game}.png"] = board_png(view.board)
    to_act = state.seats_to_act()
    cards = hand_cards(game, state, to_act[0] if to_act else 0)
    if cards:
        pictures[f"hand-{game}.png"] = table_png(hand_scene(cards))
    return pictures


def main(out: Path = GALLERY, board_png: Callable[[Board], bytes] | None = None) -> list[Path]:
    """Write ``faces-<deck>.png`` and ``vision-<deck>.png`` for every deck, and the table and hand pictures
    of every game (:func:`game_pictures`, Deluxe Memory's board with ``board_png``) into ``out``; the
    paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game in GAMES:
        for name, png in game_pictures(game, board_png).items():
            path = out / name
            path.write_bytes(png)
            written.append(path)
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
