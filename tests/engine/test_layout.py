"""The games stay small packages: no module of ``engine/`` over 800 lines, each game's words in
modules of their own, and no Discord notion in engine text (markdown, button styles)."""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MAX_LINES = 800
GAMES = ("foist", "frazzled", "declare", "memory", "minimisere")


def test_no_module_of_the_engine_is_over_800_lines() -> None:
    lengths = {
        str(path.relative_to(ENGINE)): len(path.read_text().splitlines()) for path in ENGINE.rglob("*.py")
    }
    assert len(lengths) > 40  # the tree is really read
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_each_game_is_a_package_with_its_rules_words_and_ai_apart() -> None:
    for game in GAMES:
        package = ENGINE / game
        names = {path.stem for path in package.glob("*.py")}
        assert any(name.startswith("words") for name in names), game
        assert any(name.startswith("ai") for name in names), game
        assert (package / "__init__.py").read_text().startswith('"""'), game


MARKDOWN_BOLD = re.compile(r"""["'][^"'\n]*\*\*[^"'\n]*["']""")


def test_engine_text_holds_no_markdown_and_no_button_styles() -> None:
    """Emphasis is ``strong()`` (``{b:...}``) and an action has a tone, never Discord's markdown or style."""
    found = []
    for path in ENGINE.rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if MARKDOWN_BOLD.search(code) or re.search(r'"(primary|secondary|success|danger)"', code):
                found.append(f"{path.relative_to(ENGINE)}:{number}: {line.strip()}")
    assert found == []
