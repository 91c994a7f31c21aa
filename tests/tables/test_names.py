"""A hostile display name reads as its letters say, wherever it is shown: no bidirectional control of it
reaches a message (one right-to-left override would reverse the rest of its line for everyone), and its
markdown is escaped (``**x**`` does not turn the line bold), on the table message, every private view, the
scoreboard and a replay's revealed hands."""

from __future__ import annotations

import json
import random
from datetime import datetime, timezone

import pytest

from cogs import replay
from cogs.names import BIDI_CONTROLS, shown_name
from cogs.tables import render
from engine import GAMES
from engine.tables.session import TableDraft, TablePhase, TableSession, TableSettings
from storage import SeatResult, StoredGame
from tests.tables import drawing

NOW = datetime(2026, 11, 24, tzinfo=timezone.utc)
HOSTILE = ("\u202eevil", "**bold** _it_ ~~gone~~ ||hid||", "\u2067rtl\u2069 `code`")
"""A right-to-left override, markdown of every kind, an isolate around a name and code marks."""


def test_a_name_is_shown_without_bidi_controls_and_with_its_markdown_escaped() -> None:
    assert shown_name("\u202eevil") == "evil"
    assert shown_name("**bold**") == "\\*\\*bold\\*\\*"
    assert shown_name("plain name") == "plain name"
    assert not BIDI_CONTROLS.search(shown_name("a\u200fb\u061cc\u2066d\u202ae"))


def _hostile_table(key: str, seed: int) -> TableDraft:
    rules = GAMES[key]
    draft = TableDraft("abcd1234ef", 1, 2, rules, TableSettings(30, 5, 2), 100, HOSTILE[0])
    for index, user in enumerate(range(101, 100 + rules.min_seats)):
        draft.join(user, HOSTILE[(index + 1) % len(HOSTILE)])
    draft.start(100, seed, NOW)
    return draft


def _shown_text(drawn) -> str:
    return json.dumps(drawing.payload(drawn), ensure_ascii=False)


def _without_alt_text(value):
    """The payload without its pictures' descriptions (alt text: plain text, where markdown shows as is)."""
    if isinstance(value, dict):
        return {
            key: _without_alt_text(item)
            for key, item in value.items()
            if not ("media" in value and key == "description")
        }
    if isinstance(value, list):
        return [_without_alt_text(item) for item in value]
    return value


def _check(text: str) -> None:
    assert not BIDI_CONTROLS.search(text), "a bidi control of a name reached a message"
    marked = json.dumps(_without_alt_text(json.loads(text)), ensure_ascii=False)
    assert "**bold**" not in marked and "~~gone~~" not in marked and "||hid||" not in marked


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_no_message_of_any_game_shows_a_hostile_name_raw(key: str) -> None:
    draft = _hostile_table(key, seed=3)
    rng = random.Random(key)
    for _ in range(60):  # the table, every private view and, at the end, the scoreboard
        if draft.phase is not TablePhase.PLAYING:
            break
        live = TableSession(draft.freeze())
        _check(_shown_text(render.table_message(live, 0)))
        for user in live.players:
            private = render.private_message(
                live, user, jump_url="https://discord.com/channels/1/2/3", offer_dm=True, page=0
            )
            _check(_shown_text(private))
        draft = live.value.draft()
        seat = rng.choice(draft.state.seats_to_act())
        draft.act(draft.players[seat], draft.state.version, rng.choice(draft.legal_actions(seat)).code, NOW)
    while draft.phase is TablePhase.PLAYING:
        seat = draft.state.seats_to_act()[0]
        draft.act(draft.players[seat], draft.state.version, draft.state.default_action(seat), NOW)
    live = TableSession(draft.freeze())
    _check(_shown_text(render.scoreboard_message(live)))
    stored = StoredGame(
        id=1,
        table_id=live.table_id,
        guild_id=1,
        game=key,
        options=live.state.options.model_dump(),
        seed=live.state.seed,
        actions=list(live.state.history),
        finished_at=NOW,
        seats=[
            SeatResult(seat, user, live.name_of_seat(seat), 0, 1) for seat, user in enumerate(live.players)
        ],
    )
    game = replay.Replay(stored)
    for step in (0, game.moves // 2, game.moves):  # the end reveals every hand, with its player's name
        embed, _, _ = replay.replay_message(game, step)
        _check(json.dumps(embed.to_dict(), ensure_ascii=False))
