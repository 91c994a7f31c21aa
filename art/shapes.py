"""The shapes of the Frazzled Wool deck, the suits of French and IVAK cards, drawn as filled polygons
(no font carries them): each drawn in a square box ``(left, top, size)`` in pixels, filled with a colour
and outlined in ink so that light colours (Yellow, Lime) still show on a white face."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

Point = tuple[float, float]
Colour = tuple[int, int, int]


def _star(points: int, outer: float, inner: float, turn: float = -math.pi / 2) -> list[Point]:
    corners = []
    for index in range(points * 2):
        radius = outer if index % 2 == 0 else inner
        angle = turn + index * math.pi / points
        corners.append((0.5 + radius * math.cos(angle), 0.5 + radius * math.sin(angle)))
    return corners


def _regular(sides: int, radius: float, turn: float) -> list[Point]:
    return [
        (
            0.5 + radius * math.cos(turn + 2 * math.pi * k / sides),
            0.5 + radius * math.sin(turn + 2 * math.pi * k / sides),
        )
        for k in range(sides)
    ]


def _heart(steps: int = 48) -> list[Point]:
    """The classic heart curve, scaled into the unit box."""
    raw = []
    for k in range(steps):
        t = 2 * math.pi * k / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return [(0.5 + 0.96 * (x - cx) / span, 0.5 + 0.96 * (y - cy) / span) for x, y in raw]


def _spade(steps: int = 48) -> list[Point]:
    """A heart turned upside down, in the top four fifths of the box (its stem is drawn apart)."""
    return [(x, 0.02 + (1 - y - 0.02) * 0.78) for x, y in _heart(steps)]


_SPADE_STEM = [(0.5, 0.5), (0.7, 0.99), (0.3, 0.99)]
_CLUB_STEM = [(0.5, 0.55), (0.64, 0.98), (0.36, 0.98)]


def _arc(cx: float, cy: float, r: float, start: float, end: float, steps: int = 32) -> list[Point]:
    """Points of the arc of the circle at ``(cx, cy)`` of radius ``r`` from angle ``start`` to ``end``
    (radians, either way round), in the unit box."""
    angles = [start + (end - start) * k / steps for k in range(steps + 1)]
    return [(cx + r * math.cos(t), cy + r * math.sin(t)) for t in angles]


def _unit(points: list[Point], box: tuple[float, float, float]) -> list[Point]:
    left, top, size = box
    return [(left + x * size, top + y * size) for x, y in points]


def _polygon(
    draw: ImageDraw.ImageDraw, points: list[Point], box, fill: Colour, ink: Colour, width: int
) -> None:
    draw.polygon(_unit(points, box), fill=fill, outline=ink, width=width)


def _ellipse(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, box, fill, ink, width) -> None:
    left, top, size = box
    draw.ellipse(
        (left + (cx - r) * size, top + (cy - r) * size, left + (cx + r) * size, top + (cy + r) * size),
        fill=fill,
        outline=ink,
        width=width,
    )


def _circle_shape(draw, box, fill, ink, width) -> None:
    _ellipse(draw, 0.5, 0.5, 0.46, box, fill, ink, width)


def _square_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, [(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)], box, fill, ink, width)


def _triangle_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, [(0.5, 0.04), (0.98, 0.92), (0.02, 0.92)], box, fill, ink, width)


def _diamond_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, [(0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5)], box, fill, ink, width)


def _star_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, _star(5, 0.52, 0.22), box, fill, ink, width)


def _heart_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, _heart(), box, fill, ink, width)


def _spade_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, _SPADE_STEM, box, fill, ink, width)
    _polygon(draw, _spade(), box, fill, ink, width)


def _club_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, _CLUB_STEM, box, fill, ink, width)
    for cx, cy in ((0.5, 0.25), (0.27, 0.56), (0.73, 0.56)):
        _ellipse(draw, cx, cy, 0.22, box, fill, ink, width)
    _ellipse(draw, 0.5, 0.5, 0.12, box, fill, fill, 0)


def _cross_shape(draw, box, fill, ink, width) -> None:
    a, b = 0.32, 0.68
    _polygon(
        draw,
        [
            (a, 0.02),
            (b, 0.02),
            (b, a),
            (0.98, a),
            (0.98, b),
            (b, b),
            (b, 0.98),
            (a, 0.98),
            (a, b),
            (0.02, b),
            (0.02, a),
            (a, a),
        ],
        box,
        fill,
        ink,
        width,
    )


def _moon_shape(draw, box, fill, ink, width) -> None:
    """A crescent: an outer arc and an inner arc, opening to the right."""
    outer = _arc(0.5, 0.5, 0.48, 0.35 * math.pi, 1.65 * math.pi)
    inner = _arc(0.68, 0.5, 0.36, 1.78 * math.pi, 0.22 * math.pi)  # back through the left
    _polygon(draw, outer + inner, box, fill, ink, width)


def _hexagon_shape(draw, box, fill, ink, width) -> None:
    _polygon(draw, _regular(6, 0.5, 0.0), box, fill, ink, width)


def _flower_shape(draw, box, fill, ink, width) -> None:
    for k in range(5):
        angle = -math.pi / 2 + 2 * math.pi * k / 5
        _ellipse(
            draw, 0.5 + 0.27 * math.cos(angle), 0.5 + 0.27 * math.sin(angle), 0.21, box, fill, ink, width
        )
    _ellipse(draw, 0.5, 0.5, 0.17, box, (255, 255, 255), ink, width)


def _bolt_shape(draw, box, fill, ink, width) -> None:
    _polygon(
        draw,
        [(0.56, 0.0), (0.12, 0.6), (0.44, 0.6), (0.3, 1.0), (0.9, 0.38), (0.56, 0.38), (0.8, 0.0)],
        box,
        fill,
        ink,
        width,
    )


Draw = Callable[[ImageDraw.ImageDraw, tuple[float, float, float], Colour, Colour, int], None]

SHAPES: dict[str, Draw] = {
    "Circle": _circle_shape,
    "Square": _square_shape,
    "Triangle": _triangle_shape,
    "Diamond": _diamond_shape,
    "Star": _star_shape,
    "Heart": _heart_shape,
    "Spade": _spade_shape,
    "Club": _club_shape,
    "Cross": _cross_shape,
    "Moon": _moon_shape,
    "Hexagon": _hexagon_shape,
    "Flower": _flower_shape,
    "Bolt": _bolt_shape,
}
"""Each shape by its name in :data:`engine.frazzled.deck.SHAPES` (suits reuse Heart, Spade, Club, Diamond,
Star)."""
