"""``cogs/quick_answer.py`` reaches into discord.py's internals (see its docstring): these tests fail if
another discord.py is installed than the one it was checked with, or if any of the internals moves or
changes shape, so a discord.py upgrade cannot silently break every press's answer. (The e2e tests answer
every press through it; ``tests/e2e/test_press_cost.py`` checks the answer is sent without asking for the
message back.)"""

from __future__ import annotations

import inspect

import discord
from discord.http import MultipartParameters, Route
from discord.webhook import async_

from cogs import quick_answer


def parameters(function: object) -> set[str]:
    return set(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_the_installed_discord_py_is_the_one_the_quick_answer_was_checked_with() -> None:
    assert discord.__version__ == quick_answer.CHECKED_WITH, (
        f"discord.py {discord.__version__} is installed, but cogs/quick_answer.py was checked with "
        f"{quick_answer.CHECKED_WITH}. Re-check each internal its docstring lists against the new version's "
        "source (discord/interactions.py InteractionResponse.edit_message, discord/webhook/async_.py), run "
        "tests/tables/test_quick_answer.py and tests/e2e/test_press_cost.py, then set CHECKED_WITH to it."
    )


def test_the_webhook_adapter_and_the_callback_body_are_where_discord_py_keeps_them() -> None:
    adapter = async_.async_context.get()
    assert isinstance(adapter, async_.AsyncWebhookAdapter)
    assert {"route", "session", "payload", "multipart", "files", "proxy", "proxy_auth"} <= parameters(
        adapter.request
    )
    assert {"type", "embed", "view", "attachments", "previous_allowed_mentions"} <= parameters(
        async_.interaction_message_response_params
    )
    params = async_.interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        embed=discord.Embed(title="t"),
        view=None,
        attachments=[],
    )
    assert isinstance(params, MultipartParameters) and not params.files
    assert params.payload is not None and params.payload["type"] == 7
    assert params.payload["data"]["embeds"][0]["title"] == "t" and params.payload["data"]["components"] == []


def test_the_callback_route_is_discord_py_s_own() -> None:
    source = inspect.getsource(async_.AsyncWebhookAdapter.create_interaction_response)
    assert repr(quick_answer.CALLBACK_ROUTE) in source.replace('"', "'")
    route = Route("POST", quick_answer.CALLBACK_ROUTE, webhook_id=1, webhook_token="x")
    assert route.url.endswith("/interactions/1/x/callback")


def test_an_interaction_keeps_its_state_session_and_response_type_where_the_answer_reads_them() -> None:
    assert {"_state", "_session"} <= set(discord.Interaction.__slots__)
    assert "_response_type" in discord.InteractionResponse.__slots__
    source = inspect.getsource(discord.InteractionResponse.is_done)
    assert "self._response_type" in source
    edit = inspect.getsource(discord.InteractionResponse.edit_message)
    for used in (
        "state.prevent_view_updates_for",
        "parent._session",
        "self._response_type = InteractionResponseType.message_update",
    ):
        assert used in edit, used
