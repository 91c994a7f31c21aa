"""Frazzled Wool MINIMIZE's scoring (``shared/seeds/000_d97c66fde1b75dcf.txt``, "Aim and Scoring",
"Sneaking Through"): a hand's score and how it is made, and the record of what a challenge settled. Pure
functions over cards and bonus rule cards; the words for them are :mod:`engine.frazzled.words_minimize`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.frazzled.deck import FOURTEEN_ONE, Card
from engine.frazzled.rule_cards import BonusCard, card_values, duplicate_points

HAND_SIZE = 6


@dataclass(frozen=True)
class Score:
    """A hand's MINIMIZE score and how it is made ("Aim and Scoring").

    Attributes
    ----------
    total:
        ``spread - pro - sum(benefits)``; lower is better.
    low, high:
        The lowest and highest numbers (the 14/1 cards read per ``low_aces``); ``spread = high - low``.
    pro:
        Pro points for duplicate numbers (two 1, three 3, four or more 5, per number).
    bonuses:
        ``(title, benefit)`` per bonus rule in play; a benefit lowers the score, a penalty (negative)
        raises it.
    low_aces:
        ``None`` without a 14/1 card, else ``True`` if they count as 1 and ``False`` as 14 (the reading
        that serves the holder best: see :func:`score_hand`, "The 14/1 Cards", ruling 7).
    perfect_zero:
        A total of exactly 0 from six cards that are exactly three distinct pairs ("Sneaking Through").
    """

    total: int
    low: int
    high: int
    pro: int
    bonuses: tuple[tuple[str, int], ...]
    low_aces: bool | None
    perfect_zero: bool

    @property
    def spread(self) -> int:
        """The range: highest number minus lowest."""
        return self.high - self.low


def _score_with(cards: Sequence[Card], rules: Sequence[BonusCard], low_aces: bool, has_aces: bool) -> Score:
    values = card_values(cards, low_aces=low_aces)
    counts = Counter(card.number for card in cards)
    pro = sum(duplicate_points(count) for count in counts.values())
    bonuses = tuple((rule.title, rule.points(cards, low_aces=low_aces)) for rule in rules)
    low, high = min(values), max(values)
    total = high - low - pro - sum(benefit for _, benefit in bonuses)
    three_pairs = len(cards) == HAND_SIZE and sorted(counts.values()) == [2, 2, 2]
    return Score(
        total=total,
        low=low,
        high=high,
        pro=pro,
        bonuses=bonuses,
        low_aces=low_aces if has_aces else None,
        perfect_zero=three_pairs and total == 0,
    )


def score_hand(
    cards: Sequence[Card], rules: Sequence[BonusCard], *, perfect_zero_counts: bool = False
) -> Score:
    """The MINIMIZE score of ``cards`` under the bonus ``rules`` in play (the two single-sided cards and
    the face-up side of the Shape or Colour card).

    "These cards can be either 14 or 1 at the choice of the player holding them" ("The 14/1 Cards"): the
    engine chooses for the holder the reading that serves them best (ruling 7). With
    ``perfect_zero_counts`` (someone else's challenge with more than two players playing, or an automatic
    challenge: a Perfect Zero would sneak the holder through) a reading that makes a Perfect Zero is taken;
    otherwise, and when neither reading is one, the reading with the lower total (14 on a tie).

    Raises
    ------
    ValueError
        For no cards.
    """
    if not cards:
        raise ValueError("A hand without cards has no MINIMIZE score.")
    if not any(card.number == FOURTEEN_ONE for card in cards):
        return _score_with(cards, rules, False, False)
    high = _score_with(cards, rules, False, True)
    low = _score_with(cards, rules, True, True)
    if perfect_zero_counts and high.perfect_zero != low.perfect_zero:
        return high if high.perfect_zero else low
    return low if low.total < high.total else high


@dataclass(frozen=True)
class ChallengeResult:
    """What the last challenge settled (public), for the table's "Last challenge" and "Result".

    Attributes
    ----------
    automatic:
        An automatic challenge (the draw piles ran out), not one a player said.
    best:
        The lowest score.
    outcome:
        ``"round"`` (a challenge in a round before the final), ``"final_tie"`` (a tie in the final: play
        goes on) or ``"final_won"`` (the final is won).
    round:
        The round it was in (``"round"`` outcomes).
    through, sneaks:
        How many players went through with the lowest score, and with a Perfect Zero (``"round"``).
    """

    automatic: bool
    best: int
    outcome: str
    round: int = 0
    through: int = 0
    sneaks: int = 0
