"""Finding a count of one with a plural noun ("1 points", "**1** tokens", "last 1 games") in text a player
reads: engine text (``{b:1}``), Discord markdown (``**1**``) or plain."""

from __future__ import annotations

import re

PLURAL_NOUNS = (
    "points|pts|tokens|cards|card points|games|rated games|more rated games|tricks|deals|sets|seconds|"
    "minutes|hours|moves|players|AI players|more players|rounds|wins|seats|turns|times|rows|tables"
)
_CANDIDATE = re.compile(rf"1(?:\}}|\*\*)? (?:{PLURAL_NOUNS})\b")
_OPENING = re.compile(r"(?:\{b:|\*\*)?[+−-]?(?:\{b:|\*\*)?$")


def wrong_plurals(text: str) -> list[str]:
    """The phrases of ``text`` that give a count of one (or minus one; not 21, 1.5 or 14/1) a plural noun,
    and "last 1 ..." ("last game" reads better). Found from the "1", a literal a regex finds fast, then
    what stands before it is read: tests run it on every message of whole games."""
    found = []
    for match in _CANDIDATE.finditer(text):
        before = text[max(0, match.start() - 6) : match.start()]
        opening = _OPENING.search(before)
        start = match.start() - (len(opening.group()) if opening else 0)
        if start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_./"):
            found.append(text[start : match.end()])
    if "last 1 " in text:
        found.append("last 1 ")
    return found
