"""Foist's rules: the action, the game in progress (deal, take or pay, the end) and the hidden information.

Rules source: ``shared/seeds/002_393ce4ef34d5d30a.txt`` and the seeds README. Rulings where the text is
silent are in ``docs/rules/foist.md``; each rule below names the passage it comes from.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from engine.core import (
    CardRef,
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
from engine.foist import words
from engine.foist.cards import (
    HIGHEST_CARD,
    LOWEST_CARD,
    REMOVED_UNSEEN,
    card_points,
    marginal_cost,
    runs,
    starting_tokens,
)

CARD_REFS: dict[int, CardRef] = {card: ("fo", str(card)) for card in range(LOWEST_CARD, HIGHEST_CARD + 1)}
"""Each card as a scene's card (:data:`engine.core.CardRef`), made once."""

TAKE = "take"
PAY = "pay"


class FoistOptions(GameOptions):
    """Foist has no table options: the page fixes every number."""


@dataclass(frozen=True)
class FoistAction(GameAction):
    """The one decision of Foist, on the card up ("On your turn you'll choose to either take a card or
    place a token on it"): ``pays=False`` takes it (code ``"take"``), ``pays=True`` pays a token to pass it
    on, "No thanks!" (code ``"pay"``)."""

    pays: bool

    @classmethod
    def parse(cls, code: str) -> Self:
        if code == TAKE:
            return cls(pays=False)
        if code == PAY:
            return cls(pays=True)
        raise ValueError(f"not a Foist action: {code!r}")

    def format(self) -> str:
        return PAY if self.pays else TAKE


TAKE_ACTION = FoistAction(pays=False)
"""Take the card up (code ``"take"``)."""
PAY_ACTION = FoistAction(pays=True)
"""Pay a token on the card up (code ``"pay"``)."""


class FoistState(GameState[FoistOptions]):
    """A game of Foist in progress.

    Secret information: the removed cards and the draw pile's order (secret to everyone) and each seat's
    token count (secret to all but its owner: seeds README, "token counts of other players are secret").
    Foist has no phases: the same decision (take or pay) repeats until the last card is taken.
    """

    action_type = FoistAction

    def __init__(self, num_seats: int, seed: int, options: FoistOptions) -> None:
        super().__init__(num_seats, seed, options)
        rng = random.Random(seed)
        deck = list(range(LOWEST_CARD, HIGHEST_CARD + 1))
        rng.shuffle(deck)
        self._removed: list[int] = sorted(deck[:REMOVED_UNSEEN])
        self._draw_pile: list[int] = deck[REMOVED_UNSEEN:]  # the card up is always popped from the end
        self._card_up: int | None = self._draw_pile.pop()
        self._tokens_on_card = 0
        self._tokens = [starting_tokens(num_seats)] * num_seats
        self._tokens_in_play = sum(self._tokens)  # public: what was handed out; tokens only move
        self._cards: list[list[int]] = [[] for _ in range(num_seats)]
        # Seeds README: the web app starts the turn order shuffled.
        self.turn_order: tuple[int, ...] = tuple(rng.sample(range(num_seats), num_seats))
        self._turn = 0  # index into turn_order

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        turn_up_order: list[int],
        turn_order: tuple[int, ...] | None = None,
        tokens: Sequence[int] | None = None,
    ) -> FoistState:
        """A game with a known deal, for rule scenarios and examples.

        Parameters
        ----------
        num_seats:
            Players, 3..7.
        turn_up_order:
            The cards in the order they will be turned up (any distinct cards from 3..35; the rest count
            as removed unseen).
        turn_order:
            Seat indices in turn order; default ``0, 1, ..., num_seats - 1``.
        tokens:
            Tokens each seat holds at the start, in seat order (e.g. ``[0, 11, 11]`` for a player who has
            none left); default the dealt number for the player count.

        Raises
        ------
        ValueError
            If the cards are not distinct cards of 3..35, ``turn_order`` is not a permutation of seats, or
            ``tokens`` is not one count of at least 0 per seat.
        """
        deck = set(range(LOWEST_CARD, HIGHEST_CARD + 1))
        if (
            not turn_up_order
            or len(set(turn_up_order)) != len(turn_up_order)
            or not set(turn_up_order) <= deck
        ):
            raise ValueError("turn_up_order must be distinct cards from 3 to 35")
        order = tuple(range(num_seats)) if turn_order is None else tuple(turn_order)
        if sorted(order) != list(range(num_seats)):
            raise ValueError("turn_order must be a permutation of the seats")
        if tokens is not None and (len(tokens) != num_seats or any(count < 0 for count in tokens)):
            raise ValueError("tokens must be one count of at least 0 per seat")
        state = cls(num_seats, 0, FoistOptions())
        state._removed = sorted(deck - set(turn_up_order))
        state._draw_pile = list(reversed(turn_up_order))
        state._card_up = state._draw_pile.pop()
        state.turn_order = order
        if tokens is not None:
            state._tokens = list(tokens)
            state._tokens_in_play = sum(state._tokens)
        return state

    # -- queries -----------------------------------------------------------------------------------

    @property
    def seat_to_act(self) -> int | None:
        """The seat deciding on the card up, or ``None`` once the last card is taken."""
        return None if self._card_up is None else self.turn_order[self._turn]

    def seats_to_act(self) -> tuple[int, ...]:
        return () if self._card_up is None else (self.turn_order[self._turn],)

    def is_terminal(self) -> bool:
        # "The game finishes when the last card is taken."
        return self._card_up is None

    @property
    def card_up(self) -> int | None:
        """The card face up to be taken or passed on (public), ``None`` once the last card is taken."""
        return self._card_up

    @property
    def tokens_on_card(self) -> int:
        """Tokens paid onto the card up so far (public: everyone sees them placed)."""
        return self._tokens_on_card

    @property
    def tokens_in_play(self) -> int:
        """All the tokens in the game (public: what was handed out at the start; tokens only move between
        players and the card up, so the total never changes)."""
        return self._tokens_in_play

    @property
    def cards_left(self) -> int:
        """How many face-down cards are still to be turned up after the card up (public: the view shows
        the count)."""
        return len(self._draw_pile)

    def draw_pile(self) -> tuple[int, ...]:
        """The face-down cards still to be turned up, the next one first. Their order is secret to everyone
        (only the count is shown); for tests and tools, never for a view."""
        return tuple(reversed(self._draw_pile))

    def removed(self) -> tuple[int, ...]:
        """The 9 cards removed unseen at the start, ascending. Secret to everyone until the game is over
        (ruling 3); for tests and tools, never for a view during play."""
        return tuple(self._removed)

    def tokens(self, seat: int) -> int:
        """Tokens ``seat`` holds (its secret; for scoring and tests, never for another seat's view)."""
        return self._tokens[seat]

    def cards(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` has taken, ascending (public)."""
        return tuple(sorted(self._cards[seat]))

    def take_cost(self, seat: int) -> int:
        """Card points ``seat`` would add to its score by taking the card up (public:
        :func:`~engine.foist.cards.marginal_cost` of its taken cards).

        Raises
        ------
        RuntimeError
            Once the game is over (no card is up).
        """
        card = self._card_up
        if card is None:
            raise RuntimeError("The game is over: no card is up.")
        return marginal_cost(self._cards[seat], card)

    def score(self, seat: int) -> int:
        """Card points minus tokens ("Cards add points to your score. Tokens take points off")."""
        return card_points(self._cards[seat]) - self._tokens[seat]

    def _take_and_pay(self) -> tuple[LegalAction, LegalAction]:
        assert self._card_up is not None
        take = LegalAction(TAKE, words.take_label(self._card_up, self._tokens_on_card), "good")
        pay = LegalAction(PAY, words.PAY_LABEL, "main")
        return take, pay

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if seat not in self.seats_to_act():
            return ()
        take, pay = self._take_and_pay()
        if self._tokens[seat] == 0:
            # "You cannot choose to place a token if you have no tokens remaining."
            return (take,)
        return (take, pay)

    def decision_key(self, seat: int) -> Hashable:
        """``None`` off turn; on it the card up and the tokens on it (the take label) and whether ``seat``
        holds a token (paying: "You cannot choose to place a token if you have no tokens remaining")."""
        if seat not in self.seats_to_act():
            return None
        return self._card_up, self._tokens_on_card, self._tokens[seat] > 0

    def has_decision(self, seat: int) -> bool:
        """Only the seat to act decides (it may always take the card)."""
        return seat in self.seats_to_act()

    def check(self, seat: int, action: GameAction) -> str | None:
        """Only the seat to act decides; paying needs a token ("You cannot choose to place a token if you
        have no tokens remaining")."""
        assert isinstance(action, FoistAction)
        if seat not in self.seats_to_act():
            return words.NOT_YOUR_TURN
        if action.pays and self._tokens[seat] == 0:
            return words.NO_TOKENS
        return None

    def public_actions(self) -> tuple[LegalAction, ...]:
        """Take and No thanks, always: hiding "No thanks" would tell everyone the player has no tokens
        (token counts are secret). Paying without tokens is then refused privately by :meth:`check`."""
        return () if self.is_terminal() else self._take_and_pay()

    def default_action(self, seat: int) -> str:
        """On a timeout: pay a token if possible, else take the card."""
        if seat not in self.seats_to_act():
            raise IllegalAction(words.NOT_YOUR_TURN)
        return PAY if self._tokens[seat] > 0 else TAKE

    # -- changes -----------------------------------------------------------------------------------

    def play(self, seat: int, action: FoistAction) -> None:
        """Apply ``seat``'s ``action``, known to be legal, without the events' words: the rules' fast path
        for AI searches on copies (:meth:`apply` checks the action, then takes the same path and writes the
        events). The action is recorded in :attr:`history`. An action that :meth:`check` would refuse
        leaves the state undefined."""
        self._play(seat, action, None)
        self.history.append((seat, PAY if action.pays else TAKE))

    def _apply(self, seat: int, action: FoistAction) -> list[Event]:
        events: list[Event] = []
        self._play(seat, action, events)
        return events

    def _play(self, seat: int, action: FoistAction, events: list[Event] | None) -> None:
        """The one path of a move: change the state and, unless ``events`` is ``None``, append what
        happened to it."""
        card = self._card_up
        assert card is not None
        if action.pays:
            # Placing a token ends your turn ("Your turn only ends when you place a token on a card").
            self._tokens[seat] -= 1
            self._tokens_on_card += 1
            self._turn = (self._turn + 1) % self.num_seats
            if events is not None:
                events.append(Event(seat, words.paid(card, self._tokens_on_card)))
            return
        # Taking: you also receive the tokens on it; the next card is shown and your turn goes on.
        if events is not None:
            events.append(Event(seat, words.took(card, self._tokens_on_card)))
        self._cards[seat].append(card)
        self._tokens[seat] += self._tokens_on_card
        self._tokens_on_card = 0
        self._card_up = self._draw_pile.pop() if self._draw_pile else None
        if events is not None:
            if self._card_up is None:
                events.append(Event(None, words.LAST_CARD_TAKEN))
            else:
                events.append(Event(None, words.next_card(self._card_up)))

    def resample_hidden(self, viewer: int | None, rng: random.Random) -> FoistState:
        """A copy in which what ``viewer`` may not see is redrawn: the draw pile's order and which cards
        were removed unseen (one shuffle of both, sizes kept), and the token counts of every seat but the
        viewer (all seats for ``viewer=None``), dealt at random so the total stays what was handed out.

        The copy is canonical: it depends only on what ``viewer`` has seen and on ``rng``, never on the
        true hidden values. The unseen cards are gathered and sorted before the shuffle, and the tokens
        to share out are counted from public facts (the tokens handed out, minus the viewer's own and
        those on the card up), so resampling a resample with the same ``rng`` gives the same world.

        The public log of payments (ruling 4) would let a patient player count the tokens; the game treats
        the counts as secret, as the seeds README does, so the resample does too (a player who counts them
        puts its counts in with :meth:`with_tokens`). Once the game is over everything is shown, so the copy
        equals this state. Foist draws nothing at random after the deal.
        """
        other = self.copy()
        if self.is_terminal():
            return other
        hidden = sorted(other._draw_pile + other._removed)
        rng.shuffle(hidden)
        size = len(other._draw_pile)
        other._draw_pile, other._removed = hidden[:size], sorted(hidden[size:])
        others = [seat for seat in range(self.num_seats) if seat != viewer]
        total = self._tokens_in_play - self._tokens_on_card
        if viewer is not None:
            total -= self._tokens[viewer]
        cuts = sorted(rng.randint(0, total) for _ in range(len(others) - 1))
        for seat, low, high in zip(others, [0, *cuts], [*cuts, total], strict=True):
            other._tokens[seat] = high - low
        return other

    def with_tokens(self, tokens: Sequence[int]) -> FoistState:
        """A copy in which the seats hold ``tokens`` (one count per seat, in seat order), everything else
        kept: a world whose token counts a player has counted from the public log of payments (ruling 4),
        for an AI's search.

        Raises
        ------
        ValueError
            If ``tokens`` is not one count of at least 0 per seat, or its total is not the tokens the seats
            hold (:attr:`tokens_in_play` minus those on the card up).
        """
        if (
            len(tokens) != self.num_seats
            or min(tokens) < 0
            or sum(tokens) != self._tokens_in_play - self._tokens_on_card
        ):
            raise ValueError("tokens must be one count of at least 0 per seat, adding up to those held")
        other = self.copy()
        other._tokens = list(tokens)
        return other

    def copy(self) -> FoistState:
        """An independent exact copy (hidden information included), much faster than a deep copy: the
        options and the turn order are immutable and shared, the lists are copied."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._removed = list(self._removed)
        other._draw_pile = list(self._draw_pile)
        other._tokens = list(self._tokens)
        other._cards = [list(cards) for cards in self._cards]
        return other

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        over = self.is_terminal()
        to_act = self.seats_to_act()
        if over:
            title = words.title(None)
            table = words.table_at_the_end(self._removed)
        else:
            assert self._card_up is not None
            title = words.title(len(self._draw_pile))
            table = words.table_during_play(self._card_up, self._tokens_on_card, len(self._draw_pile))
        seats = tuple(
            SeatLine(
                seat=other,
                summary=(
                    words.seat_summary(self._cards[other], self._tokens[other], self.score(other))
                    if over
                    else words.cards_summary(tuple(self._cards[other]))
                ),
                to_act=other in to_act,
            )
            for other in self.turn_order
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            cost = 0 if self._card_up is None else self.take_cost(seat)
            private = words.private_fields(
                self._tokens[seat],
                card_points(self._cards[seat]),
                self.score(seat),
                self._card_up,
                cost,
                self._tokens_on_card,
            )
        return SeatView(
            seat=seat,
            title=title,
            table=table,
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
            scene=self._scene(),
        )

    def _scene(self) -> Scene:
        """The table: the card up (without its tokens, which change with every pass: the text says them)
        and the cards left after it, or once the game is over the cards removed unseen; then each player's
        cards in turn order, in their runs (only a run's lowest card counts)."""
        if self._card_up is None:
            top = SceneRow("Removed unseen", tuple((CARD_REFS[card],) for card in self._removed))
        else:
            left = plural(len(self._draw_pile), "card") + " left"
            top = SceneRow("Card up", ((CARD_REFS[self._card_up],),), left)
        rows = [top]
        rows.extend(_seat_row(seat, tuple(self._cards[seat])) for seat in self.turn_order)
        return Scene(tuple(rows))

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Points per seat (lowest wins; "The player with the lowest score wins!"), ties share a rank."""
        if not self.is_terminal():
            raise RuntimeError("The game is not over.")
        points = [self.score(seat) for seat in range(self.num_seats)]
        ranks = competition_ranks(points, lower_is_better=True)
        return tuple(
            Standing(
                seat=seat,
                points=points[seat],
                rank=ranks[seat],
                detail=words.standing_detail(card_points(self._cards[seat]), self._tokens[seat]),
            )
            for seat in range(self.num_seats)
        )


@functools.lru_cache(maxsize=4096)
def _seat_row(seat: int, cards: tuple[int, ...]) -> SceneRow:
    """The scene's row of ``seat`` holding ``cards``: its cards in their runs. A seat's cards change only
    when it takes one, so the rows of a view are nearly always those of the view before."""
    series = tuple(tuple(map(CARD_REFS.__getitem__, run)) for run in runs(cards))
    return SceneRow(f"{{seat:{seat}}}", series, "" if series else "no cards yet")


class Foist(GameRules[FoistOptions]):
    """Foist ("You Don't Want Points!"): take the card or pay a token; lowest score wins."""

    key: ClassVar[str] = "foist"
    display_name: ClassVar[str] = "Foist"
    summary: ClassVar[str] = "Take the card or pay a token to pass it on. Runs count only their lowest card."
    winning_rule: ClassVar[str] = "lowest score wins"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 7
    max_moves: ClassVar[int] = 500  # docs/rules/foist.md, "How long a game lasts"
    options_model: ClassVar[type[GameOptions]] = FoistOptions
    state_class: ClassVar[type[GameState]] = FoistState
