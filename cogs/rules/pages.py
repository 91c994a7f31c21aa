"""How to play each game, in pages: read from the game's content file (``cogs/rules/content/<key>.md``),
drawn as an ephemeral embed with paging buttons, and answered from the buttons' custom_ids alone.

A content file has one ``## <Section>`` per page kind (:data:`SECTIONS`). The first, "Quick start", is
what a newcomer needs for a first game (the goal, a turn, how it ends) on one short page; the reference
pages follow. A section longer than one page is split at blank lines; the rulings, one paragraph each, are
split a few to a page (:data:`RULINGS_CHARS`) so a page is read at a glance. The text is one line per
paragraph or bullet: Discord wraps lines itself, so a line break in the file is one on the screen. The
"Options" section is followed by the game's options as the lobby offers them (read from the engine's
options model, so the two never differ). Sections marked ``🏠 House rule`` say what the project wrote
where the source prints nothing.

A rules button's custom_id is ``rules:<game>:<page>`` (or ``rules:<game>:go`` for the section menu, whose
chosen value is a page number): no state is kept, so the buttons work on any message, after a restart too.
Pressed on an ephemeral rules page it turns that page; pressed anywhere else (the "How to play" button on
a lobby or table message) it opens page 0, the quick start, privately.
"""

from __future__ import annotations

import functools
import re
import typing
from dataclasses import dataclass
from pathlib import Path

import discord

from engine import GAMES
from engine.core import plural

CONTENT = Path(__file__).resolve().parent / "content"
SECTIONS: dict[str, str] = {
    "quickstart": "Quick start",
    "setup": "Setup",
    "turn": "A turn",
    "scoring": "Scoring",
    "end": "The end",
    "options": "Options",
    "examples": "Examples",
    "rulings": "Rulings",
}
"""Page kinds by key, with the heading each content file gives them, in page order."""
HOUSE_RULE = "🏠 House rule"
"""The marker of content the project invented because the source prints none."""
PAGE_CHARS = 3000
"""At most this many characters of a section per page (Discord allows 4096 in a description)."""
RULINGS_CHARS = 1200
"""At most this many characters on a page of rulings: a few rulings a page, never one cut in two."""
PREFIX = "rules:"
CUSTOM_ID = re.compile(r"rules:(?P<game>[a-z]{2,20}):(?P<page>\d{1,3}|go)")
GO = "go"
BUTTON_LABEL = "How to play"
COLOUR = discord.Colour.blurple()


@dataclass(frozen=True)
class RulesPage:
    """One page of a game's rules: its section key (a key of :data:`SECTIONS`), heading and text."""

    kind: str
    heading: str
    text: str


def custom_id(game: str, page: int | str) -> str:
    """The custom_id of a button showing page ``page`` (0-based) of ``game``'s rules."""
    return f"{PREFIX}{game}:{page}"


def is_rules_custom_id(value: str) -> bool:
    """True if ``value`` has the shape of a rules button's or menu's custom_id."""
    return CUSTOM_ID.fullmatch(value) is not None


def section_texts(game: str) -> dict[str, str]:
    """The sections of ``game``'s content file by kind (missing kinds are absent).

    Raises
    ------
    FileNotFoundError
        If the game has no content file.
    """
    headings = {heading: kind for kind, heading in SECTIONS.items()}
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in (CONTENT / f"{game}.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            kind = headings.get(line[3:].strip())
            current = sections.setdefault(kind, []) if kind else None
        elif current is not None:
            current.append(line)
    return {kind: "\n".join(lines).strip() for kind, lines in sections.items()}


def _options_text(game: str) -> str:
    """The game's options as the lobby offers them: each description and its values, default in bold."""
    lines = []
    for name, info in GAMES[game].options_model.model_fields.items():
        description = (info.description or name).rstrip(".")
        if info.annotation is bool:
            values = ["on", "off"]
            default = "on" if info.default else "off"
        elif typing.get_origin(info.annotation) is typing.Literal:
            values = [str(value) for value in typing.get_args(info.annotation)]
            default = str(info.default)
        else:
            low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
            high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
            values = [f"{low} to {high}"] if low is not None and high is not None else []
            default = str(info.default)
        shown = " / ".join(f"**{v}**" if v == default else v for v in values)
        if info.default is None:  # the rules' default, which depends on the number of players
            shown += f" (default {_default_by_players(game, name)})"
        elif default not in values:
            shown += f" (default **{default}**)"
        lines.append(f"• {description}: {shown}")
    if not lines:
        return ""
    return "The host sets these in the lobby, with the menus under the table message:\n" + "\n".join(lines)


def _default_by_players(game: str, name: str) -> str:
    """What option ``name`` left unset (``None``) means, by number of players, from the options model's
    ``default_for(name, num_seats)``: Minimisère's target is "**31** with 3 players, **25** with 4 to 6
    players"."""
    rules = GAMES[game]
    default_for = getattr(rules.options_model, "default_for", None)
    groups: list[list] = []  # [value, fewest players, most players]
    for seats in range(rules.min_seats, rules.max_seats + 1):
        value = default_for(name, seats) if default_for is not None else None
        if value is None:
            return "set by the rules for the number of players"
        if groups and groups[-1][0] == value:
            groups[-1][2] = seats
        else:
            groups.append([value, seats, seats])
    if len(groups) == 1:
        return f"**{groups[0][0]}**"
    return ", ".join(
        f"**{value}** with {plural(low, 'player')}"
        if low == high
        else f"**{value}** with {low} to {plural(high, 'player')}"
        for value, low, high in groups
    )


def _split(text: str, limit: int = PAGE_CHARS) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at blank lines (or lines) where possible."""
    pieces: list[str] = []
    current = ""
    for block in re.split(r"\n(?=\n)|\n(?=\d+\. \*\*)", text):
        block = block.strip("\n")
        if not block:  # a blank line before a numbered ruling is one cut, not two
            continue
        while len(block) > limit:  # one block longer than a page: cut at a line end, else hard
            cut = block.rfind("\n", 0, limit)
            cut = cut if cut > 0 else limit
            if current:
                pieces.append(current)
                current = ""
            pieces.append(block[:cut])
            block = block[cut:].strip("\n")
        joined = f"{current}\n\n{block}" if current else block
        if len(joined) > limit:
            pieces.append(current)
            current = block
        else:
            current = joined
    if current:
        pieces.append(current)
    return pieces or [""]


@functools.lru_cache(maxsize=32)
def pages(game: str) -> tuple[RulesPage, ...]:
    """Every page of ``game``'s rules, in order (each section on one or more pages).

    Raises
    ------
    KeyError
        If ``game`` is not a game key.
    """
    if game not in GAMES:
        raise KeyError(game)
    texts = section_texts(game)
    result = []
    for kind, heading in SECTIONS.items():
        text = texts.get(kind, "")
        if kind == "options":
            text = "\n\n".join(filter(None, (text, _options_text(game))))
        limit = RULINGS_CHARS if kind == "rulings" else PAGE_CHARS
        for piece in _split(text or "Nothing to add here.", limit):
            result.append(RulesPage(kind, heading, piece))
    return tuple(result)


def first_page_of(game: str) -> dict[str, int]:
    """The first page number of each section of ``game``'s rules, by kind."""
    first: dict[str, int] = {}
    for number, page in enumerate(pages(game)):
        first.setdefault(page.kind, number)
    return first


def rules_message(game: str, page: int = 0) -> tuple[discord.Embed, discord.ui.View]:
    """Page ``page`` of ``game``'s rules (clamped to the pages there are): an embed and its buttons
    (previous, next, and a menu of the sections)."""
    all_pages = pages(game)
    page = max(0, min(page, len(all_pages) - 1))
    shown = all_pages[page]
    count = sum(1 for other in all_pages if other.kind == shown.kind)
    index = page - first_page_of(game)[shown.kind] + 1
    part = "" if count == 1 else f" ({index} of {count})"
    display = GAMES[game].display_name
    embed = discord.Embed(
        title=f"How to play {display} · {shown.heading}{part}", description=shown.text, colour=COLOUR
    )
    embed.set_footer(text=f"Page {page + 1} of {len(all_pages)} · /rules game:{game}")
    view = discord.ui.View(timeout=None)
    view.stop()  # a drawing only: presses are routed by custom_id (answer_press), nothing is kept
    view.add_item(
        discord.ui.Button(
            label="◀ Previous", custom_id=custom_id(game, max(page - 1, 0)), disabled=page == 0, row=0
        )
    )
    last = len(all_pages) - 1
    view.add_item(
        discord.ui.Button(
            label="Next ▶",
            custom_id=custom_id(game, min(page + 1, last)),
            disabled=page == last,
            style=discord.ButtonStyle.primary,
            row=0,
        )
    )
    view.add_item(
        discord.ui.Select(
            custom_id=custom_id(game, GO),
            placeholder="Go to a section…",
            options=[
                discord.SelectOption(label=SECTIONS[kind], value=str(number), default=kind == shown.kind)
                for kind, number in first_page_of(game).items()
            ],
            row=1,
        )
    )
    return embed, view


def parse_press(value: str, values: list[str]) -> tuple[str, int] | None:
    """``(game, page)`` a rules press asks for (``values``: a section menu's choice), or ``None`` if it is
    malformed or names no game."""
    match = CUSTOM_ID.fullmatch(value)
    if match is None or match["game"] not in GAMES:
        return None
    if match["page"] == GO:
        if len(values) != 1 or not values[0].isdigit():
            return None
        return match["game"], int(values[0])
    return match["game"], int(match["page"])


async def answer_press(interaction: discord.Interaction) -> None:
    """Answer a press on a rules button or menu: turn the ephemeral rules page it is on, or open the rules
    privately from a "How to play" button on a table message."""
    data = interaction.data or {}
    target = parse_press(str(data.get("custom_id", "")), [str(v) for v in data.get("values", [])])
    if target is None:
        await interaction.response.send_message("I have no rules pages for that.", ephemeral=True)
        return
    embed, view = rules_message(*target)
    message = interaction.message
    if message is not None and message.embeds and _is_rules(message):  # a rules page (ephemeral, or a DM)
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


def _is_rules(message: discord.Message) -> bool:
    """True if ``message`` is a rules page (its footer names ``/rules``)."""
    footer = message.embeds[0].footer.text or ""
    return "/rules game:" in footer
