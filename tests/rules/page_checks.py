"""What a ``/rules`` page must not look like, as functions of its text: shared by the page tests
(``tests/rules/``) and the tests that read the pages through the sandbox (``tests/e2e/``).

Each check returns what it found wrong (empty when the text is fine), so a failing test shows the lines.
"""

from __future__ import annotations

import re

QUICK_START_LINES = 8
"""A quick start is read at a glance: at most this many lines, ..."""
QUICK_START_CHARS = 800
"""... and at most this many characters (Discord wraps a long line into several)."""
QUICK_START_LABELS = ("**Goal:**", "**Your turn:**", "**The end:**")
"""The lines every quick start has, in this order: how to win, what to do on a turn, how the game ends."""
RULINGS_PAGE_CHARS = 1200
"""A page of rulings holds a few short rulings, not a wall of text."""

SENTENCE_END = re.compile(r"[.!?:…][)\]\"'”’*_]*$")
NEW_ITEM = re.compile(r"(?:• |\d+\. |🏠 )")
BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")
CODE = re.compile(r"`[^`\n]+`")
UNSET_DEFAULT = re.compile(r"\bdefault\W{0,4}None\b|(?:^|[\s/(])None(?=\s*(?:[)/]|$))", re.M)


def hard_wraps(text: str) -> list[str]:
    """Line breaks inside a paragraph: the file was wrapped at a width, so the line breaks raggedly where
    Discord wraps it again. A line break is fine before a bullet ("• "), a numbered ruling or a 🏠 note,
    after a line ending with a colon, and before a line opening with a bold label once a sentence has
    ended (the quick start's "**Goal:**"); anywhere else paragraphs are separated by a blank line."""
    found = []
    lines = text.split("\n")
    for before, after in zip(lines, lines[1:], strict=False):
        if not before.strip() or not after.strip():
            continue
        ended = SENTENCE_END.search(before.rstrip()) is not None
        if after[0].isspace():
            found.append(f"indented continuation: {before[-50:]!r} ⏎ {after[:50]!r}")
        elif NEW_ITEM.match(after) or before.rstrip().endswith(":") or (ended and after.startswith("**")):
            continue
        else:
            found.append(f"{before[-50:]!r} ⏎ {after[:50]!r}")
    return found


def stray_markdown(text: str) -> list[str]:
    """Lines where Discord would show asterisks: an odd number of ``**``, bold or italics that do not
    close on the same line or open with a space, or a lone ``*``. Code spans are left alone."""
    found = []
    for line in text.split("\n"):
        plain = CODE.sub("", line)
        rest = ITALIC.sub(r"\1", BOLD.sub(r"\1", plain))
        if "*" in rest:
            found.append(line[:120])
    return found


def unset_defaults(text: str) -> list[str]:
    """Lines that show a value as Python's ``None`` ("(default None)") instead of what it means."""
    plain = text.replace("*", "")
    return [line[:120] for line in plain.split("\n") if UNSET_DEFAULT.search(line)]


def quick_start_problems(text: str) -> list[str]:
    """Why ``text`` is not a quick start: more than :data:`QUICK_START_LINES` lines or
    :data:`QUICK_START_CHARS` characters, or lacking one of :data:`QUICK_START_LABELS` (each opening a line,
    in order)."""
    problems = []
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) > QUICK_START_LINES:
        problems.append(f"{len(lines)} lines")
    if len(text) > QUICK_START_CHARS:
        problems.append(f"{len(text)} characters")
    openings = [
        next((n for n, line in enumerate(lines) if line.startswith(label)), None)
        for label in QUICK_START_LABELS
    ]
    for label, opening in zip(QUICK_START_LABELS, openings, strict=True):
        if opening is None:
            problems.append(f"no line opens with {label}")
    found = [opening for opening in openings if opening is not None]
    if found != sorted(found):
        problems.append("the goal, the turn and the end are out of order")
    return problems
