"""A person's name as the bot writes it: every display name shown anywhere (tables, logs, scoreboards,
replays, stats, the leaderboard) goes through :func:`shown_name`.

A display name is chosen by its owner and may hold anything: markdown (``**x**`` would show bold, ``_`` and
``~`` would restyle the line), and Unicode's bidirectional controls, of which one right-to-left override
(U+202E) reverses the rest of its line for everyone who reads it. :func:`shown_name` drops those controls
and escapes the markdown, so a name reads as its letters say, and changes nothing else of the line. Pings
are not its business: every message the bot sends allows no mention but the ones it means.
"""

from __future__ import annotations

import functools
import re

from discord.utils import escape_markdown

BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Unicode's bidirectional formatting characters: the marks (ALM, LRM, RLM), the embeddings and overrides
(LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI)."""


def without_bidi_controls(name: str) -> str:
    """``name`` without Unicode's bidirectional controls (:data:`BIDI_CONTROLS`): for text that shows no
    markdown (a button label, a picture)."""
    return BIDI_CONTROLS.sub("", name)


@functools.lru_cache(maxsize=4096)
def shown_name(name: str) -> str:
    """``name`` as a message writes it: without bidirectional controls, its markdown escaped. Computed once
    per name (messages are redrawn several times a press; a name's form never changes)."""
    return escape_markdown(without_bidi_controls(name))
