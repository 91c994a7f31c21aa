"""TOKENIZE (Frazzled Wool, 2021), for 3 to 8 players: make sets of three similar cards to score.

Rules source: the TOKENIZE section of ``shared/seeds/000_d97c66fde1b75dcf.txt`` and the deck facts in
``shared/seeds/README.md``; the bonus rule cards are :mod:`engine.frazzled.rule_cards`. Rulings where the
text is silent are numbered in ``docs/rules/tokenize.md`` and cited here as "(ruling N)". The deal, the
draw piles, the fan exchange, the 6 and the 13 are shared with ERADICIZE
(:mod:`engine.frazzled.token_table`); the game's words are :mod:`engine.frazzled.words_tokenize`.

A turn: draw the top card of any face-up draw pile, discard a different card from your hand, then carry
out the discarded card's action. At any moment - also during someone else's turn - a player holding a set
of three may declare it: 10 points plus the bonus rule cards in play; the set leaves the game and its
maker draws three fresh cards.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.core import Event, Field, GameOptions, LegalAction, Scene, SeatView, Standing
from engine.frazzled import words
from engine.frazzled import words_tokenize as game_words
from engine.frazzled.actions import (
    Discard,
    Draw,
    FrazzledAction,
    code_number,
    code_parts,
    offered,
    simple_action,
)
from engine.frazzled.deck import DECK, FOURTEEN_ONE, Card, sorted_cards
from engine.frazzled.rule_cards import BONUS_CARDS, BonusCard
from engine.frazzled.scene import discard_row, piles_row, rules_row
from engine.frazzled.snapshot import card_ids, cards_of, optional_int, rule_ids, rules_of
from engine.frazzled.table import (
    NOT_YOUR_TURN,
    FrazzledRules,
    Phase,
    first_quiet,
    non_empty_piles,
    split_into_piles,
)
from engine.frazzled.token_table import SHARED_KINDS, TokenTable

SET_POINTS = 10
BONUS_IN_PLAY = 3
RESHUFFLE_MINIMUM = 10
MAX_EMPTYINGS = 3
KEEP = "keep"

NUMBER_SET = "number"
COLOUR_SET = "colour"
SHAPE_SET = "shape"


class TokenizeOptions(GameOptions):
    """TOKENIZE has no table options: the text fixes every number."""


Keep = simple_action(KEEP, "keep the card drawn, for a player with no card to discard (ruling 14).")


@dataclass(frozen=True)
class DeclareSet(FrazzledAction):
    """``set.<id>.<id>.<id>``: declare the three cards (ids ascending) as a set."""

    cards: tuple[Card, Card, Card]

    @classmethod
    def from_code(cls, code: str) -> DeclareSet | None:
        parts = code_parts(code, "set")
        if parts is None or len(parts) != 3:
            return None
        ids = [code_number(part, len(DECK)) for part in parts]
        if None in ids or not ids[0] < ids[1] < ids[2]:  # type: ignore[operator]
            return None
        return cls((DECK[ids[0]], DECK[ids[1]], DECK[ids[2]]))  # type: ignore[index]

    def format(self) -> str:
        return "set." + ".".join(str(card.id) for card in self.cards)


@dataclass(frozen=True)
class ReplaceBonus(FrazzledAction):
    """``bonus.<slot>``: the 10's choice, replace the bonus rule card in ``slot`` (0..2)."""

    slot: int

    @classmethod
    def from_code(cls, code: str) -> ReplaceBonus | None:
        parts = code_parts(code, "bonus")
        slot = code_number(parts[0], BONUS_IN_PLAY) if parts is not None and len(parts) == 1 else None
        return None if slot is None else cls(slot)

    def format(self) -> str:
        return f"bonus.{self.slot}"


class TokenizeAction(FrazzledAction):
    """A TOKENIZE move: ``draw.<pile>``, ``discard.<card id>``, ``keep``, ``fan.<position>``,
    ``token.c<i>`` / ``token.s<i>``, ``steal.<seat>.c<i>``, ``bonus.<slot>`` or ``set.<id>.<id>.<id>``."""

    kinds = (*SHARED_KINDS, Discard, Keep, ReplaceBonus, DeclareSet)


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


class TokenizeState(TokenTable[TokenizeOptions]):
    """A game of TOKENIZE in progress.

    Public: scores and declared sets, every hand's size, the top card and size of each draw pile, the
    discard pile's top card and size, the three bonus rule cards in play (full text), every player's
    tokens and those in the middle, how often the piles have run out, and the card the player to act has
    just drawn (it came off a face-up pile). Secret: the cards in each hand (to all but its owner), the
    draw piles below their tops, the bonus pile's order, and the order of each face-down fan.
    """

    action_type = TokenizeAction
    options_class = TokenizeOptions
    title = game_words.TITLE
    card_verb = game_words.CARD_VERB
    ten_action = game_words.TEN_ACTION

    def __init__(self, num_seats: int, seed: int, options: TokenizeOptions) -> None:
        super().__init__(num_seats, seed, options)
        self._scores = [0] * num_seats
        self._sets: list[list[tuple[Card, ...]]] = [[] for _ in range(num_seats)]
        self._emptied = 0  # times the three draw piles have run out
        self._reshuffles = 0
        # the last set declared: its cards (in the order declared), the bonus parts, its points
        self._ending: int | None = None  # why the game ended: see words_tokenize.ending_text

    def _snapshot_fields(self) -> dict[str, Any]:
        """Adds the scores, each seat's sets (card ids), how often the piles ran out and were reshuffled,
        why the game ended, and the bonus cards in play and in the pile (top first) by their ids."""
        return {
            **super()._snapshot_fields(),
            "scores": list(self._scores),
            "sets": [[card_ids(cards) for cards in sets] for sets in self._sets],
            "emptied": self._emptied,
            "reshuffles": self._reshuffles,
            "ending": self._ending,
            "bonus": rule_ids(self._bonus),
            "bonus_pile": rule_ids(self._bonus_pile),
        }

    def _read_fields(self, data: dict[str, Any]) -> None:
        super()._read_fields(data)
        self._scores = [int(score) for score in data["scores"]]
        self._sets = [[tuple(cards_of(cards)) for cards in sets] for sets in data["sets"]]
        self._emptied = int(data["emptied"])
        self._reshuffles = int(data["reshuffles"])
        self._ending = optional_int(data["ending"])
        self._bonus = rules_of(data["bonus"])
        self._bonus_pile = rules_of(data["bonus_pile"])
        if len(self._scores) != self.num_seats or len(self._sets) != self.num_seats:
            raise ValueError("a snapshot with scores for another number of seats")

    def _deal_rule_cards(self) -> None:
        # "Shuffle the bonus rule cards and place three in the centre ... Put the rest in a face down pile."
        bonus = list(BONUS_CARDS)
        self._rng.shuffle(bonus)
        self._bonus: list[BonusCard] = bonus[:BONUS_IN_PLAY]
        self._bonus_pile: list[BonusCard] = bonus[BONUS_IN_PLAY:]  # index 0 is the top

    def _arrange(
        self,
        bonus: Sequence[str] = ("thirteen", "wild", "high"),
        scores: Sequence[int] | None = None,
        emptied: int = 0,
    ) -> list[Card]:
        """TOKENIZE's part of :meth:`scripted`: ``bonus``, the ids of the three bonus cards in play (the
        others form the bonus pile in deck order); ``scores`` per seat (default 0); ``emptied``, how often
        the draw piles have run out already (0..2).

        Raises
        ------
        ValueError
            If a bonus id is unknown or there are not three, or the scores do not match the seats.
        """
        by_id = {card.id: card for card in BONUS_CARDS}
        if len(bonus) != BONUS_IN_PLAY or not set(bonus) <= set(by_id):
            raise ValueError(f"three known bonus cards, not {bonus}")
        if scores is not None and len(scores) != self.num_seats or not 0 <= emptied < MAX_EMPTYINGS:
            raise ValueError("one score per seat, and the piles ran out at most twice")
        self._bonus = [by_id[key] for key in bonus]
        self._bonus_pile = [card for card in BONUS_CARDS if card.id not in bonus]
        self._scores = list(scores) if scores is not None else [0] * self.num_seats
        self._emptied = emptied
        self._reshuffles = emptied
        return []

    # -- queries -----------------------------------------------------------------------------------

    def score(self, seat: int) -> int:
        """``seat``'s points so far (public)."""
        return self._scores[seat]

    def sets(self, seat: int) -> tuple[tuple[Card, ...], ...]:
        """The sets ``seat`` has declared, oldest first (public; out of the game)."""
        return tuple(self._sets[seat])

    @property
    def bonus_cards(self) -> tuple[BonusCard, ...]:
        """The three bonus rule cards in play (public)."""
        return tuple(self._bonus)

    @property
    def bonus_pile(self) -> tuple[BonusCard, ...]:
        """The face-down bonus pile, top card first: its order is secret, so this is for tests and AI,
        never a view; a 10 puts the replaced card at its bottom (ruling 9)."""
        return tuple(self._bonus_pile)

    @property
    def reshuffles(self) -> int:
        """How often the discard pile has been shuffled into new draw piles (0..2)."""
        return self._reshuffles

    @property
    def piles_emptied(self) -> int:
        """How often the three draw piles have run out (0..3)."""
        return self._emptied

    def sets_available(self, seat: int) -> list[tuple[Card, ...]]:
        """Every set ``seat`` could declare from its hand now, ascending by card ids (every one, ruling 12).

        None while the hands are fanned out for a 14/1 or 2 exchange (ruling 8) or after the end.
        """
        if self._phase in (Phase.FAN, Phase.OVER):
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
        return sorted(found, key=lambda trio: tuple(card.id for card in trio))

    def _set_actions(self, seat: int) -> tuple[LegalAction, ...]:
        actions = []
        for trio in self.sets_available(seat):
            points, parts = set_points(trio, self._bonus)
            kind = set_kind(trio, self._tokens.colours[seat], self._tokens.shapes[seat])
            assert kind is not None
            actions.append(
                LegalAction(
                    DeclareSet(trio).format(),  # type: ignore[arg-type]
                    game_words.set_label(trio, points),
                    "good",
                    secret=True,
                    description=game_words.set_description(kind, parts, points),
                )
            )
        return offered(actions, game_words.SET_GROUP, buttons_up_to=3)

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if self._phase is Phase.OVER:
            return ()
        # "someone has a set of three cards at any point during their or someone else's turn": an
        # optional action for every seat, at any moment except during a fan exchange (ruling 8).
        sets = self._set_actions(seat)
        if seat not in self.seats_to_act():
            return sets
        shared = self._shared_actions(seat)
        if shared is not None:
            return shared + sets
        if self._phase is Phase.RULE:
            return self._bonus_actions() + sets
        # DISCARD: "discard a different card from their hand" (not the card just drawn).
        if not self._hands[seat]:
            assert self._drawn is not None
            keep = LegalAction(KEEP, game_words.keep_label(self._drawn), "main")
            return (keep,) + sets
        discards = tuple(
            LegalAction(
                Discard(card).format(),
                game_words.discard_label(card),
                "main",
                secret=True,
                group=game_words.DISCARD_GROUP,
                description=self._action_text(card),
            )
            for card in sorted_cards(self._hands[seat])
        )
        return discards + sets

    def decision_key(self, seat: int) -> Hashable:
        """``None`` once over; else what ``seat``'s sets are made of (:meth:`_sets_key`), and on its turn
        the phase with what its actions are made of: a shared phase's (draw, exchange, 13), the bonus
        cards (a 10), the hand or, with none, the card drawn (a discard, or keeping it)."""
        if self._phase is Phase.OVER:
            return None
        sets = self._sets_key(seat)
        if not self._to_act(seat):
            return sets
        shared = self._shared_key(seat)
        if shared is not None:
            return shared, sets
        if self._phase is Phase.RULE:
            return self._phase, tuple(self._bonus), sets
        hand = self._hands[seat]
        return self._phase, tuple(hand), None if hand else self._drawn, sets

    def _sets_key(self, seat: int) -> Hashable:
        """What ``seat``'s sets and their labels are made of: ``None`` for none (:meth:`sets_available`),
        else the sets, the tokens ``seat`` holds (:func:`set_kind`) and the bonus cards in play
        (:func:`set_points`)."""
        sets = self.sets_available(seat)
        if not sets:
            return None
        tokens = self._tokens
        return tuple(sets), tuple(tokens.colours[seat]), tuple(tokens.shapes[seat]), tuple(self._bonus)

    def has_decision(self, seat: int) -> bool:
        """The seats to act decide, and any seat holding a set may declare it (ruling 8: not during an
        exchange)."""
        if self._phase is Phase.OVER:
            return False
        return self._to_act(seat) or bool(self.sets_available(seat))

    def _bonus_actions(self) -> tuple[LegalAction, ...]:
        return tuple(
            LegalAction(
                ReplaceBonus(slot).format(),
                game_words.replace_bonus_label(card),
                "main",
                description=card.text,
            )
            for slot, card in enumerate(self._bonus)
        )

    def check(self, seat: int, action: FrazzledAction) -> str | None:  # type: ignore[override]
        """A set may be declared by anyone at any moment but an exchange, if it is one of the seat's
        :meth:`sets_available`; every other move is the turn's (draw, discard or keep, fan, token, bonus)."""
        if isinstance(action, DeclareSet):
            if self._phase is Phase.FAN:
                return "Your cards are fanned out for the exchange: declare the set once it is done."
            if action.cards not in self.sets_available(seat):
                return "Those three cards in your hand are not a set for you."
            return None
        if seat not in self.seats_to_act():
            return NOT_YOUR_TURN
        hand = self._hands[seat]
        if isinstance(action, Discard) and self._phase is Phase.DISCARD:
            return None if action.card in hand else "Discard a card from your hand (not the card you drew)."
        if isinstance(action, Keep) and self._phase is Phase.DISCARD:
            if hand:
                return "Discard a card first: you keep the card drawn only with no card to discard."
            return None
        if isinstance(action, ReplaceBonus) and self._phase is Phase.RULE:
            return None
        return self._check_shared(seat, action)

    def _default_turn(self, seat: int) -> str:
        """On a timeout (ruling 11): draw from the first pile (see the base); discard the lowest card
        without an action (else the lowest card); pick the first fan position not yet picked; replace the
        first bonus card; take the first token offered. Never declare a set."""
        if self._phase is Phase.RULE:
            return ReplaceBonus(0).format()
        hand = sorted_cards(self._hands[seat])
        if not hand:
            return KEEP
        return Discard(first_quiet(hand)).format()

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, action: FrazzledAction) -> list[Event]:
        if isinstance(action, DeclareSet):
            return self._declare(seat, list(action.cards))
        shared = self._apply_shared(seat, action)
        if shared is not None:
            return shared
        if isinstance(action, Draw):
            return self._draw(seat, action.pile)
        if isinstance(action, ReplaceBonus):
            return self._replace_bonus(seat, action.slot)
        if isinstance(action, Keep):
            assert self._drawn is not None
            self._hands[seat].append(self._drawn)
            self._learn(seat, [self._drawn])
            self._drawn = None
            return [Event(seat, game_words.KEPT)] + self._next_turn()
        assert isinstance(action, Discard)
        return self._discard_card(seat, action.card)

    def _draw(self, seat: int, pile: int) -> list[Event]:
        """ "This player must pick up a card from any one of the three draw piles" (face up: public)."""
        card = self._piles[pile].pop()
        self._drawn = card
        self._phase = Phase.DISCARD
        events = [Event(seat, game_words.drew_text(card, pile))]
        return events + self._check_piles()

    def _discard_card(self, seat: int, card: Card) -> list[Event]:
        """ "before they put it in their hand, they must discard a different card from their hand onto the
        discard pile, face up"; the drawn card then joins the hand, before the action (ruling 6)."""
        assert self._drawn is not None
        self._hands[seat].remove(card)
        self._discard.append(card)
        self._hands[seat].append(self._drawn)
        self._learn(seat, [self._drawn])
        self._drawn = None
        events = [Event(seat, game_words.discarded_text(card))]
        shared = self._shared_action(seat, card)
        if shared is not None:
            return events + shared
        if card.number == 10:
            self._phase = Phase.RULE
            return events + [Event(None, game_words.TEN)]
        return events + self._next_turn()

    def _replace_bonus(self, seat: int, slot: int) -> list[Event]:
        """The 10: "discards a bonus rule card of their choice and draws a new one from the top of the
        bonus rule card deck"; the discarded card goes to the bottom of that deck (ruling 9)."""
        old = self._bonus[slot]
        new = self._bonus_pile.pop(0)
        self._bonus_pile.append(old)
        self._bonus[slot] = new
        events = [Event(seat, game_words.replaced_text(old, new))]
        return events + self._next_turn()

    def _declare(self, seat: int, cards: list[Card]) -> list[Event]:
        """Making a set: "show that set of cards to the other players and score points based on the set.
        Those cards are then removed from the game ... and the player draws three new cards - one from
        each draw pile (use the same draw pile if there are not enough draw piles)" (ruling 7)."""
        points, parts = set_points(cards, self._bonus)
        for card in cards:
            self._hands[seat].remove(card)
        self._scores[seat] += points
        self._sets[seat].append(tuple(cards))
        events = [Event(seat, game_words.declared_text(cards, parts, points))]
        drawn: list[tuple[Card, int]] = []
        for index in range(3):
            piles = non_empty_piles(self._piles)
            if self._phase is Phase.OVER or not piles:
                break
            pile = index if index in piles else piles[0]
            card = self._piles[pile].pop()
            self._hands[seat].append(card)
            self._learn(seat, [card])
            drawn.append((card, pile))
            check = self._check_piles()
            if check:
                events.append(Event(seat, game_words.drew_after_set_text(drawn)))
                drawn = []
                events.extend(check)
        if drawn:
            events.append(Event(seat, game_words.drew_after_set_text(drawn)))
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
            return self._finish(None)
        if len(self._discard) < RESHUFFLE_MINIMUM:
            return self._finish(len(self._discard))
        cards = list(self._discard)
        self._rng.shuffle(cards)
        self._discard = []
        self._piles = split_into_piles(cards)
        self._reshuffles += 1
        return [Event(None, game_words.reshuffled_text(len(cards), self._reshuffles, MAX_EMPTYINGS - 1))]

    def _finish(self, discard: int | None) -> list[Event]:
        """The end: the piles ran out a third time (``discard`` None) or with ``discard`` cards left to
        reshuffle, too few."""
        self._end()
        self._ending = discard
        return [Event(None, game_words.ending_text(discard))]

    def _resample_more(self, viewer: int | None, rng: random.Random) -> None:
        """The bonus pile's order is secret to everyone (sorted, then shuffled: canonical)."""
        super()._resample_more(viewer, rng)
        self._reshuffle_unseen(rng)

    def _reshuffle_unseen(self, rng: random.Random) -> None:
        """The face-down bonus pile, in a random order (sorted first: canonical; the cards a replacement
        put at its bottom are reshuffled with the rest, as in :meth:`_resample_more`)."""
        self._bonus_pile.sort(key=lambda card: card.id)
        rng.shuffle(self._bonus_pile)

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        rules = tuple(game_words.bonus_field(slot, card) for slot, card in enumerate(self._bonus))
        table = [
            self._piles_field(game_words.PILES_EMPTY),
            Field("Discard pile", words.discard_text(self._discard)),
            *(
                [game_words.reshuffles_field(self._reshuffles, self._emptied, MAX_EMPTYINGS)]
                if self._emptied
                else []
            ),
            words.middle_tokens_field(self._tokens.middle_colours, self._tokens.middle_shapes),
        ]
        table.append(words.now_field(self._now_text()))
        scene = Scene((piles_row(self._piles), discard_row(self._discard), rules_row(self._bonus)))
        return self._view(seat, table, scene, rules)

    def _now_turn(self) -> str:
        if self._phase is Phase.OVER:
            return game_words.ending_text(self._ending)
        if self._phase is Phase.DRAW:
            return game_words.DRAW_NOW
        if self._phase is Phase.DISCARD:
            assert self._drawn is not None
            return game_words.discard_now_text(self._drawn)
        return game_words.RULE_NOW

    def _seat_summary(self, seat: int) -> str:
        tokens = words.seat_tokens_text(self._tokens.colours[seat], self._tokens.shapes[seat])
        return game_words.seat_summary(
            self._scores[seat], len(self._sets[seat]), len(self._hands[seat]), tokens
        )

    def _seat_brief(self, seat: int) -> str:
        tokens = words.seat_tokens_text(self._tokens.colours[seat], self._tokens.shapes[seat])
        return game_words.seat_brief(self._scores[seat], len(self._hands[seat]), tokens)

    def _private_fields(self, seat: int) -> list[Field]:
        fields = self._hand_fields(seat, game_words.HAND_EMPTY)
        if self._drawn is not None and seat == self._turn:
            fields.append(words.drew_field(self._drawn, words.card_shown(self._drawn)))
        fields += self._exchange_fields(seat)
        if self._sets[seat]:
            fields.append(game_words.sets_field(self._sets[seat]))
        return fields

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """ "The player with the most points at the end of the game wins"; ties share a rank (ruling 13)."""
        details = [game_words.standing_detail(len(sets)) for sets in self._sets]
        return self._standings(self._scores, details, lower_is_better=False)


class Tokenize(FrazzledRules[TokenizeOptions]):
    """TOKENIZE: sets of three (one number, or your token's colour or shape) score 10 plus bonuses."""

    key = "tokenize"
    display_name = game_words.TITLE
    summary = game_words.SUMMARY
    state_class = TokenizeState
    max_moves = 2_000  # docs/rules/tokenize.md, "How long a game lasts"
    winning_rule = game_words.WINNING_RULE
