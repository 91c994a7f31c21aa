"""Colour-vision deficiency, simulated, and how far apart two faces look: for the test that no two faces
of a deck become indistinguishable under protanopia, deuteranopia or tritanopia.

The simulation is Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of
Color Vision Deficiency", severity 1.0 (the full dichromacy): a 3 by 3 matrix applied to linear RGB
(sRGB decoded with the standard transfer curve, re-encoded after). Faces are compared as seen on a
button: scaled to :data:`art.faces.SMALL` pixels, on Discord's dark background.
"""

from __future__ import annotations

import itertools

from PIL import Image, ImageChops, ImageStat

from art.faces import SMALL, Face

MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
"""Machado et al. (2009), Table 1, severity 1.0, for linear RGB."""
DEFICIENCIES = tuple(MATRICES)
BACKGROUND = (54, 57, 63)  # Discord's dark theme, behind a button's emoji

_TO_LINEAR = [((v / 255) / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4) for v in range(256)]


def _to_srgb(linear: float) -> int:
    linear = min(max(linear, 0.0), 1.0)
    encoded = 12.92 * linear if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055
    return round(encoded * 255)


def simulate(image: Image.Image, kind: str) -> Image.Image:
    """``image`` (RGB) as seen with the deficiency ``kind`` (a key of :data:`MATRICES`), or unchanged for
    ``"normal"``. Pure Python per pixel: meant for small images (a 22 px face is 484 pixels).

    Raises
    ------
    KeyError
        For an unknown ``kind``.
    """
    if kind == "normal":
        return image.copy()
    (a, b, c), (d, e, f), (g, h, i) = MATRICES[kind]
    cache: dict[tuple[int, int, int], tuple[int, int, int]] = {}
    out = []
    data = image.tobytes()
    for start in range(0, len(data), 3):
        pixel = (data[start], data[start + 1], data[start + 2])
        seen = cache.get(pixel)
        if seen is None:
            r, gr, bl = (_TO_LINEAR[v] for v in pixel)
            seen = (
                _to_srgb(a * r + b * gr + c * bl),
                _to_srgb(d * r + e * gr + f * bl),
                _to_srgb(g * r + h * gr + i * bl),
            )
            cache[pixel] = seen
        out.append(seen)
    return Image.frombytes("RGB", image.size, bytes(value for pixel in out for value in pixel))


def on_background(image: Image.Image) -> Image.Image:
    """An RGBA face flattened onto Discord's dark background, as RGB."""
    ground = Image.new("RGBA", image.size, BACKGROUND + (255,))
    return Image.alpha_composite(ground, image).convert("RGB")


def seen_small(face: Face, kind: str) -> Image.Image:
    """``face`` at button size on the dark background, as seen with ``kind`` (or ``"normal"``)."""
    return simulate(on_background(face.image(SMALL)), kind)


def alike_pairs(images: list[Image.Image], below: float) -> list[tuple[int, int, float]]:
    """Every pair ``(i, j, distance)`` (``i < j``) of same-sized RGB ``images`` whose :func:`distance` is
    below ``below``. A pair whose mean colours already differ by ``below`` or more is skipped unmeasured:
    the mean absolute difference is at least the difference of the means."""
    means = [ImageStat.Stat(image).mean for image in images]
    pairs = []
    for i, j in itertools.combinations(range(len(images)), 2):
        if sum(abs(a - b) for a, b in zip(means[i], means[j], strict=True)) / 3 >= below:
            continue
        measured = distance(images[i], images[j])
        if measured < below:
            pairs.append((i, j, measured))
    return pairs


def distance(one: Image.Image, other: Image.Image) -> float:
    """How different two same-sized RGB images look: the mean absolute difference per pixel and channel,
    0..255 (0: identical)."""
    return sum(ImageStat.Stat(ImageChops.difference(one, other)).mean) / 3
