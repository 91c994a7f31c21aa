"""A player's rating history drawn as a PNG line chart (Pillow), for ``/stats``.

Its text is the bundled font every picture of the bot writes with (:mod:`art.fonts`), so a game's or a
player's accented name draws as it is spelled (a character the font lacks is left out, never a box), and
its axis is written at a size read without zooming in an embed."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from art.fonts import bold
from art.table_picture import drawable
from engine.core import plural

WIDTH, HEIGHT = 640, 260
TITLE_SIZE, AXIS_SIZE = 20, 16
"""Pixel sizes of the title and of the axis and caption text (an embed shows the chart scaled down)."""
MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 18, 46, 36
LABEL_GAP = 8
"""Pixels between an axis label and the plot."""
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000)
"""Rating points between two lines of the grid, the smallest that draws the history in at most
:data:`MAX_LINES` lines (a flat history gets the smallest step)."""
MAX_LINES = 5
# A palette image (one byte a pixel) encodes in about a fifth of an RGB one's time; the colours are
# Discord's dark theme, so the chart sits well in an embed. The chart is drawn in RGB, so that text and line
# are smoothed, then mapped onto these colours and their blends with the background.
COLOURS = [(43, 45, 49), (70, 73, 79), (219, 222, 225), (88, 101, 242), (254, 231, 92)]
BACKGROUND, GRID, TEXT, LINE, LAST_POINT = COLOURS
BLENDS = 6
"""Shades between the background and each other colour, for smoothed edges."""


def _palette() -> Image.Image:
    shades = [
        tuple(round(b + (c - b) * step / (BLENDS + 1)) for b, c in zip(BACKGROUND, colour, strict=True))
        for colour in COLOURS[1:]
        for step in range(1, BLENDS + 1)
    ]
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in COLOURS + shades for channel in colour])
    return palette


PALETTE = _palette()


def chart_caption(games: int) -> str:
    """The line under a chart of ``games`` ratings: ``"last game, ..."``, ``"last 12 games, ..."``."""
    return f"last {plural(games, 'game', one='game')}, oldest on the left"


def _fitted_title(title: str, width: float) -> tuple[str, ImageFont.FreeTypeFont]:
    """``title`` in the largest size from :data:`TITLE_SIZE` down to :data:`AXIS_SIZE` that fits
    ``width``, cut with an ellipsis if even the smallest does not."""
    text = drawable(title)
    for size in range(TITLE_SIZE, AXIS_SIZE - 1, -1):
        if bold(size).getlength(text) <= width:
            return text, bold(size)
    font = bold(AXIS_SIZE)
    while len(text) > 1 and font.getlength(f"{text}…") > width:
        text = text[:-1]
    return f"{text.rstrip()}…", font


def _scale(ratings: Sequence[float]) -> list[int]:
    """The grid lines' ratings, bottom first: round numbers :data:`STEPS` apart that hold ``ratings``."""
    low, high = (min(ratings), max(ratings)) if ratings else (0.0, 0.0)
    for step in STEPS:
        first, last = math.floor(low / step), math.ceil(high / step)
        if last == first:  # a flat history on a line of the grid: the line in the middle
            first, last = first - 1, last + 1
        if last - first < MAX_LINES:
            break
    return [line * step for line in range(first, last + 1)]


def rating_chart_png(ratings: Sequence[float], title: str) -> bytes:
    """The PNG bytes of a line chart of ``ratings`` (as players read them, oldest first, one per game)
    under ``title``. One rating is drawn as a single point; an empty sequence as an empty chart."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    axis = bold(AXIS_SIZE)
    grid = _scale(ratings)
    low, high = grid[0], grid[-1]
    labels = [f"{value:,}" for value in grid]
    left = LABEL_GAP + max(axis.getlength(label) for label in labels) + LABEL_GAP
    top, right, bottom = MARGIN_TOP, WIDTH - MARGIN_RIGHT, HEIGHT - MARGIN_BOTTOM
    text, font = _fitted_title(title, WIDTH - LABEL_GAP - MARGIN_RIGHT)
    draw.text((LABEL_GAP, MARGIN_TOP / 2), text, fill=TEXT, font=font, anchor="lm")
    for value, label in zip(grid, labels, strict=True):
        y = bottom - (bottom - top) * (value - low) / (high - low)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw.text((left - LABEL_GAP, y), label, fill=TEXT, font=axis, anchor="rm")
    caption = chart_caption(len(ratings))
    draw.text((left, bottom + MARGIN_BOTTOM / 2), caption, fill=TEXT, font=axis, anchor="lm")

    def point(index: int, value: float) -> tuple[float, float]:
        x = left + (right - left) * (index / (len(ratings) - 1) if len(ratings) > 1 else 0.5)
        return x, bottom - (bottom - top) * (value - low) / (high - low)

    points = [point(index, value) for index, value in enumerate(ratings)]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=3, joint="curve")
    if points:
        x, y = points[-1]
        draw.ellipse([(x - 5, y - 5), (x + 5, y + 5)], fill=LAST_POINT)
    out = io.BytesIO()
    shown = image.quantize(palette=PALETTE, dither=Image.Dither.NONE)
    shown.save(out, format="PNG", compress_level=1)  # a fast encoding: the chart is drawn on every /stats
    return out.getvalue()
