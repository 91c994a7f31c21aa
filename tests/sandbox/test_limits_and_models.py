"""Unit tests of the sandbox's limit checks and models (no server, no bot)."""

from __future__ import annotations

import datetime
import warnings

from hypothesis import given
from hypothesis import strategies as st

from sandbox.limits import validate_commands, validate_message, validate_modal
from sandbox.models import SnowflakeGenerator

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord


@given(st.integers(min_value=1, max_value=2600))
def test_content_limit_is_exactly_2000(n: int) -> None:
    errors = validate_message({"content": "x" * n})
    assert bool(errors) == (n > 2000)


@given(st.integers(min_value=0, max_value=8), st.integers(min_value=0, max_value=8))
def test_rows_and_buttons_per_row(rows: int, per_row: int) -> None:
    components = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "b", "custom_id": f"{r}-{i}"} for i in range(per_row)
            ],
        }
        for r in range(rows)
    ]
    errors = validate_message({"content": "x", "components": components})
    assert bool(errors) == (rows > 5 or (rows > 0 and (per_row > 5 or per_row == 0)))


@given(st.lists(st.integers(min_value=0, max_value=1500), min_size=1, max_size=6))
def test_total_embed_text_limit(sizes: list[int]) -> None:
    embeds = [{"description": "d" * n} for n in sizes]
    errors = validate_message({"embeds": embeds})
    assert bool(errors) == (sum(sizes) > 6000)


def test_error_body_is_nested_like_discord() -> None:
    errors = validate_message({"embeds": [{"title": "t" * 257}]})
    assert errors.body() == {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {
            "embeds": {
                "0": {
                    "title": {
                        "_errors": [
                            {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}
                        ]
                    }
                }
            }
        },
    }
    assert errors.summary() == ["embeds.0.title: Must be 256 or fewer in length. [BASE_TYPE_MAX_LENGTH]"]


def test_edit_checks_merge_with_current_state() -> None:
    current = {"content": "", "embeds": [], "components": [], "flags": 32768}
    assert validate_message({"content": "text"}, current=current), "V2 messages cannot get content"
    assert not validate_message({"components": [{"type": 10, "content": "hi"}]}, current=current)
    assert not validate_message({}, current={"content": "x"}), "an empty edit is fine"


def test_components_v2_limits() -> None:
    many = [{"type": 10, "content": "t"} for _ in range(41)]
    assert validate_message({"flags": 32768, "components": many})
    assert not validate_message({"flags": 32768, "components": many[:40]})
    assert validate_message({"flags": 32768, "content": "x", "components": many[:1]})
    # 4,000 characters of text across all text displays, nested ones too (Discord's Components V2 limits)
    container = {"type": 17, "components": [{"type": 10, "content": "x" * 2000}] * 2}
    assert not validate_message({"flags": 32768, "components": [container]})
    assert validate_message({"flags": 32768, "components": [container, {"type": 10, "content": "x"}]})
    # a media gallery holds 1-10 items, each naming its media, its description (alt text) 1-1,024 characters
    # (openapi.json: MediaGalleryComponentForMessageRequest, MediaGalleryItemRequest)
    item = {"media": {"url": "attachment://a.png"}, "description": "a grid"}
    assert not validate_message({"flags": 32768, "components": [{"type": 12, "items": [item] * 10}]})
    for items in ([], [item] * 11, [{"description": "no media"}], [{**item, "description": "x" * 1025}]):
        assert validate_message({"flags": 32768, "components": [{"type": 12, "items": items}]}), items


def test_an_embed_message_becomes_a_layout_only_if_the_edit_clears_its_content_and_embeds() -> None:
    """Discord lets an edit add flag 32768 (never remove it) when the message keeps no content nor embed
    (discord.py 2.7, ``Message.edit``: set content and embeds to None to update a message to a layout)."""
    current = {"content": "old", "embeds": [{"title": "old"}], "components": [], "flags": 0}
    layout = {"flags": 32768, "components": [{"type": 10, "content": "new"}]}
    assert validate_message(layout, current=current)
    assert validate_message({**layout, "content": None}, current=current), "the embed stays"
    assert not validate_message({**layout, "content": None, "embeds": []}, current=current)


def test_discord_py_modal_payloads_are_valid() -> None:
    class Note(discord.ui.Modal, title="Note"):
        text = discord.ui.TextInput(label="Text", max_length=100)
        why = discord.ui.Label(text="Why?", component=discord.ui.TextInput(required=False))

    assert not validate_modal(Note().to_dict())
    long_title = Note().to_dict() | {"title": "t" * 46}
    assert validate_modal(long_title)


def test_command_checks() -> None:
    good = {
        "name": "play",
        "description": "Play",
        "options": [
            {"type": 3, "name": "game", "description": "g", "required": True},
            {"type": 4, "name": "turns", "description": "t"},
        ],
    }
    assert not validate_commands([good])
    assert validate_commands([good | {"name": "Play"}]), "names are lowercase"
    assert validate_commands([good | {"description": ""}])
    assert validate_commands([good, good]), "duplicate names"
    wrong_order = good | {"options": list(reversed(good["options"]))}
    assert validate_commands([wrong_order]), "required options first"
    too_many = good | {"options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]}
    assert validate_commands([too_many])


def test_snowflakes_increase_and_carry_the_time() -> None:
    gen = SnowflakeGenerator()
    ids = [gen.next() for _ in range(10000)]
    assert ids == sorted(set(ids))
    created = discord.utils.snowflake_time(ids[-1])
    assert abs(created - datetime.datetime.now(datetime.timezone.utc)) < datetime.timedelta(seconds=5)
