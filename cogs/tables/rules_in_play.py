"""The answer to a table message's "Rules in play" button: the rules that table plays by, shown to the
presser alone, once and on demand, rather than on the table message at every move."""

from __future__ import annotations

from cogs.tables import house_rules
from cogs.tables.action_menus import rows
from cogs.tables.drawn import Drawn
from cogs.tables.embeds import embed, field
from cogs.tables.lengths import DESCRIPTION_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX, clip, fit_embed
from cogs.tables.lobby_menus import seats_for
from cogs.tables.render import PRIVATE_COLOUR, footer_text, how_to_play
from cogs.tables.table_text import with_names
from engine.tables.lobby_options import option_choices
from engine.tables.session import TableSession


def rules_in_play(session: TableSession) -> Drawn:
    """The table's rules in play, for an ephemeral answer: the options it was started with (its lobby's
    words), the engine's rules in play (rule cards, sides up, scoring: ``SeatView.rules``, house rules
    marked) and how the game is won, with "How to play" for the game's whole rules.

    One embed within Discord's limits (at most 25 fields, trimmed to 6,000 characters by
    :func:`cogs.tables.lengths.fit_embed`); no game needs more: the longest, a MINIMIZE table's, is under
    1,300 characters, so no paging.
    """
    assert session.state is not None
    rules = session.rules
    seated = len(session.players)
    settings = [
        f"{choice.description.rstrip('.')}: **{choice.current_label}**"
        for choice in option_choices(session)
        if (seats := seats_for(session, choice)) is None or seated in seats  # options of this table's size
    ]
    description = "\n".join(settings) if settings else "This game has no table options."
    drawn = embed(
        f"📜 Rules in play · {rules.display_name}", clip(description, DESCRIPTION_MAX), PRIVATE_COLOUR
    )
    drawn["fields"] = [
        field(
            clip(house_rules.marked(rules.key, with_names(session, shown.name)), FIELD_NAME_MAX),
            clip(with_names(session, shown.value), FIELD_VALUE_MAX),
            False,
        )
        for shown in session.view(None).rules[:25]
    ]
    drawn["footer"] = {"text": " · ".join(filter(None, (rules.winning_rule, footer_text(session))))}
    fit_embed(drawn)
    return Drawn(drawn, rows([(0, how_to_play(rules.key))]))
