"""Minimisère's rules: the game in progress (its deals, tricks and scores), its options and hidden
information, and the rules object.

Rules source: ``shared/seeds/003_f35f0b9afdf8689d.txt`` ("Original Card Games by David Parlett",
MINIMISÈRE). The page gives three rule sets by player count: five players (the main game), four or six,
and three. Rulings where the text is silent are numbered in ``docs/rules/minimisere.md``; the code cites
them as "ruling N" and each rule below names the passage it comes from.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import Field as OptionField

from engine.core import (
    BACK,
    Event,
    Field,
    GameAction,
    GameOptions,
    GameRules,
    GameState,
    IllegalAction,
    LegalAction,
    Scene,
    SceneRow,
    SeatLine,
    SeatView,
    Standing,
    competition_ranks,
    plural,
)
from engine.minimisere import words
from engine.minimisere.actions import (
    BID_LOT,
    CANCEL_LOT,
    JOKER_LOSES,
    LOT,
    LotStep,
    MinimisereAction,
    MinimisereMove,
)
from engine.minimisere.cards import (
    HAND_SIZES,
    JOKER,
    RANK_VALUES,
    SUIT,
    build_pack,
    rank_of,
    sort_cards,
    special_rank,
    trick_winner,
)
from engine.minimisere.deal import deal_respecting_voids
from engine.minimisere.scoring import LOT_SCORES, default_target, score_for_deal


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


class MinimisereOptions(GameOptions):
    """Table options. ``end_by`` and ``deals`` apply to three players only ("Game" of that section).

    ``target`` is the score that ends the game, or ``None`` (the default) for the text's target for the
    player count (:func:`default_target`: 31 with three players, 25 with more). A stored number keeps its
    meaning: games stored with ``target=25`` (the old default, written out in full) still play to 25.
    """

    nines: bool = OptionField(
        False, description="4 or 5 players: Nines instead of Deuces", json_schema_extra={"seats": [4, 5]}
    )
    target: int | None = OptionField(
        None,
        ge=15,
        le=39,
        description="Game ends when someone reaches this score",
        json_schema_extra={"shown_when": {"end_by": "target"}},  # a lobby offers it only then
    )
    end_by: Literal["target", "deals"] = OptionField(
        "target",
        description="3 players: end at the target score or after a number of deals",
        json_schema_extra={"seats": [3]},  # a lobby offers it only to that many players
    )
    deals: int = OptionField(
        9,
        ge=1,
        le=25,
        description="3 players: deals to play when ending by deals",
        json_schema_extra={"shown_when": {"end_by": "deals"}, "seats": [3]},  # a lobby offers it only then
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

    action_type = MinimisereMove

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
        # The game's generator: live in ``_rng``, or saved in ``_rng_saved`` (a state of
        # ``random.Random.getstate()``, or a seed) until the next shuffle needs it (see ``_generator``).
        self._rng: random.Random | None = random.Random(seed)
        self._rng_saved: tuple | float | None = None
        self._pack = build_pack(num_seats, options.nines)
        self._special = special_rank(num_seats, options.nines)
        self._hand_size = HAND_SIZES[num_seats]
        self._script: list[list[list[str]]] = list(_deals or [])
        self._scores = [0] * num_seats
        self._deals_played = 0
        self._last_deal: DealResult | None = None
        self._last_trick: tuple[list[tuple[int, str, str]], int] | None = None
        self._phase = Phase.DEAL
        self._over = False  # the phase is Phase.OVER (read on every move)
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

    def _generator(self) -> random.Random:
        """The game's random generator, made live again from its saved state if a copy saved it: copies
        share the saved state (immutable) until one of them shuffles, so a copy costs no generator."""
        if self._rng is None:
            saved = self._rng_saved
            if isinstance(saved, tuple):
                self._rng = random.Random(0)  # any seed: the saved state replaces it
                self._rng.setstate(saved)
            else:
                self._rng = random.Random(saved)
        return self._rng

    def _start_deal(self) -> None:
        """The deal passes to the left ("The turn to deal passes to the left"); dealer's left leads.

        The cards are dealt when first needed (:attr:`_hands`, :meth:`_deal_cards`), so a search that
        stops at the end of a deal never shuffles the next one. Only deals use the generator, so when it
        shuffles does not change what it deals."""
        self._dealer = (self._dealer + 1) % self.num_seats
        self._to_deal = True
        self._taken: list[list[str]] = [[] for _ in range(self.num_seats)]
        self._tricks = [0] * self.num_seats
        self._trick: list[tuple[int, str, str]] = []
        self._trick_no = 0  # tricks completed this deal
        self._leader = (self._dealer + 1) % self.num_seats
        self._lot_bidder: int | None = None
        self._lot_step = False  # the seat to play is choosing the card to bid the Lot with (ruling 13)
        self._last_trick = None
        # Suits each seat has shown it lacks this deal, by not following them (public: every play is).
        self._voids: list[set[str]] = [set() for _ in range(self.num_seats)]

    def _deal_cards(self) -> None:
        """Deal the cards of the deal in progress: the next scripted deal, or a shuffle of the pack."""
        if self._script:
            hands = [list(hand) for hand in self._script.pop(0)]
            dealt = {card for hand in hands for card in hand}
            rest = [card for card in self._pack if card not in dealt]
        else:
            pack = list(self._pack)
            self._generator().shuffle(pack)
            size = self._hand_size
            hands = [pack[seat * size : (seat + 1) * size] for seat in range(self.num_seats)]
            rest = pack[size * self.num_seats :]
        self._dealt_hands = [sort_cards(hand) for hand in hands]
        self._dealt_rest = rest  # four players: the 25th card, set aside unseen (ruling 5)
        self._to_deal = False

    @property
    def _hands(self) -> list[list[str]]:
        """Each seat's hand in display order (dealt now if the deal has not been yet)."""
        if self._to_deal:
            self._deal_cards()
        return self._dealt_hands

    @property
    def _undealt(self) -> list[str]:
        """The cards not dealt this deal (dealt now if the deal has not been yet)."""
        if self._to_deal:
            self._deal_cards()
        return self._dealt_rest

    # -- queries -----------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """A deal, a tie-break deal, or over."""
        return self._phase

    @property
    def deal_number(self) -> int:
        """The deal in progress (1-based), or the number of deals played once the game is over."""
        return self._deals_played if self._over else self._deals_played + 1

    @property
    def tricks_played(self) -> int:
        """Tricks completed in the deal in progress (public)."""
        return self._trick_no

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat (public: it depends on the player count)."""
        return self._hand_size

    @property
    def special(self) -> str | None:
        """The rank that wins when led and loses otherwise (the Deuce or the Nine), ``None`` with three
        players (:func:`~engine.minimisere.cards.special_rank`)."""
        return self._special

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

    @property
    def choosing_lot_card(self) -> bool:
        """Whether the seat to play has opened the Lot step ("Bid the Lot…") and is choosing the card to bid
        it with, or cancelling (ruling 13). Public, like the rest of a seat's turn."""
        return self._lot_step

    def _seat_to_play(self) -> int:
        return (self._leader + len(self._trick)) % self.num_seats

    def seats_to_act(self) -> tuple[int, ...]:
        return () if self._over else ((self._leader + len(self._trick)) % self.num_seats,)

    def is_terminal(self) -> bool:
        return self._over

    def playable(self, seat: int) -> list[str]:
        """Cards ``seat`` may play to the trick in progress, in hand order: any card to lead or after a led
        Joker; else follow suit if able ("You must follow suit if you can but may play any card (including
        the Joker) if you can't"). Whose turn it is is not checked. A seat's cards are its secret: call it
        on a seat's own state or a determinisation."""
        hand = self._hands[seat]
        if not self._trick or self._trick[0][1] == JOKER:
            return list(hand)
        suit = SUIT[self._trick[0][1]]
        same = [card for card in hand if SUIT[card] == suit]
        return same or list(hand)

    @property
    def joker_decreed(self) -> bool:
        """Whether a Joker played now comes with a decree: three players, third to the trick ("If you play
        it third to a trick, it either wins or loses, as you decree")."""
        return self.num_seats == 3 and len(self._trick) == 2

    def _lot_open(self) -> bool:
        """Bid the Lot "upon playing to the first trick"; four to six players only (ruling 3); one bid per
        deal (ruling 6)."""
        return self.num_seats >= 4 and self._trick_no == 0 and self._lot_bidder is None

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        """The plain plays and, while the Lot may be bid, "Bid the Lot…"; in the Lot step, each card with
        the bid and cancelling (ruling 13)."""
        if self._over or seat != self._seat_to_play():
            return ()
        lot = None
        if self._lot_open():
            made, failed = LOT_SCORES[self.num_seats]
            lot = (self._hand_size, made, failed)
        cards = self.playable(seat)
        if self._lot_step:
            assert lot is not None  # the step is open only while the Lot may be bid
            return words.lot_step_choices(cards, lot)
        return words.play_choices(cards, len(self._trick), self.joker_decreed, self._special, lot)

    def decision_key(self, seat: int) -> Hashable:
        """``None`` off turn; else the hand, the place in the trick (notes, the Joker's decree) and the card
        led (following suit), whether the Lot may be bid (ruling 3) and whether the Lot step is open
        (ruling 13)."""
        if self._over or seat != self._seat_to_play():
            return None
        led = self._trick[0][1] if self._trick else None
        return tuple(self._hands[seat]), len(self._trick), led, self._lot_open(), self._lot_step

    def decision_clock(self, seat: int) -> str | None:
        """A seat's card to the first trick while the Lot may be bid is one timed decision, whether it opens
        the Lot step and cancels it or not: its clock runs on through the step (ruling 13)."""
        if self._over or seat != self._seat_to_play() or not self._lot_open():
            return None
        return f"{LOT} {self._deals_played}"

    def has_decision(self, seat: int) -> bool:
        """Only the seat to play decides."""
        return not self._over and seat == self._seat_to_play()

    def check(self, seat: int, action: GameAction) -> str | None:
        """Whose turn it is, that the card is in hand and follows suit ("You must follow suit if you can"),
        that a Joker played third by three players comes with its decree and no other card does, and that
        the Lot is bid only to the first trick, once per deal, by four to six players (rulings 3, 6), in its
        own step (ruling 13): "Bid the Lot…" opens it, then a card with the bid or cancelling."""
        if self._over:
            return words.GAME_OVER
        if seat != self._seat_to_play():
            return words.NOT_YOUR_TURN
        if isinstance(action, LotStep):
            if not action.open:
                return None if self._lot_step else words.NOTHING_TO_CANCEL
            if self._lot_step:
                return words.ALREADY_CHOOSING
            return None if self._lot_open() else self._no_lot_words()
        assert isinstance(action, MinimisereAction)
        if action.card not in self._hands[seat]:
            return words.not_held(action.card)
        if action.card not in self.playable(seat):
            return words.must_follow(self._trick[0][1][-1])
        decreed = action.card == JOKER and self.joker_decreed
        if decreed and action.decree is None:
            return words.DECREE_NEEDED
        if not decreed and action.decree is not None:
            return words.DECREE_NOT_ALLOWED
        if action.bid_lot and not self._lot_open():
            return self._no_lot_words()
        if action.bid_lot and not self._lot_step:
            return words.LOT_NEEDS_ITS_STEP
        if self._lot_step and not action.bid_lot:
            return words.CHOOSE_LOT_CARD
        return None

    def _no_lot_words(self) -> str:
        """Why the Lot may not be bid now (rulings 3, 6)."""
        return words.NO_LOT_WITH_THREE if self.num_seats == 3 else words.LOT_TOO_LATE

    def default_action(self, seat: int) -> str:
        """On a timeout (ruling 8): the legal card least likely to win, never bidding the Lot.

        Leading: the lowest plain card (a led Deuce or Joker would win). Following: the Joker, then the
        Deuce (both lose when not led), then the lowest card; a Joker played third by three players is
        decreed to lose. Ties between suits go to ♣, ♦, ♥, ♠ order.
        """
        if self._over or seat != self._seat_to_play():
            raise IllegalAction(words.NOT_YOUR_TURN)
        if self._lot_step:
            return CANCEL_LOT  # never a bid: the step is closed, and the next timeout plays the card
        leading = not self._trick
        suit_order = ("C", "D", "H", "S")

        def strength(card: str) -> tuple[int, int]:
            if card == JOKER:
                return (100, 0) if leading else (0, 0)
            value = RANK_VALUES[rank_of(card)]
            if self._special is not None and rank_of(card) == self._special:
                value = 99 if leading else 1
            return (value, suit_order.index(card[-1]))

        card = min(self.playable(seat), key=strength)
        if card == JOKER and self.joker_decreed:
            return JOKER_LOSES
        return card

    # -- changes -----------------------------------------------------------------------------------

    def play(self, seat: int, action: MinimisereMove) -> None:
        """Apply ``seat``'s ``action``, known to be legal, without the events' words: the rules' fast path
        for AI searches on copies (:meth:`apply` checks the action, then takes the same path and writes the
        events). The action is recorded in :attr:`history`. An action that :meth:`check` would refuse
        leaves the state undefined."""
        self._play(seat, action, None)
        self.history.append((seat, action.format()))

    def _apply(self, seat: int, action: MinimisereMove) -> list[Event]:
        events: list[Event] = []
        self._play(seat, action, events)
        return events

    def _play(self, seat: int, action: MinimisereMove, events: list[Event] | None) -> None:
        """The one path of a move: play the card and, when it completes the trick, settle it (and the deal,
        and the game); unless ``events`` is ``None``, append what happened to it. A step of the Lot only
        opens or closes the step, with no event: which card a seat may bid with is its secret, and whether
        it thinks of bidding is nobody's business until it bids (ruling 13)."""
        if isinstance(action, LotStep):
            self._lot_step = action.open
            return
        assert isinstance(action, MinimisereAction)
        self._lot_step = False
        card = action.card
        trick = self._trick
        position = len(trick)
        if position and trick[0][1] != JOKER and SUIT[card] != SUIT[trick[0][1]]:
            self._voids[seat].add(trick[0][1][-1])  # the suit led, which the seat lacks
        self._hands[seat].remove(card)
        trick.append((seat, card, "" if action.decree is None else action.decree.value))
        if action.bid_lot:
            self._lot_bidder = seat
        if events is not None:
            events.append(Event(seat, words.played(card, position, action.decree, action.bid_lot)))
        if position + 1 == self.num_seats:
            self._finish_trick(events)

    def _finish_trick(self, events: list[Event] | None) -> None:
        plays = self._trick
        index = trick_winner(plays, self._special)
        winner, card, _ = plays[index]
        self._tricks[winner] += 1
        self._taken[winner].extend([played for _, played, _ in plays])
        self._trick_no += 1
        self._last_trick = (plays, winner)
        self._trick = []
        self._leader = winner  # "the winner of each trick leads to the next"
        if events is not None:
            events.append(Event(winner, words.won_trick(self._trick_no, card)))
        if self._lot_bidder is not None and winner != self._lot_bidder:
            # Ruling 7: a lost trick settles a Lot bid, so the deal ends at once.
            if events is not None:
                events.append(Event(self._lot_bidder, words.LOT_FAILS))
            self._finish_deal(events)
        elif self._trick_no == self._hand_size:
            self._finish_deal(events)

    def _finish_deal(self, events: list[Event] | None) -> None:
        gains = score_for_deal(self.num_seats, self._tricks, self._lot_bidder)
        self._deals_played += 1
        self._last_deal = DealResult(self._deals_played, tuple(self._tricks), tuple(gains), self._lot_bidder)
        if events is not None and self._lot_bidder is not None:
            made = self._tricks[self._lot_bidder] == self._hand_size
            events.append(Event(self._lot_bidder, words.lot_result(made)))
        for seat in range(self.num_seats):
            self._scores[seat] += gains[seat]
            if events is not None:
                text = words.deal_score(gains[seat], self._tricks[seat], self._scores[seat])
                events.append(Event(seat, text))
        top = max(self._scores)
        if self._game_reached_its_end():
            leaders = [seat for seat in range(self.num_seats) if self._scores[seat] == top]
            if len(leaders) == 1:
                self._phase, self._over = Phase.OVER, True
                self._trick = []
                if events is not None:
                    events.append(Event(leaders[0], words.game_won(top)))
                return
            # "if there is a tie for first place play as many more deals as necessary" (ruling 9).
            self._phase = Phase.TIE_BREAK_DEAL
            if events is not None:
                events.append(Event(None, words.tie_for_first(top)))
        self._start_deal()
        if events is not None:
            events.append(Event(self._dealer, words.deals_hand(self._deals_played + 1)))

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
        other._rng, other._rng_saved = None, rng.random()  # the seed of a fresh generator
        other._script = []
        holders = [seat for seat in range(self.num_seats) if seat != viewer]
        cards = sorted([card for seat in holders for card in self._hands[seat]] + self._undealt)
        sizes = [len(self._hands[seat]) for seat in holders] + [len(self._undealt)]
        voids = [self._voids[seat] for seat in holders] + [set()]
        dealt = deal_respecting_voids(cards, sizes, voids, rng)
        for seat, hand in zip(holders, dealt, strict=False):
            other._dealt_hands[seat] = sort_cards(hand)
        other._dealt_rest = dealt[-1]
        return other

    def copy(self) -> MinimisereState:
        """An independent exact copy (hidden information, future deals and the generator's state
        included), much faster than a deep copy: immutable parts are shared, the changing ones copied, and
        the generator's state is saved once and shared until a deal is shuffled (:meth:`_generator`)."""
        if self._to_deal:
            self._deal_cards()  # a copy with its own generator would deal other cards (resample_hidden)
        if self._rng is not None:
            self._rng, self._rng_saved = None, self._rng.getstate()
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._script = list(self._script)
        other._scores = list(self._scores)
        other._dealt_hands = [list(hand) for hand in self._dealt_hands]
        other._dealt_rest = list(self._dealt_rest)
        other._taken = [list(cards) for cards in self._taken]
        other._tricks = list(self._tricks)
        other._trick = list(self._trick)
        other._voids = [set(voids) for voids in self._voids]
        return other

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(
                seat=other,
                summary=self._seat_summary(other),
                to_act=other in to_act,
                brief=self._seat_summary(other, brief=True),
            )
            for other in range(self.num_seats)
        )
        if self._over:
            title = words.final_title(self._deals_played)
        else:
            tie_break = self._phase is Phase.TIE_BREAK_DEAL
            title = words.title(self.deal_number, tie_break, self._trick_no + 1, self._hand_size)
        private: tuple[Field, ...] = ()
        if seat is not None and not self._over:
            private = (words.hand_field(self._hands[seat]),)
        return SeatView(
            seat=seat,
            title=title,
            table=self._table_fields(),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
            rules=self._rules_fields(),
            scene=self._scene(),
        )

    def _scene(self) -> Scene | None:
        """The table (``None`` once the game is over): the trick in progress in playing order (the last
        trick while the next is not led yet), and each seat's tricks won this deal as backs (they lie face
        down, ruling 10)."""
        if self._over:
            return None
        rows = []
        if self._trick:
            plays = self._trick
            note = f"led by {{seat:{plays[0][0]}}}"
            decrees = [decree for _, _, decree in plays if decree]
            if decrees:
                note += f" · Joker decreed to {decrees[0]}"
            rows.append(SceneRow("Trick", tuple(((("fr", card),) for _, card, _ in plays)), note))
        elif self._last_trick is not None:
            plays, _ = self._last_trick
            winner = plays[trick_winner(plays, self._special)][0]
            cards = tuple(((("fr", card),) for _, card, _ in plays))
            rows.append(SceneRow("Last trick", cards, f"won by {{seat:{winner}}}"))
        else:
            rows.append(SceneRow("Trick", (), "waiting for the lead"))
        for seat in range(self.num_seats):
            won = self._tricks[seat]
            backs = ((("fr", BACK),) * won,) if won else ()
            rows.append(SceneRow(f"{{seat:{seat}}}", backs, plural(won, "trick") + " won"))
        return Scene(tuple(rows))

    def _table_fields(self) -> tuple[Field, ...]:
        fields: list[Field] = []
        if not self._over:
            fields.append(words.trick_field(self._trick_no + 1, self._hand_size, self._trick, self._special))
            if self._last_trick is not None:
                plays, _ = self._last_trick
                fields.append(words.last_trick_field(plays, plays[trick_winner(plays, self._special)][1]))
            if self._lot_bidder is not None:
                fields.append(words.lot_bid_field(*LOT_SCORES[self.num_seats]))
        if self._last_deal is not None:
            last = self._last_deal
            fields.append(
                words.last_deal_field(last.number, last.tricks, last.points, last.lot_bidder, self._hand_size)
            )
        return tuple(fields)

    def _rules_fields(self) -> tuple[Field, ...]:
        """The rules in play: how the game ends, the scoring, and the pack."""
        by_deals = self.num_seats == 3 and self.options.end_by == "deals"
        return (
            words.game_field(
                self.options.deals if by_deals else None, self.target, self._phase is Phase.TIE_BREAK_DEAL
            ),
            words.scoring_field(self.num_seats),
            words.cards_field(
                self.num_seats, self.options.nines, len(self._pack), self._hand_size, self._special
            ),
        )

    def _seat_summary(self, seat: int, *, brief: bool = False) -> str:
        """A seat's line; ``brief`` leaves out what it scored in the last deal (the log has it)."""
        score = self._scores[seat]
        if self._over:
            return words.final_seat_summary(score, score == max(self._scores))
        plays = [
            (position, card, decree)
            for position, (player, card, decree) in enumerate(self._trick)
            if player == seat
        ]
        return words.seat_summary(
            score,
            self._tricks[seat],
            seat == self._dealer,
            seat == self._lot_bidder,
            plays,
            None if self._last_deal is None or brief else self._last_deal.points[seat],
        )

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Total points per seat, highest first (a game of points to reach); ties share a rank."""
        if not self._over:
            raise RuntimeError("The game is not over.")
        ranks = competition_ranks(self._scores, lower_is_better=False)
        return tuple(
            Standing(
                seat=seat,
                points=self._scores[seat],
                rank=ranks[seat],
                detail=words.deals_text(self._deals_played),
            )
            for seat in range(self.num_seats)
        )


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
    max_moves: ClassVar[int] = 900  # docs/rules/minimisere.md, "How long a game lasts"
    options_model: ClassVar[type[GameOptions]] = MinimisereOptions
    state_class: ClassVar[type[GameState]] = MinimisereState

    def upgrade_options(self, options: dict) -> dict:
        """A game started before ruling 12 (three players: the text's 31 by default) played to 25 with any
        number of players unless the host chose otherwise: it keeps playing to 25."""
        return {"target": 25, **options}

    def upgrade_log(self, actions: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        """``actions`` with the Lot step before each Lot bid of older logs (ruling 13).

        Until the Lot had its own step, a card and the bid were one move (``"<card>+lot"``), offered beside
        each plain play. Now "Bid the Lot…" (``"lot"``) opens the step and the same code plays the card with
        the bid, so an old bid replays as the step opened and the same move: the same game, the same
        scores. A bid already just after its seat's ``"lot"`` (a current log) is left as it is, so a current
        log is returned unchanged. (A log is written by one version of the engine: a table restored from an
        old log stores its upgraded log whole at its next save.)
        """
        upgraded: list[tuple[int, str]] = []
        for seat, code in actions:
            if code.endswith("+" + LOT) and (not upgraded or upgraded[-1] != (seat, BID_LOT)):
                upgraded.append((seat, BID_LOT))
            upgraded.append((seat, code))
        return upgraded
