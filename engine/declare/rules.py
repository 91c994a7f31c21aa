"""Minimize: Declare's rules: the legal actions and their checks, what each action does, the end of a round
and of the game, the views, and the rules class the registry holds. Rulings where the manual is silent are
numbered in ``docs/rules/declare.md`` and cited here and in the package's other modules as "ruling N"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import ClassVar

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
    plural,
)
from engine.declare import words
from engine.declare.actions import (
    DECLARE,
    DECLARE_NOW_CODE,
    DRAW,
    LEGACY_FAMILY_STEP,
    NO_CARD,
    NO_PICK_CODE,
    Declare,
    DeclareAction,
    DeclareNow,
    Discover,
    Draw,
    NoCard,
    NoPick,
    Take,
    ThrowBack,
    ThrowCards,
)
from engine.declare.cards import (
    DECLARE_NOW,
    DISCOVER,
    NO_PICK,
    card_sort_key,
    hand_quarters,
    is_number,
    points_value,
)
from engine.declare.scoring import RoundResult, Settlement, next_starter, round_scores, settle
from engine.declare.table import DeclareOptions, DeclareTable, Phase
from engine.declare.throws import (
    PURE,
    SET,
    classify,
    legal_throws,
    pickable_ends,
    throw_back_fits,
    throw_cards,
)


class DeclareState(DeclareTable):
    """A game of Minimize: Declare in progress: rounds until one player is left at 100 points or less; the
    legal actions, their checks, and what each does (:class:`DeclareTable` holds the cards and turns).
    """

    action_type = DeclareAction

    # -- legal actions --------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if self._over or not 0 <= seat < self.num_seats:
            return ()
        actions: list[LegalAction] = []
        if seat == self._turn:
            if self._phase is Phase.THROW:
                actions.extend(self._throw_actions(seat))
            else:
                actions.extend(self._pick_actions(seat))
        actions.extend(self._window_actions(seat))
        return tuple(actions)

    def decision_key(self, seat: int) -> Hashable:
        """``None`` with nothing to decide; else the hand (throws, declaring, power cards), on ``seat``'s
        turn the phase, at the pick with whether the draw pile has cards, the last throw (its ends) and,
        holding I Discover Now, the discard pile; and right after its turn its optional actions: the card
        it may throw back, whether it may play I Declare Now."""
        if self._over or not 0 <= seat < self.num_seats:
            return None
        window = self._window_key(seat)
        if seat != self._turn and window is None:
            return None
        hand = self._hands[seat]
        turn = None
        if seat == self._turn:
            turn = self._phase
            if self._phase is Phase.PICK:
                discard = tuple(self._discard) if DISCOVER in hand else None
                turn = (self._phase, bool(self._draw), tuple(self._prev_throw), discard)
        return turn, window, tuple(hand)

    def _window_key(self, seat: int) -> tuple[str | None, bool] | None:
        """``seat``'s optional out-of-turn actions (:meth:`_window_actions`) as the card it may throw back
        and whether it may play I Declare Now; ``None`` for none."""
        if not self._window_open(seat):
            return None
        card = self._throw_back_card(seat)
        declare_now = DECLARE_NOW in self._hands[seat] and self.can_declare(seat)
        return None if card is None and not declare_now else (card, declare_now)

    def has_decision(self, seat: int) -> bool:
        """The seat to act decides; the player who just finished a turn may throw back the card drawn or
        play I Declare Now (the Note: "before the next player has discarded his own cards")."""
        if self._over or not 0 <= seat < self.num_seats:
            return False
        return seat == self._turn or self._window_key(seat) is not None

    def _throw_actions(self, seat: int) -> list[LegalAction]:
        hand = self._hands[seat]
        actions: list[LegalAction] = []
        if self.can_declare(seat):
            # "call 'Declare'" at the start of your turn; secret: it would tell the table you hold ≤ 7.
            actions.append(
                LegalAction(
                    DECLARE,
                    words.declare_label(hand_quarters(hand)),
                    "bad",
                    secret=True,
                    description=words.DECLARE_DESCRIPTION,
                )
            )
        # Ruling 5: with nothing to throw, declaring is the only move (the hand counts 0).
        actions.extend(words.throw_choices(tuple(hand)))
        return actions

    def _pick_actions(self, seat: int) -> list[LegalAction]:
        actions: list[LegalAction] = []
        if self._draw:
            actions.append(LegalAction(DRAW, words.DRAW_LABEL, "main"))
        for card in pickable_ends(self._prev_throw):
            actions.append(LegalAction(Take(card).format(), words.take_label(card), "good"))
        if not actions:
            # Ruling 16: neither pile can supply a card (it cannot happen with 108 cards, see the doc).
            actions.append(LegalAction(NO_CARD, words.NO_CARD_LABEL))
        hand = self._hands[seat]
        if NO_PICK in hand:
            actions.append(
                LegalAction(
                    NO_PICK_CODE,
                    words.NO_PICK_LABEL,
                    secret=True,
                    description=words.NO_PICK_DESCRIPTION,
                )
            )
        if DISCOVER in hand:
            for card in self._discoverable():
                actions.append(
                    LegalAction(
                        Discover(card).format(),
                        words.discover_label(card),
                        secret=True,
                        group=words.DISCOVER_GROUP,
                        description=words.discover_description(card),
                    )
                )
        return actions

    def _discoverable(self) -> list[str]:
        """Number cards "anywhere in the Discard Pile" except the picker's own throw this turn (ruling 11);
        never a Joker or power card ("You cannot pick a Joker or any other Power Card")."""
        cards = {card for card in self._discard + self._prev_throw if is_number(card)}
        return sorted(cards, key=card_sort_key)

    def _window_open(self, seat: int) -> bool:
        """True for the player who just finished a turn, until the next player's first action."""
        return not self._over and seat == self._window_seat

    def _throw_back_card(self, seat: int) -> str | None:
        """The just-drawn card ``seat`` may throw back now, if any."""
        card = self._window_card
        if self._window_open(seat) and card is not None and card in self._hands[seat]:
            return card
        return None

    def _window_actions(self, seat: int) -> list[LegalAction]:
        """Optional out-of-turn actions of the player who just finished a turn, until the next player's
        first action (the Note: "before the next player has discarded his own cards")."""
        if not self._window_open(seat):
            return []
        actions: list[LegalAction] = []
        hand = self._hands[seat]
        card = self._throw_back_card(seat)
        if card is not None:
            actions.append(
                LegalAction(
                    ThrowBack(card).format(),
                    words.throw_back_label(card),
                    "good",
                    secret=True,
                )
            )
        if DECLARE_NOW in hand and self.can_declare(seat):
            actions.append(
                LegalAction(
                    DECLARE_NOW_CODE,
                    words.declare_now_label(hand_quarters(hand)),
                    "bad",
                    secret=True,
                    description=words.DECLARE_NOW_DESCRIPTION,
                )
            )
        return actions

    def check(self, seat: int, action: GameAction) -> str | None:
        """``None`` if ``seat`` may take ``action`` now (exactly the actions of :meth:`legal_actions`),
        otherwise the words saying why not."""
        if self._over or not 0 <= seat < self.num_seats:
            return "That move is not allowed right now."
        hand = self._hands[seat]
        if isinstance(action, (ThrowBack, DeclareNow)):
            if not self._window_open(seat):
                return "That is played only right after your own turn, before the next player acts."
            if isinstance(action, ThrowBack):
                if action.card != self._throw_back_card(seat):
                    return "You may throw back only a matching card you just drew from the pile."
                return None
            if DECLARE_NOW not in hand:
                return "You hold no I Declare Now card."
            if not self.can_declare(seat):
                return "You may declare only with 7 points or less in hand."
            return None
        if seat != self._turn:
            return "It is not your turn."
        if isinstance(action, Declare):
            if not self.can_declare(seat):
                return "You may declare only with 7 points or less in hand."
            if self._phase is Phase.PICK:
                return "You declare at the start of your turn, before throwing: now pick a card."
            return None
        if isinstance(action, ThrowCards):
            if self._phase is Phase.PICK:
                return "You have thrown this turn: now pick a card."
            if Counter(action.cards) - Counter(hand):
                return "You do not hold those cards."
            if action.cards not in throw_cards(tuple(hand)):
                return "That is not a throw: one card, a set of one number (♥ ★ ♣ ♦), or a sequence going up."
            return None
        if self._phase is Phase.THROW:
            return "Throw first, then pick: you always discard before you pick up."
        if isinstance(action, Draw):
            return None if self._draw else "The draw pile is empty."
        if isinstance(action, Take):
            if action.card not in pickable_ends(self._prev_throw):
                return "You may take only the first or last card of the last throw."
            return None
        if isinstance(action, NoCard):
            if self._draw or self._prev_throw:
                return "There is a card to pick: draw one or take one."
            return None
        if isinstance(action, NoPick):
            return None if NO_PICK in hand else "You hold no I Don't Pick card."
        if isinstance(action, Discover):
            if DISCOVER not in hand:
                return "You hold no I Discover Now card."
            if action.card not in self._discoverable():
                return "I Discover Now takes a number card of the discard pile, not one you threw this turn."
            return None
        return "That move is not allowed right now."

    def default_action(self, seat: int) -> str:
        """On a timeout (ruling 17): at the throw, the throw that sheds the most points (never a declare,
        unless it is the only move); at the pick, draw from the pile (else take the first pickable card).
        Power cards are never played for an idle seat, nor optional out-of-turn actions.

        Raises
        ------
        IllegalAction
            If it is not ``seat``'s turn.
        """
        if seat not in self.seats_to_act():
            raise IllegalAction("It is not your turn.")
        if self._phase is Phase.PICK:
            for legal in self._pick_actions(seat):
                if isinstance(DeclareAction.parse(legal.code), (Draw, Take, NoCard)):
                    return legal.code
        throws = legal_throws(tuple(self._hands[seat]))
        if throws:
            return throws[0].code  # legal_throws lists the most points shed first
        return DECLARE

    # -- changes --------------------------------------------------------------------------------------

    def _apply(self, seat: int, action: DeclareAction) -> list[Event]:
        if isinstance(action, DeclareNow):
            self._give_up(seat, DECLARE_NOW)
            self._discard.append(DECLARE_NOW)
            events = [Event(seat, words.DECLARE_NOW_TEXT)]
            return events + self._declare(seat)
        if isinstance(action, ThrowBack):
            return self._throw_back(seat, action.card)
        # Any other action is the next player's first: the window of the previous turn closes.
        self._window_seat = None
        self._window_card = None
        if isinstance(action, Declare):
            return self._declare(seat)
        if isinstance(action, ThrowCards):
            return self._throw(seat, action.cards)
        return self._pick(seat, action)

    def _throw(self, seat: int, cards: tuple[str, ...]) -> list[Event]:
        for card in cards:
            self._give_up(seat, card)
        kind = classify(cards)
        self._this_throw = list(cards)
        self._drawn[seat] = None
        self._drawn_pile[seat] = None
        self._phase = Phase.PICK
        events = [Event(seat, words.throw_text(cards))]
        if self.options.triplet_skips and kind == SET and len(cards) == 3:
            self._skip_next = True  # additional rule 2 (ruling 14: exactly three)
            events.append(Event(None, words.TRIPLET_TEXT))
        if self.options.pure_three_reverses and kind == PURE and len(cards) == 3:
            self._direction = -self._direction  # additional rule 3
            events.append(Event(None, words.reversal_text(self._direction)))
        if not self._draw and self._discard:
            # "all the cards of the Discard pile except for the last player's discard are shuffled and
            # stacked face down to make a new drawing deck" (ruling 15: the live throws stay).
            self._draw = self._discard
            self._discard = []
            self._reshuffled = sorted(self._draw, key=card_sort_key)
            self._rng.shuffle(self._draw)
            self._pile += 1
            events.append(Event(None, words.reshuffle_text(len(self._draw))))
        return events

    def _pick(self, seat: int, action: DeclareAction) -> list[Event]:
        window_card: str | None = None
        if isinstance(action, Draw):
            card = self._draw.pop()
            self._receive(seat, card, self._pile)
            self._drawn[seat] = card
            self._drawn_pile[seat] = self._pile
            events = [Event(seat, words.DRAW_TEXT)]
            if self.options.quick_throw_back and throw_back_fits(self._this_throw, card) is not None:
                window_card = card
        elif isinstance(action, Take):
            card = action.card
            if self._prev_throw[-1] == card:
                self._prev_throw.pop()
            else:
                self._prev_throw.pop(0)
            self._receive(seat, card, None)
            events = [Event(seat, words.take_text(card))]
        elif isinstance(action, NoPick):
            self._give_up(seat, NO_PICK)
            self._discard.append(NO_PICK)
            events = [Event(seat, words.NO_PICK_TEXT)]
        elif isinstance(action, Discover):
            card = action.card
            self._give_up(seat, DISCOVER)
            if card in self._discard:
                self._discard.remove(card)
            else:
                self._prev_throw.remove(card)
            self._discard.append(DISCOVER)
            self._receive(seat, card, None)
            events = [Event(seat, words.discover_text(card))]
        else:  # NoCard
            events = [Event(seat, words.NO_CARD_TEXT)]
        self._end_turn(seat)
        self._window_seat = seat
        self._window_card = window_card
        return events

    def _throw_back(self, seat: int, card: str) -> list[Event]:
        self._give_up(seat, card, (card, self._drawn_pile[seat]))
        self._drawn_pile[seat] = None  # everyone has now seen the drawn card
        self._window_card = None
        # The turn has passed: the thrower's throw is now the pickable one (ruling 12: the card joins it).
        if throw_back_fits(self._prev_throw, card) == 0:
            self._prev_throw.insert(0, card)
        else:
            self._prev_throw.append(card)
        return [Event(seat, words.throw_back_text(card))]

    def _end_turn(self, seat: int) -> None:
        self._discard.extend(self._prev_throw)
        self._prev_throw = self._this_throw
        self._this_throw = []
        following = self._next_alive(seat, self._direction)
        if self._skip_next:
            following = self._next_alive(following, self._direction)
            self._skip_next = False
        self._turn = following
        self._phase = Phase.THROW

    # -- rounds ---------------------------------------------------------------------------------------

    def _declare(self, caller: int) -> list[Event]:
        """Reveal all hands and score the round ("Scoring"), then deal the next round or end the game."""
        self._window_seat = None
        self._window_card = None
        players = self._alive_seats()
        hand_q: list[int | None] = [None] * self.num_seats
        for seat in players:
            hand_q[seat] = hand_quarters(self._hands[seat])
        caller_q = hand_q[caller]
        assert caller_q is not None
        beaten, scored = round_scores(hand_q, caller)
        events = [Event(caller, words.declare_text(caller_q, beaten))]
        settlements = [Settlement.KEPT] * self.num_seats
        for seat in players:
            self._totals_q[seat], settlements[seat] = settle(self._totals_q[seat] + scored[seat])
            if settlements[seat] is Settlement.OUT:
                self._out_round[seat] = self._round
            own = hand_q[seat]
            assert own is not None
            text = words.shown_hand_text(
                self._hands[seat], own, scored[seat], self._totals_q[seat], settlements[seat]
            )
            events.append(Event(seat, text))
        self._last = RoundResult(
            number=self._round,
            caller=caller,
            caller_q=caller_q,
            succeeded=not beaten,
            hands=tuple(
                tuple(self._hands[seat]) if hand_q[seat] is not None else None
                for seat in range(self.num_seats)
            ),
            hand_q=tuple(hand_q),
            scored_q=scored,
            settlements=tuple(settlements),
        )
        survivors = self._alive_seats()
        if len(survivors) <= 1:
            self._over = True
            if survivors:
                events.append(Event(survivors[0], words.WINNER_TEXT))
            else:  # unreachable (ruling 18: a round always leaves someone at 0 added), kept for safety
                events.append(Event(None, words.NOBODY_LEFT_TEXT))
            return events
        starter = next_starter(hand_q, caller, survivors)
        self._dealer = self._next_alive(self._dealer, 1)  # ruling 4: the deal passes clockwise
        self._start_round(starter)
        events.append(Event(starter, words.starts_round_text(self._round)))
        return events

    # -- views ----------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        table: list[Field] = []
        if not self._over:
            table.extend(
                words.play_fields(
                    self._prev_throw,
                    self._this_throw,
                    self._phase is Phase.PICK,
                    len(self._draw),
                    len(self._discard) + len(self._prev_throw) + len(self._this_throw),
                    self._direction,
                )
            )
        if self._last is not None:
            table.append(words.last_round_field(self._last))
        closest = self._closest_to_100()
        if closest and not self._over:
            table.append(words.closest_field(self._totals_q[closest[0]]))
        options = self.options
        rules = words.rules_fields(
            options.quick_throw_back, options.triplet_skips, options.pure_three_reverses
        )
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(
                seat=other,
                summary=self._seat_summary(other, closest, self._last),
                to_act=other in to_act,
                brief=self._seat_summary(other, closest, None, brief=True),  # the last round: in the log
            )
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        legal: tuple[LegalAction, ...] = ()
        if seat is not None:
            if not self._over and self.alive(seat):
                private = words.private_fields(self._hands[seat], self._drawn[seat])
            legal = self.legal_actions(seat)
        return SeatView(
            seat=seat,
            title=words.view_title(self._round, self._over),
            table=tuple(table),
            seats=seats,
            private=private,
            legal_actions=legal,
            rules=tuple(rules),
            scene=self._scene(),
        )

    def _scene(self) -> Scene | None:
        """The table (``None`` once the game is over): the last throw (its ends may be taken), the throw just
        made while its thrower picks, and each seat still in the game's hand as backs (its size is public,
        its cards are not)."""
        if self._over:
            return None
        rows = [
            SceneRow("Last throw", (tuple(("iv", card) for card in self._prev_throw),), "")
            if self._prev_throw
            else SceneRow("Last throw", (), "nothing yet")
        ]
        if self._phase is Phase.PICK:
            rows.append(SceneRow("Just thrown", (tuple(("iv", card) for card in self._this_throw),)))
        for seat in self._alive_seats():
            size = len(self._hands[seat])
            rows.append(SceneRow(f"{{seat:{seat}}}", ((("iv", BACK),) * size,), plural(size, "card")))
        return Scene(tuple(rows))

    def _seat_summary(
        self, seat: int, closest: list[int], last: RoundResult | None, *, brief: bool = False
    ) -> str:
        return words.seat_summary(
            seat,
            hand_size=len(self._hands[seat]),
            total_q=self._totals_q[seat],
            out_round=self._out_round[seat],
            over=self._over,
            dealer=seat == self._dealer,
            closest=seat in closest,
            last=last,
            brief=brief,
        )

    def _closest_to_100(self) -> list[int]:
        alive = self._alive_seats()
        if not alive:
            return []
        high = max(self._totals_q[seat] for seat in alive)
        if high == 0:
            return []
        return [seat for seat in alive if self._totals_q[seat] == high]

    # -- end ------------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Last player standing first; the others by how late they went out, then by lower total, ties
        sharing a rank (ruling 18). Points are the final totals (fractional when halving made them so).

        Raises
        ------
        RuntimeError
            If the game is not over.
        """
        if not self._over:
            raise RuntimeError("The game is not over.")
        last_round = self._round + 1

        def key(seat: int) -> tuple[int, int]:
            out = self._out_round[seat]
            return (-(last_round if out is None else out), self._totals_q[seat])

        keys = [key(seat) for seat in range(self.num_seats)]
        return tuple(
            Standing(
                seat=seat,
                points=points_value(self._totals_q[seat]),
                rank=1 + sum(1 for other in keys if other < keys[seat]),
                detail=words.standing_detail(self._out_round[seat]),
            )
            for seat in range(self.num_seats)
        )


class MinimizeDeclare(GameRules[DeclareOptions]):
    """Minimize: Declare (IVAK MINIMIZE™): throw high cards, pick one, declare at 7 or less."""

    key: ClassVar[str] = "declare"
    display_name: ClassVar[str] = "Minimize: Declare"
    summary: ClassVar[str] = (
        "Throw a card, set or sequence, pick one card; declare with 7 or less. Over 100 points: you're out."
    )
    winning_rule: ClassVar[str] = "last player at 100 points or less wins"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 10
    max_moves: ClassVar[int] = 6_000  # docs/rules/declare.md, "How long a game lasts"
    options_model: ClassVar[type[GameOptions]] = DeclareOptions
    state_class: ClassVar[type[GameState]] = DeclareState

    def upgrade_log(self, actions: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        """``actions`` without the family steps of older logs (``f1`` .. ``f7``, ``fback``).

        Until every throw was offered in one list, a hand with more than 96 throws chose a "family" first
        (one card or a set, or a sequence of N cards), then the throw. The step changed nothing but the
        list shown to that player (the previous player's throw-back window stayed open), so dropping it
        replays the same game. A current log has no such codes and is returned as it is.
        """
        return [(seat, code) for seat, code in actions if not LEGACY_FAMILY_STEP.fullmatch(code)]
