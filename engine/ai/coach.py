"""The coach: what the hard AI would play for a seat, computed from that seat's information
only (:class:`~engine.ai.core.InformationSet`), with a one-line reason in the game's own words: the
game's AI module's ``explain(seen, code) -> str | None`` where it has one (Foist: the points the card adds
against the tokens on it), else the chosen action's label and description as the engine offers them.

Used by the Hint button of a player's private view and by ``/replay`` (what the hard AI would have played
at each of a player's decisions). Pure and deterministic: the generator is seeded from the game's seed, the
state's version and the seat, so the same question always gets the same answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.ai.core import InformationSet
from engine.ai.registry import AI_MODULES, ai_player
from engine.core import GameState, LegalAction, plain


@dataclass(frozen=True)
class Hint:
    """The hard AI's choice for a seat: its action ``code`` and a one-line ``reason`` (engine text, with
    ``{b:...}`` marks)."""

    code: str
    reason: str


def hint_rng(seed: int, version: int, seat: int) -> random.Random:
    """The generator of the hint for ``seat`` at state ``version`` of the game dealt from ``seed``."""
    return random.Random(f"hint:{seed}:{version}:{seat}")


def reason_for(action: LegalAction, choices: int) -> str:
    """The one-line reason of a hint: the action's label, its description when it has one, and how many
    choices it was picked from, e.g. ``"{b:Take 27 (+3 tokens)}: joins your 26–28 run (the hard AI's
    pick of 2)."``."""
    detail = f": {plain(action.description)}" if action.description else ""
    return f"{{b:{plain(action.label)}}}{detail} (the hard AI's pick of {choices})."


def hint(game_key: str, seen: InformationSet, seed: int) -> Hint:
    """What the hard AI plays for ``seen.seat`` now, with its reason (``seed``: the game's seed).

    Raises
    ------
    ValueError
        If the seat has no legal action.
    """
    code = ai_player(game_key, "hard").decide(seen, hint_rng(seed, seen.version, seen.seat))
    legal = {action.code: action for action in seen.world.legal_actions(seen.seat)}
    explain = getattr(AI_MODULES[game_key], "explain", None)
    words = None if explain is None else explain(seen, code)
    return Hint(code, words or reason_for(legal[code], len(legal)))


def hint_for(game_key: str, state: GameState, seat: int) -> Hint:
    """:func:`hint` on ``seat``'s information in ``state`` (``state`` is not changed).

    Raises
    ------
    ValueError
        If ``seat`` has no legal action.
    """
    return hint(game_key, InformationSet.of(state, seat), state.seed)
