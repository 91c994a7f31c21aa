"""Which face a game's action shows: the card an action plays, takes or throws, by the game's key and the
action's stable code (:class:`engine.core.LegalAction.code`), read with the game's own action parsers."""

from __future__ import annotations

from art.faces import BY_KEY, Face
from engine.declare.actions import DeclareAction, Discover, Take, ThrowBack, ThrowCards
from engine.frazzled.actions import Discard
from engine.frazzled.eradicize import PlayCard
from engine.frazzled.minimize_table import Give
from engine.minimisere.actions import MinimisereAction

FRAZZLED_GAMES = frozenset({"minimize", "tokenize", "eradicize"})
"""The games played with the Frazzled Wool deck."""


def face_of_action(game: str, code: str) -> Face | None:
    """The face of the one card the action ``code`` of ``game`` (a key of :data:`engine.registry.GAMES`)
    plays, discards, gives, takes or throws; ``None`` for an action naming no card or several (a throw of
    a set), for a game whose actions name none (Foist's "Take" takes the card up, Memory picks positions),
    and for a code the game does not know."""
    try:
        if game in FRAZZLED_GAMES:
            for kind in (PlayCard, Discard, Give):
                action = kind.from_code(code)
                if action is not None:
                    return BY_KEY[("fw", str(action.card.id))]
            return None
        if game == "declare":
            parsed = DeclareAction.parse(code)
            if isinstance(parsed, Take | Discover | ThrowBack):
                return BY_KEY[("iv", parsed.card)]
            if isinstance(parsed, ThrowCards) and len(parsed.cards) == 1:
                return BY_KEY[("iv", parsed.cards[0])]
            return None
        if game == "minimisere":
            return BY_KEY[("fr", MinimisereAction.parse(code).card)]
    except ValueError:
        return None
    return None
