"""The table of Frazzled Wool's MINIMIZE: its typed actions and options, and what a game keeps (rounds,
who is in the game and still playing, the rule cards in play, challenge tokens, exchanges in progress, the
public claims of challenges), its deal and scripted deal, its queries and its hidden information.

The moves and the views are :class:`engine.frazzled.minimize.FrazzledMinimizeState`, built on
:class:`MinimizeTable`; rules source and rulings: see :mod:`engine.frazzled.minimize`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

from pydantic import Field as OptionField

from engine.core import GameOptions
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
from engine.frazzled.deck import DECK, Card
from engine.frazzled.declarations import Claim, fit_claims
from engine.frazzled.minimize_scoring import HAND_SIZE, ChallengeResult, Score, score_hand
from engine.frazzled.rule_cards import (
    ACTIONS_CARD,
    BONUS_BY_ID,
    BONUS_CARDS,
    SHAPE_OR_COLOUR,
    ActionsSide,
    BonusCard,
)
from engine.frazzled.snapshot import card_ids, cards_of, optional_int, rule_ids, rules_of
from engine.frazzled.table import FrazzledTable, Phase

DRAW_PILES = NUM_PILES
BONUS_IN_PLAY = 2
FINAL_TURNS = 3

CHALLENGE = "challenge"
FLIP_DUPLICATES = "flip.dup"
FLIP_ACTIONS = "flip.act"
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


class MinimizeTable(FrazzledTable[FrazzledMinimizeOptions]):
    """What a game of MINIMIZE keeps, every round of it, its deal and its queries.

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
        # seat -> its private record of the last exchange: (kind, cards, cards), see
        # words_minimize.exchange_note
        self._last_exchange: dict[int, tuple[str, tuple[Card, ...], tuple[Card, ...]]] = {}
        # seat -> what it declared at the last challenge: (said, value), see words_minimize.declared_text
        self._last_declared: dict[int, tuple[str, int]] = {}
        self._claims: dict[int, list[Claim]] = {}  # public facts about hands still in play (ruling 4)
        self._last_challenge: ChallengeResult | None = None
        self._last_out_round: int | None = None  # the last round in which a player was out
        self._round_changed = False  # set by a challenge that ended the round or the game
        if self._dup_side < 0:
            self._dup_side = self._rng.randrange(2)
        if self._actions_side < 0:
            self._actions_side = self._rng.randrange(2)
        if deal:
            self._deal_round(first=self._rng.randrange(num_seats))

    # -- engine snapshots ----------------------------------------------------------------------------

    def _snapshot_fields(self) -> dict[str, Any]:
        """Adds the rounds, who is in the game and in the round, the bonus cards (in play, and the pile top
        first) by their ids, the double-sided cards' sides, tokens, turns taken, what the next turn does,
        side B's gifts, each seat's notes of the last exchange and challenge (``[seat, ...]``), the claims
        made at challenges (their rules by id, cards by id) and the last challenge's result."""
        result = self._last_challenge
        return {
            **super()._snapshot_fields(),
            "round": self._round,
            "in_game": list(self._in_game),
            "eliminated": list(self._eliminated),
            "winner": self._winner,
            "finalist": self._finalist,
            "playing": list(self._playing),
            "through": list(self._through),
            "bonus": rule_ids(self._bonus),
            "bonus_pile": rule_ids(self._bonus_pile),
            "dup_side": self._dup_side,
            "actions_side": self._actions_side,
            "tokens": list(self._tokens),
            "middle": self._middle,
            "turns_taken": list(self._turns_taken),
            "auto_pending": self._auto_pending,
            "next_mode": self._next_mode,
            "gifts_needed": self._gifts_needed,
            "gifts": [[seat, list(ids)] for seat, ids in self._gifts.items()],
            "last_exchange": [
                [seat, kind, card_ids(one), card_ids(other)]
                for seat, (kind, one, other) in self._last_exchange.items()
            ],
            "last_declared": [[seat, said, value] for seat, (said, value) in self._last_declared.items()],
            "claims": [
                [
                    seat,
                    [
                        [
                            rule_ids(claim.rules),
                            claim.perfect_zero_counts,
                            claim.op,
                            claim.value,
                            card_ids(claim.added),
                            card_ids(claim.removed),
                        ]
                        for claim in claims
                    ],
                ]
                for seat, claims in self._claims.items()
            ],
            "last_challenge": None
            if result is None
            else [result.automatic, result.best, result.outcome, result.round, result.through, result.sneaks],
            "last_out_round": self._last_out_round,
            "round_changed": self._round_changed,
        }

    def _read_fields(self, data: dict[str, Any]) -> None:
        super()._read_fields(data)
        self._round = int(data["round"])
        self._in_game = [bool(playing) for playing in data["in_game"]]
        self._eliminated = [int(seat) for seat in data["eliminated"]]
        self._winner = optional_int(data["winner"])
        self._finalist = optional_int(data["finalist"])
        self._playing = [bool(playing) for playing in data["playing"]]
        self._through = [int(seat) for seat in data["through"]]
        self._bonus = rules_of(data["bonus"])
        self._bonus_pile = rules_of(data["bonus_pile"])
        self._dup_side = int(data["dup_side"])
        self._actions_side = int(data["actions_side"])
        self._tokens = [int(count) for count in data["tokens"]]
        self._middle = int(data["middle"])
        self._turns_taken = [int(count) for count in data["turns_taken"]]
        self._auto_pending = optional_int(data["auto_pending"])
        self._next_mode = str(data["next_mode"])
        self._gifts_needed = int(data["gifts_needed"])
        self._gifts = {int(seat): [int(card_id) for card_id in ids] for seat, ids in data["gifts"]}
        self._last_exchange = {
            int(seat): (str(kind), tuple(cards_of(one)), tuple(cards_of(other)))
            for seat, kind, one, other in data["last_exchange"]
        }
        self._last_declared = {
            int(seat): (str(said), int(value)) for seat, said, value in data["last_declared"]
        }
        self._claims = {
            int(seat): [
                Claim(
                    tuple(rules_of(rules)),
                    bool(counts),
                    str(op),
                    int(value),
                    cards_of(added),
                    cards_of(removed),
                )
                for rules, counts, op, value, added, removed in claims
            ]
            for seat, claims in data["claims"]
        }
        result = data["last_challenge"]
        self._last_challenge = (
            None
            if result is None
            else ChallengeResult(
                bool(result[0]), int(result[1]), str(result[2]), *(int(n) for n in result[3:6])
            )
        )
        self._last_out_round = optional_int(data["last_out_round"])
        self._round_changed = bool(data["round_changed"])
        if not len(self._in_game) == len(self._playing) == len(self._tokens) == self.num_seats:
            raise ValueError("a snapshot with players for another number of seats")
        if self._dup_side not in (0, 1) or self._actions_side not in (0, 1):
            raise ValueError("a double-sided card shows side 0 or 1")

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
    ) -> Self:
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

    def _to_act(self, seat: int) -> bool:
        if self._phase is Phase.GIVE:
            return self._playing[seat] and len(self._gifts[seat]) < self._gifts_needed
        return super()._to_act(seat)

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

    def _sorted_hand(self, seat: int) -> list[Card]:
        return sorted(self._hands[seat], key=lambda card: (card.number, card.id))

    def _resample_more(self, viewer: int | None, rng: random.Random) -> None:
        """The bonus pile's order is secret to everyone; the cards other seats chose to pass (side B) are
        redrawn from their new hands; the other seats' notes on the last exchange are dropped (they name
        cards the viewer did not see). Canonical: the pile is sorted before the shuffle."""
        self._reshuffle_unseen(rng)
        for seat, chosen in sorted(self._gifts.items()):
            if seat != viewer and chosen:
                hand = sorted(self._hands[seat], key=lambda card: card.id)
                self._gifts[seat] = [card.id for card in rng.sample(hand, len(chosen))]
        self._last_exchange = {seat: note for seat, note in self._last_exchange.items() if seat == viewer}

    def _reshuffle_unseen(self, rng: random.Random) -> None:
        """The face-down bonus pile, in a random order (sorted first: canonical). The cards a swap put at
        its bottom (ruling 6) are reshuffled with the rest: they come up only once every unseen card above
        them has been drawn."""
        self._bonus_pile.sort(key=lambda card: card.id)
        rng.shuffle(self._bonus_pile)

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
