"""What a MINIMIZE challenge makes public about a hand that stays in play, and redrawing hidden hands
consistently with it.

"Each player in turn then declares whether they have a lower score than this (an equal score is not good
enough). If they do have a lower score, they reveal it." (``shared/seeds/000_d97c66fde1b75dcf.txt``,
"Challenging"). A player who is not lower says only that; a player who is lower reveals the score. Both
are public facts about a hand its holder keeps playing: a :class:`Claim` records one, and
:func:`fit_claims` redraws the hidden cards of a resampled state until every claim about a hidden hand
holds again (ruling 4 of ``docs/rules/minimize.md``).

A claim follows its hand through public changes (a draw from a face-up pile, a discard), so it is checked
on the hand as it was when declared: the cards drawn since are taken out and the cards discarded since put
back. A change nobody sees (a blind fan exchange, chosen cards passed) ends it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.frazzled.deck import Card
from engine.frazzled.rule_cards import BonusCard

MAX_TRIES = 1000
"""Redraws tried per seat before :func:`fit_claims` gives up on a claim (it then leaves that hand as
drawn: a very unlikely exact score can be missed, never a wrong view)."""


@dataclass
class Claim:
    """A public fact about one hand: its score under ``rules`` is ``value`` (``op="eq"``), at least
    ``value`` (``"ge"``: declared "not lower"), or it is not a Perfect Zero (``"nz"``).

    ``perfect_zero_counts`` is the 14/1 reading context the score was taken in (see
    :func:`engine.frazzled.minimize.score_hand`); ``added`` and ``removed`` are the cards drawn into and
    discarded from the hand since (public cards).
    """

    rules: tuple[BonusCard, ...]
    perfect_zero_counts: bool
    op: str
    value: int = 0
    added: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)

    def __deepcopy__(self, memo: dict) -> Claim:
        # the rules and cards are immutable: a state's copy shares them (copies are made per resample)
        return Claim(
            self.rules, self.perfect_zero_counts, self.op, self.value, list(self.added), list(self.removed)
        )

    def hand_then(self, hand: Sequence[Card]) -> list[Card]:
        """The hand as it was when the claim was made, from the hand now."""
        return [card for card in hand if card not in self.added] + list(self.removed)

    def replaced(self, out: Card, into: Card) -> None:
        """The holder discarded ``out`` and took ``into`` (both seen by everyone)."""
        if out in self.added:
            self.added.remove(out)
        else:
            self.removed.append(out)
        self.added.append(into)


Scorer = Callable[[Sequence[Card], tuple[BonusCard, ...], bool], tuple[int, bool]]
"""``(cards, rules, perfect_zero_counts) -> (total, perfect_zero)``."""


def holds(claims: Sequence[Claim], hand: Sequence[Card], scorer: Scorer) -> bool:
    """True if every claim is true of ``hand``."""
    for claim in claims:
        total, zero = scorer(claim.hand_then(hand), claim.rules, claim.perfect_zero_counts)
        if claim.op == "eq" and total != claim.value:
            return False
        if claim.op == "ge" and total < claim.value:
            return False
        if claim.op == "nz" and zero:
            return False
    return True


def fit_claims(
    hands: list[list[Card]],
    hidden_slots: dict[int, list[int]],
    pool: list[tuple[list[Card], int]],
    claims: dict[int, list[Claim]],
    scorer: Scorer,
    rng: random.Random,
) -> None:
    """Redraw, in place, the hidden cards of every hand with claims until its claims hold.

    ``hidden_slots[seat]`` are the indices of ``hands[seat]`` the viewer does not know (they may be
    redrawn); ``pool`` are the other hidden places, ``(list, index)`` (the cards under the top of each
    pile, the cards set aside, the hidden cards of hands without claims), whose cards may be exchanged.
    Seats are fitted one after another; a fitted hand is not touched again. A seat whose claims cannot be
    met in :data:`MAX_TRIES` redraws keeps its last draw.
    """
    free = list(pool)
    for seat in sorted(claims):
        slots = hidden_slots.get(seat, [])
        if not claims[seat] or not slots:
            continue
        own = [(hands[seat], index) for index in slots]
        for _ in range(MAX_TRIES):
            if holds(claims[seat], hands[seat], scorer):
                break
            places = own + free
            chosen = rng.sample(range(len(places)), len(own))
            cards = [places[i][0][places[i][1]] for i in chosen]
            displaced = [hands[seat][index] for index in slots]
            # the chosen cards go into the hand; what the hand held goes where they came from
            leftovers = [card for card in displaced if card not in cards]
            for (target, index), card in zip(own, cards, strict=True):
                target[index] = card
            for i in chosen:
                if i >= len(own):
                    target, index = places[i]
                    target[index] = leftovers.pop()
