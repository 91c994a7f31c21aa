"""TOKENIZE (Frazzled Wool, 2021), for 3 to 8 players: make sets of three similar cards to score.

Rules source: the TOKENIZE section of ``shared/seeds/000_d97c66fde1b75dcf.txt`` and the deck facts in
``shared/seeds/README.md``; the bonus rule cards are :mod:`engine.frazzled_rules`. Rulings where the text
is silent are numbered in ``docs/rules/tokenize.md`` and cited here as "(ruling N)".

(The module is not called ``tokenize`` so that it does not shadow the standard library's.)

A turn: draw the top card of any face-up draw pile, discard a different card from your hand, then carry
out the discarded card's action. At any moment - also during someone else's turn - a player holding a set
of three may declare it: 10 points plus the bonus rule cards in play; the set leaves the game and its
maker draws three fresh cards.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations
from typing import ClassVar

from engine.core import (
    Event,
    Field,
    GameOptions,
    GameRules,
    GameState,
    IllegalAction,
    LegalAction,
    SeatLine,
    SeatView,
    Standing,
    competition_ranks,
)
from engine.frazzled_common import (
    ACTION_NUMBERS,
    HAND_SIZE,
    NUM_PILES,
    FanExchange,
    Tokens,
    action_name,
    card_fields,
    cards_text,
    draw_actions,
    exchange_text,
    in_menus,
    left_of,
    non_empty_piles,
    parse_index,
    pass_hands_left,
    piles_text,
    shuffled_deck,
    sorted_cards,
    split_into_piles,
)
from engine.frazzled_deck import DECK, FOURTEEN_ONE, Card
from engine.frazzled_rules import BONUS_CARDS, BonusCard

SET_POINTS = 10
BONUS_IN_PLAY = 3
RESHUFFLE_MINIMUM = 10
MAX_EMPTYINGS = 3
MAX_SET_CHOICES = 50
KEEP = "keep"

DRAW = "draw"
DISCARD = "discard"
FAN = "fan"
TOKEN = "token"
BONUS = "bonus"
OVER = "over"

NUMBER_SET = "number"
COLOUR_SET = "colour"
SHAPE_SET = "shape"


class TokenizeOptions(GameOptions):
    """TOKENIZE has no table options: the text fixes every number."""


def set_kind(cards: Sequence[Card], colours: Sequence[int], shapes: Sequence[int]) -> str | None:
    """What makes three cards a set for a player holding the colour and shape tokens given, or ``None``.

    "A set of similar cards means: Three cards of the same number; Three cards of the same colour which
    match your colour token; Three cards of the same shape which match your shape token." With several
    tokens (after 13s) the colour or shape may match any one of them (ruling 4). The deck never has two
    cards sharing a number and a colour (or shape), so three cards are at most one kind of set.
    """
    if len(cards) != 3:
        return None
    if len({card.number for card in cards}) == 1:
        return NUMBER_SET
    if len({card.colour for card in cards}) == 1 and cards[0].colour in colours:
        return COLOUR_SET
    if len({card.shape for card in cards}) == 1 and cards[0].shape in shapes:
        return SHAPE_SET
    return None


def set_points(cards: Sequence[Card], bonus_cards: Sequence[BonusCard]) -> tuple[int, list[tuple[str, int]]]:
    """A set's score and the bonus cards that changed it: ``(points, [(title, benefit), ...])``.

    "For each set of three similar cards, you score 10 points, plus or minus any points from applicable
    bonus rule cards." A 14/1 card in the set counts as 14 or as 1 for the bonus cards, whichever gives the
    set more points in total, every 14/1 read the same way (ruling 5).
    """
    best: tuple[int, list[tuple[str, int]]] | None = None
    for low_aces in (False, True):
        parts = [(card.title, card.points(cards, low_aces=low_aces)) for card in bonus_cards]
        total = SET_POINTS + sum(benefit for _, benefit in parts)
        if best is None or total > best[0]:
            best = (total, [(title, benefit) for title, benefit in parts if benefit])
        if not any(card.number == FOURTEEN_ONE for card in cards):
            break
    assert best is not None
    return best


class TokenizeState(GameState[TokenizeOptions]):
    """A game of TOKENIZE in progress.

    Public: scores and declared sets, every hand's size, the top card and size of each draw pile, the
    discard pile's top card and size, the three bonus rule cards in play (full text), every player's
    tokens and those in the middle, how often the piles have run out, and the card the player to act has
    just drawn (it came off a face-up pile). Secret: the cards in each hand (to all but its owner), the
    draw piles below their tops, the bonus pile's order, and the order of each face-down fan.
    """

    def __init__(self, num_seats: int, seed: int, options: TokenizeOptions) -> None:
        super().__init__(num_seats, seed, options)
        self._rng = random.Random(seed)
        deck = shuffled_deck(self._rng)
        # "deal six cards to each player ... Split the remaining cards into three equal decks ... face up".
        self._hands: list[list[Card]] = [
            deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(num_seats)
        ]
        self._piles: list[list[Card]] = split_into_piles(deck[num_seats * HAND_SIZE :])
        self._discard: list[Card] = []
        self._box: list[Card] = []  # cards left out of a scripted deal (never in a real game)
        self._tokens = Tokens.deal(num_seats, self._rng)
        # "Shuffle the bonus rule cards and place three in the centre ... Put the rest in a face down pile."
        bonus = list(BONUS_CARDS)
        self._rng.shuffle(bonus)
        self._bonus: list[BonusCard] = bonus[:BONUS_IN_PLAY]
        self._bonus_pile: list[BonusCard] = bonus[BONUS_IN_PLAY:]  # index 0 is the top
        self._scores = [0] * num_seats
        self._sets: list[list[tuple[Card, ...]]] = [[] for _ in range(num_seats)]
        # "Decide who goes first": drawn from the seed (ruling 1).
        self._turn = self._rng.randrange(num_seats)
        self._phase = DRAW
        self._drawn: Card | None = None  # drawn this turn, not yet in the hand
        self._emptied = 0  # times the three draw piles have run out
        self._reshuffles = 0
        self._fan: FanExchange | None = None
        self._notes: dict[int, str] = {}
        self._last_set = ""
        self._ending = ""
        self._turns = 1

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        hands: Sequence[Sequence[Card]],
        *,
        piles: Sequence[Sequence[Card]] | None = None,
        discard: Sequence[Card] = (),
        bonus: Sequence[str] = ("thirteen", "wild", "high"),
        colours: Sequence[Sequence[int]] | None = None,
        shapes: Sequence[Sequence[int]] | None = None,
        first: int = 0,
        seed: int = 0,
    ) -> TokenizeState:
        """A game with a known deal, for rule scenarios (tests only).

        Parameters
        ----------
        hands:
            Per seat, the cards in hand.
        piles:
            The three draw piles, each bottom to top (default: all empty, so the first draw of a pile
            must be scripted).
        discard:
            The discard pile, bottom to top.
        bonus:
            Ids of the three bonus cards in play; the others form the bonus pile in deck order.
        colours, shapes:
            Per seat, token indices (default: seat ``s`` holds colour ``s`` and shape ``s``).
        first:
            The seat to play first.

        Cards not placed anywhere stay in the box, out of the game.

        Raises
        ------
        ValueError
            If a card is placed twice, a bonus id is unknown, or the lists do not match the seat count.
        """
        piles = piles if piles is not None else [[], [], []]
        if len(hands) != num_seats or len(piles) != NUM_PILES or len(bonus) != BONUS_IN_PLAY:
            raise ValueError("one hand per seat, three piles and three bonus cards")
        placed = [card for group in (*hands, *piles, discard) for card in group]
        if len(set(placed)) != len(placed):
            raise ValueError("a card is placed twice")
        by_id = {card.id: card for card in BONUS_CARDS}
        if not set(bonus) <= set(by_id):
            raise ValueError(f"unknown bonus card in {bonus}")
        state = cls(num_seats, seed, TokenizeOptions())
        state._hands = [list(hand) for hand in hands]
        state._piles = [list(pile) for pile in piles]
        state._discard = list(discard)
        state._box = [card for card in DECK if card not in set(placed)]
        state._bonus = [by_id[key] for key in bonus]
        state._bonus_pile = [card for card in BONUS_CARDS if card.id not in bonus]
        state._tokens = Tokens.from_lists(
            colours if colours is not None else [[seat] for seat in range(num_seats)],
            shapes if shapes is not None else [[seat] for seat in range(num_seats)],
        )
        state._turn = first
        return state

    # -- queries -----------------------------------------------------------------------------------

    def seats_to_act(self) -> tuple[int, ...]:
        if self._phase == OVER:
            return ()
        if self._phase == FAN:
            assert self._fan is not None
            return self._fan.waiting()
        return (self._turn,)

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand in display order (its secret)."""
        return tuple(sorted_cards(self._hands[seat]))

    def score(self, seat: int) -> int:
        return self._scores[seat]

    @property
    def bonus_cards(self) -> tuple[BonusCard, ...]:
        """The three bonus rule cards in play (public)."""
        return tuple(self._bonus)

    def sets_available(self, seat: int) -> list[tuple[Card, ...]]:
        """Every set ``seat`` could declare from its hand now, ascending by card ids (at most 50, ruling 12).

        None while the hands are fanned out for a 14/1 or 2 exchange (ruling 8) or after the end.
        """
        if self._phase in (FAN, OVER):
            return []
        hand = self._hands[seat]
        if len(hand) < 3:
            return []
        groups: dict[tuple[str, int], list[Card]] = defaultdict(list)
        colours, shapes = self._tokens.colours[seat], self._tokens.shapes[seat]
        for card in hand:
            groups[(NUMBER_SET, card.number)].append(card)
            if card.colour in colours:
                groups[(COLOUR_SET, card.colour)].append(card)
            if card.shape in shapes:
                groups[(SHAPE_SET, card.shape)].append(card)
        found = {
            tuple(sorted(trio, key=lambda card: card.id))
            for group in groups.values()
            if len(group) >= 3
            for trio in combinations(group, 3)
        }
        return sorted(found, key=lambda trio: tuple(card.id for card in trio))[:MAX_SET_CHOICES]

    def _set_actions(self, seat: int) -> list[LegalAction]:
        actions = []
        for trio in self.sets_available(seat):
            points, parts = set_points(trio, self._bonus)
            kind = set_kind(trio, self._tokens.colours[seat], self._tokens.shapes[seat])
            bonus = "".join(f", {title} {benefit:+d}" for title, benefit in parts)
            actions.append(
                LegalAction(
                    "set." + ".".join(str(card.id) for card in trio),
                    f"Set: {' + '.join(card.label for card in trio)} ({points} pts)",
                    "success",
                    secret=True,
                    description=f"{kind} set: 10{bonus} = {points}"[:100],
                )
            )
        return actions

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if self._phase == OVER:
            return ()
        # "someone has a set of three cards at any point during their or someone else's turn": an
        # optional action for every seat, at any moment except during a fan exchange (ruling 8).
        sets = in_menus(self._set_actions(seat), "Declare a set…", buttons_up_to=3)
        if seat not in self.seats_to_act():
            return sets
        if self._phase == FAN:
            assert self._fan is not None
            return self._fan.actions(seat)
        if self._phase == DRAW:
            return draw_actions(self._piles) + sets
        if self._phase == TOKEN:
            return self._tokens.choices(seat) + sets
        if self._phase == BONUS:
            return self._bonus_actions() + sets
        # DISCARD: "discard a different card from their hand" (not the card just drawn).
        if not self._hands[seat]:
            assert self._drawn is not None
            keep = LegalAction(KEEP, f"Keep {self._drawn.label} (no card to discard)", "primary")
            return (keep,) + sets
        discards = [
            LegalAction(
                f"discard.{card.id}",
                f"Discard {card.label}",
                "primary",
                secret=True,
                description=_action_text(card)[:100],
            )
            for card in sorted_cards(self._hands[seat])
        ]
        return in_menus(discards, "Discard a card…") + sets

    def _bonus_actions(self) -> tuple[LegalAction, ...]:
        return tuple(
            LegalAction(f"bonus.{slot}", f"Replace {card.title}"[:80], "primary", description=card.text[:100])
            for slot, card in enumerate(self._bonus)
        )

    def public_actions(self) -> tuple[LegalAction, ...]:
        """During an exchange, the fan positions of every picker in one menu; otherwise the default (the
        non-secret actions of the seat to act: draws, token or bonus choices, keep)."""
        if self._phase == FAN and self._fan is not None:
            return self._fan.public_actions()
        return super().public_actions()

    def default_action(self, seat: int) -> str:
        """On a timeout (ruling 11): draw from the first pile; discard the lowest card without an action
        (else the lowest card); pick the first fan position not yet picked; replace the first bonus card;
        take the first token offered. Never declare a set."""
        if seat not in self.seats_to_act():
            raise IllegalAction("It is not your turn.")
        if self._phase == FAN:
            assert self._fan is not None
            return self._fan.default(seat)
        if self._phase == DRAW:
            return draw_actions(self._piles)[0].code
        if self._phase == TOKEN:
            return self._tokens.choices(seat)[0].code
        if self._phase == BONUS:
            return "bonus.0"
        hand = sorted_cards(self._hands[seat])
        if not hand:
            return KEEP
        quiet = [card for card in hand if card.number not in ACTION_NUMBERS]
        return f"discard.{(quiet or hand)[0].id}"

    def refusal(self, seat: int, code: str) -> str:
        if self._phase == FAN and self._fan is not None:
            words = self._fan.refusal(seat, code)
            if words:
                return words
            if code.startswith("set."):
                return "Your cards are fanned out for the exchange: declare the set once it is done."
        if code.startswith("set."):
            return "Those three cards in your hand are not a set for you."
        return super().refusal(seat, code)

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, code: str) -> list[Event]:
        if code.startswith("set."):
            return self._declare(seat, [DECK[int(part)] for part in code.split(".")[1:]])
        if self._phase == FAN:
            return self._pick(seat, parse_index(code, "fan"))
        if self._phase == DRAW:
            return self._draw(seat, parse_index(code, "draw"))
        if self._phase == TOKEN:
            return [Event(seat, self._tokens.apply(seat, code))] + self._next_turn()
        if self._phase == BONUS:
            return self._replace_bonus(seat, parse_index(code, "bonus"))
        if code == KEEP:
            assert self._drawn is not None
            self._hands[seat].append(self._drawn)
            self._drawn = None
            return [Event(seat, "has no card to discard and keeps the card drawn")] + self._next_turn()
        return self._discard_card(seat, DECK[parse_index(code, "discard")])

    def _draw(self, seat: int, pile: int) -> list[Event]:
        """ "This player must pick up a card from any one of the three draw piles" (face up: public)."""
        card = self._piles[pile].pop()
        self._drawn = card
        self._phase = DISCARD
        events = [Event(seat, f"drew **{card.label}** from pile {pile + 1}")]
        return events + self._check_piles()

    def _discard_card(self, seat: int, card: Card) -> list[Event]:
        """ "before they put it in their hand, they must discard a different card from their hand onto the
        discard pile, face up"; the drawn card then joins the hand, before the action (ruling 6)."""
        assert self._drawn is not None
        self._hands[seat].remove(card)
        self._discard.append(card)
        self._hands[seat].append(self._drawn)
        self._drawn = None
        events = [Event(seat, f"discarded **{card.label}**")]
        number = card.number
        if number in (FOURTEEN_ONE, 2):
            count = 1 if number == FOURTEEN_ONE else 2
            fan = FanExchange.start(self._hands, count, self._rng)
            if fan.is_done():
                return events + [Event(None, "Nobody has a card to fan out.")] + self._next_turn()
            self._fan = fan
            self._phase = FAN
            words = "1 card" if count == 1 else "2 cards"
            return events + [
                Event(
                    None,
                    f"{card.number_text}: everyone picks {words} from the face-down fan of the player on "
                    "their right.",
                )
            ]
        if number == 6:
            self._hands = pass_hands_left(self._hands)
            for other in range(self.num_seats):
                given = self._hands[left_of(other, self.num_seats)]
                self._notes[other] = exchange_text(self._hands[other], given, passed=True)
            return (
                events + [Event(None, "6: everyone passes their whole hand to the left.")] + self._next_turn()
            )
        if number == 10:
            self._phase = BONUS
            return events + [Event(None, "10: a bonus rule card to replace.")]
        if number == 13:
            if not self._tokens.choices(seat):
                return events + [Event(None, "13: there is no token to take.")] + self._next_turn()
            self._phase = TOKEN
            return events + [Event(None, "13: a token to take.")]
        return events + self._next_turn()

    def _replace_bonus(self, seat: int, slot: int) -> list[Event]:
        """The 10: "discards a bonus rule card of their choice and draws a new one from the top of the
        bonus rule card deck"; the discarded card goes to the bottom of that deck (ruling 9)."""
        old = self._bonus[slot]
        new = self._bonus_pile.pop(0)
        self._bonus_pile.append(old)
        self._bonus[slot] = new
        events = [Event(seat, f"replaced the bonus rule **{old.title}** with **{new.title}**: {new.text}")]
        return events + self._next_turn()

    def _pick(self, seat: int, position: int) -> list[Event]:
        fan = self._fan
        assert fan is not None
        fan.pick(seat, position)
        if not fan.is_done():
            return []
        for other, (received, given) in fan.resolve(self._hands).items():
            if received or given:
                self._notes[other] = exchange_text(received, given)
        self._fan = None
        return [
            Event(None, "The exchange is done; each picked card is now in its picker's hand.")
        ] + self._next_turn()

    def _declare(self, seat: int, cards: list[Card]) -> list[Event]:
        """Making a set: "show that set of cards to the other players and score points based on the set.
        Those cards are then removed from the game ... and the player draws three new cards - one from
        each draw pile (use the same draw pile if there are not enough draw piles)" (ruling 7)."""
        points, parts = set_points(cards, self._bonus)
        for card in cards:
            self._hands[seat].remove(card)
        self._scores[seat] += points
        self._sets[seat].append(tuple(cards))
        bonus = "".join(f", {title} {benefit:+d}" for title, benefit in parts)
        shown = ", ".join(card.label for card in cards)
        self._last_set = f"{shown}: 10{bonus} = **{points}**"
        events = [Event(seat, f"declared a set: **{shown}** for **{points}** points (10{bonus})")]
        drawn: list[str] = []
        for index in range(3):
            piles = non_empty_piles(self._piles)
            if self._phase == OVER or not piles:
                break
            pile = index if index in piles else piles[0]
            card = self._piles[pile].pop()
            self._hands[seat].append(card)
            drawn.append(f"{card.label} (pile {pile + 1})")
            check = self._check_piles()
            if check:
                events.append(Event(seat, f"drew {', '.join(drawn)}"))
                drawn = []
                events.extend(check)
        if drawn:
            events.append(Event(seat, f"drew {', '.join(drawn)}"))
        return events

    def _check_piles(self) -> list[Event]:
        """The end: "Once all three draw piles are emptied, check how many cards are in the discard pile.
        If there are less than ten cards the game ends immediately. If there are ten or more cards, the
        discard pile is shuffled and three new draw piles are formed. Make this check for a second time
        once the draw piles are emptied again, but after the third time the game always ends" (ruling 10).
        """
        if non_empty_piles(self._piles):
            return []
        self._emptied += 1
        if self._emptied >= MAX_EMPTYINGS:
            return self._finish("The draw piles ran out for the third time: the game is over.")
        if len(self._discard) < RESHUFFLE_MINIMUM:
            return self._finish(
                f"The draw piles ran out and the discard pile has only {len(self._discard)} cards: "
                "the game is over."
            )
        cards = list(self._discard)
        self._rng.shuffle(cards)
        self._discard = []
        self._piles = split_into_piles(cards)
        self._reshuffles += 1
        return [
            Event(
                None,
                f"The draw piles ran out: the discard pile ({len(cards)} cards) is shuffled into three new "
                f"draw piles (reshuffle {self._reshuffles} of {MAX_EMPTYINGS - 1}).",
            )
        ]

    def _next_turn(self) -> list[Event]:
        self._turn = left_of(self._turn, self.num_seats)
        self._phase = DRAW
        self._turns += 1
        return []

    def _finish(self, why: str) -> list[Event]:
        self._phase = OVER
        self._fan = None
        self._ending = why
        return [Event(None, why)]

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        to_act = self.seats_to_act()
        table = [
            Field(f"Bonus rule {slot + 1}: {card.title}", card.text) for slot, card in enumerate(self._bonus)
        ]
        table += [
            Field("Draw piles", piles_text(self._piles) if non_empty_piles(self._piles) else "all empty"),
            Field("Discard pile", self._discard_text()),
            Field(
                "Reshuffles",
                f"{self._reshuffles} of {MAX_EMPTYINGS - 1} used; "
                f"the piles have run out {self._emptied} of {MAX_EMPTYINGS} times",
            ),
            Field("Tokens in the middle", self._tokens.middle_text()),
        ]
        if self._last_set:
            table.append(Field("Last set", self._last_set))
        table.append(Field("Now", self._now_text()))
        seats = tuple(
            SeatLine(other, self._seat_summary(other), other in to_act) for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            private = self._private_fields(seat)
        return SeatView(
            seat=seat,
            title="TOKENIZE: game over" if self._phase == OVER else f"TOKENIZE: turn {self._turns}",
            table=tuple(table),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
        )

    def _discard_text(self) -> str:
        if not self._discard:
            return "empty"
        return f"**{self._discard[-1].label}** on top, {len(self._discard)} cards"

    def _now_text(self) -> str:
        if self._phase == OVER:
            return self._ending
        if self._phase == FAN:
            assert self._fan is not None
            words = "1 card" if self._fan.count == 1 else "2 cards"
            return f"Everyone picks {words} from the fan of the player on their right."
        if self._phase == DRAW:
            return "The player to act draws from a pile. Anyone may declare a set at any moment."
        if self._phase == DISCARD:
            assert self._drawn is not None
            return f"The player to act drew {self._drawn.label} and discards a different card."
        if self._phase == TOKEN:
            return "The player who discarded the 13 takes a token."
        return "The player who discarded the 10 replaces a bonus rule card."

    def _seat_summary(self, seat: int) -> str:
        sets = len(self._sets[seat])
        return (
            f"**{self._scores[seat]}** pts ({sets} set{'' if sets == 1 else 's'}) · "
            f"{len(self._hands[seat])} in hand · tokens: {self._tokens.seat_text(seat)}"
        )

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        hand = self._hands[seat]
        fields = card_fields(f"Your hand ({len(hand)})", hand, empty="empty")
        if self._drawn is not None and seat == self._turn:
            fields.append(Field("You drew", f"{self._drawn.label} (it joins your hand after your discard)"))
        if seat in self._notes:
            fields.append(Field("Last exchange", self._notes[seat]))
        if self._phase == FAN and self._fan is not None and seat in self._fan.fans:
            fields.append(
                Field(
                    "The fan on your right",
                    f"{len(self._fan.fans[seat])} cards face down; you pick {self._fan.need(seat)}",
                )
            )
        if self._sets[seat]:
            fields.append(Field("Your sets", "\n".join(cards_text(trio) for trio in self._sets[seat])[:1024]))
        return tuple(fields)

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """ "The player with the most points at the end of the game wins"; ties share a rank (ruling 13)."""
        if not self.is_terminal():
            raise RuntimeError("The game is not over.")
        ranks = competition_ranks(self._scores, lower_is_better=False)
        return tuple(
            Standing(
                seat=seat,
                points=self._scores[seat],
                rank=ranks[seat],
                detail=f"{len(self._sets[seat])} sets",
            )
            for seat in range(self.num_seats)
        )


def _action_text(card: Card) -> str:
    if card.number == 10:
        return "replace a bonus rule card"
    return action_name(card)


class Tokenize(GameRules[TokenizeOptions]):
    """TOKENIZE: sets of three (one number, or your token's colour or shape) score 10 plus bonuses."""

    key: ClassVar[str] = "tokenize"
    display_name: ClassVar[str] = "TOKENIZE"
    summary: ClassVar[str] = (
        "Draw, discard, and declare sets of three (same number, or your token's colour or shape) at any "
        "moment for 10 points plus the bonus rules."
    )
    winning_rule: ClassVar[str] = "highest score wins"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 8
    options_model: ClassVar[type[GameOptions]] = TokenizeOptions

    def _deal(self, num_seats: int, seed: int, options: GameOptions) -> TokenizeState:
        assert isinstance(options, TokenizeOptions)
        return TokenizeState(num_seats, seed, options)
