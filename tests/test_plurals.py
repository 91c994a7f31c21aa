"""Plurals right everywhere: every message with a count goes through the one helper,
:func:`engine.core.plural` ("1 point", "3 points", "your last game").

Three checks: the source (no f-string writes a value straight before a plural noun, and no code picks a
plural by hand, outside the helper); the count phrases of every game's words and of the cogs' messages with
a count of one; and, in ``tests/tables/test_drawn.py``, every message of random play of every game.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import SimpleNamespace

from cogs.leaderboard import leaderboard_embed
from cogs.rating_chart import chart_caption
from cogs.stats import stats_embed
from cogs.tables.server_defaults import turn_length_refusal
from engine.core import plural, strong
from engine.declare import words as declare
from engine.foist import words as foist
from engine.frazzled import words as frazzled
from engine.frazzled import words_minimize, words_tokenize
from engine.memory import words as memory
from engine.minimisere import words as minimisere
from storage.stats import GameStanding, PlayerStats, RatingBoard, RatingRow
from tests.plurals import PLURAL_NOUNS, wrong_plurals

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("engine", "cogs", "bot", "storage")
NOUN_AFTER_VALUE = re.compile(rf"^(?:\*\*|\}}|`)? (?:{PLURAL_NOUNS})\b")
NOT_A_COUNT = re.compile(r"\bwho\b|\baim\b|name")
"""Values written before a word that reads as a plural noun but is a verb or a phrase there: a player
(``{who} moves``), a card's name (``{special_name(special)} wins``), a range (``{aim} tricks``)."""


def _modules() -> list[Path]:
    return [path for source in SOURCES for path in sorted((ROOT / source).rglob("*.py"))]


def _hand_made_plurals(tree: ast.AST) -> list[str]:
    """f-strings that write a value straight before a plural noun, and conditionals that choose between a
    word and the word with an ``s`` (``'s' if n != 1 else ''``, ``'seat' if n == 1 else 'seats'``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for value, text in zip(node.values, node.values[1:], strict=False):
                if (
                    isinstance(value, ast.FormattedValue)
                    and isinstance(text, ast.Constant)
                    and NOUN_AFTER_VALUE.match(str(text.value))
                    and not NOT_A_COUNT.search(ast.unparse(value.value))
                ):
                    found.append(f"line {node.lineno}: {{{ast.unparse(value.value)}}}{text.value[:20]}")
        if isinstance(node, ast.IfExp):
            words = [branch.value for branch in (node.body, node.orelse) if isinstance(branch, ast.Constant)]
            if len(words) == 2 and all(isinstance(word, str) for word in words):
                short, long = sorted(words, key=len)
                if long == short + "s":
                    found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_no_message_writes_a_count_before_a_plural_noun_by_hand() -> None:
    found = {
        str(path.relative_to(ROOT)): hand_made
        for path in _modules()
        if (hand_made := _hand_made_plurals(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert found == {}


def test_the_source_check_finds_a_hand_made_plural() -> None:
    tree = ast.parse(
        'a = f"{n} points"\nb = f"{n} point{\'s\' if n != 1 else \'\'}"\nc = "game" if n == 1 else "games"\n'
        'd = f"{who} moves"\ne = f"{plural(n, \'point\')}"\nf = f"**{n}** points"'
    )
    found = sorted(line.split(":")[0] for line in _hand_made_plurals(tree))
    assert found == ["line 1", "line 2", "line 3", "line 6"]


def test_there_is_one_plural_helper() -> None:
    defined = [
        f"{path.relative_to(ROOT)}:{node.name}"
        for path in _modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name in ("plural", "_count", "pluralize", "plural_word")
    ]
    assert defined == ["engine/core.py:plural"]


def test_the_helper() -> None:
    assert [plural(n, "point") for n in (0, 1, 2, -1, 1.5)] == [
        "0 points",
        "1 point",
        "2 points",
        "-1 point",
        "1.5 points",
    ]
    assert plural(1, "pt", shown=strong(1)) == "{b:1} pt" and plural(2, "match", "matches") == "2 matches"
    assert [chart_caption(n) for n in (1, 7)] == [
        "last game, oldest on the left",
        "last 7 games, oldest on the left",
    ]


def test_every_games_count_phrases_say_one_thing_in_the_singular() -> None:
    texts = [
        foist.tokens_text(1),
        foist.cards_text(1),
        foist.seat_summary([3], tokens=1, score=1),
        *(field.value for field in foist.private_fields(1, 3, 2, 3, 1, 1)),
        frazzled.cards_word(1),
        frazzled.fan_field(1, 1).value,
        words_minimize.seat_summary("playing", 0, 1, True, 1, None),
        words_tokenize.set_label([], 1),
        words_tokenize.declared_text([], [], 1),
        words_tokenize.reshuffles_field(1, 1, 1).value,
        words_tokenize.seat_summary(1, 1, 1, "none"),
        words_tokenize.standing_detail(1),
        declare.points_text(4),
        declare.throw_text(["1r"]),
        *(
            declare.seat_summary(
                0, hand_size=1, total_q=4, out_round=out, over=over, dealer=False, closest=False, last=None
            )
            for out, over in ((None, False), (None, True), (1, False))
        ),
        declare.view_title(1, over=True),
        declare.closest_field(4).value,
        memory.tokens_text(1),
        memory.no_purchase(1),
        memory.title(False, 1),
        minimisere.tricks_text(1),
        minimisere.deals_text(1),
        minimisere.deal_score(1, 1, 1),
        minimisere.game_won(1),
        minimisere.tie_for_first(1),
        minimisere.game_field(1, 1, False).value,
        minimisere.game_field(None, 1, False).value,
        minimisere.final_seat_summary(1, True),
    ]
    assert [text for text in texts if wrong_plurals(text)] == []
    assert wrong_plurals("wins with {b:1} points, last 1 game, **1** tokens, 14/1 cards, 21 points") == [
        "{b:1} points",
        "**1** tokens",
        "last 1 ",
    ]
    assert wrong_plurals("-1 card points, +{b:1} pts") == ["-1 card points", "+{b:1} pts"]


def _row(user_id: int, games: int, wins: int) -> RatingRow:
    return RatingRow(user_id, f"user{user_id}", "foist", 1.0, 25.0, 8.0, games, wins)


def test_the_cogs_messages_with_a_count_of_one() -> None:
    board = RatingBoard(1, True, 2, [_row(1, 2, 1)], [_row(2, 1, 1)])
    embed = leaderboard_embed(board, "foist")
    text = f"{embed.description}\n{embed.footer.text}"
    assert "**user1**: 1,040 · 2 games · 1 win" in text and "**user2**: 1,040 · 1 of 2 games · 1 win" in text
    single = leaderboard_embed(RatingBoard(1, True, 1, [_row(1, 1, 1)], []), None)
    text = f"{single.description}\n{single.footer.text}"
    assert (
        "· 1 game · 1 win" in text and "until they have 1 game in a game" in text and not wrong_plurals(text)
    )
    standing = GameStanding("foist", 1.0, 25.0, 8.0, 1, 1, 1)
    stats = stats_embed("ann", PlayerStats(1, 1, None, [standing], "foist", [1.0], [(1, 2)], 2))
    shown = "\n".join(f"{field.name}\n{field.value}" for field in stats.fields)
    assert "Foist (1 game)" in shown and "Provisional\n1 more rated game of Foist and the rating" in shown
    assert not wrong_plurals(shown)
    settings = SimpleNamespace(min_turn_seconds=1, max_turn_seconds=1)
    assert turn_length_refusal(settings, 5) == "Turns can last 1 to 1 second."
