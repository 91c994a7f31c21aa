"""Frazzled Wool's MINIMIZE (2021), for 3 to 8 players: keep the lowest score and get through each round.

Not to be confused with the project's two other "Minimize" games: IVAK's Minimize: Declare
(:mod:`engine.declare`) and Parlett's Minimisère (:mod:`engine.minimisere`).

Rules source: ``shared/seeds/000_d97c66fde1b75dcf.txt`` (MINIMIZE, with the turn as the TOKENIZE text
describes it) and the facts in ``shared/seeds/README.md``. The deck is :mod:`engine.frazzled.deck`, the
rule cards are :mod:`engine.frazzled.rule_cards`, the draw piles and the 14/1 / 2 fan exchange are
:mod:`engine.frazzled.table` and :mod:`engine.frazzled.fan`; the game's table (actions, options, deal,
queries, hidden information) is :mod:`engine.frazzled.minimize_table`, its scoring
:mod:`engine.frazzled.minimize_scoring` and its words :mod:`engine.frazzled.words_minimize`. Rulings
where the text is silent are numbered in ``docs/rules/minimize.md``; the code cites them as "ruling N".

Seats sit clockwise in seat order: the player on seat ``s``'s *left* is the next seat still playing
(``s + 1``, wrapping), and play passes to the left (ruling 1).

A round: every player still in the game holds six cards; on a turn a player may first challenge (spending
their challenge token), then draws the top card of a face-up draw pile and discards a different card,
whose action (per the actions card side in play) is then performed. A challenge sends the lowest score
(and any Perfect Zero) through; when one player is left playing, that player is out and a new round is
dealt to the others. With two players left, the final decides the winner.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.core import Event, Field, LegalAction, Scene, SeatLine, SeatView, Standing
from engine.frazzled import words_minimize as game_words
from engine.frazzled.actions import Discard, Draw, Fan, FrazzledAction
from engine.frazzled.deck import DECK, Card
from engine.frazzled.declarations import Claim
from engine.frazzled.fan import FanExchange
from engine.frazzled.minimize_scoring import ChallengeResult, Score, score_hand
from engine.frazzled.minimize_table import (
    CHALLENGE,
    DRAW_PILES,
    FINAL_TURNS,
    FLIP_ACTIONS,
    FLIP_DUPLICATES,
    Challenge,
    FlipActions,
    FlipDuplicates,
    FrazzledMinimizeOptions,
    Give,
    MinimizeTable,
    SwapBonus,
)
from engine.frazzled.rule_cards import (
    CHANGE_RULE,
    EXTRA_TURN,
    GIVE_ONE,
    PASS_LEFT,
    PASS_RIGHT,
    SKIP_NEXT,
    TAKE_ONE,
    TAKE_TWO,
)
from engine.frazzled.scene import discard_row, piles_row, rules_row
from engine.frazzled.table import NOT_NOW, NOT_YOUR_TURN, FrazzledRules, Phase


class FrazzledMinimizeState(MinimizeTable):
    """A game of MINIMIZE in progress, every round of it: the legal actions and their checks, what each
    move does (draws, discards and their actions, exchanges, rule changes, challenges, rounds), the views
    and the standings (:class:`MinimizeTable` holds what the game keeps)."""

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if seat not in self.seats_to_act():
            return ()
        if self._phase is Phase.DRAW:
            actions = [
                LegalAction(Draw(index).format(), game_words.draw_label(pile[-1], index), "main")
                for index, pile in enumerate(self._piles)
                if pile
            ]
            if self.may_challenge(seat):
                actions.append(LegalAction(CHALLENGE, game_words.CHALLENGE_LABEL, "bad"))
            return tuple(actions)
        if self._phase is Phase.DISCARD:
            assert self._drawn is not None
            group = game_words.discard_group(self._drawn)
            return tuple(
                LegalAction(
                    Discard(card).format(),
                    game_words.discard_label(card),
                    secret=True,
                    group=group,
                    description=game_words.action_note(self.actions_side.kind(card.number)),
                )
                for card in self._sorted_hand(seat)
            )
        if self._phase is Phase.RULE:
            return self._rule_changes()
        if self._phase is Phase.FAN:
            # A blind pick from the fan on the right.
            assert self._fan is not None
            return tuple(
                LegalAction(
                    Fan(position).format(), game_words.fan_label(position), group=game_words.FAN_GROUP
                )
                for position in self._fan.open_positions(seat)
            )
        return tuple(
            LegalAction(
                Give(card).format(), game_words.give_label(card), secret=True, group=game_words.GIVE_GROUP
            )
            for card in self._sorted_hand(seat)
            if card.id not in self._gifts[seat]
        )

    def decision_key(self, seat: int) -> Hashable:
        """``None`` off turn; else the phase and what its actions are made of: the piles' tops and whether
        ``seat`` may challenge (a draw); the card drawn, the hand and the actions card side (a discard,
        noted with its action); the rule cards (a 10); the fan positions left (a 14/1 or 2); the hand and
        the cards chosen so far (side B's passing)."""
        if not self._to_act(seat):
            return None
        phase = self._phase
        if phase is Phase.DRAW:
            return phase, self._tops(), self.may_challenge(seat)
        if phase is Phase.DISCARD:
            return phase, self._drawn, tuple(self._hands[seat]), self._actions_side
        if phase is Phase.RULE:
            return phase, self._dup_side, self._actions_side, tuple(self._bonus)
        if phase is Phase.FAN:
            return phase, self._fan_key(seat)
        return phase, tuple(self._hands[seat]), tuple(self._gifts[seat])

    def _rule_changes(self) -> tuple[LegalAction, ...]:
        actions = [
            LegalAction(FLIP_DUPLICATES, game_words.flip_duplicates_label(1 - self._dup_side)),
            LegalAction(FLIP_ACTIONS, game_words.flip_actions_label(1 - self._actions_side)),
        ]
        for index, card in enumerate(self._bonus):
            actions.append(LegalAction(SwapBonus(index).format(), game_words.swap_bonus_label(card)))
        return tuple(actions)

    def check(self, seat: int, action: FrazzledAction) -> str | None:  # type: ignore[override]
        """'Challenge' per :meth:`may_challenge`; a draw from a pile with cards; a discard of a card in
        hand (not the one drawn); a rule change after a 10; a fan position not yet picked; a card of
        one's hand not yet chosen to pass."""
        if isinstance(action, Challenge):
            return self._challenge_refusal(seat)
        if seat not in self.seats_to_act():
            return NOT_YOUR_TURN
        if isinstance(action, Draw) and self._phase is Phase.DRAW:
            return self._check_draw(action)
        if isinstance(action, Discard) and self._phase is Phase.DISCARD:
            return None if action.card in self._hands[seat] else "Discard a card of your hand."
        if isinstance(action, FlipDuplicates | FlipActions) and self._phase is Phase.RULE:
            return None
        if isinstance(action, SwapBonus) and self._phase is Phase.RULE:
            return None if action.index < len(self._bonus) else "There is no such bonus rule card."
        if isinstance(action, Fan) and self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.check(seat, action.position)
        if isinstance(action, Give) and self._phase is Phase.GIVE:
            if action.card not in self._hands[seat] or action.card.id in self._gifts[seat]:
                return "Choose another card of your hand to pass."
            return None
        return NOT_NOW

    def _default(self, seat: int) -> str:
        """The move played when ``seat``'s clock runs out (ruling 12): draw from the first non-empty
        pile (never a challenge; see the base), discard the card without an action that leaves the best
        score, flip the actions card, take the first fan position left (see the base), pass the card that
        leaves the best score."""
        if self._phase is Phase.RULE:
            return FLIP_ACTIONS
        rules = self.rules_in_play()
        if self._phase is Phase.DISCARD:
            assert self._drawn is not None
            drawn = self._drawn

            def discard_key(card: Card) -> tuple[bool, int, int]:
                rest = [other for other in self._hands[seat] if other is not card] + [drawn]
                has_action = self.actions_side.kind(card.number) is not None
                return has_action, score_hand(rest, rules).total, card.id

            return Discard(min(self._hands[seat], key=discard_key)).format()
        kept = [card for card in self._hands[seat] if card.id not in self._gifts[seat]]

        def give_key(card: Card) -> tuple[int, int]:
            return score_hand([other for other in kept if other is not card], rules).total, card.id

        return Give(min(kept, key=give_key)).format()

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, action: FrazzledAction) -> list[Event]:
        if isinstance(action, Challenge):
            return self._challenge(seat)
        if isinstance(action, Draw):
            return self._draw(seat, action.pile)
        if isinstance(action, Discard):
            return self._discard_card(seat, action.card)
        if isinstance(action, Fan):
            assert self._fan is not None
            self._fan.pick(seat, action.position)
            return self._maybe_finish_exchange(seat)
        if isinstance(action, Give):
            self._gifts[seat].append(action.card.id)
            return self._maybe_finish_exchange(seat)
        return self._change_rule(seat, action)

    def _draw(self, seat: int, index: int) -> list[Event]:
        """Take the top card of a non-empty draw pile; it joins the hand after the discard (TOKENIZE,
        "How to Play"; ruling 2)."""
        card = self._piles[index].pop()
        self._drawn = card
        self._phase = Phase.DISCARD
        events = [Event(seat, game_words.drew_text(card, index))]
        if not any(self._piles):
            # "there must always be an automatic challenge as soon as all three draw piles are emptied"
            # — settled once this turn is over (ruling 9).
            self._auto_pending = seat
            events.append(Event(None, game_words.AUTOMATIC_CHALLENGE_FOLLOWS))
        return events

    def _discard_card(self, seat: int, card: Card) -> list[Event]:
        assert self._drawn is not None
        self._hands[seat].remove(card)
        self._discard.append(card)
        self._hands[seat].append(self._drawn)
        self._learn(seat, [self._drawn])
        for claim in self._claims.get(seat, []):
            claim.replaced(card, self._drawn)
        self._drawn = None
        self._turns_taken[seat] += 1
        events = [Event(seat, game_words.discarded_text(card))]
        kind = self.actions_side.kind(card.number)
        if kind is None:
            return events + self._end_turn()
        events.append(Event(seat, game_words.triggers_text(self.actions_side.text(card.number))))
        if kind == CHANGE_RULE:
            self._phase = Phase.RULE
            return events
        if kind == EXTRA_TURN:
            self._next_mode = "again"
            return events + self._end_turn()
        if kind == SKIP_NEXT:
            self._next_mode = "skip"
            return events + self._end_turn()
        if kind in (PASS_LEFT, PASS_RIGHT):
            return events + self._pass_hands(kind) + self._end_turn()
        # Simultaneous choices: every player still playing picks at once (ruling 5).
        count = 1 if kind in (TAKE_ONE, GIVE_ONE) else 2
        if kind in (TAKE_ONE, TAKE_TWO):
            # fanned face down: the order says nothing
            self._fan = FanExchange.start(self._hands, count, self._rng, self.playing())
            self._phase = Phase.FAN
        else:
            self._gifts_needed = count
            self._gifts = {other: [] for other in self.playing()}
            self._phase = Phase.GIVE
        return events

    def _pass_hands(self, kind: str) -> list[Event]:
        """6: every player still playing passes their whole hand left (side A) or right (side B)."""
        players = self.playing()
        old = {seat: self._hands[seat] for seat in players}
        moved = {seat: self.left_of(seat) if kind == PASS_LEFT else self.right_of(seat) for seat in players}
        for seat, target in moved.items():
            self._hands[target] = old[seat]
        self._hands_moved(moved, self._hands_before(old))
        self._claims = {moved[seat]: claims for seat, claims in self._claims.items() if seat in moved}
        way = "left" if kind == PASS_LEFT else "right"
        for seat in players:
            self._last_exchange[seat] = (way, (), ())
        return [Event(None, game_words.hands_passed_text(kind == PASS_LEFT))]

    def _hands_before(self, old: dict[int, list[Card]]) -> list[list[Card]]:
        return [old.get(seat, []) for seat in range(self.num_seats)]

    def _maybe_finish_exchange(self, seat: int) -> list[Event]:
        fan = self._fan
        events: list[Event] = []
        count = fan.count if fan is not None else self._gifts_needed
        if len(fan.picked[seat] if fan is not None else self._gifts[seat]) == count:
            events.append(Event(seat, game_words.exchange_part_text(fan is not None, count)))
        if self.seats_to_act():
            return events
        players = self.playing()
        if fan is not None:
            # each picker takes from the fan of the player on their right
            moves = self._resolve_fan()
            self._claims = {}  # cards changed hands blind
            for p in players:
                taken, lost = moves[p]
                self._last_exchange[p] = ("fan", tuple(taken), tuple(lost))
        else:
            given = {p: [DECK[i] for i in self._gifts[p]] for p in players}
            received = {self.left_of(p): given[p] for p in players}
            for p in players:
                self._last_exchange[p] = ("give", tuple(given[p]), tuple(received[p]))
                self._hands[p] = [card for card in self._hands[p] if card not in given[p]] + received[p]
            self._forget(players)
            self._claims = {}  # chosen cards changed hands unseen
            for p in players:
                self._learn(self.left_of(p), given[p], viewer=p)
        for p in players:
            self._hands[p].sort(key=lambda card: card.id)
        events.append(Event(None, game_words.exchange_done_text(fan is not None, count)))
        self._fan = None
        self._gifts = {}
        self._gifts_needed = 0
        return events + self._end_turn()

    def _change_rule(self, seat: int, action: FrazzledAction) -> list[Event]:
        """10: flip a double-sided card, or replace a bonus card in play with the top of the bonus pile,
        the old one going to the bottom ("Actions"; ruling 6)."""
        if isinstance(action, FlipDuplicates):
            self._dup_side = 1 - self._dup_side
            events = [Event(seat, game_words.flipped_duplicates_text(self._dup_side))]
        elif isinstance(action, FlipActions):
            self._actions_side = 1 - self._actions_side
            events = [Event(seat, game_words.flipped_actions_text(self.actions_side))]
        else:
            assert isinstance(action, SwapBonus)
            index = action.index
            old = self._bonus[index]
            self._bonus[index] = self._bonus_pile.pop(0)
            self._bonus_pile.append(old)
            events = [Event(seat, game_words.swapped_bonus_text(old, self._bonus[index]))]
        return events + self._end_turn()

    def _end_turn(self) -> list[Event]:
        """After the discard and its action: settle a pending automatic challenge, then pass the turn."""
        events: list[Event] = []
        mode, self._next_mode = self._next_mode, ""
        current = self._turn
        if self._auto_pending is not None:
            emptier, self._auto_pending = self._auto_pending, None
            events += self._settle(challenger=None, announcer=emptier)
            if self._phase is Phase.OVER or self._round_changed:
                return events
            # "shuffle the discard pile and split it into three equal draw piles to continue the round"
            cards = self._discard
            self._discard = []
            self._rng.shuffle(cards)
            self._piles = [cards[index::DRAW_PILES] for index in range(DRAW_PILES)]
            events.append(Event(None, game_words.RESHUFFLED))
        self._phase = Phase.DRAW
        if mode == "again" and self._playing[current]:
            self._turn = current
            events.append(Event(current, game_words.ANOTHER_TURN))
        else:
            self._turn = self.left_of(current)
            if mode == "skip":
                events.append(Event(self._turn, game_words.MISSES_A_TURN))
                self._turn = self.left_of(self._turn)
        return events

    # -- challenges --------------------------------------------------------------------------------

    def _challenge(self, seat: int) -> list[Event]:
        """'Challenge' at the start of a turn: the token goes to the middle, every score is announced and
        settled. A challenger still playing afterwards goes on with the turn (ruling 3)."""
        self._tokens[seat] -= 1
        self._middle += 1
        events = [Event(seat, game_words.SAYS_CHALLENGE)]
        events += self._settle(challenger=seat, announcer=seat)
        if self._phase is Phase.OVER or self._round_changed:
            return events
        if not self._playing[seat]:
            self._turn = self.left_of(seat)
        return events

    def _settle(self, challenger: int | None, announcer: int) -> list[Event]:
        """Declarations in turn order from the ``announcer``, then players go through.

        "Each player in turn then declares whether they have a lower score than this (an equal score is
        not good enough). If they do have a lower score, they reveal it." The first to declare reveals
        their score; a lower score is revealed and becomes the score to beat; any other player says only
        "not lower" — their score stays secret. Once everyone has declared, a player whose score equals
        the lowest says so only where the tie decides who goes through (ruling 4).

        Lowest score goes through; a tie for lowest sends the challenger through if involved, else no
        one ("Challenging"); an automatic challenge (``challenger=None``) sends no one through on a tie
        ("What if No One Wants to Challenge?"). With more than two players playing, Perfect Zeros other
        than the challenger sneak through too, unless every player has one ("Sneaking Through").
        In the final the lowest wins the game, the challenger on a tie ("Final Round").
        """
        self._round_changed = False
        order = [announcer]
        while len(order) < len(self.playing()):
            order.append(self.left_of(order[-1]))
        scores = {seat: self._challenge_score(seat, challenger, len(order)) for seat in order}
        events: list[Event] = []
        best: int | None = None
        leader = announcer  # the seat whose revealed score is the one to beat
        for seat in order:
            total = scores[seat].total
            if best is not None and total >= best:
                events.append(Event(seat, game_words.not_lower_text(best)))
                self._declare(seat, challenger, len(order), "ge", best, "not_lower")
                continue
            events.append(Event(seat, game_words.reveals_text(total, best is None, challenger is None)))
            best, leader = total, seat
            self._declare(seat, challenger, len(order), "eq", total, "revealed")
        assert best is not None
        lowest = [seat for seat in order if scores[seat].total == best]
        if leader != challenger:
            # a tie decides something only when the challenger's is not the score to beat
            for seat in lowest:
                if seat != leader:
                    events.append(Event(seat, game_words.tie_text(best)))
                    self._declare(seat, challenger, len(order), "eq", best, "tied")
        if self.is_final:
            return events + self._settle_final(challenger, lowest, best)
        if len(lowest) == 1:
            through = [lowest[0]]
        elif challenger in lowest:
            through = [challenger]
        else:
            through = []
            events.append(Event(None, game_words.tie_for_lowest_text(best)))
        sneaks: list[int] = []
        if len(order) > 2:  # "A Perfect Zero does not count when there are only two players."
            zeros = [seat for seat in order if scores[seat].perfect_zero]
            if len(zeros) == len(order):
                through = []
                events.append(Event(None, game_words.ALL_PERFECT_ZERO))
            else:
                sneaks = [seat for seat in zeros if seat != challenger and seat not in through]
        if len(through) + len(sneaks) == len(order):
            # Ruling 8: a round needs one player left to be out, so if everyone would go through no one does.
            through, sneaks = [], []
            events.append(Event(None, game_words.EVERYONE_THROUGH))
        if len(order) > 2 and (through or sneaks):
            # whoever could have sneaked through with a Perfect Zero and did not has none (public)
            for seat in order:
                if seat != challenger and seat not in through + sneaks:
                    self._claim(seat, Claim(self.rules_in_play(), True, "nz"))
        for seat in through + sneaks:
            events.append(
                Event(seat, game_words.goes_through_text(self._hands[seat], scores[seat], seat in sneaks))
            )
            self._go_through(seat)
        self._last_challenge = ChallengeResult(
            challenger is None, best, "round", self._round, len(through), len(sneaks)
        )
        if len(self.playing()) == 1:
            events += self._eliminate(self.playing()[0])
        return events

    def _challenge_score(self, seat: int, challenger: int | None, playing: int) -> Score:
        """``seat``'s score at a challenge, the 14/1 cards read as serves it best there (ruling 7): a
        Perfect Zero counts for a player other than the challenger while more than two are playing."""
        counts = playing > 2 and seat != challenger
        return score_hand(self._hands[seat], self.rules_in_play(), perfect_zero_counts=counts)

    def _declare(
        self, seat: int, challenger: int | None, playing: int, op: str, value: int, said: str
    ) -> None:
        """Record what ``seat`` declared (``said``: see :func:`words_minimize.declared_text`): on its
        player line, and as a claim about its hand (ruling 4)."""
        counts = playing > 2 and seat != challenger
        self._claim(seat, Claim(self.rules_in_play(), counts, op, value))
        self._last_declared[seat] = (said, value)

    def _settle_final(self, challenger: int | None, lowest: list[int], best: int) -> list[Event]:
        if len(lowest) == 1:
            winner = lowest[0]
        elif challenger is not None:
            winner = challenger  # "If both players have the same score, then the player who said
            # 'challenge' wins the game."
        else:
            self._last_challenge = ChallengeResult(True, best, "final_tie")
            return [Event(None, game_words.final_tie_text(best))]
        loser = next(seat for seat in self.playing() if seat != winner)
        self._winner, self._finalist = winner, loser
        self._in_game[loser] = False
        self._phase = Phase.OVER
        self._round_changed = True
        self._last_challenge = ChallengeResult(challenger is None, best, "final_won")
        return [
            Event(winner, game_words.wins_text(self._hands[winner])),
            Event(loser, game_words.runner_up_text(self._hands[loser])),
        ]

    def _go_through(self, seat: int) -> None:
        """The player's cards go on the discard pile, their tokens to the middle ("Challenging")."""
        self._discard.extend(self._hands[seat])
        self._hands[seat] = []
        self._middle += self._tokens[seat]
        self._tokens[seat] = 0
        self._claims.pop(seat, None)
        self._playing[seat] = False
        self._through.append(seat)

    def _eliminate(self, seat: int) -> list[Event]:
        """The last player left playing is out; a new round starts with those who went through."""
        self._in_game[seat] = False
        self._eliminated.append(seat)
        self._round_changed = True
        out_round = self._round
        self._round += 1
        self._last_out_round = out_round
        events = [
            Event(seat, game_words.out_text(out_round, self._hands[seat])),
            Event(None, game_words.round_begins_text(self._round)),
        ]
        # Ruling 11: the player on the left of the one who is out starts the new round.
        first = next(
            (seat + step) % self.num_seats
            for step in range(1, self.num_seats + 1)
            if self._in_game[(seat + step) % self.num_seats]
        )
        self._deal_round(first)
        return events

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        table = list(self._table_fields())
        seats = tuple(
            SeatLine(
                seat=other,
                summary=self._seat_summary(other),
                to_act=other in self.seats_to_act(),
                brief=self._seat_summary(other, brief=True),
            )
            for other in range(self.num_seats)
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
            rules=game_words.rules_fields(
                self._bonus, self._dup_side, self.duplicates_rule, self.actions_side
            ),
            scene=Scene(
                (
                    piles_row(self._piles),
                    discard_row(self._discard),
                    rules_row(self._bonus, self.duplicates_rule, self.actions_side),
                )
            ),
        )

    def _title(self) -> str:
        return game_words.title(
            self._phase is Phase.OVER, self.is_final, self._round, len(self.playing()), sum(self._in_game)
        )

    def _table_fields(self) -> list[Field]:
        if self._phase is Phase.OVER:
            return [game_words.result_field(self._last_challenge)]
        return game_words.table_fields(
            self._piles,
            self._discard,
            self._now_text(),
            self._middle,
            self._last_challenge,
            self._last_out_round,
        )

    def _now_text(self) -> str:
        if self._phase is Phase.DRAW:
            taken = [min(self._turns_taken[seat], FINAL_TURNS) for seat in self.playing()]
            return game_words.draw_now_text(self.is_final, taken)
        if self._phase is Phase.DISCARD:
            assert self._drawn is not None
            return game_words.discard_now_text(self._drawn)
        if self._phase is Phase.RULE:
            return game_words.RULE_NOW
        if self._fan is not None:
            return game_words.fan_now_text(self._fan.count)
        return game_words.give_now_text(self._gifts_needed)

    def _seat_summary(self, seat: int, *, brief: bool = False) -> str:
        """A seat's line; ``brief`` leaves out what it declared at the last challenge."""
        out_round = 0
        if self._winner == seat:
            place = "winner"
        elif self._finalist == seat:
            place = "runner_up"
        elif not self._in_game[seat]:
            place, out_round = "out", self._eliminated.index(seat) + 1
        elif not self._playing[seat]:
            place = "through"
        else:
            place = "playing"
        return game_words.seat_summary(
            place,
            out_round,
            len(self._hands[seat]),
            bool(self._tokens[seat]),
            self._turns_taken[seat] if self.is_final else None,
            None if brief else self._last_declared.get(seat),
        )

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        if not self._hands[seat]:
            return (game_words.NOT_PLAYING_FIELD,)
        score = self.score(seat)
        zero = score_hand(self._hands[seat], self.rules_in_play(), perfect_zero_counts=True)
        fields = game_words.hand_fields(self._sorted_hand(seat), score, zero if zero != score else None)
        if self._phase is Phase.DISCARD and seat == self._turn and self._drawn is not None:
            fields.append(game_words.you_drew_field(self._drawn))
        if self._fan is not None and self._fan.picked.get(seat):
            fields.append(game_words.picked_field(self._fan.picked[seat]))
        if self._gifts.get(seat):
            fields.append(game_words.chosen_field([DECK[i] for i in self._gifts[seat]]))
        if seat in self._last_exchange:
            fields.append(game_words.last_exchange_field(*self._last_exchange[seat]))
        return tuple(fields)

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """The winner first, the runner-up second, then the others by reverse order of elimination.
        ``points`` = rounds got through (the winner's final counts), so higher is better."""
        if self._phase is not Phase.OVER:
            raise RuntimeError("The game is not over.")
        points = []
        details = []
        for seat in range(self.num_seats):
            if seat == self._winner:
                points.append(len(self._eliminated) + 1)
                details.append(game_words.standing_detail("winner", 0))
            elif seat == self._finalist:
                points.append(len(self._eliminated))
                details.append(game_words.standing_detail("runner_up", 0))
            else:
                out = self._eliminated.index(seat)
                points.append(out)
                details.append(game_words.standing_detail("out", out + 1))
        return self._standings(points, details, lower_is_better=False)


class FrazzledMinimize(FrazzledRules[FrazzledMinimizeOptions]):
    """MINIMIZE: lowest range-based score gets through; one player out per round."""

    key = "minimize"
    display_name = game_words.TITLE
    summary = game_words.SUMMARY
    winning_rule = game_words.WINNING_RULE
    state_class = FrazzledMinimizeState
    max_moves = 5_500  # docs/rules/minimize.md, "How long a game lasts"
