"""ERADICIZE (Frazzled Wool, 2021), for 3 to 8 players: be the first to get rid of all your cards.

Rules source: the ERADICIZE section of ``shared/seeds/000_d97c66fde1b75dcf.txt`` and the deck facts in
``shared/seeds/README.md``. Rulings where the text is silent are numbered in ``docs/rules/eradicize.md``
and cited here as "(ruling N)". The deal, the draw piles, the fan exchange, the 6 and the 13 are shared
with TOKENIZE (:mod:`engine.frazzled.token_table`); the game's words are
:mod:`engine.frazzled.words_eradicize`.

A turn: play one card onto the discard pile - higher than the card on top, or of a colour or shape
matching one of your tokens - or, if you cannot, pick up the whole discard pile. After a play you draw a
card from one of the three face-up draw piles while any are left, then the card's action happens.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

from engine.core import Event, Field, GameOptions, LegalAction, Scene, SeatView, Standing
from engine.frazzled import words
from engine.frazzled import words_eradicize as game_words
from engine.frazzled.actions import CardAction, Draw, FrazzledAction, simple_action
from engine.frazzled.deck import FOURTEEN_ONE, Card, sorted_cards
from engine.frazzled.scene import discard_row, face_up_row, piles_row
from engine.frazzled.snapshot import card_ids, cards_of, optional_card_of
from engine.frazzled.table import NOT_YOUR_TURN, FrazzledRules, Phase, first_quiet
from engine.frazzled.token_table import SHARED_KINDS, TokenTable

FACE_UP = 3
PICK_UP = "pickup"


class EradicizeOptions(GameOptions):
    """ERADICIZE has no table options: the text fixes every number."""


PickUp = simple_action(PICK_UP, "pick up the whole discard pile, for a player who cannot play.")


class PlayCard(CardAction):
    """``play.<card id>``: play that card (from the hand, or face up once the hand is empty)."""

    prefix = "play"


class EradicizeAction(FrazzledAction):
    """An ERADICIZE move: ``play.<card id>``, ``pickup``, ``draw.<pile>``, ``fan.<position>``,
    ``token.c<i>`` / ``token.s<i>`` or ``steal.<seat>.c<i>``."""

    kinds = (PlayCard, PickUp, *SHARED_KINDS)


class EradicizeState(TokenTable[EradicizeOptions]):
    """A game of ERADICIZE in progress.

    Public: the face-up cards in front of each player, every hand's size, the top card of each draw pile
    and each pile's size, the discard pile's top card and size, every player's tokens and the tokens in the
    middle. Secret: the cards in each hand (to all but its owner), the draw piles below their top cards,
    and the order of each face-down fan during a 14/1 or 2 exchange (to everyone).
    """

    action_type = EradicizeAction
    options_class = EradicizeOptions
    title = game_words.TITLE
    card_verb = game_words.CARD_VERB
    ten_action = game_words.TEN_ACTION
    turn_phase = Phase.PLAY
    nobody_fans = game_words.NOBODY_FANS

    def __init__(self, num_seats: int, seed: int, options: EradicizeOptions) -> None:
        super().__init__(num_seats, seed, options)
        self._removed: list[Card] = []  # cleared from the game by 10s
        self._played: Card | None = None  # the card whose action is still to come
        self._winners: list[int] = []
        # Ruling 16: how often each table position, as everyone sees it, came round once the piles ran out.
        self._positions_seen: Counter[tuple] = Counter()
        self._stalemate = False

    def _snapshot_fields(self) -> dict[str, Any]:
        """Adds the face-up cards, the cards removed, the card whose action is to come, the winners, the
        positions seen once the piles ran out (``[position as nested lists, times]``) and the stalemate."""
        return {
            **super()._snapshot_fields(),
            "face_up": [card_ids(row) for row in self._face_up],
            "removed": card_ids(self._removed),
            "played": None if self._played is None else self._played.id,
            "winners": list(self._winners),
            "positions_seen": [
                [_position_data(position), times] for position, times in self._positions_seen.items()
            ],
            "stalemate": self._stalemate,
        }

    def _read_fields(self, data: dict[str, Any]) -> None:
        super()._read_fields(data)
        self._face_up = [cards_of(row) for row in data["face_up"]]
        self._removed = cards_of(data["removed"])
        self._played = optional_card_of(data["played"])
        self._winners = [int(seat) for seat in data["winners"]]
        self._positions_seen = Counter(
            {_position_of(position): int(times) for position, times in data["positions_seen"]}
        )
        self._stalemate = bool(data["stalemate"])
        if len(self._face_up) != self.num_seats:
            raise ValueError("a snapshot with face-up cards for another number of seats")

    def _deal_more(self, rest: list[Card]) -> list[Card]:
        # Setup: "Deal an additional three cards to each player face up", before the piles.
        self._face_up: list[list[Card]] = [
            rest[seat * FACE_UP : (seat + 1) * FACE_UP] for seat in range(self.num_seats)
        ]
        return rest[self.num_seats * FACE_UP :]

    def _arrange(self, face_up: Sequence[Sequence[Card]] | None = None) -> list[Card]:
        """ERADICIZE's part of :meth:`scripted`: ``face_up``, per seat, the face-up cards (default:
        none).

        Raises
        ------
        ValueError
            If there is not one face-up row per seat.
        """
        rows = face_up if face_up is not None else [[] for _ in range(self.num_seats)]
        if len(rows) != self.num_seats:
            raise ValueError("one face-up row per seat")
        self._face_up = [list(row) for row in rows]
        return [card for row in rows for card in row]

    # -- queries -----------------------------------------------------------------------------------

    def face_up(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-up cards (public)."""
        return tuple(sorted_cards(self._face_up[seat]))

    @property
    def removed(self) -> tuple[Card, ...]:
        """The cards 10s have cleared out of the game, oldest first (public)."""
        return tuple(self._removed)

    @property
    def ended_in_stalemate(self) -> bool:
        """True if the game ended because the same position came round a third time (ruling 16)."""
        return self._stalemate

    def is_winner(self, seat: int) -> bool:
        """True once ``seat`` has got rid of all its cards (several can, at once, after an exchange)."""
        return seat in self._winners

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
        shared = self._shared_actions(seat)
        if shared is not None:
            return shared
        cards = self.playable(seat)
        if not cards:
            # "If a player cannot play a card, they must pick up the entire discard pile."
            return (LegalAction(PICK_UP, game_words.pick_up_label(len(self._discard)), "bad", True),)
        from_hand = bool(self._hands[seat])
        return tuple(
            LegalAction(
                PlayCard(card).format(),
                game_words.play_label(card, from_hand),
                "good",
                secret=True,
                group=game_words.PLAY_GROUP,
                description=self._play_description(seat, card),
            )
            for card in cards
        )

    def decision_key(self, seat: int) -> Hashable:
        """``None`` off turn; else a shared phase's key (draw, exchange, 13), or for a play what the plays
        and their notes are made of: the cards it plays from (the hand, or the face-up cards once the hand
        is empty), the number to beat, the discard pile's size (picking it up), the tokens ``seat``
        holds."""
        if not self._to_act(seat):
            return None
        shared = self._shared_key(seat)
        if shared is not None:
            return shared
        hand = self._hands[seat]
        source = tuple(hand) if hand else tuple(self._face_up[seat])
        tokens = self._tokens
        return (
            self._phase,
            bool(hand),
            source,
            self.top_value,
            len(self._discard),
            tuple(tokens.colours[seat]),
            tuple(tokens.shapes[seat]),
        )

    def _play_description(self, seat: int, card: Card) -> str:
        return game_words.play_description(
            card,
            higher=card.number > self.top_value,
            pile_started=bool(self._discard),
            colour_token=card.colour in self._tokens.colours[seat],
            shape_token=card.shape in self._tokens.shapes[seat],
            action=self._action_text(card),
        )

    def check(self, seat: int, action: FrazzledAction) -> str | None:  # type: ignore[override]
        """A play must be of a card :meth:`playable` now; the pile is picked up only with none; a draw
        must be from a pile with cards; fan picks and tokens as in :class:`TokenTable`."""
        if seat not in self.seats_to_act():
            return NOT_YOUR_TURN
        if isinstance(action, PlayCard) and self._phase is Phase.PLAY:
            if action.card in self.playable(seat):
                return None
            if self._hands[seat] and action.card in self._face_up[seat]:
                return "Play the cards in your hand before your face-up cards."
            return "That card does not beat the top card and matches none of your tokens."
        if isinstance(action, PickUp) and self._phase is Phase.PLAY:
            return "You can play a card, so you may not pick up the pile." if self.playable(seat) else None
        return self._check_shared(seat, action)

    def _default_turn(self, seat: int) -> str:
        """On a timeout (ruling 9): the lowest playable card without an action, else the lowest playable
        card, else picking up the pile; in a draw, the first pile; in an exchange, the first fan position
        not yet picked; for a 13, the first token offered."""
        cards = self.playable(seat)
        if not cards:
            return PICK_UP
        return PlayCard(first_quiet(cards)).format()

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, action: FrazzledAction) -> list[Event]:
        events = self._apply_move(seat, action)
        return events + self._check_repetition()

    def _check_repetition(self) -> list[Event]:
        """Ruling 16: once the draw piles are out, a turn that begins on a table everyone has seen twice
        before (same discard pile, face-up cards, hand sizes, tokens and player to act) ends the game: play
        would only go round the same cards for ever. The players then rank by cards left (ruling 7)."""
        if self._phase is not Phase.PLAY or any(self._piles):
            return []
        position = (
            self._turn,
            tuple(card.id for card in self._discard),
            tuple(tuple(sorted(card.id for card in row)) for row in self._face_up),
            tuple(len(hand) for hand in self._hands),
            self._tokens.key(),
        )
        self._positions_seen[position] += 1
        if self._positions_seen[position] < 3:
            return []
        self._stalemate = True
        self._end()
        return [Event(None, game_words.STALEMATE)]

    def _apply_move(self, seat: int, action: FrazzledAction) -> list[Event]:
        shared = self._apply_shared(seat, action)
        if shared is not None:
            return shared
        if isinstance(action, Draw):
            return [self._draw(seat, action.pile)] + self._action(seat)
        if isinstance(action, PickUp):
            count = len(self._discard)
            self._hands[seat].extend(self._discard)
            self._learn(seat, self._discard)
            self._discard = []
            return [Event(seat, game_words.picked_up_text(count))] + self._next_turn()
        assert isinstance(action, PlayCard)
        return self._play(seat, action.card)

    def _play(self, seat: int, card: Card) -> list[Event]:
        from_hand = card in self._hands[seat]
        (self._hands[seat] if from_hand else self._face_up[seat]).remove(card)
        self._discard.append(card)
        events = [Event(seat, game_words.played_text(card, from_hand))]
        if self.cards_left(seat) == 0:
            # "The first player to do this wins the game" (ruling 6: at once, before drawing or acting).
            return events + self._finish([seat])
        self._played = card
        # "After playing a card the player must draw a new card from one of the draw piles" (ruling 4).
        piles = [index for index in range(len(self._piles)) if self._piles[index]]
        if len(piles) >= 2:
            self._phase = Phase.DRAW
            return events
        if len(piles) == 1:
            events.append(self._draw(seat, piles[0]))
        return events + self._action(seat)

    def _draw(self, seat: int, pile: int) -> Event:
        card = self._piles[pile].pop()
        self._hands[seat].append(card)
        self._learn(seat, [card])
        return Event(seat, game_words.drew_text(card, pile))

    def _action(self, seat: int) -> list[Event]:
        """The played card's action ("If a player discards a card with an action on it, that action must
        be performed"), after the draw (ruling 4)."""
        card = self._played
        assert card is not None
        self._played = None
        shared = self._shared_action(seat, card)
        if shared is not None:
            return shared
        if card.number == 10:
            # "The discard pile is removed from the game, but the 10 is left to start a new discard pile."
            cleared = self._discard[:-1]
            self._removed.extend(cleared)
            self._discard = self._discard[-1:]
            return [Event(None, game_words.cleared_text(len(cleared)))] + self._next_turn()
        return self._next_turn()

    def _after_exchange(self) -> list[Event]:
        # Ruling 6: anyone left with no card at all after an exchange has got rid of their cards.
        out = [seat for seat in range(self.num_seats) if self.cards_left(seat) == 0]
        if out:
            return self._finish(out)
        return self._next_turn()

    def _finish(self, winners: list[int]) -> list[Event]:
        self._winners = winners
        self._end()
        return [Event(seat, game_words.WINS) for seat in winners]

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        table = [
            game_words.discard_field(self._discard),
            self._piles_field(game_words.PILES_EMPTY),
            words.middle_tokens_field(self._tokens.middle_colours, self._tokens.middle_shapes),
            *([game_words.removed_field(len(self._removed))] if self._removed else []),
            words.now_field(self._now_text()),
        ]
        return self._view(seat, table, self._scene())

    def _scene(self) -> Scene:
        """The discard pile, the draw piles, and each player still in's face-up cards and hand size."""
        face_up = tuple(
            face_up_row(other, self._face_up[other], len(self._hands[other]))
            for other in range(self.num_seats)
            if other not in self._winners
        )
        return Scene((discard_row(self._discard), piles_row(self._piles), *face_up))

    def _now_turn(self) -> str:
        if self._phase is Phase.OVER:
            return game_words.OVER
        if self._phase is Phase.DRAW:
            return game_words.DRAW_NOW
        return game_words.PLAY_NOW

    def _seat_summary(self, seat: int) -> str:
        tokens = words.seat_tokens_text(self._tokens.colours[seat], self._tokens.shapes[seat])
        return game_words.seat_summary(
            seat in self._winners, len(self._hands[seat]), self._face_up[seat], tokens
        )

    def _seat_brief(self, seat: int) -> str:
        tokens = words.seat_tokens_text(self._tokens.colours[seat], self._tokens.shapes[seat])
        return game_words.seat_brief(
            seat in self._winners, len(self._hands[seat]), len(self._face_up[seat]), tokens
        )

    def _private_fields(self, seat: int) -> list[Field]:
        fields = self._hand_fields(seat, game_words.HAND_EMPTY)
        return fields + self._exchange_fields(seat)

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """The first player out of cards wins; the others rank by cards left, fewer first (ruling 7)."""
        points = [self.cards_left(seat) for seat in range(self.num_seats)]
        details = [
            game_words.standing_detail(seat in self._winners, len(hand), len(row))
            for seat, (hand, row) in enumerate(zip(self._hands, self._face_up, strict=True))
        ]
        return self._standings(points, details, lower_is_better=True)


def _position_data(position: tuple) -> list[Any]:
    """A position of :meth:`EradicizeState._check_repetition` (``(seat to act, the discard pile's card
    ids, each row of face-up card ids, hand sizes, Tokens.key())``, nested tuples) as nested lists, for an
    engine snapshot; :func:`_position_of` reads it back."""
    turn, discard, face_up, sizes, (colours, shapes, (middle_colours, middle_shapes)) = position
    tokens = [list(map(list, colours)), list(map(list, shapes)), [list(middle_colours), list(middle_shapes)]]
    return [turn, list(discard), list(map(list, face_up)), list(sizes), tokens]


def _position_of(data: Sequence[Any]) -> tuple:
    """The position :func:`_position_data` wrote as ``data``.

    Raises
    ------
    ValueError, TypeError
        If ``data`` does not have that shape.
    """
    turn, discard, face_up, sizes, (colours, shapes, (middle_colours, middle_shapes)) = data
    tokens = (
        tuple(map(tuple, colours)),
        tuple(map(tuple, shapes)),
        (tuple(middle_colours), tuple(middle_shapes)),
    )
    return (int(turn), tuple(discard), tuple(map(tuple, face_up)), tuple(sizes), tokens)


class Eradicize(FrazzledRules[EradicizeOptions]):
    """ERADICIZE: shed your hand, then your three face-up cards; first out of cards wins."""

    key = "eradicize"
    display_name = game_words.TITLE
    summary = game_words.SUMMARY
    winning_rule = game_words.WINNING_RULE
    state_class = EradicizeState
    max_moves = 2_500  # docs/rules/eradicize.md, "How long a game lasts"
