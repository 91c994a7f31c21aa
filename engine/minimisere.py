"""Minimisère (David Parlett), a plain-trick game for 3 to 6 players: win three or four tricks, or none.

Rules source: ``shared/seeds/003_f35f0b9afdf8689d.txt`` ("Original Card Games by David Parlett",
MINIMISÈRE). The page gives three rule sets by player count: five players (the main game), four or six,
and three. Rulings where the text is silent are numbered in ``docs/rules/minimisere.md``; the code cites
them as "ruling N" and each rule below names the passage it comes from.

Cards are short strings: a rank (``"A" "K" "Q" "J" "10" "9" "8" "7" "2"``) then a suit letter
(``"S" "H" "C" "D"``), e.g. ``"10H"``, plus ``"JK"`` for the Joker. These strings are also the action
codes (:class:`MinimisereAction`); ``"<card>+lot"`` plays the card and bids the Lot, and ``"JK+win"`` /
``"JK+lose"`` play the Joker third to a trick with three players, decreeing whether it wins.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, Self

from pydantic import Field as OptionField

from engine.core import (
    Event,
    Field,
    GameAction,
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

JOKER = "JK"
SUITS = ("S", "H", "C", "D")  # display order: alternate colours
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
RANK_VALUES = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7, "2": 2}
LOT = "lot"
JOKER_WINS = JOKER + "+win"
JOKER_LOSES = JOKER + "+lose"
PLAY_GROUP = "Play a card…"
LOT_GROUP = "Play a card and bid the Lot…"
MAX_BUTTONS = 5  # more playable cards than this are offered as one list (PLAY_GROUP), not as buttons

# Tricks won -> score, indexed by the number of tricks ("Score" of each section).
SCORE_TABLES: dict[int, tuple[int, ...]] = {
    5: (5, 1, 2, 6, 8, 0),
    4: (6, 1, 2, 3, 8, 10, 0),
    6: (6, 1, 2, 3, 8, 10, 0),
    3: (7, 1, 2, 3, 8, 10, 12, 0),
}
# "Bid the Lot": (bidder's score if made, everyone else's score if it fails). No Lot with three (ruling 3).
LOT_SCORES: dict[int, tuple[int, int]] = {5: (10, 5), 4: (12, 6), 6: (12, 6)}
HAND_SIZES = {3: 7, 4: 6, 5: 5, 6: 6}
REJECTION_TRIES = 30  # plain shuffles a resample tries before dealing card by card around the voids


def card_text(card: str) -> str:
    """A card for people: ``"10H"`` -> ``"10♥"``, ``"JK"`` -> ``"Joker"``."""
    if card == JOKER:
        return "Joker"
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def suit_of(card: str) -> str | None:
    """The suit letter of a card, ``None`` for the Joker (it belongs to no suit)."""
    return None if card == JOKER else card[-1]


def rank_of(card: str) -> str:
    """The rank of a suited card, e.g. ``"10"`` for ``"10H"``."""
    return card[:-1]


def _display_key(card: str) -> tuple[int, int]:
    if card == JOKER:
        return (-1, 0)
    return (SUITS.index(card[-1]), -RANK_VALUES[card[:-1]])


def sort_cards(cards: list[str] | tuple[str, ...]) -> list[str]:
    """Cards in display order: the Joker, then ♠ ♥ ♣ ♦, each suit high to low."""
    return sorted(cards, key=_display_key)


def pack_ranks(num_seats: int, nines: bool = False) -> tuple[str, ...]:
    """The ranks in each suit of the pack for ``num_seats`` players.

    Five or four players: A-K-Q-J-10-2, or A-K-Q-J-10-9 with ``nines`` ("You can replace the Deuce with a
    Nine"); six: A-K-Q-J-10-9-8-7-2 (the option does not apply, ruling 2); three: A-K-Q-J-10.

    Raises
    ------
    ValueError
        For a player count outside 3..6.
    """
    if num_seats in (4, 5):
        return ("A", "K", "Q", "J", "10", "9" if nines else "2")
    if num_seats == 6:
        return ("A", "K", "Q", "J", "10", "9", "8", "7", "2")
    if num_seats == 3:
        return ("A", "K", "Q", "J", "10")
    raise ValueError(f"Minimisère is for 3 to 6 players, not {num_seats}.")


def build_pack(num_seats: int, nines: bool = False) -> list[str]:
    """The whole pack: 25 cards for four or five (with the Joker), 36 for six (no Joker), 21 for three."""
    pack = [rank + suit for suit in SUITS for rank in pack_ranks(num_seats, nines)]
    if num_seats != 6:
        pack.append(JOKER)
    return pack


def special_rank(num_seats: int, nines: bool = False) -> str | None:
    """The rank that wins when led and loses otherwise: the Deuce, or the Nine that replaces it (ruling 1).

    Three players have no Deuce, so ``None``.
    """
    if num_seats == 3:
        return None
    if num_seats == 6:
        return "2"
    return "9" if nines else "2"


def trick_winner(plays: list[tuple[int, str, str]], special: str | None) -> int:
    """Index in ``plays`` of the card that wins a complete trick.

    ``plays`` is ``(seat, card, decree)`` in playing order, the lead first; ``decree`` is ``"win"`` for a
    Joker that three players' third hand decreed to win, else ``""``/``"lose"``. Rules ("Play", "The
    Joker"): a led Joker wins; a led Deuce (``special``) wins; a Joker played third may be decreed to win;
    otherwise the highest card of the suit led wins, the Deuce and an unled Joker losing.
    """
    led = plays[0][1]
    if led == JOKER or (special is not None and rank_of(led) == special):
        return 0
    for index, (_, card, decree) in enumerate(plays):
        if card == JOKER and decree == "win":
            return index
    suit = suit_of(led)
    best = 0
    for index, (_, card, _) in enumerate(plays):
        if suit_of(card) == suit and RANK_VALUES[rank_of(card)] > RANK_VALUES[rank_of(plays[best][1])]:
            best = index
    return best


def score_for_deal(num_seats: int, tricks: list[int], lot_bidder: int | None) -> list[int]:
    """Points each seat scores for one deal.

    ``tricks`` is the number of tricks each seat won. Without a Lot bid, each seat scores its count on the
    section's table ("Score"). With one: if the bidder won every trick it scores the Lot and everyone else
    zero; if not, it scores zero and everyone else scores the failure value, "regardless of how many tricks
    they win" ("Bid the Lot").
    """
    if lot_bidder is None:
        table = SCORE_TABLES[num_seats]
        return [table[count] for count in tricks]
    made, failed = LOT_SCORES[num_seats]
    if tricks[lot_bidder] == HAND_SIZES[num_seats]:
        return [made if seat == lot_bidder else 0 for seat in range(num_seats)]
    return [0 if seat == lot_bidder else failed for seat in range(num_seats)]


class Decree(enum.Enum):
    """What the player of a Joker third to a trick with three players decrees ("If you play it third to a
    trick, it either wins or loses, as you decree")."""

    WINS = "win"
    LOSES = "lose"


@dataclass(frozen=True)
class MinimisereAction(GameAction):
    """Play ``card`` to the trick; ``bid_lot``: and bid the Lot with it ("you can bid 'The Lot' upon
    playing to the first trick"); ``decree``: whether a Joker played third by three players wins or loses.

    Codes: the card (``"10H"``, ``"JK"``), ``"<card>+lot"``, ``"JK+win"``, ``"JK+lose"``.
    """

    card: str
    bid_lot: bool = False
    decree: Decree | None = None

    @classmethod
    def parse(cls, code: str) -> Self:
        card, plus, flag = code.partition("+")
        if not _is_card(card):
            raise ValueError(f"not a Minimisère card: {card!r}")
        if not plus:
            return cls(card)
        if flag == LOT:
            return cls(card, bid_lot=True)
        if card == JOKER and flag in (Decree.WINS.value, Decree.LOSES.value):
            return cls(card, decree=Decree(flag))
        raise ValueError(f"not a Minimisère action: {code!r}")

    def format(self) -> str:
        if self.bid_lot:
            return f"{self.card}+{LOT}"
        if self.decree is not None:
            return f"{self.card}+{self.decree.value}"
        return self.card


def _is_card(code: str) -> bool:
    return code == JOKER or (code[-1:] in SUITS and code[:-1] in RANK_VALUES)


class Phase(enum.Enum):
    """Where the game stands: a deal in progress, an extra deal because the end was reached with a tie for
    first place (ruling 9), or the game over."""

    DEAL = "deal"
    TIE_BREAK_DEAL = "tie-break deal"
    OVER = "over"


@dataclass(frozen=True)
class DealResult:
    """The outcome of one deal, shown until the next deal ends.

    ``number`` is the deal (1-based); ``tricks`` and ``points`` are per seat in seat order (tricks won,
    points scored for the deal); ``lot_bidder`` is the seat that bid the Lot, or ``None``.
    """

    number: int
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    lot_bidder: int | None


TEXT_TARGETS = {3: 31}
"""The target score the text gives per player count where it differs from 25: three players, "Game is any
agreed target (such as 31)"; the others, "Game is 25 points" (ruling 12)."""
DEFAULT_TARGET = 25


def default_target(num_seats: int) -> int:
    """The text's target score for ``num_seats`` players (points): 31 with three, 25 otherwise."""
    return TEXT_TARGETS.get(num_seats, DEFAULT_TARGET)


class MinimisereOptions(GameOptions):
    """Table options. ``end_by`` and ``deals`` apply to three players only ("Game" of that section).

    ``target`` is the score that ends the game, or ``None`` (the default) for the text's target for the
    player count (:func:`default_target`: 31 with three players, 25 with more). A stored number keeps its
    meaning: games stored with ``target=25`` (the old default, written out in full) still play to 25.
    """

    nines: bool = OptionField(False, description="4 or 5 players: Nines instead of Deuces")
    target: int | None = OptionField(
        None,
        ge=15,
        le=39,
        description="Game ends when someone reaches this score",
        json_schema_extra={"shown_when": {"end_by": "target"}},  # a lobby offers it only then
    )
    end_by: Literal["target", "deals"] = OptionField(
        "target", description="3 players: end at the target score or after a number of deals"
    )
    deals: int = OptionField(
        9,
        ge=1,
        le=25,
        description="3 players: deals to play when ending by deals",
        json_schema_extra={"shown_when": {"end_by": "deals"}},  # a lobby offers it only then
    )

    @classmethod
    def default_for(cls, name: str, num_seats: int) -> int | None:
        """What option ``name`` left at ``None`` means with ``num_seats`` players (the lobby shows it):
        the target, :func:`default_target`; ``None`` for the other options."""
        return default_target(num_seats) if name == "target" else None


class MinimisereState(GameState[MinimisereOptions]):
    """A game of Minimisère in progress: all its deals, until a single player leads at the end.

    Secret information: each seat's hand (secret to all but its owner), the card set aside undealt with
    four players and the order of the rest of the pack (secret to everyone). Cards are public once played.
    """

    action_type = MinimisereAction

    def __init__(
        self,
        num_seats: int,
        seed: int,
        options: MinimisereOptions,
        *,
        _deals: list[list[list[str]]] | None = None,
        _dealer: int | None = None,
    ) -> None:
        super().__init__(num_seats, seed, options)
        self._rng = random.Random(seed)
        self._pack = build_pack(num_seats, options.nines)
        self._special = special_rank(num_seats, options.nines)
        self._hand_size = HAND_SIZES[num_seats]
        self._script: list[list[list[str]]] = list(_deals or [])
        self._scores = [0] * num_seats
        self._deals_played = 0
        self._last_deal: DealResult | None = None
        self._last_trick: tuple[list[tuple[int, str, str]], int] | None = None
        self._phase = Phase.DEAL
        # Ruling 4: the first dealer is drawn at random, as if cutting for the deal.
        first_dealer = self._rng.randrange(num_seats) if _dealer is None else _dealer
        self._dealer = (first_dealer - 1) % num_seats
        self._start_deal()

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        deals: list[list[list[str]]],
        *,
        dealer: int = 0,
        options: MinimisereOptions | dict | None = None,
        scores: Sequence[int] | None = None,
    ) -> MinimisereState:
        """A game with known deals, for rule scenarios and tests.

        Parameters
        ----------
        num_seats:
            Players, 3..6.
        deals:
            The hands of the first deals in order, each a list of one hand per seat (card codes); later
            deals are shuffled from the seed 0.
        dealer:
            The first dealer's seat; the first lead is the seat to its left (``dealer + 1``).
        options:
            Table options (defaults if ``None``).
        scores:
            Running totals to start from (e.g. to test the end of the game).

        Raises
        ------
        ValueError
            If a deal has the wrong number of hands or cards, or cards not in the pack or repeated, or
            ``scores`` is not one total per seat.
        """
        opts = (
            MinimisereOptions.model_validate(options or {})
            if not isinstance(options, MinimisereOptions)
            else options
        )
        pack = set(build_pack(num_seats, opts.nines))
        for hands in deals:
            cards = [card for hand in hands for card in hand]
            if (
                len(hands) != num_seats
                or any(len(hand) != HAND_SIZES[num_seats] for hand in hands)
                or len(set(cards)) != len(cards)
                or not set(cards) <= pack
            ):
                raise ValueError("each deal must give every seat a full hand of distinct cards of the pack")
        if scores is not None and len(scores) != num_seats:
            raise ValueError("scores must be one total per seat")
        state = cls(num_seats, 0, opts, _deals=deals, _dealer=dealer)
        if scores is not None:
            state._scores = list(scores)
        return state

    # -- the deal ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        """The deal passes to the left ("The turn to deal passes to the left"); dealer's left leads."""
        self._dealer = (self._dealer + 1) % self.num_seats
        if self._script:
            hands = [list(hand) for hand in self._script.pop(0)]
            dealt = {card for hand in hands for card in hand}
            rest = [card for card in self._pack if card not in dealt]
        else:
            pack = list(self._pack)
            self._rng.shuffle(pack)
            size = self._hand_size
            hands = [pack[seat * size : (seat + 1) * size] for seat in range(self.num_seats)]
            rest = pack[size * self.num_seats :]
        self._hands: list[list[str]] = [sort_cards(hand) for hand in hands]
        self._undealt: list[str] = rest  # four players: the 25th card, set aside unseen (ruling 5)
        self._taken: list[list[str]] = [[] for _ in range(self.num_seats)]
        self._tricks = [0] * self.num_seats
        self._trick: list[tuple[int, str, str]] = []
        self._trick_no = 0  # tricks completed this deal
        self._leader = (self._dealer + 1) % self.num_seats
        self._lot_bidder: int | None = None
        self._last_trick = None
        # Suits each seat has shown it lacks this deal, by not following them (public: every play is).
        self._voids: list[set[str]] = [set() for _ in range(self.num_seats)]

    # -- queries -----------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """A deal, a tie-break deal, or over."""
        return self._phase

    @property
    def _over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def deal_number(self) -> int:
        """The deal in progress (1-based), or the number of deals played once the game is over."""
        return self._deals_played if self._over else self._deals_played + 1

    @property
    def tricks_played(self) -> int:
        """Tricks completed in the deal in progress (public)."""
        return self._trick_no

    def hand(self, seat: int) -> tuple[str, ...]:
        """``seat``'s cards in display order (its secret; for tests and its own view only)."""
        return tuple(self._hands[seat])

    def set_aside(self) -> tuple[str, ...]:
        """The cards of the pack not dealt this deal: with four players the one card set aside unseen
        (ruling 5), otherwise none. Secret to everyone; for tests and tools, never for a view."""
        return tuple(self._undealt)

    def taken(self, seat: int) -> tuple[str, ...]:
        """The cards of the tricks ``seat`` has won this deal, in the order they were played. They were
        played in public but are turned face down (ruling 10); for tests and tools."""
        return tuple(self._taken[seat])

    def current_trick(self) -> tuple[tuple[int, str, str], ...]:
        """The trick in progress as ``(seat, card, decree)`` in playing order, the lead first; ``decree`` is
        ``"win"`` / ``"lose"`` for a Joker played third by three players, else ``""`` (public)."""
        return tuple(self._trick)

    def known_voids(self, seat: int) -> frozenset[str]:
        """Suit letters ``seat`` has shown it lacks in this deal by not following them (public, since every
        play is): what a resample of the hidden hands must respect."""
        return frozenset(self._voids[seat])

    @property
    def last_deal(self) -> DealResult | None:
        """The result of the last deal completed (public), or ``None`` before the first ends."""
        return self._last_deal

    def scores(self) -> tuple[int, ...]:
        """Running totals per seat (public)."""
        return tuple(self._scores)

    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won this deal per seat (public)."""
        return tuple(self._tricks)

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def lot_bidder(self) -> int | None:
        return self._lot_bidder

    def _seat_to_play(self) -> int:
        return (self._leader + len(self._trick)) % self.num_seats

    def seats_to_act(self) -> tuple[int, ...]:
        return () if self._over else (self._seat_to_play(),)

    def is_terminal(self) -> bool:
        return self._over

    def _playable(self, seat: int) -> list[str]:
        """Cards ``seat`` may play: any card to lead or after a led Joker; else follow suit if able
        ("You must follow suit if you can but may play any card (including the Joker) if you can't")."""
        hand = self._hands[seat]
        if not self._trick or self._trick[0][1] == JOKER:
            return list(hand)
        suit = suit_of(self._trick[0][1])
        same = [card for card in hand if suit_of(card) == suit]
        return same or list(hand)

    def _lot_open(self) -> bool:
        """Bid the Lot "upon playing to the first trick"; four to six players only (ruling 3); one bid per
        deal (ruling 6)."""
        return self.num_seats >= 4 and self._trick_no == 0 and self._lot_bidder is None

    def _describe(self, card: str, position: int) -> str:
        if card == JOKER:
            return "wins the trick when led" if position == 0 else "loses the trick"
        if self._special is not None and rank_of(card) == self._special:
            return "wins the trick when led" if position == 0 else "ranks lowest: loses"
        return ""

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if self._over or seat != self._seat_to_play():
            return ()
        cards = self._playable(seat)
        position = len(self._trick)
        plays: list[LegalAction] = []
        for card in cards:
            if card == JOKER and self.num_seats == 3 and position == 2:
                # "If you play it third to a trick, it either wins or loses, as you decree."
                plays.append(LegalAction(JOKER_WINS, "Joker (decree: it wins)", secret=True))
                plays.append(LegalAction(JOKER_LOSES, "Joker (decree: it loses)", secret=True))
            else:
                plays.append(
                    LegalAction(
                        card, card_text(card), secret=True, description=self._describe(card, position)
                    )
                )
        group = PLAY_GROUP if len(plays) > MAX_BUTTONS else ""
        actions = [
            LegalAction(a.code, a.label, a.tone, True, group, a.description if group else "") for a in plays
        ]
        if self._lot_open():
            made, failed = LOT_SCORES[self.num_seats]
            description = f"Win all {self._hand_size} tricks: +{made}, others 0. Fail: 0, others +{failed}"
            actions.extend(
                LegalAction(
                    f"{card}+{LOT}",
                    f"{card_text(card)} and bid the Lot",
                    "bad",
                    True,
                    LOT_GROUP,
                    description,
                )
                for card in cards
            )
        return tuple(actions)

    def check(self, seat: int, action: GameAction) -> str | None:
        """Whose turn it is, that the card is in hand and follows suit ("You must follow suit if you can"),
        that a Joker played third by three players comes with its decree and no other card does, and that
        the Lot is bid only to the first trick, once per deal, by four to six players (rulings 3, 6)."""
        assert isinstance(action, MinimisereAction)
        if self._over:
            return "This game is over."
        if seat != self._seat_to_play():
            return "It is not your turn."
        if action.card not in self._hands[seat]:
            return f"You do not hold the {card_text(action.card)}."
        if action.card not in self._playable(seat):
            led = self._trick[0][1]
            return f"You must follow suit: play a {SUIT_NAMES[led[-1]][:-1]}."
        decreed = action.card == JOKER and self.num_seats == 3 and len(self._trick) == 2
        if decreed and action.decree is None:
            return "You play the Joker third: decree whether it wins or loses."
        if not decreed and action.decree is not None:
            return "Only a Joker played third to a trick by three players is decreed to win or lose."
        if action.bid_lot and not self._lot_open():
            if self.num_seats == 3:
                return "There is no Lot with three players."
            return "The Lot can only be bid when playing to the first trick, once per deal."
        return None

    def default_action(self, seat: int) -> str:
        """On a timeout (ruling 8): the legal card least likely to win, never bidding the Lot.

        Leading: the lowest plain card (a led Deuce or Joker would win). Following: the Joker, then the
        Deuce (both lose when not led), then the lowest card; a Joker played third by three players is
        decreed to lose. Ties between suits go to ♣, ♦, ♥, ♠ order.
        """
        if self._over or seat != self._seat_to_play():
            raise IllegalAction("It is not your turn.")
        leading = not self._trick
        suit_order = ("C", "D", "H", "S")

        def strength(card: str) -> tuple[int, int]:
            if card == JOKER:
                return (100, 0) if leading else (0, 0)
            value = RANK_VALUES[rank_of(card)]
            if self._special is not None and rank_of(card) == self._special:
                value = 99 if leading else 1
            return (value, suit_order.index(card[-1]))

        card = min(self._playable(seat), key=strength)
        if card == JOKER and self.num_seats == 3 and len(self._trick) == 2:
            return JOKER_LOSES
        return card

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, action: MinimisereAction) -> list[Event]:
        card = action.card
        position = len(self._trick)
        decree = "" if action.decree is None else action.decree.value
        if position > 0 and self._trick[0][1] != JOKER and suit_of(card) != suit_of(self._trick[0][1]):
            self._voids[seat].add(suit_of(self._trick[0][1]))
        self._hands[seat].remove(card)
        self._trick.append((seat, card, decree))
        verb = "led" if position == 0 else "played"
        text = f"{verb} **{card_text(card)}**"
        if action.decree is not None:
            text += f", decreeing that it {'wins' if action.decree is Decree.WINS else 'loses'}"
        if action.bid_lot:
            self._lot_bidder = seat
            text += " and bid **the Lot**!"
        events = [Event(seat, text)]
        if len(self._trick) == self.num_seats:
            events.extend(self._finish_trick())
        return events

    def _finish_trick(self) -> list[Event]:
        plays = self._trick
        index = trick_winner(plays, self._special)
        winner, card, _ = plays[index]
        self._tricks[winner] += 1
        self._taken[winner].extend(c for _, c, _ in plays)
        self._trick_no += 1
        self._last_trick = (plays, winner)
        self._trick = []
        self._leader = winner  # "the winner of each trick leads to the next"
        events = [Event(winner, f"won trick {self._trick_no} with **{card_text(card)}**")]
        if self._lot_bidder is not None and winner != self._lot_bidder:
            # Ruling 7: a lost trick settles a Lot bid, so the deal ends at once.
            events.append(Event(self._lot_bidder, "lost a trick: the Lot fails and the deal ends"))
            events.extend(self._finish_deal())
        elif self._trick_no == self._hand_size:
            events.extend(self._finish_deal())
        return events

    def _finish_deal(self) -> list[Event]:
        gains = score_for_deal(self.num_seats, self._tricks, self._lot_bidder)
        self._deals_played += 1
        self._last_deal = DealResult(self._deals_played, tuple(self._tricks), tuple(gains), self._lot_bidder)
        events: list[Event] = []
        if self._lot_bidder is not None:
            made = self._tricks[self._lot_bidder] == self._hand_size
            events.append(Event(self._lot_bidder, "made the Lot!" if made else "failed the Lot."))
        for seat in range(self.num_seats):
            self._scores[seat] += gains[seat]
            events.append(
                Event(
                    seat,
                    f"scores {gains[seat]:+d} for {_tricks_text(self._tricks[seat])}"
                    f" (total **{self._scores[seat]}**)",
                )
            )
        top = max(self._scores)
        leaders = [seat for seat in range(self.num_seats) if self._scores[seat] == top]
        if self._game_reached_its_end():
            if len(leaders) == 1:
                self._phase = Phase.OVER
                self._trick = []
                events.append(Event(leaders[0], f"wins the game with **{top}** points!"))
                return events
            # "if there is a tie for first place play as many more deals as necessary" (ruling 9).
            self._phase = Phase.TIE_BREAK_DEAL
            events.append(Event(None, f"A tie for first place at {top} points: another deal."))
        self._start_deal()
        events.append(Event(self._dealer, f"deals hand {self._deals_played + 1}."))
        return events

    def _game_reached_its_end(self) -> bool:
        """Three players may play an agreed number of deals; otherwise the game is to the target score
        ("Game is 25 points"; three players: "any agreed target ... or any agreed number of deals")."""
        if self.num_seats == 3 and self.options.end_by == "deals":
            return self._deals_played >= self.options.deals
        return max(self._scores) >= self.target

    @property
    def target(self) -> int:
        """The score that ends the game (points): the option, or the text's for the player count."""
        chosen = self.options.target
        return default_target(self.num_seats) if chosen is None else chosen

    def resample_hidden(self, viewer: int | None, rng: random.Random) -> MinimisereState:
        """A copy in which what ``viewer`` may not see is redrawn: the hands of the other seats and the card
        set aside with four players are dealt again at random from the same cards (each hand keeps its
        size), no seat getting a suit it has shown it lacks this deal (:meth:`known_voids`); later deals
        come from a fresh random generator (scripted deals are forgotten). ``viewer=None``: every hand.

        The copy is canonical: it depends only on what ``viewer`` has seen and on ``rng``. The unseen
        cards are gathered and sorted before they are dealt, so who truly holds which card never shows
        through, and resampling a resample with the same ``rng`` gives the same world.
        """
        other = self.copy()
        other._rng = random.Random(rng.random())
        other._script = []
        holders = [seat for seat in range(self.num_seats) if seat != viewer]
        cards = sorted([card for seat in holders for card in self._hands[seat]] + self._undealt)
        sizes = [len(self._hands[seat]) for seat in holders] + [len(self._undealt)]
        voids = [self._voids[seat] for seat in holders] + [set()]
        dealt = _deal_respecting_voids(cards, sizes, voids, rng)
        for seat, hand in zip(holders, dealt, strict=False):
            other._hands[seat] = sort_cards(hand)
        other._undealt = dealt[-1]
        return other

    def copy(self) -> MinimisereState:
        """An independent exact copy (hidden information, future deals and the generator's state
        included), much faster than a deep copy: immutable parts are shared, the changing ones copied."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._script = list(self._script)
        other._scores = list(self._scores)
        other._hands = [list(hand) for hand in self._hands]
        other._undealt = list(self._undealt)
        other._taken = [list(cards) for cards in self._taken]
        other._tricks = list(self._tricks)
        other._trick = list(self._trick)
        other._voids = [set(voids) for voids in self._voids]
        return other

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        if self._over:
            title = f"Minimisère: game over after {_deals(self._deals_played)}"
        else:
            extra = " (extra deal to break a tie)" if self._phase is Phase.TIE_BREAK_DEAL else ""
            title = (
                f"Minimisère: deal {self.deal_number}{extra}, trick {self._trick_no + 1} of {self._hand_size}"
            )
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(seat=other, summary=self._seat_summary(other), to_act=other in to_act)
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None and not self._over:
            hand = " ".join(card_text(card) for card in self._hands[seat]) or "no cards"
            private = (Field("Your hand", hand),)
        return SeatView(
            seat=seat,
            title=title,
            table=self._table_fields(),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
        )

    def _table_fields(self) -> tuple[Field, ...]:
        fields: list[Field] = []
        if not self._over:
            fields.append(Field(f"Trick {self._trick_no + 1} of {self._hand_size}", self._trick_text()))
            if self._last_trick is not None:
                plays, winner = self._last_trick
                won_with = plays[trick_winner(plays, self._special)][1]
                fields.append(
                    Field(
                        "Last trick",
                        f"{_plays_text(plays)}: won with **{card_text(won_with)}**",
                    )
                )
            if self._lot_bidder is not None:
                made, failed = LOT_SCORES[self.num_seats]
                fields.append(
                    Field(
                        "The Lot is bid",
                        f"The bidder (🎯) must win every trick: +{made} and everyone else 0; "
                        f"if it loses one, it scores 0 and everyone else +{failed}.",
                    )
                )
        if self._last_deal is not None:
            fields.append(self._last_deal_field())
        fields.append(Field("Game", self._game_text()))
        fields.append(Field("Scoring", self._scoring_text()))
        fields.append(Field("Cards", self._pack_text()))
        return tuple(fields)

    def _trick_text(self) -> str:
        if not self._trick:
            return "Waiting for the lead."
        led = self._trick[0][1]
        if led == JOKER:
            rule = "The Joker was led: it wins; play any card."
        elif self._special is not None and rank_of(led) == self._special:
            name = _special_name(self._special)
            rule = f"A {name} was led: it wins; follow {SUIT_SYMBOLS[led[-1]]} if you can."
        else:
            rule = f"Follow {SUIT_SYMBOLS[led[-1]]} if you can."
        return f"{_plays_text(self._trick)}\n{rule}"

    def _last_deal_field(self) -> Field:
        assert self._last_deal is not None
        number, tricks, gains, bidder = (
            self._last_deal.number,
            self._last_deal.tricks,
            self._last_deal.points,
            self._last_deal.lot_bidder,
        )
        gains_text = " · ".join(f"{gain:+d}" for gain in gains)
        tricks_text = " · ".join(str(count) for count in tricks)
        if bidder is None:
            how = "Scored by tricks won."
        elif tricks[bidder] == self._hand_size:
            how = "The Lot was bid and made."
        else:
            how = "The Lot was bid and failed: everyone else scored regardless of tricks."
        return Field(
            f"Deal {number} result",
            f"{how}\nTricks (seat order): {tricks_text}\nPoints (seat order): {gains_text}",
        )

    def _game_text(self) -> str:
        if self.num_seats == 3 and self.options.end_by == "deals":
            text = f"{_deals(self.options.deals)}; highest total wins"
        else:
            text = f"First to {self.target} points; highest total wins"
        text += "; a tie for first plays extra deals."
        if self._phase is Phase.TIE_BREAK_DEAL:
            text += " This is an extra deal."
        return text

    def _scoring_text(self) -> str:
        table = SCORE_TABLES[self.num_seats]
        parts = [f"{_tricks_text(count)} {table[count]}" for count in range(len(table))]
        most = len(table) - 1
        aim = {3: "4 to 6", 4: "4 or 5", 5: "3 or 4", 6: "4 or 5"}[self.num_seats]
        text = f"Aim: {aim} tricks (not all {most}), or none.\nPer deal: " + " · ".join(parts)
        if self.num_seats in LOT_SCORES:
            made, failed = LOT_SCORES[self.num_seats]
            text += f"\nThe Lot (bid on your first card): made +{made}, others 0; failed 0, others +{failed}."
        return text

    def _pack_text(self) -> str:
        ranks = "-".join(pack_ranks(self.num_seats, self.options.nines))
        joker = " and no Joker" if self.num_seats == 6 else " + Joker"
        text = f"{len(self._pack)} cards: {ranks} in each suit{joker}; {self._hand_size} each"
        if self.num_seats == 4:
            text += ", 1 set aside unseen"
        text += ". No trumps."
        if self._special is not None:
            text += f" A led {_special_name(self._special)} wins; otherwise it ranks lowest."
        if self.num_seats == 3:
            text += " Joker: wins when led, loses second, third it wins or loses as its player decrees."
        elif self.num_seats != 6:
            text += " Joker: wins when led, otherwise loses."
        return text

    def _seat_summary(self, seat: int) -> str:
        parts = [f"**{self._scores[seat]}** pts"]
        if self._over:
            if self._scores[seat] == max(self._scores):
                parts.append("🏆 winner")
            return " · ".join(parts)
        parts.append(_tricks_text(self._tricks[seat]))
        if seat == self._dealer:
            parts.append("dealer")
        if seat == self._lot_bidder:
            parts.append("🎯 bid the Lot")
        for position, (player, card, decree) in enumerate(self._trick):
            if player == seat:
                played = f"played {card_text(card)}"
                if decree:
                    played += f" ({decree}s)"
                parts.append(played + (" (led)" if position == 0 else ""))
        if self._last_deal is not None:
            parts.append(f"last deal {self._last_deal.points[seat]:+d}")
        return " · ".join(parts)

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Total points per seat, highest first (a game of points to reach); ties share a rank."""
        if not self._over:
            raise RuntimeError("The game is not over.")
        ranks = competition_ranks(self._scores, lower_is_better=False)
        return tuple(
            Standing(
                seat=seat, points=self._scores[seat], rank=ranks[seat], detail=_deals(self._deals_played)
            )
            for seat in range(self.num_seats)
        )


def _deal_respecting_voids(
    cards: list[str], sizes: list[int], voids: list[set[str]], rng: random.Random
) -> list[list[str]]:
    """Deal ``cards`` at random into holders of the given ``sizes``, no holder getting a suit in its
    ``voids`` (the Joker belongs to no suit). A deal must exist (the real one does).

    First a few plain shuffles are tried, keeping the first that respects every void (all consistent
    deals equally likely); if none does, each card goes to a random holder among those that leave the rest
    dealable, which Hall's condition decides: every set of suits must fit in the room of the holders that
    may take them.
    """
    for _ in range(REJECTION_TRIES if any(voids) else 1):
        order = list(cards)
        rng.shuffle(order)
        dealt, start = [], 0
        for size, void in zip(sizes, voids, strict=True):
            hand = order[start : start + size]
            if void and any(suit_of(card) in void for card in hand):
                break
            dealt.append(hand)
            start += size
        else:
            return dealt
    room = list(sizes)
    dealt = [[] for _ in sizes]
    order = list(cards)
    rng.shuffle(order)
    for index, card in enumerate(order):
        candidates = [h for h in range(len(room)) if room[h] and suit_of(card) not in voids[h]]
        rng.shuffle(candidates)
        for holder in candidates:
            room[holder] -= 1
            if _dealable(order[index + 1 :], room, voids):
                dealt[holder].append(card)
                break
            room[holder] += 1
        else:  # pragma: no cover - the real deal satisfies every void
            raise AssertionError("no deal of the hidden cards respects the known voids")
    return dealt


def _dealable(cards: list[str], room: list[int], voids: list[set[str]]) -> bool:
    """Whether ``cards`` fit in holders with ``room`` places, respecting ``voids`` (Hall's condition)."""
    counts: dict[str | None, int] = {}
    for card in cards:
        counts[suit_of(card)] = counts.get(suit_of(card), 0) + 1
    kinds = list(counts)
    for size in range(1, len(kinds) + 1):
        for subset in itertools.combinations(kinds, size):
            need = sum(counts[kind] for kind in subset)
            space = sum(room[h] for h in range(len(room)) if any(kind not in voids[h] for kind in subset))
            if need > space:
                return False
    return True


def _tricks_text(count: int) -> str:
    return "1 trick" if count == 1 else f"{count} tricks"


def _special_name(rank: str) -> str:
    return "Nine" if rank == "9" else "Deuce"


def _plays_text(plays: list[tuple[int, str, str]]) -> str:
    parts = []
    for _, card, decree in plays:
        text = card_text(card)
        if decree:
            text += f" ({decree}s)"
        parts.append(text)
    return " → ".join(parts)


class Minimisere(GameRules[MinimisereOptions]):
    """Minimisère: plain tricks without trumps; win three or four tricks (not all), or none at all."""

    key: ClassVar[str] = "minimisere"
    display_name: ClassVar[str] = "Minimisère"
    summary: ClassVar[str] = (
        "Plain tricks, no trumps: score most for three or four tricks (not all), or for none at all."
    )
    winning_rule: ClassVar[str] = "highest score wins"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 6
    options_model: ClassVar[type[GameOptions]] = MinimisereOptions
    state_class: ClassVar[type[GameState]] = MinimisereState

    def upgrade_options(self, options: dict) -> dict:
        """A game started before ruling 12 (three players: the text's 31 by default) played to 25 with any
        number of players unless the host chose otherwise: it keeps playing to 25."""
        return {"target": 25, **options}


def _deals(count: int) -> str:
    """``"1 deal"``, ``"9 deals"``."""
    return "1 deal" if count == 1 else f"{count} deals"
