"""ERADICIZE (Frazzled Wool, 2021), for 3 to 8 players: be the first to get rid of all your cards.

Rules source: the ERADICIZE section of ``shared/seeds/000_d97c66fde1b75dcf.txt`` and the deck facts in
``shared/seeds/README.md``. Rulings where the text is silent are numbered in ``docs/rules/eradicize.md``
and cited here as "(ruling N)".

A turn: play one card onto the discard pile - higher than the card on top, or of a colour or shape
matching one of your tokens - or, if you cannot, pick up the whole discard pile. After a play you draw a
card from one of the three face-up draw piles while any are left, then the card's action happens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
from engine.frazzled_deck import DECK, FOURTEEN_ONE, Card, colour_token_label, shape_token_label

FACE_UP = 3
PICK_UP = "pickup"

PLAY = "play"
DRAW = "draw"
FAN = "fan"
TOKEN = "token"
OVER = "over"


class EradicizeOptions(GameOptions):
    """ERADICIZE has no table options: the text fixes every number."""


class EradicizeState(GameState[EradicizeOptions]):
    """A game of ERADICIZE in progress.

    Public: the face-up cards in front of each player, every hand's size, the top card of each draw pile
    and each pile's size, the discard pile's top card and size, every player's tokens and the tokens in the
    middle. Secret: the cards in each hand (to all but its owner), the draw piles below their top cards,
    and the order of each face-down fan during a 14/1 or 2 exchange (to everyone).
    """

    def __init__(self, num_seats: int, seed: int, options: EradicizeOptions) -> None:
        super().__init__(num_seats, seed, options)
        self._rng = random.Random(seed)
        deck = shuffled_deck(self._rng)
        # Setup: "deal six cards to each player ... Deal an additional three cards to each player face up".
        self._hands: list[list[Card]] = [
            deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(num_seats)
        ]
        start = num_seats * HAND_SIZE
        self._face_up: list[list[Card]] = [
            deck[start + seat * FACE_UP : start + (seat + 1) * FACE_UP] for seat in range(num_seats)
        ]
        # "Split the remaining cards into three equal decks and place them face up."
        self._piles: list[list[Card]] = split_into_piles(deck[start + num_seats * FACE_UP :])
        self._discard: list[Card] = []
        self._removed: list[Card] = []  # cleared from the game by 10s
        self._box: list[Card] = []  # cards left out of a scripted deal (never in a real game)
        self._tokens = Tokens.deal(num_seats, self._rng)
        # "Decide who goes first": drawn from the seed (ruling 1).
        self._turn = self._rng.randrange(num_seats)
        self._phase = PLAY
        self._played: Card | None = None  # the card whose action is still to come
        self._fan: FanExchange | None = None
        self._winners: list[int] = []
        self._notes: dict[int, str] = {}  # private notes on the last exchange, per seat
        self._turns = 1

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        hands: Sequence[Sequence[Card]],
        *,
        face_up: Sequence[Sequence[Card]] | None = None,
        piles: Sequence[Sequence[Card]] | None = None,
        discard: Sequence[Card] = (),
        colours: Sequence[Sequence[int]] | None = None,
        shapes: Sequence[Sequence[int]] | None = None,
        first: int = 0,
        seed: int = 0,
    ) -> EradicizeState:
        """A game with a known deal, for rule scenarios (tests only).

        Parameters
        ----------
        hands, face_up:
            Per seat, the cards in hand and the face-up cards (default: none face up).
        piles:
            The three draw piles, each listed bottom to top (default: all empty).
        discard:
            The discard pile, bottom to top.
        colours, shapes:
            Per seat, colour and shape token indices (default: seat ``s`` holds colour ``s`` and shape
            ``s``); every other token is in the middle.
        first:
            The seat to play first.
        seed:
            Seeds the generator used for fan orders.

        Cards not placed anywhere stay in the box, out of the game.

        Raises
        ------
        ValueError
            If a card is placed twice or the lists do not match the seat count.
        """
        face_up = face_up if face_up is not None else [[] for _ in range(num_seats)]
        piles = piles if piles is not None else [[], [], []]
        if len(hands) != num_seats or len(face_up) != num_seats or len(piles) != 3:
            raise ValueError("one hand and one face-up row per seat, and three piles")
        placed = [card for group in (*hands, *face_up, *piles, discard) for card in group]
        if len(set(placed)) != len(placed):
            raise ValueError("a card is placed twice")
        state = cls(num_seats, seed, EradicizeOptions())
        state._hands = [list(hand) for hand in hands]
        state._face_up = [list(row) for row in face_up]
        state._piles = [list(pile) for pile in piles]
        state._discard = list(discard)
        state._box = [card for card in DECK if card not in set(placed)]
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
        """``seat``'s hand in display order (its secret: for its own view, scoring and tests)."""
        return tuple(sorted_cards(self._hands[seat]))

    def face_up(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-up cards (public)."""
        return tuple(sorted_cards(self._face_up[seat]))

    def cards_left(self, seat: int) -> int:
        """Cards ``seat`` still has to get rid of: hand and face-up."""
        return len(self._hands[seat]) + len(self._face_up[seat])

    @property
    def top_value(self) -> int:
        """The number a play must beat: the top card's number, 1 if it is the 14/1 card (played as 14, it
        "becomes a 1 for the purposes of the next card"), 0 on an empty pile (any card goes, ruling 3)."""
        if not self._discard:
            return 0
        top = self._discard[-1].number
        return 1 if top == FOURTEEN_ONE else top

    def can_play(self, seat: int, card: Card) -> bool:
        """The play rule: "a higher number than the previous card", or "a colour matching the colour
        token of the player", or "a shape matching the shape token" (any token held, after 13s). The 14/1
        card is played as 14, so it beats any card (ruling 2)."""
        return card.number > self.top_value or self._tokens.matches(seat, card)

    def playable(self, seat: int) -> list[Card]:
        """Cards ``seat`` may play now: from the hand, or from the face-up cards once the hand is empty
        ("may not play them until they have played all cards in their hand")."""
        source = self._hands[seat] if self._hands[seat] else self._face_up[seat]
        return [card for card in sorted_cards(source) if self.can_play(seat, card)]

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if seat not in self.seats_to_act():
            return ()
        if self._phase == FAN:
            assert self._fan is not None
            return self._fan.actions(seat)
        if self._phase == DRAW:
            return draw_actions(self._piles)
        if self._phase == TOKEN:
            return self._tokens.choices(seat)
        cards = self.playable(seat)
        if not cards:
            # "If a player cannot play a card, they must pick up the entire discard pile."
            return (
                LegalAction(
                    PICK_UP, f"Pick up the discard pile ({len(self._discard)} cards)", "danger", True
                ),
            )
        from_hand = bool(self._hands[seat])
        plays = [
            LegalAction(
                f"play.{card.id}",
                f"Play {card.label}" + ("" if from_hand else " (face up)"),
                "success",
                secret=True,
                description=self._play_description(seat, card),
            )
            for card in cards
        ]
        return in_menus(plays, "Play a card…")

    def _play_description(self, seat: int, card: Card) -> str:
        reasons = []
        if card.number > self.top_value:
            reasons.append("higher" if self._discard else "any card starts the pile")
        if card.colour in self._tokens.colours[seat]:
            reasons.append(f"{colour_token_label(card.colour)} token")
        if card.shape in self._tokens.shapes[seat]:
            reasons.append(f"{shape_token_label(card.shape)} token")
        text = ", ".join(reasons)
        if card.number == FOURTEEN_ONE:
            text += "; played as 14, counts as 1 next"
        action = _action_text(card)
        return (f"{text}; {action}" if action else text)[:100]

    def public_actions(self) -> tuple[LegalAction, ...]:
        """During an exchange, the fan positions of every picker in one menu (see
        :meth:`FanExchange.public_actions`); otherwise the default."""
        if self._phase == FAN and self._fan is not None:
            return self._fan.public_actions()
        return super().public_actions()

    def default_action(self, seat: int) -> str:
        """On a timeout (ruling 9): the lowest playable card without an action, else the lowest playable
        card, else picking up the pile; in a draw, the first pile; in an exchange, the first fan position
        not yet picked; for a 13, the first token offered."""
        if seat not in self.seats_to_act():
            raise IllegalAction("It is not your turn.")
        if self._phase == FAN:
            assert self._fan is not None
            return self._fan.default(seat)
        if self._phase in (DRAW, TOKEN):
            return self.legal_actions(seat)[0].code
        cards = self.playable(seat)
        if not cards:
            return PICK_UP
        quiet = [card for card in cards if card.number not in ACTION_NUMBERS]
        return f"play.{(quiet or cards)[0].id}"

    def refusal(self, seat: int, code: str) -> str:
        if self._phase == FAN and self._fan is not None:
            words = self._fan.refusal(seat, code)
            if words:
                return words
        if self._phase == PLAY and seat == self._turn and code.startswith("play."):
            if self._hands[seat] and any(f"play.{card.id}" == code for card in self._face_up[seat]):
                return "Play the cards in your hand before your face-up cards."
            return "That card does not beat the top card and matches none of your tokens."
        if code == PICK_UP and self._phase == PLAY:
            return "You can play a card, so you may not pick up the pile."
        return super().refusal(seat, code)

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, code: str) -> list[Event]:
        if self._phase == FAN:
            return self._pick(seat, parse_index(code, "fan"))
        if self._phase == DRAW:
            events = [self._draw(seat, parse_index(code, "draw"))]
            return events + self._action(seat)
        if self._phase == TOKEN:
            events = [Event(seat, self._tokens.apply(seat, code))]
            return events + self._next_turn()
        if code == PICK_UP:
            count = len(self._discard)
            self._hands[seat].extend(self._discard)
            self._discard = []
            return [
                Event(seat, f"could not play and picked up the discard pile ({count} cards)")
            ] + self._next_turn()
        return self._play(seat, DECK[parse_index(code, "play")])

    def _play(self, seat: int, card: Card) -> list[Event]:
        from_hand = card in self._hands[seat]
        (self._hands[seat] if from_hand else self._face_up[seat]).remove(card)
        self._discard.append(card)
        where = "" if from_hand else " from the face-up cards"
        events = [Event(seat, f"played **{card.label}**{where}")]
        if self.cards_left(seat) == 0:
            # "The first player to do this wins the game" (ruling 6: at once, before drawing or acting).
            return events + self._finish([seat])
        self._played = card
        # "After playing a card the player must draw a new card from one of the draw piles" (ruling 4).
        piles = non_empty_piles(self._piles)
        if len(piles) >= 2:
            self._phase = DRAW
            return events
        if len(piles) == 1:
            events.append(self._draw(seat, piles[0]))
        return events + self._action(seat)

    def _draw(self, seat: int, pile: int) -> Event:
        card = self._piles[pile].pop()
        self._hands[seat].append(card)
        return Event(seat, f"drew {card.label} from pile {pile + 1}")

    def _action(self, seat: int) -> list[Event]:
        """The played card's action ("If a player discards a card with an action on it, that action must
        be performed"), after the draw (ruling 4)."""
        card = self._played
        assert card is not None
        self._played = None
        number = card.number
        if number in (FOURTEEN_ONE, 2):
            count = 1 if number == FOURTEEN_ONE else 2
            fan = FanExchange.start(self._hands, count, self._rng)
            if fan.is_done():
                return [Event(None, "Nobody has a card in hand to fan out.")] + self._next_turn()
            self._fan = fan
            self._phase = FAN
            return [
                Event(
                    None,
                    f"{card.number_text}: everyone picks {_cards_word(count)} from the face-down fan of the"
                    " player on their right.",
                )
            ]
        if number == 6:
            self._hands = pass_hands_left(self._hands)
            for other in range(self.num_seats):
                received = self._hands[other]
                given = self._hands[left_of(other, self.num_seats)]
                self._notes[other] = exchange_text(received, given, passed=True)
            events = [Event(None, "6: everyone passes their whole hand to the left.")]
            return events + self._after_exchange()
        if number == 10:
            # "The discard pile is removed from the game, but the 10 is left to start a new discard pile."
            cleared = self._discard[:-1]
            self._removed.extend(cleared)
            self._discard = self._discard[-1:]
            events = [
                Event(None, f"10: the discard pile ({len(cleared)} cards under the 10) leaves the game.")
            ]
            return events + self._next_turn()
        if number == 13:
            if not self._tokens.choices(seat):
                return [Event(None, "13: there is no token to take.")] + self._next_turn()
            self._phase = TOKEN
            return [Event(None, "13: a token to take.")]
        return self._next_turn()

    def _pick(self, seat: int, position: int) -> list[Event]:
        fan = self._fan
        assert fan is not None
        fan.pick(seat, position)
        if not fan.is_done():
            return []
        moves = fan.resolve(self._hands)
        for other, (received, given) in moves.items():
            if received or given:
                self._notes[other] = exchange_text(received, given)
        self._fan = None
        events = [Event(None, "The exchange is done; each picked card is now in its picker's hand.")]
        return events + self._after_exchange()

    def _after_exchange(self) -> list[Event]:
        # Ruling 6: anyone left with no card at all after an exchange has got rid of their cards.
        out = [seat for seat in range(self.num_seats) if self.cards_left(seat) == 0]
        if out:
            return self._finish(out)
        return self._next_turn()

    def _next_turn(self) -> list[Event]:
        self._turn = left_of(self._turn, self.num_seats)
        self._phase = PLAY
        self._turns += 1
        return []

    def _finish(self, winners: list[int]) -> list[Event]:
        self._winners = winners
        self._phase = OVER
        self._fan = None
        return [Event(seat, "has no cards left and wins!") for seat in winners]

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        to_act = self.seats_to_act()
        table = [
            Field("Discard pile", self._discard_text()),
            Field(
                "Draw piles",
                piles_text(self._piles) if non_empty_piles(self._piles) else "all empty: no more drawing",
            ),
            Field("Tokens in the middle", self._tokens.middle_text()),
            Field("Out of the game", f"{len(self._removed)} cards cleared by 10s"),
            Field("Now", self._now_text()),
        ]
        seats = tuple(
            SeatLine(other, self._seat_summary(other), other in to_act) for other in range(self.num_seats)
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
        if self._phase == OVER:
            return "ERADICIZE: game over"
        return f"ERADICIZE: turn {self._turns}"

    def _discard_text(self) -> str:
        if not self._discard:
            return "empty: any card may start it"
        top = self._discard[-1]
        note = " (counts as 1)" if top.number == FOURTEEN_ONE else ""
        return f"**{top.label}**{note} on top, {len(self._discard)} cards"

    def _now_text(self) -> str:
        if self._phase == OVER:
            return "The game is over."
        if self._phase == FAN:
            assert self._fan is not None
            return f"Everyone picks {_cards_word(self._fan.count)} from the fan of the player on their right."
        if self._phase == DRAW:
            return "The player who just played draws from a pile."
        if self._phase == TOKEN:
            return "The player who played the 13 takes a token."
        return "Play higher than the top card, or a card matching one of your tokens; else pick up the pile."

    def _seat_summary(self, seat: int) -> str:
        if seat in self._winners:
            return "**out of cards: wins!**"
        hand = len(self._hands[seat])
        face_up = cards_text(self._face_up[seat])
        return f"{hand} in hand · face up: {face_up} · tokens: {self._tokens.seat_text(seat)}"

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        hand = self._hands[seat]
        fields = list(card_fields(f"Your hand ({len(hand)})", hand, empty="empty: play your face-up cards"))
        if seat in self._notes:
            fields.append(Field("Last exchange", self._notes[seat]))
        if self._phase == FAN and self._fan is not None and seat in self._fan.fans:
            fields.append(
                Field(
                    "The fan on your right",
                    f"{len(self._fan.fans[seat])} cards face down; you pick {self._fan.need(seat)}",
                )
            )
        return tuple(fields)

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """The first player out of cards wins; the others rank by cards left, fewer first (ruling 7)."""
        if not self.is_terminal():
            raise RuntimeError("The game is not over.")
        points = [self.cards_left(seat) for seat in range(self.num_seats)]
        ranks = competition_ranks(points, lower_is_better=True)
        return tuple(
            Standing(
                seat=seat,
                points=points[seat],
                rank=ranks[seat],
                detail="out of cards"
                if seat in self._winners
                else f"{len(self._hands[seat])} in hand + {len(self._face_up[seat])} face up",
            )
            for seat in range(self.num_seats)
        )


def _cards_word(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _action_text(card: Card) -> str:
    if card.number == 10:
        return "clears the discard pile"
    return action_name(card)


class Eradicize(GameRules[EradicizeOptions]):
    """ERADICIZE: shed your hand, then your three face-up cards; first out of cards wins."""

    key: ClassVar[str] = "eradicize"
    display_name: ClassVar[str] = "ERADICIZE"
    summary: ClassVar[str] = (
        "Play higher than the top card or match your colour or shape tokens, or pick up the pile. "
        "First to get rid of every card wins."
    )
    winning_rule: ClassVar[str] = "first out of cards wins; the rest by cards left"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 8
    options_model: ClassVar[type[GameOptions]] = EradicizeOptions

    def _deal(self, num_seats: int, seed: int, options: GameOptions) -> EradicizeState:
        assert isinstance(options, EradicizeOptions)
        return EradicizeState(num_seats, seed, options)
