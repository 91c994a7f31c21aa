"""A player's rating history drawn as a PNG line chart (Pillow), for ``/stats``."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from engine.core import plural

WIDTH, HEIGHT = 640, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 16, 34, 30
# A palette image (one byte a pixel) encodes in about a fifth of an RGB one's time; the colours are
# Discord's dark theme, so the chart sits well in an embed.
PALETTE = [(43, 45, 49), (70, 73, 79), (219, 222, 225), (88, 101, 242), (254, 231, 92)]
BACKGROUND, GRID, TEXT, LINE, LAST_POINT = range(len(PALETTE))


def chart_caption(games: int) -> str:
    """The line under a chart of ``games`` ratings: ``"last game, ..."``, ``"last 12 games, ..."``."""
    return f"last {plural(games, 'game', one='game')}, oldest on the left"


def rating_chart_png(ratings: Sequence[float], title: str) -> bytes:
    """The PNG bytes of a line chart of ``ratings`` (openskill ordinals, oldest first, one per game) under
    ``title``. One rating is drawn as a single point; an empty sequence as an empty chart."""
    image = Image.new("P", (WIDTH, HEIGHT), BACKGROUND)
    image.putpalette([channel for colour in PALETTE for channel in colour])
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    draw.text((MARGIN_LEFT, 10), title, fill=TEXT, font=font)
    left, top = MARGIN_LEFT, MARGIN_TOP
    right, bottom = WIDTH - MARGIN_RIGHT, HEIGHT - MARGIN_BOTTOM
    low, high = (min(ratings), max(ratings)) if ratings else (0.0, 1.0)
    if high - low < 1.0:  # a flat history still gets a readable scale
        low, high = low - 0.5, high + 0.5
    for step in range(5):
        value = low + (high - low) * step / 4
        y = bottom - (bottom - top) * step / 4
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw.text((6, y - 6), f"{value:.1f}", fill=TEXT, font=font)
    draw.text((left, bottom + 8), chart_caption(len(ratings)), fill=TEXT, font=font)

    def point(index: int, value: float) -> tuple[float, float]:
        x = left + (right - left) * (index / (len(ratings) - 1) if len(ratings) > 1 else 0.5)
        return x, bottom - (bottom - top) * (value - low) / (high - low)

    points = [point(index, value) for index, value in enumerate(ratings)]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=3, joint="curve")
    if points:
        x, y = points[-1]
        draw.ellipse([(x - 4, y - 4), (x + 4, y + 4)], fill=LAST_POINT)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # 2 ms of CPU for the whole chart, not 3
    return out.getvalue()
