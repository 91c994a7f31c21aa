"""The one font every picture of the bot writes with: DejaVu Sans Bold, bundled in ``art/assets`` (see
``assets/DejaVuSans-LICENSE.txt``), so suit symbols and accented names draw the same everywhere and nothing
is downloaded."""

from __future__ import annotations

import functools
from importlib import resources

from PIL import ImageFont


@functools.lru_cache(maxsize=16)
def bold(size: int) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans Bold at ``size`` pixels (loaded once per size)."""
    path = resources.files("art").joinpath("assets/DejaVuSans-Bold.ttf")
    with resources.as_file(path) as font_file:
        return ImageFont.truetype(str(font_file), size)
