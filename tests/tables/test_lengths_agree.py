"""The one length budget holds together: what :func:`cogs.tables.lengths.layout_length` says a card's layout
shows is what :func:`cogs.tables.lengths.text_length` counts of the message drawn from it, for any card."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cogs.tables import layouts, lengths

EMOJI = "<:fw_7_blue_star_a1b2c3:123456789012345678>"
pieces = st.sampled_from(["a", "Bob", " ", "**7**", EMOJI, "\n", "…", "é", "-", "12"])
texts = st.lists(pieces, max_size=12).map("".join)
fields = st.builds(layouts.CardField, name=texts.filter(bool), value=texts.filter(bool), inline=st.booleans())


@given(
    title=texts,
    description=texts,
    url=st.none() | st.just("https://discord.com/channels/1/2/3"),
    shown=st.lists(fields, max_size=6),
    footer=texts,
)
def test_a_cards_layout_length_is_the_text_length_of_its_message(
    title: str, description: str, url: str | None, shown: list[layouts.CardField], footer: str
) -> None:
    text = layouts.Card(0x5865F2, title, description, url if title else None, shown, footer)
    drawn = {"components": list(layouts.card(text))}
    assert lengths.layout_length(text) == lengths.text_length(drawn)
