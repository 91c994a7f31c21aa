"""Finding a count of one with a plural noun ("1 points", "**1** tokens", "last 1 games") in text a player
reads: engine text (``{b:1}``), Discord markdown (``**1**``) or plain."""

from __future__ import annotations

import re

PLURAL_NOUNS = (
    "points|pts|tokens|cards|card points|games|rated games|more rated games|tricks|deals|sets|seconds|"
    "minutes|hours|moves|players|AI players|more players|rounds|wins|seats|turns|times|rows|tables"
)
WRONG_PLURAL = re.compile(
    rf"(?<![\w./])[+−-]?(?:\{{b:|\*\*)?1(?:\}}|\*\*)? (?:{PLURAL_NOUNS})\b|\blast 1 (?:{PLURAL_NOUNS})\b"
)
"""A count of one (or minus one; not 21, 1.5 or 14/1) before a plural noun."""


def wrong_plurals(text: str) -> list[str]:
    """The phrases of ``text`` that give a count of one a plural noun."""
    return WRONG_PLURAL.findall(text)
