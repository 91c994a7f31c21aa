"""Every table message is drawn once, as Discord JSON (:class:`cogs.tables.drawn.Drawn`), and sent through
discord.py: a press's answer by ``InteractionResponse.edit_message`` (``answer_press``), every other send
by discord.py's other calls (``Drawn.send_kwargs`` / ``edit_kwargs``). Over random play of every game: each
message drawn passes the sandbox's validator of Discord's limits, gives no count of one a plural noun ("1
points"), shows no engine mark (``{card:``, ``{b:``, ``{seat:``), and the answer to a press, an edit, an
ephemeral answer and a DM of the same message carry the same JSON. Cards are shown with their emojis (every
face has one: :func:`tests.tables.conftest.card_emojis`) in some of the games and as text in the others."""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook import async_

from cogs.tables import layouts, lengths, render, table_text
from cogs.tables.drawn import Drawn, DrawnView, answer_press
from cogs.tables.private_views import live_dm_intro
from cogs.tables.rules_in_play import rules_in_play
from engine.registry import GAMES
from engine.tables.session import TableDraft, TablePhase, TableSession, TableSettings
from sandbox.limits import FLAG_COMPONENTS_V2, V2_TEXT_MAX, validate_message
from tests.plurals import wrong_plurals
from tests.tables import drawing
from tests.tables.toy_game import WidePick

NOW = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)
MAX_MOVES = 400
JUMP_URL = "https://discord.com/channels/10/20/30"
ENGINE_MARK = re.compile(r"\{(?:card|b|seat):")
"""A mark of engine text (:func:`engine.core.card_mark`, :func:`engine.core.strong`, ``{seat:N}``), which
the renderer must have replaced."""
CARD_EMOJI = re.compile(r"<:(?:fw|iv|fo|fr)_\w+_[0-9a-f]{6}:\d{19}>")


def _body(params: Any) -> dict[str, Any]:
    """The JSON body of discord.py's request parameters (the ``payload_json`` part when files go along)."""
    with params:  # closes the files
        if params.payload is not None:
            return params.payload
        return json.loads(params.multipart[0]["value"])


def _shown(body: dict[str, Any]) -> dict[str, Any]:
    """What a message body shows: its embeds, components, attachments (by name), content and whether it
    is a Components V2 layout (flag 32768; an edit into one clears content and embeds, a new one has
    none)."""
    return {
        "embeds": body.get("embeds") or None,
        "components": body.get("components"),
        "attachments": [attachment["filename"] for attachment in body.get("attachments", [])],
        "content": body.get("content"),
        "layout": bool(body.get("flags", 0) & FLAG_COMPONENTS_V2),
    }


class _Recorder:
    """Stands in for a press's ``interaction.response``: keeps the body of the callback that its
    ``edit_message`` would post (discord.py's own ``interaction_message_response_params``)."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return False

    async def edit_message(self, **kwargs: Any) -> None:
        params = async_.interaction_message_response_params(
            type=discord.InteractionResponseType.message_update.value, **kwargs
        )
        self.bodies.append(_body(params))


def _press(recorder: _Recorder, message_id: int = 30, shown: tuple[str, ...] = ()) -> Any:
    """A component press on a message showing the files named ``shown``, answered into ``recorder``."""
    return SimpleNamespace(
        type=discord.InteractionType.component,
        response=recorder,
        message=SimpleNamespace(
            id=message_id, attachments=[SimpleNamespace(filename=name) for name in shown]
        ),
        id=1,
        token="token",
    )


async def _answer_body(drawn: Drawn, recorder: _Recorder, shown: tuple[str, ...] = ()) -> dict[str, Any]:
    """The body of the callback that answers a press on a message showing ``shown`` with ``drawn``."""
    await answer_press(_press(recorder, shown=shown), drawn)
    body = recorder.bodies.pop()
    assert body["type"] == discord.InteractionResponseType.message_update.value
    return body["data"]


async def _sent_the_same(drawn: Drawn, recorder: _Recorder) -> None:
    """The answer to a press, an edit (of a channel message or an interaction's), a new message (in a
    channel, or a DM) and an ephemeral answer carry the same JSON, the one drawn; Discord's limits hold."""
    errors = validate_message(drawing.payload(drawn))
    assert not errors, errors.summary()
    text = json.dumps(drawing.payload(drawn), ensure_ascii=False)
    assert wrong_plurals(text) == []
    assert ENGINE_MARK.search(text) is None, text
    answer = _shown(await _answer_body(drawn, recorder))
    edit = _shown(_body(handle_message_parameters(**drawn.edit_kwargs())))  # Message.edit, original response
    sent = _shown(_body(handle_message_parameters(**drawn.send_kwargs())))  # channel.send, a DM
    reply = async_.interaction_message_response_params(type=4, **drawn.send_kwargs())  # response.send_message
    ephemeral = _shown(_body(reply)["data"])
    assert answer == edit == sent == ephemeral
    embeds = None if drawn.embed is None else [drawn.embed]
    assert answer["embeds"] == embeds and answer["components"] == list(drawn.components)
    assert answer["attachments"] == [attachment.filename for attachment in drawn.attachments]
    assert answer["layout"] is drawn.layout
    shown = [item["media"]["url"] for item in drawing.pictures(drawn)]  # every picture with its alt text
    assert shown == [f"attachment://{name}" for name in drawn.filenames()]
    assert all(item.get("description") for item in drawing.pictures(drawn))


@pytest.fixture
def recorder() -> _Recorder:
    return _Recorder()


async def _check(session: TableSession, recorder: _Recorder, private_pages: tuple[int, ...] = (0,)) -> None:
    for page in (0, 1, 2):
        await _sent_the_same(render.table_message(session, page), recorder)
    for page in private_pages:
        for user in session.players:
            if session.seat_of(user) not in session.left_seats:
                drawn = render.private_message(session, user, jump_url=JUMP_URL, offer_dm=True, page=page)
                await _sent_the_same(drawn, recorder)


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_every_message_of_every_game_is_sent_as_the_json_drawn(
    key: str, seed: int, recorder, request: pytest.FixtureRequest
) -> None:
    """Seed 3 gives the players names of 660 characters: the budgets cannot hold (names are not cut), yet
    the table message keeps far from Discord's 6,000 characters, its log filling only what the budget
    leaves (the trimming itself: ``tests/tables/test_generic_runtime.py``). The "Rules in play" answer is
    checked at the start. Seeds 2 and 3 show cards with their emojis, seed 1 as text."""
    if seed > 1:
        request.getfixturevalue("card_emojis")
    rules = GAMES[key]
    rng = random.Random(seed)
    seats = rng.randint(rules.min_seats, min(rules.max_seats, 5))
    long = "_long name_" * 60 if seed == 3 else ""
    session = TableDraft(f"{key[:4]}{seed:04d}", 10, 20, rules, TableSettings(3600, 5, 2), 1, f"Ann{long}")
    for user in range(2, seats + 1):
        session.join(user, f"Player *{user}*{long}")
    await _sent_the_same(render.lobby_message(session), recorder)
    session.start(1, seed, NOW)
    await _sent_the_same(rules_in_play(session), recorder)
    trimmed = False
    for _ in range(MAX_MOVES):
        if session.phase is not TablePhase.PLAYING:
            break
        await _check(session, recorder)
        user = rng.choice(session.users_with_actions())
        actions = session.view(session.seat_of(user)).legal_actions
        session.act(user, session.state.version, rng.choice(actions).code, NOW)
        text = _text(render.table_message(session)) if session.state else 0
        trimmed = trimmed or text >= V2_TEXT_MAX - 40
    assert session.phase is not TablePhase.LOBBY
    if session.phase is TablePhase.SCOREBOARD:
        for drawn in (render.scoreboard_message(session), render.final_scoreboard(session)):
            await _sent_the_same(drawn, recorder)
        await _sent_the_same(render.private_scoreboard(session), recorder)
    await _sent_the_same(render.closed_message(session, "The host closed the table."), recorder)
    await _sent_the_same(render.moved_message(session, JUMP_URL), recorder)
    assert not trimmed


async def test_a_decision_paged_over_menus_is_sent_as_the_json_drawn(recorder) -> None:
    session = TableDraft("wide1234", 10, 20, WidePick(), TableSettings(30, 5, 2), 1, "host")
    session.join(2, "bob")
    session.start(1, 1, NOW)
    await _check(session, recorder, private_pages=(0, 1, 2))


async def test_a_picture_the_message_shows_already_is_kept_not_uploaded_again(recorder) -> None:
    session = TableDraft("memo1234", 10, 20, GAMES["memory"], TableSettings(3600, 5, 2), 1, "Ann")
    session.join(2, "Bo")
    session.start(1, 1, NOW)
    before = render.table_message(session)
    (picture,) = before.filenames()
    (shown,) = drawing.pictures(before)
    assert picture.startswith("board-") and shown["media"]["url"] == f"attachment://{picture}"
    assert shown["description"].startswith("A grid of 7 rows (A–G) by 8 columns (1–8): ")
    user = session.users_to_act()[0]
    row = render.table_message(session, row=0)  # the same board: a row of the picker shown
    assert row.filenames() == (picture,)
    assert "attachments" not in await _answer_body(row, recorder, shown=(picture,))
    assert "attachments" not in _body(handle_message_parameters(**row.edit_kwargs((picture,))))
    session.act(user, session.state.version, session.view(session.seat_of(user)).legal_actions[0].code, NOW)
    after = render.table_message(session)  # a card looked at: the public board marks it
    assert after.filenames() != (picture,)
    for body in (
        await _answer_body(after, recorder, shown=(picture,)),
        _body(handle_message_parameters(**after.edit_kwargs((picture,)))),
    ):
        assert [attachment["filename"] for attachment in body["attachments"]] == list(after.filenames())
    closed = render.closed_message(session, "closed")  # no picture: the old one goes
    assert _body(handle_message_parameters(**closed.edit_kwargs((picture,))))["attachments"] == []


def test_the_text_only_messages_pass_discords_limits() -> None:
    session = TableDraft("text1234", 10, 20, WidePick(), TableSettings(30, 5, 2), 1, "host")
    session.join(2, "bob")
    session.start(1, 1, NOW)
    session.idle_seats.add(1)
    for drawn in (
        render.leave_question(session),
        render.away_message(session, 2),
        render.window_closed(session.table_id, None),  # a scoreboard sent as an embed: it stays
        render.text_message("You left the game."),
    ):
        assert drawn.embed is None and drawing.text(drawn)
        errors = validate_message(drawing.payload(drawn))
        assert not errors, errors.summary()


def test_a_late_press_on_a_scoreboard_keeps_what_it_shows_and_leaves_only_replay() -> None:
    session = TableDraft("late1234", 10, 20, GAMES["memory"], TableSettings(3600, 5, 2), 1, "Ann")
    session.join(2, "Bo")
    session.start(1, 1, NOW)
    shown = render.table_message(session)  # a layout with a picture, as the message shows it
    closed = render.window_closed(session.table_id, shown.components, shown.filenames())
    assert drawing.text(closed) == f"{drawing.text(shown)}\n{render.WINDOW_CLOSED}"
    assert [button["label"] for button in drawing.buttons(closed)] == ["Replay"]
    assert drawing.pictures(closed) == drawing.pictures(shown) and closed.keeps(shown.filenames())
    errors = validate_message(drawing.payload(closed))
    assert not errors, errors.summary()


SPEC = Path("/work/shared/discord-api-spec/openapi.json")
"""Discord's OpenAPI description of API v10 (``shared/discord-api-spec/README.md``)."""


@pytest.mark.skipif(not SPEC.exists(), reason="Discord's OpenAPI description is not on this machine")
def test_every_kind_of_layout_has_the_shape_discords_schema_gives() -> None:
    """The layouts as Discord's OpenAPI description types a message edit (``MessageEditRequestPartial``:
    containers, text displays, media galleries and their items, separators, action rows): the table with
    its picture, a private view under a DM's intro, a scoreboard whose late press closed it, a notice."""
    jsonschema = pytest.importorskip("jsonschema")  # not a dependency of the project: checked where present
    referencing = pytest.importorskip("referencing")
    spec = json.loads(SPEC.read_text())
    resource = referencing.Resource.from_contents(spec, referencing.jsonschema.DRAFT202012)
    registry = referencing.Registry().with_resource("urn:discord", resource)
    validator = jsonschema.Draft202012Validator(
        {"$ref": "urn:discord#/components/schemas/MessageEditRequestPartial"}, registry=registry
    )
    session = TableDraft("spec1234", 10, 20, GAMES["memory"], TableSettings(3600, 5, 2), 1, "Ann")
    session.join(2, "Bo")
    session.start(1, 1, NOW)
    table = render.table_message(session)
    for drawn in (
        table,
        render.private_message(session, 1, jump_url=JUMP_URL).with_content(DM_INTRO),
        render.window_closed(session.table_id, table.components, table.filenames()),
        render.text_message("You left the game."),
    ):
        body = drawing.payload(drawn)
        assert drawn.layout and body["flags"] == FLAG_COMPONENTS_V2
        assert [error.message for error in validator.iter_errors(body)] == []
    spaced = json.loads(json.dumps(drawing.payload(table)))  # a separator's spacing is 1 or 2: caught
    spaced["components"][0]["components"][3]["spacing"] = 3
    assert list(validator.iter_errors(spaced))


def test_a_drawn_view_is_a_drawing_discord_py_neither_keeps_nor_dispatches() -> None:
    """discord.py stores a view (to dispatch its presses, and time out an ephemeral one after 15 minutes)
    only if it is not finished and, in most calls, dispatchable; a drawn view is neither, and discord.py
    sends its components as drawn: a layout with the Components V2 flag, the lobby's rows without."""
    session = _started()
    table, lobby = render.table_message(session), render.lobby_message(session)
    assert table.layout and not lobby.layout
    for drawn in (table, lobby):
        view = DrawnView(drawn.components, drawn.layout)
        assert view.is_finished() and not view.is_dispatchable() and view.has_components_v2() is drawn.layout
        assert view.children == [] and view.to_components() == list(drawn.components)
        flags = _body(handle_message_parameters(**drawn.send_kwargs())).get("flags", 0)
        assert bool(flags & FLAG_COMPONENTS_V2) is drawn.layout


def _started() -> TableSession:
    session = TableDraft("view1234", 10, 20, WidePick(), TableSettings(30, 5, 2), 1, "host")
    session.join(2, "bob")
    session.start(1, 1, NOW)
    return session


# -- budgets: every message reads at a glance ----------------------------------------------------------

NAMES = (
    "Annabelle",
    "Bob",
    "Chiara",
    "Dmitri K.",
    "Eve_1999",
    "Fatima Z",
    "Gustavo",
    "Hiroshi",
    "Ines",
    "Jean-Marc",
)
"""Display names of 3 to 9 characters (7 on average), as a server's players might have."""
BUDGET_MOVES = 60
"""Moves of each game checked: its opening and a few rounds of turns (a Foist or Minimisère deal)."""
DM_INTRO = "It is your turn at the Minimize: Declare table in <#123456789012345678>: choose your move below."
"""An intro above the private view in a DM, at least as long as the live DM's
(:func:`cogs.tables.private_views.live_dm_intro`; checked below)."""


def _text(drawn: Drawn) -> int:
    return lengths.text_length(drawing.payload(drawn))


def _emojis(drawn: Drawn) -> int:
    """The card emojis ``drawn`` shows, once it is checked against Discord's limits (which count their
    markup: through :mod:`cogs.tables.lengths`, and by the sandbox's own check) and for engine marks
    left."""
    message = drawing.payload(drawn)
    assert lengths.message_size(message) <= lengths.LAYOUT_TEXT_MAX
    assert all(lengths.embed_size(embed) <= lengths.EMBED_TOTAL_LIMIT for embed in message.get("embeds", ()))
    errors = validate_message(message)
    assert not errors, errors.summary()
    text = json.dumps(drawing.payload(drawn), ensure_ascii=False)
    assert ENGINE_MARK.search(text) is None, text
    return len(CARD_EMOJI.findall(text))


def test_the_live_dm_intro_of_every_game_is_no_longer_than_the_one_the_dm_budget_is_checked_with() -> None:
    longest_channel_id = 2**63 - 1  # a snowflake's largest value: the longest channel mention
    for rules in GAMES.values():
        session = TableDraft("intro001", 10, longest_channel_id, rules, TableSettings(60, 5, 2), 1, "a")
        assert len(live_dm_intro(session)) <= len(DM_INTRO) <= lengths.DM_INTRO, rules.key


@pytest.mark.parametrize(
    ("key", "seats"),
    [
        (key, seats)
        for key in sorted(GAMES)
        for seats in range(GAMES[key].min_seats, GAMES[key].max_seats + 1)
    ],
)
def test_every_message_of_every_game_at_every_player_count_keeps_to_its_budget(
    key: str, seats: int, card_emojis
) -> None:
    """A seeded random game, every card shown with its emoji (which a budget counts as one character, and
    Discord's limits as its markup): every table message, every seat's private view (ephemeral) and its
    DM (with the intro a turn's DM carries) within the budgets of :mod:`cogs.tables.lengths` and
    Discord's limits, and the scoreboard at its end; the last move always shows. Every other kind (the
    lobby, "Rules in play", the scoreboard's other forms, a closed and a moved table) within Discord's
    limits, the DM's scoreboard within the DM's budget too."""
    assert len(DM_INTRO) <= lengths.DM_INTRO
    rules = GAMES[key]
    rng = random.Random(seats)
    session = TableDraft(f"{key[:4]}b{seats:03d}", 10, 20, rules, TableSettings(60, 5, 2), 1, NAMES[0])
    for user in range(2, seats + 1):
        session.join(user, NAMES[user - 1])
    _emojis(render.lobby_message(session))
    session.start(1, seats, NOW)
    _emojis(rules_in_play(session))
    most = {"table": lengths.TABLE_MESSAGE, "private": lengths.PRIVATE_VIEW, "dm": lengths.DM}
    longest = {"table": 0, "private": 0, "dm": 0}
    emojis = 0
    for move in range(BUDGET_MOVES // 4 if key == "memory" else BUDGET_MOVES):  # memory: pictures drawn
        if session.phase is not TablePhase.PLAYING:
            break
        table = render.table_message(session)
        longest["table"] = max(longest["table"], _text(table))
        emojis += _emojis(table)  # at most 40 components, 4,000 characters
        assert table_text.event_line(session, session.events[-1])[:25] in drawing.text(table)
        for user in session.players if move % 30 == 0 else session.users_to_act():
            view = render.private_message(session, user, jump_url=JUMP_URL, offer_dm=True)
            dm = render.private_message(session, user, jump_url=JUMP_URL).with_content(DM_INTRO)
            longest["private"] = max(longest["private"], _text(view))
            longest["dm"] = max(longest["dm"], _text(dm))
            emojis += _emojis(view)
            _emojis(dm)  # the same fields, within a smaller budget
        user = rng.choice(session.users_with_actions())
        actions = session.view(session.seat_of(user)).legal_actions
        session.act(user, session.state.version, rng.choice(actions).code, NOW)
    assert all(longest[kind] <= most[kind] for kind in most), (longest, most)
    assert emojis > 0
    for _ in range(5000):  # then on to the end, for the scoreboard
        if session.phase is not TablePhase.PLAYING:
            break
        user = rng.choice(session.users_with_actions())
        actions = session.view(session.seat_of(user)).legal_actions
        session.act(user, session.state.version, rng.choice(actions).code, NOW)
    assert session.phase is TablePhase.SCOREBOARD
    assert _text(render.scoreboard_message(session)) <= lengths.TABLE_MESSAGE
    _emojis(render.scoreboard_message(session))
    assert _text(render.dm_scoreboard(session)) <= lengths.DM
    for drawn in (
        render.final_scoreboard(session),
        render.dm_scoreboard(session),
        render.private_scoreboard(session),
        render.closed_message(session, "The host closed the table."),
        render.moved_message(session, JUMP_URL),
    ):
        _emojis(drawn)
    session.hints_rated = True  # a rated table with hints on: every player's count on the scoreboard too
    session.hint_counts = {user: 99 for user in session.players}
    scoreboard = render.scoreboard_message(session)
    lines = layouts.texts(scoreboard.components)[0].split("\n")[1:]  # under the title: the standings
    # each with " · 💡 99 hints", or " 💡99" where that leaves no room
    assert len(lines) == seats and all(line.endswith((" · 💡 99 hints", " 💡99")) for line in lines)
    assert _text(scoreboard) <= lengths.TABLE_MESSAGE
