"""The ``/rules`` pages: every game opens with a quick start (the goal, a turn, how it ends, in a few lines
that agree with the rule text and the engine), then has every page kind, each page within Discord's limits;
no page is hard-wrapped, shows stray asterisks or an unset default as "None"; the rulings come a few to a
page, each whole, and every ruling of the game's rules doc appears in them; the pages speak the game's terms
(no file, test, method or issue), and the house rules (content the project invented) are marked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cogs.rules import pages
from engine import GAMES
from engine.declare.cards import DECLARE_LIMIT_Q, ELIMINATION_Q, PENALTY_Q
from engine.foist.cards import HIGHEST_CARD, LOWEST_CARD, REMOVED_UNSEEN
from engine.minimisere.rules import MinimisereOptions
from tests.rules import page_checks

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


WON_BY = {
    "foist": "lowest score wins",  # "The player with the lowest score wins!"
    "minimize": "wins the game",  # "... when there are only two players left, you win the game."
    "tokenize": "most points wins",  # "The player with the most points at the end of the game wins."
    "eradicize": "first player out of cards wins",  # "get rid of all your cards. The first ... wins"
    "declare": "last player at 100 points or less wins",  # "until there is only one player left"
    "minimisere": "highest score wins",  # "Game is 25 points, but if there is a tie for first place ..."
    "memory": "most tokens wins",  # "If you have the most tokens at the end of the game, you win."
}
"""How each game is won, as its rule text says (the comments quote it): the quick start's end says so."""


def dealt(game: str, num_seats: int) -> Any:
    """A game of ``game`` for ``num_seats`` players as the engine deals it (each game's own state class)."""
    return GAMES[game].new_game(num_seats, seed=1)


def engine_facts(game: str) -> list[str]:
    """What the quick start of ``game`` must say, in numbers taken from the engine: a game dealt by the engine
    and its constants, so the quick start and the game played cannot drift apart."""
    if game == "foist":
        tokens = {seats: dealt(game, seats).tokens(0) for seats in (3, 5, 6, 7)}
        assert tokens[3] == tokens[5]
        return [
            f"The cards {LOWEST_CARD} to {HIGHEST_CARD}, {REMOVED_UNSEEN} of them removed unseen",
            f"{tokens[3]} each with 3 to 5 players, {tokens[6]} with 6, {tokens[7]} with 7",
        ]
    if game in ("minimize", "tokenize"):
        return [f"Everyone gets {len(dealt(game, 3).hand(0))} secret cards"]
    if game == "eradicize":
        state = dealt(game, 3)
        return [f"{len(state.hand(0))} secret cards in hand, {len(state.face_up(0))} cards face up"]
    if game == "declare":
        return [
            f"Everyone gets {len(dealt(game, 3).hand(0))} secret cards",
            f"your hand totals {DECLARE_LIMIT_Q // 4} or less",
            f"you score {PENALTY_Q // 4}",
            f"Over {ELIMINATION_Q // 4} you are out",
        ]
    if game == "minimisere":
        return [f"the target ({dealt(game, 5).target} points; {dealt(game, 3).target} with 3 players)"]
    if game == "memory":
        return [f"everyone gets {dealt(game, 2).tokens(0)} tokens"]
    raise AssertionError(f"no facts for {game}")


def lines_opening(text: str, label: str) -> str:
    return next(line for line in text.split("\n") if line.startswith(label))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_first_page_is_a_quick_start_with_the_goal_a_turn_and_the_end(game: str) -> None:
    first, *rest = pages.pages(game)
    assert first.kind == "quickstart" and first.heading == "Quick start"
    assert all(page.kind != "quickstart" for page in rest)  # one page, never split
    assert page_checks.quick_start_problems(first.text) == [], first.text
    rules = GAMES[game]
    assert first.text.startswith(f"**{rules.min_seats}–{rules.max_seats} players")
    the_end = lines_opening(first.text, "**The end:**").replace("*", "")
    assert WON_BY[game] in the_end.lower(), the_end
    embed, _ = pages.rules_message(game)
    assert embed.title == f"How to play {rules.display_name} · Quick start"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_quick_start_agrees_with_the_engine(game: str) -> None:
    text = pages.pages(game)[0].text.replace("*", "")
    missing = [fact for fact in engine_facts(game) if fact not in text]
    assert not missing, f"{missing} not in:\n{text}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_page_is_hard_wrapped_or_shows_stray_asterisks_or_none(game: str) -> None:
    found = []
    for number in range(len(pages.pages(game))):
        embed, _ = pages.rules_message(game, number)  # the page as drawn for Discord
        text = embed.description or ""
        found += [f"page {number + 1}, hard-wrapped: {wrap}" for wrap in page_checks.hard_wraps(text)]
        found += [f"page {number + 1}, asterisks: {line}" for line in page_checks.stray_markdown(text)]
        found += [f"page {number + 1}, unset default: {line}" for line in page_checks.unset_defaults(text)]
        if "\n\n\n" in text:
            found.append(f"page {number + 1}: more than one blank line")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rulings_come_a_few_to_a_page_each_whole_in_players_words(game: str) -> None:
    shown = [page.text for page in pages.pages(game) if page.kind == "rulings"]
    numbers = []
    for index, text in enumerate(shown):
        assert len(text) <= page_checks.RULINGS_PAGE_CHARS, (index, len(text))
        if index:  # every page after the first opens with a ruling: none is cut in two
            assert re.match(r"\d+\. \*\*", text), text[:80]
        numbers += [int(number) for number in re.findall(r"^(\d+)\. \*\*", text, re.M)]
        assert "Why:" not in text and "Notes:" not in text  # the reasons stay in the rules doc
    assert numbers == list(range(1, len(doc_ruling_titles(game)) + 1))


def test_an_option_left_to_the_rules_shows_its_value_for_each_number_of_players() -> None:
    options = "\n".join(page.text for page in pages.pages("minimisere") if page.kind == "options")
    target = MinimisereOptions.default_for
    assert target("target", 4) == target("target", 5) == target("target", 6) != target("target", 3)
    three, more = target("target", 3), target("target", 4)
    assert f"15 to 39 (default **{three}** with 3 players, **{more}** with 4 to 6 players)" in options


def test_the_page_checks_know_a_bad_page() -> None:
    for wrapped in (
        "Every card you took counts its number in points, **except in a series**: of consecutive cards\n"
        "only the lowest counts.",
        "• **Take**: take the card and the tokens. **Your turn goes on**:\n  you decide again.",
        "The top card is turned up.\nEach player gets tokens.",
    ):
        assert page_checks.hard_wraps(wrapped), wrapped
    for fine in (
        "On your turn:\n• one\n• two\n\nThe next paragraph.",
        "**Goal:** the lowest score.\n**Your turn:** take or pay.",
        "Tricks won score:\n• Five players: 0 tricks **5**.\n\nThe Lot made: **10**.",
        "The project's rulings:\n\n1. **Ties.** Shared.\n\n2. **Seats.** Join order.",
        "🏠 House rule: the cards are ours.\n🏠 House rule, **Shape or Colour**: two +1.",
    ):
        assert not page_checks.hard_wraps(fine), fine
    for asterisks in (
        "numbers **1 to 12** and **8 power",
        "cards** (My Half Value",
        "** loose** bold",
        "a * b",
    ):
        assert page_checks.stray_markdown(asterisks), asterisks
    for fine in ("a *different* card", "**Lowest score wins.**", "`a*b` in code", "**6**: everyone passes"):
        assert not page_checks.stray_markdown(fine), fine
    for unset in ("• 15 to 39 (default **None**)", "Target: (default None)", "values: 15 / None"):
        assert page_checks.unset_defaults(unset), unset
    for fine in ("None is a throw on its own.", "(default **31** with 3 players)", "None of them."):
        assert not page_checks.unset_defaults(fine), fine
    setup = "3 to 7 players. The cards 3 to 35 are shuffled.\nEach player gets tokens."
    assert page_checks.quick_start_problems(setup)
    long = "**Goal:** win.\n**Your turn:** play.\n**The end:** it ends.\n" + "More.\n" * 6
    assert page_checks.quick_start_problems(long) == ["9 lines"]
    backwards = "**The end:** it ends.\n**Goal:** win.\n**Your turn:** play."
    assert page_checks.quick_start_problems(backwards) == ["the goal, the turn and the end are out of order"]
