"""Copy each game's numbered rulings from its rules doc (``docs/rules/<doc>.md``, section "Rulings") into
the ``## Rulings`` section of its ``/rules`` content file (``cogs/rules/content/<game>.md``), the player's
words only. The docs are the source; run this after changing a ruling there
(``python3 tools/sync_rulings.py``): ``tests/rules/test_rules_pages.py`` fails while a ruling of a doc is
missing from ``/rules``, or while a page names a file, a test, a method or an issue.

A ruling in a doc is the player's words (the ruling in the game's own terms, saying what the bot does),
then, apart, the notes for the project: from ``*Notes:*`` (sources, methods, issues, stored logs) or
``Test:``/``Tests:`` (the tests that check it) to the end of the ruling. Only the player's words are copied.

The content files ship with the bot (the docs do not), which is why the rulings are copied rather than
read at run time.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rules"
CONTENT = ROOT / "cogs" / "rules" / "content"
DOC_OF = {
    "foist": "foist",
    "minimize": "minimize",
    "tokenize": "tokenize",
    "eradicize": "eradicize",
    "declare": "declare",
    "minimisere": "minimisere",
    "memory": "memory",
}
RULING = re.compile(r"^(\d+)\. ", re.M)


def doc_rulings(doc: str) -> list[str]:
    """The numbered rulings of ``docs/rules/<doc>.md``, each as one paragraph of text."""
    text = (DOCS / f"{doc}.md").read_text(encoding="utf-8")
    section = re.search(r"^## Rulings.*?\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if section is None:
        return []
    body = section.group(1)
    starts = [match.start() for match in RULING.finditer(body)]
    rulings = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(body)
        rulings.append(" ".join(line.strip() for line in body[start:end].strip().splitlines()))
    return rulings


NOTES = re.compile(r"\s*(?:\*Notes:\*|\*?Tests?:\*?(?=\s)).*$")
"""Where a ruling's notes for the project begin: they run to the end of the ruling."""


def for_players(ruling: str) -> str:
    """A ruling's words for players: the ruling up to its notes for the project (see the module's text)."""
    return NOTES.sub("", ruling).strip()


def sync(game: str) -> bool:
    """Rewrite the Rulings section of ``game``'s content file; True if it changed."""
    path = CONTENT / f"{game}.md"
    text = path.read_text(encoding="utf-8")
    rulings = "\n\n".join(for_players(ruling) for ruling in doc_rulings(DOC_OF[game]))
    section = f"## Rulings\nThe project's rulings, where the rule text is silent or unclear:\n\n{rulings}\n"
    head, marker, _ = text.partition("## Rulings")
    new = (head if marker else text.rstrip("\n") + "\n\n") + section
    if new != text:
        path.write_text(new, encoding="utf-8")
        return True
    return False


if __name__ == "__main__":
    changed = [game for game in DOC_OF if sync(game)]
    print("updated:", ", ".join(changed) or "nothing")
    sys.exit(0)
