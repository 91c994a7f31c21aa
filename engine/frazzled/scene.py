"""The table scene of MINIMIZE, TOKENIZE and ERADICIZE (:class:`engine.core.Scene`): the three face-up draw
piles' top cards and the discard pile's top card, as players see them on the table, the rule cards in play
(MINIMIZE and TOKENIZE: :func:`rules_row`), and in ERADICIZE each player's face-up cards. A rule card is
shown by its name only (deck :data:`RULE_DECK`); its text stays in the view's rules fields."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import CardRef, SceneRow, plural
from engine.frazzled.deck import DECK as FULL_DECK
from engine.frazzled.deck import Card, sorted_cards
from engine.frazzled.rule_cards import ACTIONS_CARD, RULE_BY_ID, ActionsSide, BonusCard

DECK = "fw"
"""The Frazzled Wool deck's key in a scene (``art.faces``)."""
RULE_DECK = "rc"
"""The rule cards' key in a scene: a rule card is ``("rc", <rule id>)`` (:func:`rule_ref`)."""


CARD_REFS: dict[int, CardRef] = {card.id: (DECK, str(card.id)) for card in FULL_DECK}
"""Each card's scene card by card id, made once (every scene shares them)."""


def card_ref(card: Card) -> CardRef:
    """``card`` as a scene's card: ``("fw", "<card id>")``."""
    return CARD_REFS[card.id]


def piles_row(piles: Sequence[Sequence[Card]]) -> SceneRow:
    """The draw piles (each listed bottom to top): each pile's top card, an empty place for an empty pile,
    and their sizes as the note (``"12 · 11 · 0 left"``: "cards" after the last size would read as its
    count, "1 cards")."""
    note = " · ".join(str(len(pile)) for pile in piles) + " left"
    return SceneRow("Draw piles", tuple((card_ref(pile[-1]),) if pile else () for pile in piles), note)


def discard_row(discard: Sequence[Card]) -> SceneRow:
    """The discard pile (bottom card first): its top card and its size."""
    if not discard:
        return SceneRow("Discard pile", ((),), "empty")
    return SceneRow("Discard pile", ((card_ref(discard[-1]),),), plural(len(discard), "card"))


def face_up_row(seat: int, face_up: Sequence[Card], hand_size: int) -> SceneRow:
    """ERADICIZE: ``seat``'s face-up cards (sorted) and, as the note, how many cards it holds in hand."""
    cards = tuple(card_ref(card) for card in sorted_cards(face_up))
    return SceneRow(f"{{seat:{seat}}}", (cards,) if cards else (), f"{hand_size} in hand")


def _rule_id(rule: BonusCard | ActionsSide) -> str:
    return f"actions-{rule.id}" if isinstance(rule, ActionsSide) else rule.id


_ACTIONS_SIDES = tuple(side for side in ACTIONS_CARD.sides if isinstance(side, ActionsSide))
RULE_CARDS: dict[str, BonusCard | ActionsSide] = {
    _rule_id(rule): rule for rule in (*RULE_BY_ID.values(), *_ACTIONS_SIDES)
}
"""Every rule card a scene may show, by its id in the scene: a bonus rule's own id (``"wild"``, both sides
of the Shape or Colour card ``"dupcolour"`` and ``"dupshape"``), an Actions side's ``"actions-A"``."""

RULE_REFS: dict[str, CardRef] = {key: (RULE_DECK, key) for key in RULE_CARDS}
"""Each rule card's scene card by its id, made once (every scene shares them)."""


def rule_ref(rule: BonusCard | ActionsSide) -> CardRef:
    """A rule card (a bonus rule card, a side of the Shape or Colour card, a side of the Actions card) as a
    scene's card: ``("rc", <id>)``, the id a key of :data:`RULE_CARDS`."""
    return RULE_REFS[_rule_id(rule)]


def rules_row(
    bonus: Sequence[BonusCard], duplicates: BonusCard | None = None, actions: ActionsSide | None = None
) -> SceneRow:
    """The rule cards in play, by name: the bonus rule cards together, then MINIMIZE's Shape or Colour
    card's side up and its Actions card's side up, each apart (``None`` in TOKENIZE, which has neither)."""
    groups = [tuple(rule_ref(card) for card in bonus)]
    groups.extend((rule_ref(side),) for side in (duplicates, actions) if side is not None)
    return SceneRow("Rule cards", tuple(groups))
