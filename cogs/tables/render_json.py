"""The table message drawn straight as Discord JSON, for the answer to a press.

A press is answered with the table drawn again. Building discord.py's ``Embed``, items and view for it,
only to turn them into JSON at once, was a good part of a press's cost; :func:`table_message_json` draws
the same JSON directly: what ``embed.to_dict()`` and ``view.to_components()`` give for
:func:`cogs.tables.render.table_message` (``tests/tables/test_render_json.py`` compares the two over random
play of every game).
"""

from __future__ import annotations

import functools

import discord

from cogs.rules import pages as rules_pages
from cogs.tables import action_menus, house_rules, render, seat_controls
from engine.tables import ai_seats
from cogs.tables import custom_ids as ids
from cogs.tables.action_menus import clip
from engine.tables.session import TableSession


@functools.lru_cache(maxsize=8192)
def _fixed_row_json(table_id: str, game: str) -> tuple[dict, dict, dict]:
    """The table message's "My hand", "DM me my hand" and "How to play" buttons as JSON (the same on every
    message)."""
    return (
        action_menus.button_json(
            str(ids.TableCustomId(table_id, 0, ids.HAND)), "My hand", discord.ButtonStyle.secondary
        ),
        action_menus.button_json(
            str(ids.TableCustomId(table_id, 0, ids.DM)), "DM me my hand", discord.ButtonStyle.secondary
        ),
        action_menus.button_json(
            rules_pages.custom_id(game, 0), rules_pages.BUTTON_LABEL, discord.ButtonStyle.secondary
        ),
    )


def table_message_json(session: TableSession, page: int = 0) -> tuple[dict, list[dict]]:
    """:func:`cogs.tables.render.table_message` at ``page`` drawn straight as Discord JSON: what the
    embed's ``to_dict()`` and the view's ``to_components()`` would give, without building discord.py items
    and a view (for a press's answer)."""
    assert session.state is not None
    embed = _table_embed_json(session)
    items = action_menus.action_components_json(
        session.table_id,
        session.state.version,
        session.public_actions(),
        lambda text: render.with_names(session, text),
        page,
    )
    hand, dm, how_to_play = _fixed_row_json(session.table_id, session.rules.key)
    items.append((4, hand))
    controls = seat_controls.table_controls(session)
    if len(controls) < 2:
        items.append((4, dm))
    items.append((4, how_to_play))
    for verb, label in controls:
        custom_id = str(ids.TableCustomId(session.table_id, 0, verb))
        items.append((4, action_menus.button_json(custom_id, label, render.CONTROL_STYLES[verb])))
    return embed, action_menus.rows_json(items)


def _table_embed_json(session: TableSession) -> dict:
    """``render.table_embed(session).to_dict()``, drawn straight as JSON when it needs no trimming (else
    through the ``Embed`` and :func:`cogs.tables.render.fit_embed`)."""
    assert session.state is not None
    public = session.view(None)
    title = clip(render.with_names(session, public.title), 256)
    description = render.turn_and_log(session)
    fields = [
        {
            "inline": True,
            "name": clip(house_rules.marked(session.rules.key, render.with_names(session, field.name)), 256),
            "value": clip(render.with_names(session, field.value), 1024),
        }
        for field in public.table[:20]
    ]
    fields.append({"inline": False, "name": "Players", "value": render.seat_lines(session, public) or "—"})
    footer = f"{render.footer_text(session)} · move {session.state.version + 1}"
    size = len(title) + len(description) + len(footer)
    for field in fields:
        size += len(field["name"]) + len(field["value"])
    if size > render.EMBED_TOTAL_LIMIT - 20:  # fit_embed would trim it
        return render.table_embed(session).to_dict()
    embed: dict = {
        "footer": {"text": footer},
        "fields": fields,
        "flags": 0,
        "color": render.PLAYING_COLOUR.value,
    }
    if public.board is not None:
        embed["image"] = {"url": f"attachment://{render.BOARD_FILENAME}"}
    embed["type"] = "rich"
    if description:
        embed["description"] = description
    if title:
        embed["title"] = title
    return embed
