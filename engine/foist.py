"""Foist ("You Don't Want Points!"), an online version of No Thanks!, for 3 to 7 players.

Rules source: ``shared/seeds/002_393ce4ef34d5d30a.txt`` and the seeds README. Rulings where the text is
silent are in ``docs/rules/foist.md``; each rule below names the passage it comes from.
"""

from __future__ import annotations

import random
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

LOWEST_CARD = 3
HIGHEST_CARD = 35
REMOVED_UNSEEN = 9
TAKE = "take"
PAY = "pay"


def starting_tokens(num_seats: int) -> int:
    """Tokens dealt to each player ("Pay Tokens to Avoid Cards": 3-5 players 11, 6 players 9, 7 players 7).

    Raises
    ------
    ValueError
        For a player count outside 3..7.
    """
    if 3 <= num_seats <= 5:
        return 11
    if num_seats == 6:
        return 9
    if num_seats == 7:
        return 7
    raise ValueError(f"Foist is for 3 to 7 players, not {num_seats}.")


def runs(cards: list[int] | tuple[int, ...]) -> list[list[int]]:
    """Split cards into series of consecutive numbers, each ascending, lowest series first.

    >>> runs([20, 11, 12, 15, 16, 17])
    [[11, 12], [15, 16, 17], [20]]
    """
    series: list[list[int]] = []
    for card in sorted(cards):
        if series and card == series[-1][-1] + 1:
            series[-1].append(card)
        else:
            series.append([card])
    return series


def card_points(cards: list[int] | tuple[int, ...]) -> int:
    """Points of a set of cards: only the lowest card of each series counts
    ("Only the Lowest Card in a Series Counts"; 11 12 15 16 17 20 count 11 + 15 + 20 = 46)."""
    return sum(series[0] for series in runs(cards))


def format_runs(cards: list[int] | tuple[int, ...]) -> str:
    """Cards as series, e.g. ``"11-12 · 15-17 · 20"``; ``"no cards"`` for none."""
    if not cards:
        return "no cards"
    return " · ".join(
        f"{series[0]}-{series[-1]}" if len(series) > 1 else str(series[0]) for series in runs(cards)
    )


class FoistOptions(GameOptions):
    """Foist has no table options: the page fixes every number."""


class FoistState(GameState[FoistOptions]):
    """A game of Foist in progress.

    Secret information: the removed cards and the draw pile's order (secret to everyone) and each seat's
    token count (secret to all but its owner: seeds README, "token counts of other players are secret").
    """

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
    ) -> "FoistState":
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

        Raises
        ------
        ValueError
            If the cards are not distinct cards of 3..35, or ``turn_order`` is not a permutation of seats.
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
        state = cls(num_seats, 0, FoistOptions())
        state._removed = sorted(deck - set(turn_up_order))
        state._draw_pile = list(reversed(turn_up_order))
        state._card_up = state._draw_pile.pop()
        state.turn_order = order
        return state

    # -- queries -----------------------------------------------------------------------------------

    @property
    def seat_to_act(self) -> int | None:
        """The seat deciding on the card up, or ``None`` once the last card is taken."""
        return None if self.is_terminal() else self.turn_order[self._turn]

    def seats_to_act(self) -> tuple[int, ...]:
        return () if self.is_terminal() else (self.turn_order[self._turn],)

    def is_terminal(self) -> bool:
        # "The game finishes when the last card is taken."
        return self._card_up is None

    def tokens(self, seat: int) -> int:
        """Tokens ``seat`` holds (its secret; for scoring and tests, never for another seat's view)."""
        return self._tokens[seat]

    def cards(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` has taken, ascending (public)."""
        return tuple(sorted(self._cards[seat]))

    def score(self, seat: int) -> int:
        """Card points minus tokens ("Cards add points to your score. Tokens take points off")."""
        return card_points(self._cards[seat]) - self._tokens[seat]

    def _take_and_pay(self) -> tuple[LegalAction, LegalAction]:
        assert self._card_up is not None
        take = LegalAction(TAKE, f"Take {self._card_up} (+{_tokens_text(self._tokens_on_card)})", "success")
        pay = LegalAction(PAY, "No thanks! (pay a token)", "primary")
        return take, pay

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if seat not in self.seats_to_act():
            return ()
        take, pay = self._take_and_pay()
        if self._tokens[seat] == 0:
            # "You cannot choose to place a token if you have no tokens remaining."
            return (take,)
        return (take, pay)

    def public_actions(self) -> tuple[LegalAction, ...]:
        """Take and No thanks, always: hiding "No thanks" would tell everyone the player has no tokens
        (token counts are secret). Paying without tokens is then refused privately."""
        return () if self.is_terminal() else self._take_and_pay()

    def refusal(self, seat: int, code: str) -> str:
        if code == PAY and self._tokens[seat] == 0:
            return "You have no tokens left, so you must take the card."
        return super().refusal(seat, code)

    def default_action(self, seat: int) -> str:
        """On a timeout: pay a token if possible, else take the card (issue #2)."""
        if seat not in self.seats_to_act():
            raise IllegalAction("It is not your turn.")
        return PAY if self._tokens[seat] > 0 else TAKE

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, code: str) -> list[Event]:
        card = self._card_up
        assert card is not None
        if code == PAY:
            # Placing a token ends your turn ("Your turn only ends when you place a token on a card").
            self._tokens[seat] -= 1
            self._tokens_on_card += 1
            self._turn = (self._turn + 1) % self.num_seats
            return [Event(seat, f"said no thanks to **{card}** ({_tokens_text(self._tokens_on_card)} on it)")]
        # Taking: you also receive the tokens on it; the next card is shown and your turn goes on.
        events = [Event(seat, f"took **{card}** with {_tokens_text(self._tokens_on_card)}")]
        self._cards[seat].append(card)
        self._tokens[seat] += self._tokens_on_card
        self._tokens_on_card = 0
        self._card_up = self._draw_pile.pop() if self._draw_pile else None
        if self._card_up is None:
            events.append(Event(None, "The last card is taken: the game is over."))
        else:
            events.append(Event(None, f"The next card is **{self._card_up}**."))
        return events

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        over = self.is_terminal()
        to_act = self.seats_to_act()
        if over:
            title = "Foist: game over"
            table: tuple[Field, ...] = (
                Field("Removed unseen", " ".join(str(card) for card in self._removed)),
            )
        else:
            title = f"Foist: {len(self._draw_pile)} cards left after this one"
            table = (
                Field("Card up", f"**{self._card_up}** with {_tokens_text(self._tokens_on_card)} on it"),
                Field("Draw pile", f"{len(self._draw_pile)} cards ({REMOVED_UNSEEN} were removed unseen)"),
            )
        seats = tuple(
            SeatLine(
                seat=other,
                summary=self._seat_summary(other, reveal_tokens=over),
                to_act=other in to_act,
            )
            for other in self._seat_order_for_display()
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            private = self._private_fields(seat)
        return SeatView(
            seat=seat,
            title=title,
            table=table,
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
        )

    def _seat_order_for_display(self) -> tuple[int, ...]:
        return self.turn_order

    def _seat_summary(self, seat: int, *, reveal_tokens: bool) -> str:
        cards = self._cards[seat]
        summary = f"{format_runs(cards)} (cards count {card_points(cards)})"
        if reveal_tokens:
            summary += f", {_tokens_text(self._tokens[seat])}: **{self.score(seat)}** points"
        return summary

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        fields = [
            Field("Your tokens", str(self._tokens[seat])),
            Field(
                "Your score now",
                f"cards {card_points(self._cards[seat])} − tokens {self._tokens[seat]}"
                f" = **{self.score(seat)}**",
            ),
        ]
        if self._card_up is not None:
            cost = card_points(self._cards[seat] + [self._card_up]) - card_points(self._cards[seat])
            fields.append(
                Field(
                    f"Taking {self._card_up} now",
                    f"{cost:+d} card points, +{_tokens_text(self._tokens_on_card)}: "
                    f"net **{cost - self._tokens_on_card:+d}**",
                )
            )
        return tuple(fields)

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
                detail=f"cards {card_points(self._cards[seat])} − tokens {self._tokens[seat]}",
            )
            for seat in range(self.num_seats)
        )


def _tokens_text(count: int) -> str:
    return "1 token" if count == 1 else f"{count} tokens"


class Foist(GameRules[FoistOptions]):
    """Foist ("You Don't Want Points!"): take the card or pay a token; lowest score wins."""

    key: ClassVar[str] = "foist"
    display_name: ClassVar[str] = "Foist"
    summary: ClassVar[str] = "Take the card or pay a token to pass it on. Runs count only their lowest card."
    winning_rule: ClassVar[str] = "lowest score wins"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 7
    options_model: ClassVar[type[GameOptions]] = FoistOptions

    def _deal(self, num_seats: int, seed: int, options: GameOptions) -> FoistState:
        assert isinstance(options, FoistOptions)
        return FoistState(num_seats, seed, options)
