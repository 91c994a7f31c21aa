"""Answering a component press by editing its message, without asking Discord to send the message back.

discord.py 2.7's ``InteractionResponse.edit_message`` always posts the interaction callback with
``?with_response=1``, then decodes the edited message Discord sends back and builds a ``discord.Message``
and an ``InteractionCallbackResponse`` from it, on every press; the bot never reads them (the benchmark's
profile put this at about a tenth of the event loop's work per press). discord.py offers no public way to
leave the query out, so :func:`edit_message_json` makes the same request itself, without it (Discord then
answers ``204 No Content``), and marks the interaction as answered the way discord.py does.

This is the one module of ``cogs/`` that reaches into discord.py's internals (``bot/lean_state.py`` is the
bot's), checked with discord.py :data:`CHECKED_WITH`; ``tests/tables/test_quick_answer.py`` fails when
another version is installed, and if any of them changes. They are:

- ``discord.webhook.async_.async_context`` (the webhook adapter whose ``request`` sends interaction
  callbacks, with discord.py's rate-limit and retry handling) and ``interaction_message_response_params``
  (the JSON or multipart body of a callback, the same one discord.py sends);
- ``discord.http.Route`` (the callback's route);
- ``Interaction._state`` and ``Interaction._session`` (the connection state, whose
  ``prevent_view_updates_for``, ``store_view``, ``allowed_mentions`` and ``http`` are used as discord.py's
  own ``edit_message`` uses them, and the aiohttp session discord.py itself uses for callbacks), and
  ``InteractionResponse._response_type`` (what makes ``response.is_done()`` true).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_message_response_params

CHECKED_WITH = "2.7.1"
"""The discord.py version whose internals this module was checked against (see the module's docstring)."""

CALLBACK_ROUTE = "/interactions/{webhook_id}/{webhook_token}/callback"


class _Drawn:
    """An embed or a view already drawn as Discord JSON, for ``interaction_message_response_params``, which
    asks an embed for ``to_dict()`` and a view for ``to_components()`` and ``has_components_v2()`` (true:
    it sets the message's flag 32768, IS_COMPONENTS_V2)."""

    __slots__ = ("json", "layout")

    def __init__(self, json, layout: bool = False) -> None:
        self.json = json
        self.layout = layout

    def to_dict(self):
        return self.json

    def to_components(self):
        return self.json

    def has_components_v2(self) -> bool:
        return self.layout


async def edit_message_json(
    interaction: discord.Interaction,
    *,
    embed: dict | None,
    components: list[dict],
    attachments: Sequence[discord.File] | None = (),
    layout: bool = False,
) -> None:
    """Answer the component press ``interaction`` by editing the message it was on: ``embed`` and
    ``components`` already drawn as Discord JSON (:class:`cogs.tables.drawn.Drawn`), ``attachments``
    (``[]`` removes them, ``None`` keeps the message's), like ``interaction.response.edit_message`` but
    returning nothing. ``layout``: ``components`` are a Components V2 layout (``embed`` is then ``None``):
    the answer carries flag 32768 and clears the message's content and embeds (which an embed message
    being made a layout must have cleared).

    Raises
    ------
    discord.InteractionResponded
        The interaction was answered already.
    TypeError
        The interaction is not a component press.
    discord.HTTPException
        Discord refused the answer.
    """
    await _answer(
        interaction, None if embed is None else _Drawn(embed), _Drawn(components, layout), attachments, layout
    )


async def _answer(
    interaction: discord.Interaction, embed, view, attachments: Sequence[discord.File] | None, layout: bool
) -> None:
    """Post the callback of the component press ``interaction`` with ``embed`` and ``view`` (:class:`_Drawn`
    JSON) and mark it answered."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    if interaction.type is not discord.InteractionType.component:
        raise TypeError("Only a component press is answered by editing its message.")
    state = interaction._state
    message_id = interaction.message.id if interaction.message is not None else None
    if message_id is not None:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        content=None if layout else discord.utils.MISSING,
        embed=embed,
        view=view,
        attachments=discord.utils.MISSING if attachments is None else list(attachments),
        previous_allowed_mentions=state.allowed_mentions,
    )
    route = Route("POST", CALLBACK_ROUTE, webhook_id=interaction.id, webhook_token=interaction.token)
    http = state.http
    with params:  # closes the files once sent
        await async_context.get().request(
            route,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=None if params.files else params.payload,
            multipart=params.multipart if params.files else None,
            files=params.files or None,
        )
    response._response_type = discord.InteractionResponseType.message_update
