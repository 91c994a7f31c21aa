"""The ``/rules`` pages: every game has every page kind, each page within Discord's limits, every ruling of
the game's rules doc appears in them, the pages speak the game's terms (no file, test, method or issue), and
the house rules (content the project invented) are marked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.rules import pages
from engine import GAMES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
RULING_TITLE = re.compile(r"^(\d+)\. \*\*(.+?)\*\*", re.M)
WORKSHOP = {
    "a file name": re.compile(r"\w\.(?:py|md|json|toml|sql|txt)\b"),
    "a path of the repository": re.compile(r"\b(?:tests|engine|docs|cogs|tools|bench|sandbox|storage)/"),
    "a method or function": re.compile(r"\b[A-Za-z]\w*_\w*\(|\b[A-Z][a-z]+[A-Z]\w*\.[a-z_]+"),
    "an identifier": re.compile(r"`[^`\n]*_[^`\n]*`"),
    "an issue": re.compile(r"\bissues?\s*#|#\d+\b", re.I),
    "a test": re.compile(r"\btest_\w+|\btests?:", re.I),
}
"""What the workshop looks like in text: players read the game's terms, these stay in ``docs/``."""


def doc_ruling_titles(game: str) -> list[str]:
    """``"N. Title"`` of each numbered ruling in the Rulings section of ``docs/rules/<game>.md``."""
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    section = re.search(r"^## Rulings.*?\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section is not None, f"{game}.md has no Rulings section"
    return [f"{number}. **{title}**" for number, title in RULING_TITLE.findall(section.group(1))]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_every_page_kind_in_order(game: str) -> None:
    kinds = [page.kind for page in pages.pages(game)]
    assert list(dict.fromkeys(kinds)) == list(pages.SECTIONS)
    for page in pages.pages(game):
        assert page.text.strip() and page.text != "Nothing to add here.", (game, page.kind)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_fits_discords_limits(game: str) -> None:
    for number in range(len(pages.pages(game))):
        embed, view = pages.rules_message(game, number)
        assert len(embed.description or "") <= 4096 and len(embed.title or "") <= 256
        assert len(embed) <= 6000
        custom_ids = [item.custom_id for item in view.children]
        assert len(set(custom_ids)) == len(custom_ids)
        assert all(len(custom_id) <= 100 for custom_id in custom_ids)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_ruling_of_the_rules_doc_appears_in_the_rules_pages(game: str) -> None:
    shown = "\n".join(page.text for page in pages.pages(game) if page.kind == "rulings")
    titles = doc_ruling_titles(game)
    assert titles, game
    missing = [title for title in titles if title not in shown]
    assert not missing, f"run tools/sync_rulings.py: {missing}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_pages_name_no_file_test_method_or_issue(game: str) -> None:
    leaks = []
    for number in range(len(pages.pages(game))):
        embed, _ = pages.rules_message(game, number)  # the page as drawn for Discord
        for line in f"{embed.title}\n{embed.description}\n{embed.footer.text}".splitlines():
            leaks += [f"{what}: {line[:120]}" for what, pattern in WORKSHOP.items() if pattern.search(line)]
    assert not leaks, "\n".join(leaks)


def test_the_workshop_test_knows_the_workshop() -> None:
    for text in (
        "see `engine/foist/rules.py`",
        "tests/engine/test_properties.py",
        "docs/rules/foist.md",
        "ruling 5 of `eradicize.md`",
        "`DeclareState.resample_hidden`",
        "resample_hidden(viewer, rng)",
        "(issue #2)",
        "see #25",
        "Test: `test_ties_share`",
        "test_the_last_survivor_wins",
        "`quick_throw_back`",
    ):
        assert any(pattern.search(text) for pattern in WORKSHOP.values()), text
    for text in ("Pay a token (1 left) or take the 5♥.", "Draw from the pile · sheds 15 points", "14/1"):
        assert not any(pattern.search(text) for pattern in WORKSHOP.values()), text


@pytest.mark.parametrize("game", ["minimize", "tokenize"])
def test_the_invented_rule_cards_are_marked_as_house_rules(game: str) -> None:
    text = "\n".join(page.text for page in pages.pages(game))
    assert pages.HOUSE_RULE in text
    assert "Lucky Sixes" in text and "Wild Ones" in text
    if game == "minimize":
        assert re.search(rf"{pages.HOUSE_RULE}, \*\*Shape or Colour\*\*", text)
        assert "actions card" in text and "Blind swap" in text


def test_the_options_page_lists_the_lobbys_options_with_their_defaults() -> None:
    options = "\n".join(page.text for page in pages.pages("memory") if page.kind == "options")
    for field in GAMES["memory"].options_model.model_fields.values():
        assert field.description.rstrip(".") in options
    assert "on / **off**" in options


def test_page_presses_parse_from_the_custom_id_alone() -> None:
    assert pages.parse_press(pages.custom_id("foist", 3), []) == ("foist", 3)
    assert pages.parse_press(pages.custom_id("memory", pages.GO), ["5"]) == ("memory", 5)
    assert pages.parse_press("rules:nosuchgame:1", []) is None
    assert pages.parse_press(pages.custom_id("memory", pages.GO), ["x"]) is None
    last = len(pages.pages("foist")) - 1
    embed, _ = pages.rules_message("foist", 999)  # a page past the end shows the last one
    assert embed.footer.text.startswith(f"Page {last + 1} of {last + 1}")
