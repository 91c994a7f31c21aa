"""Frazzled Wool's MINIMIZE (2021), for 3 to 8 players: keep the lowest score and get through each round.

Not to be confused with the project's two other "Minimize" games: IVAK's Minimize: Declare
(:mod:`engine.ivak_declare`) and Parlett's Minimisère (:mod:`engine.minimisere`).

Rules source: ``shared/seeds/000_d97c66fde1b75dcf.txt`` (MINIMIZE, with the turn as the TOKENIZE text
describes it) and the facts in ``shared/seeds/README.md``. The deck is :mod:`engine.frazzled.deck`, the
rule cards are :mod:`engine.frazzled.rule_cards`, the draw piles and the 14/1 / 2 fan exchange are
:mod:`engine.frazzled.table`. Rulings where the text is silent are numbered in ``docs/rules/minimize.md``;
the code cites them as "ruling N".

Seats sit clockwise in seat order: the player on seat ``s``'s *left* is the next seat still playing
(``s + 1``, wrapping), and play passes to the left (ruling 1).

A round: every player still in the game holds six cards; on a turn a player may first challenge (spending
their challenge token), then draws the top card of a face-up draw pile and discards a different card,
whose action (per the actions card side in play) is then performed. A challenge sends the lowest score
(and any Perfect Zero) through; when one player is left playing, that player is out and a new round is
dealt to the others. With two players left, the final decides the winner.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import Field as OptionField

from engine.core import (
    Event,
    Field,
    GameOptions,
    LegalAction,
    SeatLine,
    SeatView,
    Standing,
)
from engine.frazzled.actions import (
    NUM_PILES,
    CardAction,
    Discard,
    Draw,
    Fan,
    FrazzledAction,
    one_number,
    simple_action,
)
from engine.frazzled.deck import DECK, FOURTEEN_ONE, Card
from engine.frazzled.declarations import Claim, fit_claims
from engine.frazzled.fan import FanExchange
from engine.frazzled.rule_cards import (
    ACTIONS_CARD,
    BONUS_BY_ID,
    BONUS_CARDS,
    CHANGE_RULE,
    EXTRA_TURN,
    GIVE_ONE,
    GIVE_TWO,
    PASS_LEFT,
    PASS_RIGHT,
    SHAPE_OR_COLOUR,
    SKIP_NEXT,
    TAKE_ONE,
    TAKE_TWO,
    ActionsSide,
    BonusCard,
    card_values,
    duplicate_points,
)
from engine.frazzled.table import (
    NOT_NOW,
    NOT_YOUR_TURN,
    FrazzledRules,
    FrazzledTable,
    Phase,
    cards_word,
)

HAND_SIZE = 6
DRAW_PILES = NUM_PILES
BONUS_IN_PLAY = 2
FINAL_TURNS = 3
PILE_NAMES = ("A", "B", "C")

CHALLENGE = "challenge"
FLIP_DUPLICATES = "flip.dup"
FLIP_ACTIONS = "flip.act"

ACTION_SHORT = {
    TAKE_ONE: "everyone takes 1 card blind from the player on their right",
    TAKE_TWO: "everyone takes 2 cards blind from the player on their right",
    PASS_LEFT: "everyone passes their whole hand left",
    CHANGE_RULE: "you change a rule",
    EXTRA_TURN: "you take another turn",
    GIVE_ONE: "everyone passes 1 chosen card left",
    GIVE_TWO: "everyone passes 2 chosen cards left",
    PASS_RIGHT: "everyone passes their whole hand right",
    SKIP_NEXT: "the next player misses a turn",
}
"""Short action texts for select-menu descriptions (at most 100 characters)."""

Challenge = simple_action(CHALLENGE, "say 'challenge' at the start of your turn, spending your token.")
FlipDuplicates = simple_action(FLIP_DUPLICATES, "the 10: flip the Shape or Colour card.")
FlipActions = simple_action(FLIP_ACTIONS, "the 10: flip the actions card.")


class Give(CardAction):
    """``give.<card id>``: side B's 14/1 or 2, choose that card of your hand to pass left."""

    prefix = "give"


@dataclass(frozen=True)
class SwapBonus(FrazzledAction):
    """``swap.<index>``: the 10, replace the bonus card in play at ``index`` by the top of the bonus pile."""

    index: int

    @classmethod
    def from_code(cls, code: str) -> SwapBonus | None:
        index = one_number(code, "swap")
        return None if index is None else cls(index)

    def format(self) -> str:
        return f"swap.{self.index}"


class FrazzledMinimizeAction(FrazzledAction):
    """A MINIMIZE move: ``challenge``, ``draw.<pile>``, ``discard.<card id>``, ``fan.<position>``,
    ``give.<card id>``, ``flip.dup``, ``flip.act`` or ``swap.<index>``."""

    kinds = (Challenge, Draw, Discard, Fan, Give, FlipDuplicates, FlipActions, SwapBonus)


class FrazzledMinimizeOptions(GameOptions):
    """Which side of each double-sided card starts face up (the text does not say: ruling 14)."""

    duplicates_side: Literal["random", "colour", "shape"] = OptionField(
        "random", description="Shape or Colour card: the side face up at the start"
    )
    actions_side: Literal["random", "A", "B"] = OptionField(
        "random", description="Actions card: the side face up at the start (A: blind swap, B: pass it on)"
    )


# -- scoring -------------------------------------------------------------------------------------------


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

    def describe(self) -> str:
        """One line, e.g. ``"range 9−2 = 7 · pro −1 · Lucky Sixes −5 → 1"``."""
        parts = [f"range {self.high}−{self.low} = {self.spread}"]
        if self.low_aces is not None:
            parts[0] += f" (14/1 as {1 if self.low_aces else 14})"
        if self.pro:
            parts.append(f"pro −{self.pro}")
        for title, benefit in self.bonuses:
            if benefit:
                parts.append(f"{title} {-benefit:+d}")
        text = " · ".join(parts) + f" → {self.total}"
        if self.perfect_zero:
            text += " (Perfect Zero)"
        return text


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


def _cards_text(cards: Sequence[Card]) -> str:
    return ", ".join(card.label for card in sorted(cards, key=lambda card: (card.number, card.id))) or "none"


def _side_name(side: int) -> str:
    return ("Colour", "Shape")[side]


# -- the state ---------------------------------------------------------------------------------------


class FrazzledMinimizeState(FrazzledTable[FrazzledMinimizeOptions]):
    """A game of MINIMIZE in progress, every round of it.

    Secret information: each player's hand (to all others), the cards under the top of each draw pile,
    the order of the face-down bonus pile, where cards lie in a face-down fan, and which cards changed
    hands in an exchange (each player sees only what it received and gave). Everything else is public:
    the top of each draw pile (face up), pile sizes, the discard pile, the rule cards in play, challenge
    tokens, hand sizes, who is still playing, and every score announced at a challenge.
    """

    action_type = FrazzledMinimizeAction
    options_class = FrazzledMinimizeOptions

    def __init__(
        self, num_seats: int, seed: int, options: FrazzledMinimizeOptions, *, deal: bool = True
    ) -> None:
        super().__init__(num_seats, seed, options)
        self._round = 1
        self._in_game = [True] * num_seats
        self._eliminated: list[int] = []  # in order of elimination
        self._winner: int | None = None
        self._finalist: int | None = None
        self._playing = [True] * num_seats  # still playing this round (not through)
        self._through: list[int] = []  # this round, in order
        self._bonus: list[BonusCard] = []
        self._bonus_pile: list[BonusCard] = []  # top = first
        self._dup_side = {"colour": 0, "shape": 1}.get(options.duplicates_side, -1)
        self._actions_side = {"A": 0, "B": 1}.get(options.actions_side, -1)
        self._tokens = [1] * num_seats
        self._middle = 0
        self._turns_taken = [0] * num_seats
        self._auto_pending: int | None = None  # the seat that emptied the draw piles
        self._next_mode = ""  # "again" (13: another turn) or "skip" (13: next player misses a turn)
        self._gifts_needed = 0  # side B's 14/1 or 2: cards each player still playing passes left
        self._gifts: dict[int, list[int]] = {}  # card ids chosen so far, per seat
        self._last_exchange: dict[int, str] = {}
        self._last_declared: dict[int, str] = {}  # seat -> what it declared at the last challenge
        self._claims: dict[int, list[Claim]] = {}  # public facts about hands still in play (ruling 4)
        self._last_challenge = ""
        self._last_round_result = ""
        self._round_changed = False  # set by a challenge that ended the round or the game
        if self._dup_side < 0:
            self._dup_side = self._rng.randrange(2)
        if self._actions_side < 0:
            self._actions_side = self._rng.randrange(2)
        if deal:
            self._deal_round(first=self._rng.randrange(num_seats))

    # -- set-up ------------------------------------------------------------------------------------

    def _deal_round(self, first: int) -> None:
        """Shuffle the 78 cards, deal six to each player still in the game, split the rest into three
        face-up draw piles, one token each, two fresh bonus cards ("Setup"; new round: "Challenging")."""
        deck = list(DECK)
        self._rng.shuffle(deck)
        players = [seat for seat in range(self.num_seats) if self._in_game[seat]]
        self._hands = [[] for _ in range(self.num_seats)]
        for seat in players:
            self._hands[seat] = [deck.pop() for _ in range(HAND_SIZE)]
        self._piles = [deck[index::DRAW_PILES] for index in range(DRAW_PILES)]
        self._discard = []
        self._box = []
        bonus = list(BONUS_CARDS)
        self._rng.shuffle(bonus)
        self._bonus, self._bonus_pile = bonus[:BONUS_IN_PLAY], bonus[BONUS_IN_PLAY:]
        self._playing = list(self._in_game)
        self._through = []
        self._tokens = [1 if self._in_game[seat] else 0 for seat in range(self.num_seats)]
        self._middle = 0
        self._turn = first
        self._phase = Phase.DRAW
        self._drawn = None
        self._fan = None
        self._turns_taken = [0] * self.num_seats
        self._auto_pending = None
        self._next_mode = ""
        self._last_exchange = {}
        self._known = {}
        self._claims = {}
        self._last_declared = {}

    @classmethod
    def scripted(
        cls,
        hands: Sequence[Sequence[Card] | None],
        piles: Sequence[Sequence[Card]],
        *,
        bonus: Sequence[str] = ("rainbow", "cold"),
        bonus_pile: Sequence[str] | None = None,
        duplicates_side: int = 0,
        actions_side: int = 0,
        first: int = 0,
        discard: Sequence[Card] = (),
        eliminated: Sequence[int] = (),
        through: Sequence[int] = (),
        turns_taken: Sequence[int] | None = None,
        seed: int = 0,
    ) -> FrazzledMinimizeState:
        """A round with a known deal, for rule scenarios, tests and puzzles.

        Parameters
        ----------
        hands:
            One entry per seat: its six cards, ``[]`` for a seat already through this round, or ``None``
            for a seat already out of the game.
        piles:
            The three draw piles, each listed top card FIRST.
        bonus, bonus_pile:
            Ids of the bonus cards in play (two in a dealt game), and of the face-down pile top first
            (default: the other single-sided cards in :data:`BONUS_CARDS` order).
        duplicates_side, actions_side:
            0 (Colour / A) or 1 (Shape / B).
        first:
            The seat to play first.
        discard:
            The discard pile, bottom first.
        eliminated:
            The seats with ``None`` hands in order of elimination (default: seat order).
        through:
            The seats with ``[]`` hands, in the order they went through this round; their tokens are in
            the middle.
        turns_taken:
            Per seat, the turns taken this round (default: none; the final counts them).
        seed:
            Seed for what comes later (fan shuffles, the next rounds' deals).

        Cards not placed anywhere are set aside for the round.

        Raises
        ------
        ValueError
            If a card appears twice, a hand is not six cards, or the seats and piles do not fit.
        """
        for seat, hand in enumerate(hands):
            if hand is not None and len(hand) != (0 if seat in through else HAND_SIZE):
                raise ValueError("six cards per hand, none for a seat through, please")
        state = cls(
            len(hands), seed, FrazzledMinimizeOptions(duplicates_side="colour", actions_side="A"), deal=False
        )
        state._in_game = [hand is not None for hand in hands]
        out = [seat for seat in range(len(hands)) if hands[seat] is None]
        state._eliminated = list(eliminated) if eliminated else out
        if sorted(state._eliminated) != out or sum(state._in_game) < 2:
            raise ValueError("eliminated must list exactly the seats without a hand; two must play")
        if any(seat in out for seat in through) or sum(state._in_game) - len(through) < 2:
            raise ValueError("a seat through is in the game, and at least two are still playing")
        state._round = len(out) + 1
        state._deal_round(first)
        state._stack([hand or [] for hand in hands], [list(reversed(pile)) for pile in piles], discard)
        state._bonus = [BONUS_BY_ID[key] for key in bonus]
        rest = [card.id for card in BONUS_CARDS if card.id not in bonus]
        state._bonus_pile = [BONUS_BY_ID[key] for key in (bonus_pile if bonus_pile is not None else rest)]
        state._dup_side = duplicates_side
        state._actions_side = actions_side
        for seat in through:
            state._playing[seat] = False
            state._tokens[seat] = 0
            state._middle += 1
        state._through = list(through)
        if turns_taken is not None:
            state._turns_taken = list(turns_taken)
        return state

    # -- queries -----------------------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round number, 1 first."""
        return self._round

    @property
    def is_final(self) -> bool:
        """True in the final round: only two players are left in the game ("Final Round")."""
        return sum(self._in_game) == 2

    @property
    def actions_side(self) -> ActionsSide:
        side = ACTIONS_CARD.sides[self._actions_side]
        assert isinstance(side, ActionsSide)
        return side

    @property
    def duplicates_rule(self) -> BonusCard:
        side = SHAPE_OR_COLOUR.sides[self._dup_side]
        assert isinstance(side, BonusCard)
        return side

    def rules_in_play(self) -> tuple[BonusCard, ...]:
        """The bonus rules that score every hand: the two single-sided cards, then the Shape or Colour
        card's face-up side."""
        return (*self._bonus, self.duplicates_rule)

    @property
    def bonus_cards(self) -> tuple[BonusCard, ...]:
        """The single-sided bonus rule cards in play (public)."""
        return tuple(self._bonus)

    @property
    def bonus_pile(self) -> tuple[BonusCard, ...]:
        """The face-down bonus pile, top first (its order is secret: for tests and AI)."""
        return tuple(self._bonus_pile)

    def score(self, seat: int) -> Score:
        """``seat``'s MINIMIZE score now (its secret until announced at a challenge)."""
        return score_hand(self._hands[seat], self.rules_in_play())

    def playing(self) -> tuple[int, ...]:
        """Seats still playing this round (in the game and not yet through), in seat order."""
        return tuple(seat for seat in range(self.num_seats) if self._playing[seat])

    def in_game(self) -> tuple[int, ...]:
        """Seats still in the game (playing this round or through to the next), in seat order."""
        return tuple(seat for seat in range(self.num_seats) if self._in_game[seat])

    @property
    def eliminated(self) -> tuple[int, ...]:
        """Seats out of the game, in the order they went out."""
        return tuple(self._eliminated)

    @property
    def winner(self) -> int | None:
        """The seat that won the final, or ``None`` before the end."""
        return self._winner

    def tokens(self, seat: int) -> int:
        """Challenge tokens ``seat`` holds (0 or 1; public)."""
        return self._tokens[seat]

    @property
    def tokens_in_middle(self) -> int:
        """Challenge tokens in the middle of the table (public)."""
        return self._middle

    def turns_taken(self, seat: int) -> int:
        """Turns ``seat`` has taken this round (the final counts them)."""
        return self._turns_taken[seat]

    def left_of(self, seat: int) -> int:
        """The next seat still playing to the left of ``seat`` (clockwise, ``seat + 1`` onwards)."""
        for step in range(1, self.num_seats + 1):
            other = (seat + step) % self.num_seats
            if self._playing[other]:
                return other
        return seat

    def right_of(self, seat: int) -> int:
        """The next seat still playing to the right of ``seat`` (``seat - 1`` onwards)."""
        for step in range(1, self.num_seats + 1):
            other = (seat - step) % self.num_seats
            if self._playing[other]:
                return other
        return seat

    def seats_to_act(self) -> tuple[int, ...]:
        if self._phase is Phase.GIVE:
            return tuple(seat for seat in self.playing() if len(self._gifts[seat]) < self._gifts_needed)
        return super().seats_to_act()

    def may_challenge(self, seat: int) -> bool:
        """Whether ``seat`` may say 'challenge' now: at the start of its turn, with a token, and in the
        final only once each player has taken three turns ("Challenging", "Final Round")."""
        return self._challenge_refusal(seat) is None

    def _challenge_refusal(self, seat: int) -> str | None:
        if self._phase is not Phase.DRAW or seat != self._turn:
            return "You may challenge only at the start of your turn."
        if self._tokens[seat] < 1:
            return "You have no challenge token left this round."
        if self.is_final and not all(self._turns_taken[other] >= FINAL_TURNS for other in self.playing()):
            return "In the final, 'challenge' may be called only once each player has taken three turns."
        return None

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if seat not in self.seats_to_act():
            return ()
        if self._phase is Phase.DRAW:
            actions = [
                LegalAction(
                    Draw(index).format(),
                    f"Draw {pile[-1].label} from pile {PILE_NAMES[index]}",
                    "main",
                )
                for index, pile in enumerate(self._piles)
                if pile
            ]
            if self.may_challenge(seat):
                actions.append(LegalAction(CHALLENGE, "Challenge! (spend your token)", "bad"))
            return tuple(actions)
        if self._phase is Phase.DISCARD:
            assert self._drawn is not None
            group = f"Discard a card (then {self._drawn.label} goes into your hand)…"
            return tuple(
                LegalAction(
                    Discard(card).format(),
                    f"Discard {card.long_label}",
                    secret=True,
                    group=group,
                    description=self._action_note(card.number),
                )
                for card in self._sorted_hand(seat)
            )
        if self._phase is Phase.RULE:
            return self._rule_changes()
        if self._phase is Phase.FAN:
            # A blind pick from the fan on the right.
            assert self._fan is not None
            return tuple(
                LegalAction(
                    Fan(position).format(),
                    f"Card {position + 1} of the fan on your right",
                    group="Take a card blind from the face-down fan of the player on your right…",
                )
                for position in self._fan.open_positions(seat)
            )
        return tuple(
            LegalAction(
                Give(card).format(),
                f"Pass {card.long_label}",
                secret=True,
                group="Choose a card to pass to the player on your left…",
            )
            for card in self._sorted_hand(seat)
            if card.id not in self._gifts[seat]
        )

    def _sorted_hand(self, seat: int) -> list[Card]:
        return sorted(self._hands[seat], key=lambda card: (card.number, card.id))

    def _action_note(self, number: int) -> str:
        kind = self.actions_side.kind(number)
        return f"Action: {ACTION_SHORT[kind]}" if kind else "No action"

    def _rule_changes(self) -> tuple[LegalAction, ...]:
        other_dup = _side_name(1 - self._dup_side)
        other_actions = ("A", "B")[1 - self._actions_side]
        actions = [
            LegalAction(FLIP_DUPLICATES, f"Flip Shape or Colour to its {other_dup} side"),
            LegalAction(FLIP_ACTIONS, f"Flip the actions card to side {other_actions}"),
        ]
        for index, card in enumerate(self._bonus):
            actions.append(
                LegalAction(SwapBonus(index).format(), f"Replace “{card.title}” with a new bonus card")
            )
        return tuple(actions)

    def check(self, seat: int, action: FrazzledAction) -> str | None:  # type: ignore[override]
        """'Challenge' per :meth:`may_challenge`; a draw from a pile with cards; a discard of a card in
        hand (not the one drawn); a rule change after a 10; a fan position not yet picked; a card of
        one's hand not yet chosen to pass."""
        if isinstance(action, Challenge):
            return self._challenge_refusal(seat)
        if seat not in self.seats_to_act():
            return NOT_YOUR_TURN
        if isinstance(action, Draw) and self._phase is Phase.DRAW:
            return self._check_draw(action)
        if isinstance(action, Discard) and self._phase is Phase.DISCARD:
            return None if action.card in self._hands[seat] else "Discard a card of your hand."
        if isinstance(action, FlipDuplicates | FlipActions) and self._phase is Phase.RULE:
            return None
        if isinstance(action, SwapBonus) and self._phase is Phase.RULE:
            return None if action.index < len(self._bonus) else "There is no such bonus rule card."
        if isinstance(action, Fan) and self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.check(seat, action.position)
        if isinstance(action, Give) and self._phase is Phase.GIVE:
            if action.card not in self._hands[seat] or action.card.id in self._gifts[seat]:
                return "Choose another card of your hand to pass."
            return None
        return NOT_NOW

    def _default(self, seat: int) -> str:
        """The move played when ``seat``'s clock runs out (ruling 12): draw from the first non-empty
        pile (never a challenge; see the base), discard the card without an action that leaves the best
        score, flip the actions card, take the first fan position left (see the base), pass the card that
        leaves the best score."""
        if self._phase is Phase.RULE:
            return FLIP_ACTIONS
        rules = self.rules_in_play()
        if self._phase is Phase.DISCARD:
            assert self._drawn is not None
            drawn = self._drawn

            def discard_key(card: Card) -> tuple[bool, int, int]:
                rest = [other for other in self._hands[seat] if other is not card] + [drawn]
                has_action = self.actions_side.kind(card.number) is not None
                return has_action, score_hand(rest, rules).total, card.id

            return Discard(min(self._hands[seat], key=discard_key)).format()
        kept = [card for card in self._hands[seat] if card.id not in self._gifts[seat]]

        def give_key(card: Card) -> tuple[int, int]:
            return score_hand([other for other in kept if other is not card], rules).total, card.id

        return Give(min(kept, key=give_key)).format()

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, action: FrazzledAction) -> list[Event]:
        if isinstance(action, Challenge):
            return self._challenge(seat)
        if isinstance(action, Draw):
            return self._draw(seat, action.pile)
        if isinstance(action, Discard):
            return self._discard_card(seat, action.card)
        if isinstance(action, Fan):
            assert self._fan is not None
            self._fan.pick(seat, action.position)
            return self._maybe_finish_exchange(seat)
        if isinstance(action, Give):
            self._gifts[seat].append(action.card.id)
            return self._maybe_finish_exchange(seat)
        return self._change_rule(seat, action)

    def _draw(self, seat: int, index: int) -> list[Event]:
        """Take the top card of a non-empty draw pile; it joins the hand after the discard (TOKENIZE,
        "How to Play"; ruling 2)."""
        card = self._piles[index].pop()
        self._drawn = card
        self._phase = Phase.DISCARD
        events = [Event(seat, f"drew **{card.label}** from pile {PILE_NAMES[index]}")]
        if not any(self._piles):
            # "there must always be an automatic challenge as soon as all three draw piles are emptied"
            # — settled once this turn is over (ruling 9).
            self._auto_pending = seat
            events.append(Event(None, "All three draw piles are empty: an automatic challenge follows."))
        return events

    def _discard_card(self, seat: int, card: Card) -> list[Event]:
        assert self._drawn is not None
        self._hands[seat].remove(card)
        self._discard.append(card)
        self._hands[seat].append(self._drawn)
        self._learn(seat, [self._drawn])
        for claim in self._claims.get(seat, []):
            claim.replaced(card, self._drawn)
        self._drawn = None
        self._turns_taken[seat] += 1
        events = [Event(seat, f"discarded **{card.label}**")]
        kind = self.actions_side.kind(card.number)
        if kind is None:
            return events + self._end_turn()
        events.append(Event(seat, f"triggers the action: {self.actions_side.text(card.number)}"))
        if kind == CHANGE_RULE:
            self._phase = Phase.RULE
            return events
        if kind == EXTRA_TURN:
            self._next_mode = "again"
            return events + self._end_turn()
        if kind == SKIP_NEXT:
            self._next_mode = "skip"
            return events + self._end_turn()
        if kind in (PASS_LEFT, PASS_RIGHT):
            return events + self._pass_hands(kind) + self._end_turn()
        # Simultaneous choices: every player still playing picks at once (ruling 5).
        count = 1 if kind in (TAKE_ONE, GIVE_ONE) else 2
        if kind in (TAKE_ONE, TAKE_TWO):
            # fanned face down: the order says nothing
            self._fan = FanExchange.start(self._hands, count, self._rng, self.playing())
            self._phase = Phase.FAN
        else:
            self._gifts_needed = count
            self._gifts = {other: [] for other in self.playing()}
            self._phase = Phase.GIVE
        return events

    def _pass_hands(self, kind: str) -> list[Event]:
        """6: every player still playing passes their whole hand left (side A) or right (side B)."""
        players = self.playing()
        old = {seat: self._hands[seat] for seat in players}
        moved = {seat: self.left_of(seat) if kind == PASS_LEFT else self.right_of(seat) for seat in players}
        for seat, target in moved.items():
            self._hands[target] = old[seat]
        self._hands_moved(moved, self._hands_before(old))
        self._claims = {moved[seat]: claims for seat, claims in self._claims.items() if seat in moved}
        way, back = ("left", "right") if kind == PASS_LEFT else ("right", "left")
        for seat in players:
            self._last_exchange[seat] = (
                f"You passed your whole hand to the {way} and got the hand of the player on your {back}."
            )
        return [Event(None, f"Everyone passed their whole hand to the {way}.")]

    def _hands_before(self, old: dict[int, list[Card]]) -> list[list[Card]]:
        return [old.get(seat, []) for seat in range(self.num_seats)]

    def _maybe_finish_exchange(self, seat: int) -> list[Event]:
        fan = self._fan
        events: list[Event] = []
        count = fan.count if fan is not None else self._gifts_needed
        if len(fan.picked[seat] if fan is not None else self._gifts[seat]) == count:
            events.append(Event(seat, f"{'took' if fan is not None else 'chose'} {cards_word(count)}"))
        if self.seats_to_act():
            return events
        players = self.playing()
        if fan is not None:
            # each picker takes from the fan of the player on their right
            moves = self._resolve_fan()
            self._claims = {}  # cards changed hands blind
            for p in players:
                taken, lost = moves[p]
                self._last_exchange[p] = (
                    f"You took {_cards_text(taken)} from the fan on your right; "
                    f"the player on your left took {_cards_text(lost)} from yours."
                )
            way = "Everyone took"
        else:
            given = {p: [DECK[i] for i in self._gifts[p]] for p in players}
            received = {self.left_of(p): given[p] for p in players}
            for p in players:
                self._last_exchange[p] = (
                    f"You passed {_cards_text(given[p])} to the left and got "
                    f"{_cards_text(received[p])} from the player on your right."
                )
                self._hands[p] = [card for card in self._hands[p] if card not in given[p]] + received[p]
            self._forget(players)
            self._claims = {}  # chosen cards changed hands unseen
            for p in players:
                self._learn(self.left_of(p), given[p], viewer=p)
            way = "Everyone passed"
        for p in players:
            self._hands[p].sort(key=lambda card: card.id)
        events.append(Event(None, f"{way} {cards_word(count)}: the exchange is done."))
        self._fan = None
        self._gifts = {}
        self._gifts_needed = 0
        return events + self._end_turn()

    def _change_rule(self, seat: int, action: FrazzledAction) -> list[Event]:
        """10: flip a double-sided card, or replace a bonus card in play with the top of the bonus pile,
        the old one going to the bottom ("Actions"; ruling 6)."""
        if isinstance(action, FlipDuplicates):
            self._dup_side = 1 - self._dup_side
            events = [Event(seat, f"flipped Shape or Colour to its {_side_name(self._dup_side)} side")]
        elif isinstance(action, FlipActions):
            self._actions_side = 1 - self._actions_side
            events = [Event(seat, f"flipped the actions card to {self.actions_side.name}")]
        else:
            assert isinstance(action, SwapBonus)
            index = action.index
            old = self._bonus[index]
            self._bonus[index] = self._bonus_pile.pop(0)
            self._bonus_pile.append(old)
            events = [Event(seat, f"replaced “{old.title}” with “{self._bonus[index].display}”")]
        return events + self._end_turn()

    def _end_turn(self) -> list[Event]:
        """After the discard and its action: settle a pending automatic challenge, then pass the turn."""
        events: list[Event] = []
        mode, self._next_mode = self._next_mode, ""
        current = self._turn
        if self._auto_pending is not None:
            emptier, self._auto_pending = self._auto_pending, None
            events += self._settle(challenger=None, announcer=emptier)
            if self._phase is Phase.OVER or self._round_changed:
                return events
            # "shuffle the discard pile and split it into three equal draw piles to continue the round"
            cards = self._discard
            self._discard = []
            self._rng.shuffle(cards)
            self._piles = [cards[index::DRAW_PILES] for index in range(DRAW_PILES)]
            events.append(Event(None, "The discard pile is shuffled into three new draw piles."))
        self._phase = Phase.DRAW
        if mode == "again" and self._playing[current]:
            self._turn = current
            events.append(Event(current, "takes another turn"))
        else:
            self._turn = self.left_of(current)
            if mode == "skip":
                events.append(Event(self._turn, "misses a turn"))
                self._turn = self.left_of(self._turn)
        return events

    def _resample_more(self, viewer: int | None, rng: random.Random) -> None:
        """The bonus pile's order is secret to everyone; the cards other seats chose to pass (side B) are
        redrawn from their new hands; the other seats' notes on the last exchange are dropped (they name
        cards the viewer did not see). Canonical: the pile is sorted before the shuffle."""
        self._bonus_pile.sort(key=lambda card: card.id)
        rng.shuffle(self._bonus_pile)
        for seat, chosen in sorted(self._gifts.items()):
            if seat != viewer and chosen:
                hand = sorted(self._hands[seat], key=lambda card: card.id)
                self._gifts[seat] = [card.id for card in rng.sample(hand, len(chosen))]
        self._last_exchange = {seat: note for seat, note in self._last_exchange.items() if seat == viewer}

    # -- challenges --------------------------------------------------------------------------------

    def _challenge(self, seat: int) -> list[Event]:
        """'Challenge' at the start of a turn: the token goes to the middle, every score is announced and
        settled. A challenger still playing afterwards goes on with the turn (ruling 3)."""
        self._tokens[seat] -= 1
        self._middle += 1
        events = [Event(seat, "says **challenge** and spends their token")]
        events += self._settle(challenger=seat, announcer=seat)
        if self._phase is Phase.OVER or self._round_changed:
            return events
        if not self._playing[seat]:
            self._turn = self.left_of(seat)
        return events

    def _settle(self, challenger: int | None, announcer: int) -> list[Event]:
        """Declarations in turn order from the ``announcer``, then players go through.

        "Each player in turn then declares whether they have a lower score than this (an equal score is
        not good enough). If they do have a lower score, they reveal it." The first to declare reveals
        their score; a lower score is revealed and becomes the score to beat; any other player says only
        "not lower" — their score stays secret. Once everyone has declared, a player whose score equals
        the lowest says so only where the tie decides who goes through (ruling 4).

        Lowest score goes through; a tie for lowest sends the challenger through if involved, else no
        one ("Challenging"); an automatic challenge (``challenger=None``) sends no one through on a tie
        ("What if No One Wants to Challenge?"). With more than two players playing, Perfect Zeros other
        than the challenger sneak through too, unless every player has one ("Sneaking Through").
        In the final the lowest wins the game, the challenger on a tie ("Final Round").
        """
        self._round_changed = False
        order = [announcer]
        while len(order) < len(self.playing()):
            order.append(self.left_of(order[-1]))
        scores = {seat: self._challenge_score(seat, challenger, len(order)) for seat in order}
        events: list[Event] = []
        best: int | None = None
        leader = announcer  # the seat whose revealed score is the one to beat
        for seat in order:
            total = scores[seat].total
            if best is None:
                note = "the score to beat" if challenger is not None else "the score to beat (automatic)"
            elif total < best:
                note = "lower: the new score to beat"
            else:
                events.append(Event(seat, f"declares: not lower than **{best}**"))
                self._declare(seat, challenger, len(order), "ge", best, f"not lower than {best}")
                continue
            best, leader = total, seat
            events.append(Event(seat, f"reveals a score of **{total}** — {note}"))
            self._declare(seat, challenger, len(order), "eq", total, f"revealed {total}")
        assert best is not None
        lowest = [seat for seat in order if scores[seat].total == best]
        if leader != challenger:
            # a tie decides something only when the challenger's is not the score to beat
            for seat in lowest:
                if seat != leader:
                    events.append(Event(seat, f"declares a score equal to **{best}**: a tie for the lowest"))
                    self._declare(seat, challenger, len(order), "eq", best, f"tied the lowest, {best}")
        kind = "Challenge" if challenger is not None else "Automatic challenge"
        if self.is_final:
            return events + self._settle_final(challenger, lowest, best, kind)
        if len(lowest) == 1:
            through = [lowest[0]]
        elif challenger in lowest:
            through = [challenger]
        else:
            through = []
            events.append(Event(None, f"A tie for the lowest score ({best}): no one goes through that way."))
        sneaks: list[int] = []
        if len(order) > 2:  # "A Perfect Zero does not count when there are only two players."
            zeros = [seat for seat in order if scores[seat].perfect_zero]
            if len(zeros) == len(order):
                through = []
                events.append(Event(None, "Every player has a Perfect Zero: no one goes through."))
            else:
                sneaks = [seat for seat in zeros if seat != challenger and seat not in through]
        if len(through) + len(sneaks) == len(order):
            # Ruling 8: a round needs one player left to be out, so if everyone would go through no one does.
            through, sneaks = [], []
            events.append(Event(None, "Everyone would go through: no one does, and play continues."))
        if len(order) > 2 and (through or sneaks):
            # whoever could have sneaked through with a Perfect Zero and did not has none (public)
            for seat in order:
                if seat != challenger and seat not in through + sneaks:
                    self._claim(seat, Claim(self.rules_in_play(), True, "nz"))
        for seat in through + sneaks:
            how = "sneaks through with a Perfect Zero" if seat in sneaks else "goes through"
            shown = f"{_cards_text(self._hands[seat])} ({scores[seat].describe()})"
            events.append(Event(seat, f"{how}, showing {shown}"))
            self._go_through(seat)
        names = len(through) + len(sneaks)
        result = f"{kind}, round {self._round}: lowest score **{best}**; "
        result += f"{names} went through" if names else "no one went through"
        if sneaks:
            result += f" ({len(sneaks)} with a Perfect Zero)"
        self._last_challenge = result + " (what each declared is in Players)."
        if len(self.playing()) == 1:
            events += self._eliminate(self.playing()[0])
        return events

    def _challenge_score(self, seat: int, challenger: int | None, playing: int) -> Score:
        """``seat``'s score at a challenge, the 14/1 cards read as serves it best there (ruling 7): a
        Perfect Zero counts for a player other than the challenger while more than two are playing."""
        counts = playing > 2 and seat != challenger
        return score_hand(self._hands[seat], self.rules_in_play(), perfect_zero_counts=counts)

    def _declare(
        self, seat: int, challenger: int | None, playing: int, op: str, value: int, text: str
    ) -> None:
        """Record what ``seat`` declared: on its player line, and as a claim about its hand (ruling 4)."""
        counts = playing > 2 and seat != challenger
        self._claim(seat, Claim(self.rules_in_play(), counts, op, value))
        self._last_declared[seat] = text

    def _claim(self, seat: int, claim: Claim) -> None:
        """Add a public fact about ``seat``'s hand (once: a repeated declaration adds nothing)."""
        claims = self._claims.setdefault(seat, [])
        if claim not in claims:
            claims.append(claim)

    def _fit_hidden(self, viewer: int | None, rng: random.Random, known: dict[int, int]) -> None:
        """Redrawn hands keep to what their players declared at challenges (ruling 4; see
        :mod:`engine.frazzled.declarations`)."""
        slots = {seat: list(range(count, len(self._hands[seat]))) for seat, count in known.items()}
        claims = {seat: claims for seat, claims in self._claims.items() if seat != viewer and claims}
        pool = [(self._hands[seat], index) for seat in slots if seat not in claims for index in slots[seat]]
        pool += [(pile, index) for pile in self._piles for index in range(len(pile) - 1)]
        pool += [(self._box, index) for index in range(len(self._box))]

        def scorer(cards: Sequence[Card], rules: tuple[BonusCard, ...], counts: bool) -> tuple[int, bool]:
            score = score_hand(cards, rules, perfect_zero_counts=counts)
            return score.total, score.perfect_zero

        fit_claims(self._hands, slots, pool, claims, scorer, rng)
        self._box.sort(key=lambda card: card.id)

    def _settle_final(self, challenger: int | None, lowest: list[int], best: int, kind: str) -> list[Event]:
        if len(lowest) == 1:
            winner = lowest[0]
        elif challenger is not None:
            winner = challenger  # "If both players have the same score, then the player who said
            # 'challenge' wins the game."
        else:
            self._last_challenge = f"{kind} in the final: a tie at **{best}**, play goes on."
            return [Event(None, f"A tie at {best}: no one wins yet, and play continues.")]
        loser = next(seat for seat in self.playing() if seat != winner)
        self._winner, self._finalist = winner, loser
        self._in_game[loser] = False
        self._phase = Phase.OVER
        self._round_changed = True
        self._last_challenge = f"{kind} in the final: the winner scored **{best}**."
        return [
            Event(winner, f"wins the game, showing {_cards_text(self._hands[winner])}"),
            Event(loser, f"is the runner-up, showing {_cards_text(self._hands[loser])}"),
        ]

    def _go_through(self, seat: int) -> None:
        """The player's cards go on the discard pile, their tokens to the middle ("Challenging")."""
        self._discard.extend(self._hands[seat])
        self._hands[seat] = []
        self._middle += self._tokens[seat]
        self._tokens[seat] = 0
        self._claims.pop(seat, None)
        self._playing[seat] = False
        self._through.append(seat)

    def _eliminate(self, seat: int) -> list[Event]:
        """The last player left playing is out; a new round starts with those who went through."""
        self._in_game[seat] = False
        self._eliminated.append(seat)
        self._round_changed = True
        out_round = self._round
        self._round += 1
        self._last_round_result = f"Round {out_round}: one player was out (❌ in Players)."
        events = [
            Event(seat, f"is out in round {out_round}, holding {_cards_text(self._hands[seat])}"),
            Event(None, f"Round {self._round} begins: new cards, one token each, two new bonus cards."),
        ]
        # Ruling 11: the player on the left of the one who is out starts the new round.
        first = next(
            (seat + step) % self.num_seats
            for step in range(1, self.num_seats + 1)
            if self._in_game[(seat + step) % self.num_seats]
        )
        self._deal_round(first)
        return events

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        table = list(self._table_fields())
        seats = tuple(
            SeatLine(seat=other, summary=self._seat_summary(other), to_act=other in self.seats_to_act())
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            private = self._private_fields(seat)
        return SeatView(
            seat=seat,
            title=self._title(),
            table=tuple(table),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
        )

    def _title(self) -> str:
        if self._phase is Phase.OVER:
            return "MINIMIZE: game over"
        stage = "the final" if self.is_final else f"round {self._round}"
        return f"MINIMIZE · {stage} · {len(self.playing())} playing · {sum(self._in_game)} in the game"

    def _table_fields(self) -> list[Field]:
        if self._phase is Phase.OVER:
            return [Field("Result", self._last_challenge or "The game is over.")]
        piles = []
        for index, pile in enumerate(self._piles):
            if pile:
                top = f"**{pile[-1].label}** on top, {cards_word(len(pile))}"
            else:
                top = "empty"
            piles.append(f"{PILE_NAMES[index]}: {top}")
        discard = (
            f"**{self._discard[-1].label}** on top, {cards_word(len(self._discard))}"
            if self._discard
            else "empty"
        )
        fields = [
            Field("Draw piles (face up)", "\n".join(piles)),
            Field("Discard pile", discard),
            Field("Now", self._now_text()),
        ]
        for card in self._bonus:
            fields.append(Field(f"Bonus rule: {card.title}", card.text))
        dup = self.duplicates_rule
        fields.append(Field(f"Shape or Colour ({_side_name(self._dup_side)} side)", dup.text))
        fields.append(Field(f"Actions card ({self.actions_side.name})", self.actions_side.display))
        fields.append(
            Field(
                "Scoring",
                "Range (highest − lowest number) − pro points (pairs 1, threes 3, fours+ 5) − bonuses"
                " + penalties. 14/1 counts all as 14 or all as 1, as serves its holder best: a Perfect Zero"
                " that sneaks them through, else the lower score. Lowest wins. At a challenge a player who"
                " is not lower only says so.",
            )
        )
        fields.append(Field("Challenge tokens", f"{self._middle} in the middle; 🪙 in Players = holds one"))
        if self._last_challenge:
            fields.append(Field("Last challenge", self._last_challenge))
        if self._last_round_result:
            fields.append(Field("Last round", self._last_round_result))
        return fields

    def _now_text(self) -> str:
        if self._phase is Phase.DRAW:
            text = "The player to act draws from a pile, or says 'challenge' first."
            if self.is_final:
                taken = " / ".join(str(min(self._turns_taken[seat], FINAL_TURNS)) for seat in self.playing())
                text += f" Final: 'challenge' once each player has taken 3 turns (taken: {taken})."
            return text
        if self._phase is Phase.DISCARD:
            assert self._drawn is not None
            return f"The player to act drew **{self._drawn.label}** and now discards a different card."
        if self._phase is Phase.RULE:
            return "The player to act changes a rule (10)."
        if self._fan is not None:
            count = cards_word(self._fan.count)
            return f"Everyone takes {count} blind from the face-down fan of the player on their right."
        count = cards_word(self._gifts_needed)
        return f"Everyone chooses {count} from their hand to pass to the player on their left."

    def _seat_summary(self, seat: int) -> str:
        if self._winner == seat:
            return "🏆 winner"
        if self._finalist == seat:
            return "🥈 runner-up (lost the final)"
        if not self._in_game[seat]:
            return f"❌ out in round {self._eliminated.index(seat) + 1}"
        if not self._playing[seat]:
            return "✅ through to the next round"
        parts = [f"{len(self._hands[seat])} cards"]
        parts.append("🪙 token" if self._tokens[seat] else "no token")
        if self.is_final:
            parts.append(f"{self._turns_taken[seat]} turns")
        if seat in self._last_declared:
            parts.append(f"last challenge: {self._last_declared[seat]}")
        return " · ".join(parts)

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        if not self._hands[seat]:
            return (Field("Your hand", "No cards: you are not playing this round."),)
        hand = "\n".join(card.long_label for card in self._sorted_hand(seat))
        score = self.score(seat)
        fields = [Field("Your hand", hand), Field("Your score now", score.describe())]
        zero = score_hand(self._hands[seat], self.rules_in_play(), perfect_zero_counts=True)
        if zero != score:
            fields.append(
                Field(
                    "At someone else's challenge",
                    f"{zero.describe()}: with more than two playing, a Perfect Zero sneaks you through, so"
                    " your 14/1 cards are read that way there (ruling 7).",
                )
            )
        if self._phase is Phase.DISCARD and seat == self._turn and self._drawn is not None:
            fields.append(
                Field("You drew", f"{self._drawn.long_label} (it joins your hand after your discard)")
            )
        if self._fan is not None and self._fan.picked.get(seat):
            chosen = ", ".join(f"card {position + 1}" for position in self._fan.picked[seat])
            fields.append(Field("You picked", f"{chosen} of the fan on your right"))
        if self._gifts.get(seat):
            fields.append(Field("You chose to pass", _cards_text([DECK[i] for i in self._gifts[seat]])))
        if seat in self._last_exchange:
            fields.append(Field("Last exchange", self._last_exchange[seat]))
        return tuple(fields)

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """The winner first, the runner-up second, then the others by reverse order of elimination.
        ``points`` = rounds got through (the winner's final counts), so higher is better."""
        if self._phase is not Phase.OVER:
            raise RuntimeError("The game is not over.")
        points = []
        details = []
        for seat in range(self.num_seats):
            if seat == self._winner:
                points.append(len(self._eliminated) + 1)
                details.append("won the final")
            elif seat == self._finalist:
                points.append(len(self._eliminated))
                details.append("lost the final")
            else:
                out = self._eliminated.index(seat)
                points.append(out)
                details.append(f"out in round {out + 1}")
        return self._standings(points, details, lower_is_better=False)


class FrazzledMinimize(FrazzledRules[FrazzledMinimizeOptions]):
    """MINIMIZE: lowest range-based score gets through; one player out per round."""

    key = "minimize"
    display_name = "MINIMIZE"
    summary = (
        "Draw, discard, and challenge when your hand's range-based score is the lowest. One player is out "
        "each round; win the final."
    )
    winning_rule = "last player standing wins"
    state_class = FrazzledMinimizeState
