"""The layer TOKENIZE and ERADICIZE share on :class:`~engine.frazzled.table.FrazzledTable`
(``shared/seeds/000_d97c66fde1b75dcf.txt``): the six-card deal into three equal face-up piles, one colour
and one shape token each, the scripted deal, and the 14/1, 2, 6 and 13 actions:

* 6 - "All players pass their entire hand to their left."
* 13 - "The current player receives a token from the middle if any are available (they can choose which
  token) ... If there are no tokens left in the middle, steal one from another player."

Its words are :mod:`engine.frazzled.words`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from engine.core import Event, Field, LegalAction, OptionsT, Scene, SeatLine, SeatView
from engine.frazzled import words
from engine.frazzled.actions import Draw, Fan, FrazzledAction, StealToken, TakeToken
from engine.frazzled.deck import FOURTEEN_ONE, Card, shuffled_deck
from engine.frazzled.fan import FanExchange
from engine.frazzled.snapshot import card_ids, cards_of
from engine.frazzled.state_copy import duplicate
from engine.frazzled.table import (
    HAND_SIZE,
    NOT_NOW,
    FrazzledTable,
    Phase,
    left_of,
    non_empty_piles,
    pass_hands_left,
    split_into_piles,
)
from engine.frazzled.tokens import Tokens

SHARED_KINDS: tuple[type[FrazzledAction], ...] = (Draw, Fan, TakeToken, StealToken)
"""The moves TOKENIZE and ERADICIZE share: a draw, a fan pick, a token taken or stolen."""

ExchangeNote = tuple[tuple[Card, ...], tuple[Card, ...], bool]
"""A seat's private record of the last exchange: ``(cards it received, cards that left its hand, passed)``,
``passed`` for a 6 (whole hands passed left), else a fan exchange (see :func:`words.exchange_text`)."""


class TokenTable(FrazzledTable[OptionsT]):
    """TOKENIZE and ERADICIZE: six cards each, the rest in three equal face-up piles, one colour and one
    shape token each, and the 14/1, 2, 6 and 13 actions.

    The games differ in what a turn is (:meth:`_arrange` for the extra cards a deal places, the phases
    of their own, the 10, the end); this class carries out the shared actions and hands over with
    :meth:`_after_exchange` and :meth:`_next_turn`.
    """

    title: ClassVar[str]
    """The game's name, for view titles (from the game's words)."""
    card_verb: ClassVar[str]
    """What a player does with the card whose action follows ("discarded", "played"; the game's words)."""
    ten_action: ClassVar[str]
    """What the game's 10 does, in a few words (the game's words)."""
    nobody_fans: ClassVar[str] = words.NOBODY_FANS
    """The event of a 14/1 or 2 when no hand holds a card to fan out."""

    def __init__(self, num_seats: int, seed: int, options: OptionsT) -> None:
        super().__init__(num_seats, seed, options)
        deck = shuffled_deck(self._rng)
        # "deal six cards to each player ... Split the remaining cards into three equal decks ... face up".
        self._hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(num_seats)]
        rest = self._deal_more(deck[num_seats * HAND_SIZE :])
        self._piles = split_into_piles(rest)
        self._tokens = Tokens.deal(num_seats, self._rng)
        self._deal_rule_cards()
        # "Decide who goes first": drawn from the seed (ruling 1 of each game).
        self._turn = self._rng.randrange(num_seats)
        self._notes: dict[int, ExchangeNote] = {}  # private records of the last exchange, per seat
        self._turns = 1

    def _resample_more(self, viewer: int | None, rng: random.Random) -> None:
        """The other seats' private records of the last exchange name cards the viewer did not see:
        dropped."""
        self._notes = {seat: note for seat, note in self._notes.items() if seat == viewer}

    def _snapshot_fields(self) -> dict[str, Any]:
        """Adds the tokens (``[colours per seat, shapes per seat, colours in the middle, shapes in the
        middle]``), each seat's note of the last exchange (``[seat, card ids received, card ids that left,
        passed]``) and the turn count."""
        tokens = self._tokens
        return {
            **super()._snapshot_fields(),
            "tokens": [
                [list(seat) for seat in tokens.colours],
                [list(seat) for seat in tokens.shapes],
                list(tokens.middle_colours),
                list(tokens.middle_shapes),
            ],
            "notes": [
                [seat, card_ids(received), card_ids(left), passed]
                for seat, (received, left, passed) in self._notes.items()
            ],
            "turns": self._turns,
        }

    def _read_fields(self, data: dict[str, Any]) -> None:
        super()._read_fields(data)
        colours, shapes, middle_colours, middle_shapes = data["tokens"]
        self._tokens = Tokens(
            [[int(colour) for colour in seat] for seat in colours],
            [[int(shape) for shape in seat] for seat in shapes],
            [int(colour) for colour in middle_colours],
            [int(shape) for shape in middle_shapes],
        )
        self._notes = {
            int(seat): (tuple(cards_of(received)), tuple(cards_of(left)), bool(passed))
            for seat, received, left, passed in data["notes"]
        }
        self._turns = int(data["turns"])

    def _deal_more(self, rest: list[Card]) -> list[Card]:
        """Deal what the game adds from the shuffled deck after the hands; return the cards for the piles."""
        return rest

    def _deal_rule_cards(self) -> None:
        """Deal the game's rule cards (after the tokens, from the game's generator); default: none."""

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        hands: Sequence[Sequence[Card]],
        *,
        piles: Sequence[Sequence[Card]] | None = None,
        discard: Sequence[Card] = (),
        colours: Sequence[Sequence[int]] | None = None,
        shapes: Sequence[Sequence[int]] | None = None,
        first: int = 0,
        seed: int = 0,
        **table: object,
    ) -> Self:
        """A game with a known deal, for rule scenarios, tests and puzzles.

        Parameters
        ----------
        num_seats:
            Players, 3..8.
        hands:
            Per seat, the cards in hand.
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
            Seeds the game's generator (fan orders, reshuffles).
        table:
            What the game itself lays out (ERADICIZE ``face_up``, TOKENIZE ``bonus``): see its
            ``_arrange``.

        Cards not placed anywhere are set aside, out of the game.

        Raises
        ------
        ValueError
            If a card is placed twice, a token held twice, or the lists do not match the seat count.
        """
        piles = piles if piles is not None else [[], [], []]
        if len(hands) != num_seats:
            raise ValueError("one hand per seat")
        state = cls(num_seats, seed, cls.options_class())
        placed = state._arrange(**table)
        state._stack(hands, piles, discard, placed)
        state._tokens = Tokens.from_lists(
            colours if colours is not None else [[seat] for seat in range(num_seats)],
            shapes if shapes is not None else [[seat] for seat in range(num_seats)],
        )
        state._turn = first
        return state

    def _arrange(self, **table: object) -> list[Card]:
        """Lay out the game's own part of a scripted deal; return the cards it placed."""
        if table:
            raise TypeError(f"unknown scripted deal arguments: {sorted(table)}")
        return []

    # -- queries -----------------------------------------------------------------------------------

    def tokens(self) -> Tokens:
        """A copy of who holds which token and what lies in the middle (public)."""
        return duplicate(self._tokens)

    @property
    def turns(self) -> int:
        """The number of the turn being played, 1 first."""
        return self._turns

    def public_actions(self) -> tuple[LegalAction, ...]:
        """During an exchange, the fan positions of every picker in one group (see
        :meth:`FanExchange.public_actions`); otherwise the non-secret actions of the seats to act."""
        if self._phase is Phase.FAN and self._fan is not None:
            return self._fan.public_actions()
        return super().public_actions()

    def _action_text(self, card: Card) -> str:
        """What ``card``'s action does in this game, in a few words (``""`` for none)."""
        return self.ten_action if card.number == 10 else words.action_name(card.number)

    def _shared_actions(self, seat: int) -> tuple[LegalAction, ...] | None:
        """The legal actions of a phase both games have (draw, exchange, token choice), or ``None``."""
        if self._phase is Phase.DRAW:
            return draw_actions(self._piles)
        if self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.actions(seat)
        if self._phase is Phase.TOKEN:
            return self._tokens.choices(seat)
        return None

    def _shared_key(self, seat: int) -> tuple | None:
        """What the actions of a phase both games have are made of (see :meth:`_shared_actions`): the
        piles' tops (a draw), the fan positions left (an exchange), every token's place (a 13); ``None``
        in another phase."""
        if self._phase is Phase.DRAW:
            return self._phase, self._tops()
        if self._phase is Phase.FAN:
            return self._phase, self._fan_key(seat)
        if self._phase is Phase.TOKEN:
            return self._phase, self._tokens.key()
        return None

    def _check_shared(self, seat: int, action: FrazzledAction) -> str | None:
        """The check of the moves both games have: a draw, a fan pick, a token; NOT_NOW for anything
        else."""
        if isinstance(action, Draw) and self._phase is Phase.DRAW:
            return self._check_draw(action)
        if isinstance(action, Fan) and self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.check(seat, action.position)
        if isinstance(action, TakeToken | StealToken) and self._phase is Phase.TOKEN:
            return self._tokens.check(seat, action)
        return NOT_NOW

    def _default(self, seat: int) -> str:
        if self._phase is Phase.TOKEN:
            return self._tokens.choices(seat)[0].code
        return self._default_turn(seat)

    def _default_turn(self, seat: int) -> str:
        raise NotImplementedError

    # -- the shared actions -------------------------------------------------------------------------

    def _apply_shared(self, seat: int, action: FrazzledAction) -> list[Event] | None:
        """Carry out a fan pick or a token choice (already checked), or return ``None``."""
        if isinstance(action, Fan):
            return self._pick(seat, action.position)
        if isinstance(action, TakeToken | StealToken):
            self._tokens.apply(seat, action)
            if isinstance(action, TakeToken):
                text = words.took_token_text(action.kind, action.index)
            else:
                text = words.stole_token_text(action.owner, action.kind, action.index)
            return [Event(seat, text)] + self._next_turn()
        return None

    def _shared_action(self, seat: int, card: Card) -> list[Event] | None:
        """The 14/1, 2, 6 or 13 of ``card`` (discarded or played by ``seat``), or ``None`` for another
        card."""
        number = card.number
        if number in (FOURTEEN_ONE, 2):
            count = 1 if number == FOURTEEN_ONE else 2
            fan = FanExchange.start(self._hands, count, self._rng)
            if fan.is_done():
                return [Event(None, self.nobody_fans)] + self._next_turn()
            self._fan = fan
            self._phase = Phase.FAN
            return [Event(None, words.fan_starts_text(number, count))]
        if number == 6:
            before = self._hands
            self._hands = pass_hands_left(self._hands)
            self._hands_moved(
                {other: left_of(other, self.num_seats) for other in range(self.num_seats)}, before
            )
            for other in range(self.num_seats):
                given = self._hands[left_of(other, self.num_seats)]
                self._notes[other] = (tuple(self._hands[other]), tuple(given), True)
            return [Event(None, words.HANDS_PASSED)] + self._after_exchange()
        if number == 13:
            if not self._tokens.choices(seat):
                return [Event(None, words.NO_TOKEN_LEFT)] + self._next_turn()
            self._phase = Phase.TOKEN
            return [Event(None, words.TOKEN_TO_TAKE)]
        return None

    def _pick(self, seat: int, position: int) -> list[Event]:
        fan = self._fan
        assert fan is not None
        fan.pick(seat, position)
        if not fan.is_done():
            return []
        for other, (received, given) in self._resolve_fan().items():
            if received or given:
                self._notes[other] = (tuple(received), tuple(given), False)
        self._fan = None
        events = [Event(None, words.EXCHANGE_DONE)]
        return events + self._after_exchange()

    def _after_exchange(self) -> list[Event]:
        """What follows a finished exchange or a 6 (default: the next turn)."""
        return self._next_turn()

    def _next_turn(self) -> list[Event]:
        self._turn = left_of(self._turn, self.num_seats)
        self._phase = self.turn_phase
        self._turns += 1
        return []

    def _end(self) -> None:
        self._phase = Phase.OVER
        self._fan = None

    # -- views -------------------------------------------------------------------------------------

    def _view(
        self, seat: int | None, table: list[Field], scene: Scene, rules: tuple[Field, ...] = ()
    ) -> SeatView:
        """The view of ``seat`` with the game's ``table`` fields, its ``scene`` and ``rules`` in play."""
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(other, self._seat_summary(other), other in to_act, self._seat_brief(other))
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            private = tuple(self._private_fields(seat))
        return SeatView(
            seat=seat,
            title=words.table_title(self.title, self.is_terminal(), self._turns),
            table=tuple(table),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
            rules=rules,
            scene=scene,
        )

    def _now_text(self) -> str:
        """The "Now" line of the table: what the game waits for."""
        if self._phase is Phase.FAN:
            assert self._fan is not None
            return words.fan_now_text(self._fan.count)
        if self._phase is Phase.TOKEN:
            return words.token_now_text(self.card_verb)
        return self._now_turn()

    def _now_turn(self) -> str:
        raise NotImplementedError

    def _seat_summary(self, seat: int) -> str:
        raise NotImplementedError

    def _seat_brief(self, seat: int) -> str:
        """A seat's line for a crowded table (``""``: its summary)."""
        return ""

    def _private_fields(self, seat: int) -> list[Field]:
        raise NotImplementedError

    def _piles_field(self, empty: str) -> Field:
        """The public field of the draw piles (``empty`` once all three are)."""
        return words.piles_field(self._piles, empty)

    def _hand_fields(self, seat: int, empty: str) -> list[Field]:
        """``seat``'s hand as private fields (``empty`` for no card)."""
        return words.hand_fields(self._hands[seat], empty)

    def _exchange_fields(self, seat: int) -> list[Field]:
        """A seat's private notes on exchanges: the last one, and the fan it picks from now."""
        fields = []
        if seat in self._notes:
            received, given, passed = self._notes[seat]
            fields.append(words.last_exchange_field(words.exchange_text(received, given, passed=passed)))
        if self._fan is not None and seat in self._fan.fans:
            fields.append(words.fan_field(len(self._fan.fans[seat]), self._fan.need(seat)))
        return fields


def draw_actions(piles: Sequence[Sequence[Card]]) -> tuple[LegalAction, ...]:
    """One public action ``draw.<i>`` per non-empty pile, labelled with the face-up card it takes."""
    return tuple(
        LegalAction(Draw(index).format(), words.draw_label(piles[index][-1], index), "main")
        for index in non_empty_piles(piles)
    )
