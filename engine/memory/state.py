"""A game of Deluxe Memory in progress: the decisions it waits for (check, legal actions, apply), the order
of turns, the end and the views.

Rules source: ``shared/seeds/004_661a3fd4e50c3a3d.txt``; rulings of ``docs/rules/memory.md`` are cited as
"ruling N". The table and its changes are in :mod:`engine.memory.table`, what looks, pairs and the Mixed
Chart do in :mod:`engine.memory.effects`, and every sentence shown in :mod:`engine.memory.words`.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Sequence
from typing import Any

from engine.core import Board, Event, Field, LegalAction, SeatLine, SeatView, Standing, competition_ranks
from engine.memory import words
from engine.memory.actions import (
    Buy,
    ChooseCross,
    ChoosePlayer,
    ChooseSquare,
    CopyEffect,
    Done,
    EndTurn,
    Finish,
    Hide,
    Look,
    MemoryAction,
    MoveFrom,
    MoveTo,
    Reveal,
    Show,
)
from engine.memory.cards import (
    CROSS_CENTRES,
    POSITIONS,
    SQUARE_CORNERS,
    cross,
    is_joker,
    parse_card,
    parse_position,
    rank_of,
    square,
)
from engine.memory.decisions import (
    AT_POSITION,
    CHOOSES_POSITION,
    COPIES,
    CROSSES,
    DIFFERENT,
    LOOKING,
    OTHERS_ONLY,
    REARRANGING,
    REVEALING,
    REVEALING_SEVERAL,
    SEVEN_PRICE,
    SQUARES,
    Decision,
    Phase,
    Purpose,
    Step,
)
from engine.memory.effects import MemoryEffects
from engine.memory.table import TOKENS_PER_PLAYER, Kept, MemoryOptions

REARRANGE_SECONDS = 60.0  # Jokin' Around: "you have one minute to rearrange the cards"


class MemoryState(MemoryEffects):
    """A game of Deluxe Memory in progress (its secret information: see
    :class:`~engine.memory.table.MemoryTable`)."""

    action_type = MemoryAction

    def __init__(self, num_seats: int, seed: int, options: MemoryOptions) -> None:
        super().__init__(num_seats, seed, options)
        # The legal actions offered to the seat to act, and the version they were worked out at.
        self._offered: tuple[int, tuple[LegalAction, ...]] | None = None

    @classmethod
    def from_engine_snapshot(cls, data: dict[str, Any], history: Sequence[tuple[int, str]]) -> MemoryState:
        """The game :meth:`~engine.memory.table.MemoryTable.engine_snapshot` wrote, its legal actions not
        worked out yet.

        Raises
        ------
        ValueError, KeyError, TypeError
            If ``data`` is not a Deluxe Memory snapshot of this format.
        """
        state = super().from_engine_snapshot(data, history)
        state._offered = None
        return state

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        placed: dict[str, str],
        *,
        options: MemoryOptions | None = None,
        first: int = 0,
        fill: bool = True,
        tokens: dict[int, int] | None = None,
        kept: Sequence[tuple[int, int, str, str]] = (),
    ) -> MemoryState:
        """A game with a known layout, for rule scenarios and tests.

        Parameters
        ----------
        num_seats:
            Players, 2..4.
        placed:
            Position name -> card text, e.g. ``{"B2": "7♥", "B3": "7♠"}``; ``"Joker"`` may appear twice.
        options:
            The variants (default: none).
        first:
            The seat that plays first.
        fill:
            ``True``: the other cards fill the other positions row by row in card order (A♠ A♥ A♦ A♣ 2♠ ...).
            ``False``: only the placed cards lie on the table; the rest start in the discard pile.
        tokens:
            Seat -> tokens it starts with, for the seats not starting with 20; the Bank holds the rest of
            the ``30 * num_seats`` tokens.
        kept:
            Pairs kept in front of players from earlier turns, as ``(seat, as_rank, card, card)`` with
            ``as_rank`` 9 or 10, e.g. ``(1, 9, "9♥", "9♠")``: a Mixed 9 or 10 already resolved.

        Raises
        ------
        ValueError
            If a position is not in the layout, a card is named twice, a Joker is placed without Jokin'
            Around, a kept pair does not act as a 9 or 10, or the tokens exceed ``30 * num_seats``.
        """
        options = options or MemoryOptions()
        state = cls(num_seats, 0, options)
        deck = set(range(54 if options.jokin_around else 52))
        jokers = 0

        def take(text: str) -> int:
            nonlocal jokers
            card = parse_card(text, jokers)
            jokers += is_joker(card)
            if card not in deck:
                raise ValueError(f"{text} is not in this deck or is placed twice")
            deck.remove(card)
            return card

        grid: list[int | None] = [None] * POSITIONS
        for name, text in placed.items():
            position = parse_position(name)
            if position not in state._layout:
                raise ValueError(f"{name} is not part of the layout")
            grid[position] = take(text)
        for seat, as_rank, one, two in kept:
            if as_rank not in (9, 10):
                raise ValueError(f"A kept pair acts as a 9 or a 10, not a {as_rank}")
            state._kept.append(Kept(seat, as_rank, (take(one), take(two))))
        rest = sorted(deck)
        if fill:
            free = [p for p in state._layout if grid[p] is None]
            for position, card in zip(free, rest, strict=True):
                grid[position] = card
            rest = []
        for seat, count in (tokens or {}).items():
            state._tokens[seat] = count
        state._bank = TOKENS_PER_PLAYER * num_seats - sum(state._tokens)
        if state._bank < 0:
            raise ValueError(
                f"The players hold more than the {words.tokens_text(TOKENS_PER_PLAYER * num_seats)} there are"
            )
        state._grid = grid
        state._discard = rest
        state._base = state._turn_seat = first
        state._steps = [Step(Phase.PICK_FIRST, first)]
        return state

    # -- the decision waited for -----------------------------------------------------------------------

    @property
    def decision(self) -> Decision | None:
        """The decision being waited for, as the table sees it (its prompt says as much), or ``None`` once
        the game is over."""
        if self._over or not self._steps:
            return None
        step = self._steps[0]
        return Decision(
            phase=step.phase,
            seat=step.seat,
            purpose=step.purpose,
            amount=step.amount,
            positions=tuple(step.positions),
            chosen=tuple(step.chosen),
            first_pick=self._picks[0] if step.phase is Phase.PICK_SECOND else None,
        )

    @property
    def phase(self) -> Phase | None:
        """The kind of decision being waited for (``None`` once the game is over)."""
        return self._steps[0].phase if self._steps and not self._over else None

    def seats_to_act(self) -> tuple[int, ...]:
        if self._over or not self._steps:
            return ()
        return (self._steps[0].seat,)

    def is_terminal(self) -> bool:
        return self._over

    def decision_seconds(self, seat: int) -> float | None:
        """One minute for a Jokin' Around rearrangement, else the table's clock."""
        if seat in self.seats_to_act() and self._steps[0].phase in REARRANGING:
            return REARRANGE_SECONDS
        return None

    def decision_clock(self, seat: int) -> str | None:
        """Jokin' Around: one clock for the whole rearrangement ("you have one minute"), not one per move.
        Only one pair of Jokers exists, so one name serves."""
        if seat in self.seats_to_act() and self._steps[0].phase in REARRANGING:
            return "jokin-around"
        return None

    # -- what may be done: check, legal actions, defaults ------------------------------------------

    def check(self, seat: int, action: MemoryAction) -> str | None:  # type: ignore[override]
        """``None`` if ``seat`` may take ``action`` now, otherwise the words saying why not. The rules of
        each decision are in :meth:`_refusal`; :meth:`legal_actions` lists exactly the actions it allows."""
        if seat not in self.seats_to_act():
            return words.NOT_YOUR_TURN
        return self._refusal(self._steps[0], action)

    def _refusal(self, step: Step, action: MemoryAction) -> str | None:
        """Why ``action`` does not answer ``step`` (``None``: it does)."""
        phase = step.phase
        match action:
            case Look(p) | Reveal(p) | MoveFrom(p) | MoveTo(p) if type(action) is CHOOSES_POSITION.get(phase):
                return self._position_refusal(step, p)
            case Done() if phase in REVEALING_SEVERAL:
                return None if self._revealable(step) else words.NOTHING_TO_REVEAL
            case Done() if phase is Phase.TARGET and step.purpose is Purpose.THREE_LOSE:
                return None if self._targets(step) else words.NOBODY_LEFT
            case Done() if phase in (*REARRANGING, Phase.MEMORISE):
                return None
            case Show() if phase is Phase.HIDE:
                # Nothing to decide when no card may be hidden: both are shown (settled automatically).
                if self._hideable() and self._can_pay(step.seat, 1):
                    return None
                return words.CANNOT_HIDE
            case Hide(p) if phase is Phase.HIDE:
                return self._hide_refusal(step, p)
            case ChoosePlayer(target) if phase is Phase.TARGET:
                return self._target_refusal(step, target)
            case ChooseSquare(corner) if phase is Phase.SQUARE:
                if corner not in SQUARE_CORNERS:  # a corner on the last row or column
                    return words.square_off_the_grid(corner)
                if all(self._grid[p] is None for p in square(corner)):  # ruling 11
                    return words.empty_square(corner)
                return None
            case ChooseCross(centre) if phase is Phase.CROSS:
                if centre not in CROSS_CENTRES:  # ruling 12: the cross fits the grid
                    return words.cross_off_the_grid(centre)
                if not any(self._face_down_at(p) for p in cross(centre)):
                    return words.cross_face_up(centre)
                return None
            case CopyEffect(rank) if phase is Phase.KING:
                return words.KING_COPIES_ANOTHER if rank == 13 else None
            case Finish() if phase is Phase.PICK_FIRST:
                return None if self._may_finish(step.seat) else words.ONLY_THE_LAST_ENDS
            case Buy() | EndTurn() if phase is Phase.BUY_SEVEN:
                return None  # the offer is made only when the turn may be bought (ruling 15)
        return words.not_a_choice_now(phase)

    def _position_refusal(self, step: Step, p: int) -> str | None:
        """Why position ``p`` may not be chosen in ``step``, a decision that chooses a position (its action
        type is ``CHOOSES_POSITION[step.phase]``); ``None``: it may."""
        phase = step.phase
        if phase in LOOKING:
            if self._grid[p] is None:
                return words.no_card_at(p)
            taken = self._picks if phase is Phase.PICK_SECOND else step.positions
            if p in taken:  # ruling 19: two different cards
                return words.looking_already(p)
            if phase is Phase.LOOK_SWAP and len(self._cards_on_table()) < 2:
                return words.NOTHING_TO_SWAP
            return None
        if phase in REVEALING:
            if self._grid[p] is None:
                return words.no_card_at(p)
            if p in self._face_up:  # ruling 21: reveals take face-down cards
                return words.face_up_already(p)
            if p in step.positions:
                return words.revealed_already(p)
            return None
        if phase is Phase.SQUARE_LOOK:
            if p not in step.area:
                return words.not_in_square(p)
            if p in step.positions:
                return words.looking_already(p)
            return None
        if phase is Phase.REARRANGE:
            return words.no_card_at(p) if self._grid[p] is None else None
        # Phase.REARRANGE_TO
        if p not in self._layout:
            return words.not_in_layout(p)
        if p in step.positions:
            return words.there_already(p)
        return None

    def _hide_refusal(self, step: Step, position: int | None) -> str | None:
        """Ruling 9: only a card face-down when picked, for a token each, not the last one."""
        hideable = self._hideable()
        if position is None and len(hideable) < 2:
            return words.HIDE_FACE_DOWN_ONLY
        if position is not None and position not in hideable:
            if position not in self._picks:
                return words.not_looked_at(position)
            return words.stays_face_up(position)
        cost = 1 if position is not None else 2
        if not self._can_pay(step.seat, cost):
            if self._tokens[step.seat] < cost:
                return words.hiding_costs(cost, self._tokens[step.seat])
            return words.paying_puts_out(cost)
        return None

    def _target_refusal(self, step: Step, target: int) -> str | None:
        """Whom a player choice may name (rulings 5, 6 and 8)."""
        if not 0 <= target < self.num_seats:
            return words.NO_SUCH_PLAYER
        if self._out[target]:
            return words.player_out(target)
        if step.purpose in OTHERS_ONLY and target == step.seat:
            return words.TAKES_FROM_ANOTHER
        if step.purpose in DIFFERENT and target in step.chosen:
            return words.chosen_already(target)
        return None

    def _targets(self, step: Step) -> list[int]:
        """Players a :attr:`Phase.TARGET` step may choose."""
        return [seat for seat in range(self.num_seats) if self._target_refusal(step, seat) is None]

    def _other_candidates(self, step: Step) -> tuple[MemoryAction, ...]:
        """Every action other than a position that could answer ``step``, in the order offered."""
        phase = step.phase
        if phase in REVEALING_SEVERAL or phase in REARRANGING or phase is Phase.MEMORISE:
            return (Done(),)
        if phase is Phase.HIDE:
            return (Show(), *(Hide(p) for p in self._picks), Hide(None))
        if phase is Phase.TARGET:
            return (*(ChoosePlayer(seat) for seat in range(self.num_seats)), Done())
        if phase is Phase.SQUARE:
            return SQUARES
        if phase is Phase.CROSS:
            return CROSSES
        if phase is Phase.KING:
            return COPIES
        if phase is Phase.BUY_SEVEN:
            return (Buy(), EndTurn())
        if phase is Phase.PICK_FIRST:
            return (Finish(),)
        return ()

    def _legal(self, step: Step) -> list[MemoryAction]:
        """The actions answering ``step``: the positions of the layout, then the other candidates, that
        :meth:`_refusal` allows (positions go straight to the rule it applies to them)."""
        legal: list[MemoryAction] = []
        kind = CHOOSES_POSITION.get(step.phase)
        if kind is not None:
            actions = AT_POSITION[kind]
            legal = [actions[p] for p in self._layout if self._position_refusal(step, p) is None]
        legal += [action for action in self._other_candidates(step) if self._refusal(step, action) is None]
        return legal

    def _has_choice(self, step: Step) -> bool:
        """True if ``step`` has at least one legal action (a decision without one is skipped)."""
        kind = CHOOSES_POSITION.get(step.phase)
        if kind is not None and any(self._position_refusal(step, p) is None for p in self._layout):
            return True
        return any(self._refusal(step, action) is None for action in self._other_candidates(step))

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if seat not in self.seats_to_act():
            return ()
        if self._offered is not None and self._offered[0] == self.version:
            return self._offered[1]  # asked for again (views, public buttons) before the next action
        step = self._steps[0]
        menu = words.POSITION_MENU.get(step.phase)  # None: no menu of positions (a square's are buttons)
        offered = tuple(
            self._offer_position(action, menu)
            if menu is not None and isinstance(action, Look | Reveal | MoveFrom)
            else self._offer(step, action)
            for action in self._legal(step)
        )
        self._offered = (self.version, offered)
        return offered

    def decision_key(self, seat: int) -> Hashable:
        """``None`` off turn; else the decision (its phase, purpose, amount and what it chose so far) and
        what of the table its actions are made of: the grid and which of its cards lie face-up, the turn's
        two looks (hiding, a second look), the tokens (paying, players named with their tokens) and who is
        out. (Face-down cards name no action, so moving one may change the key alone.)"""
        if seat not in self.seats_to_act():
            return None
        step = self._steps[0]
        chosen = tuple(step.positions), tuple(step.chosen), tuple(step.area)
        return (
            (step.phase, step.purpose, step.amount, chosen),
            tuple(self._grid),
            frozenset(self._face_up),
            tuple(self._picks),
            tuple(self._picked_face_down),
            tuple(self._tokens),
            tuple(self._out),
        )

    def has_decision(self, seat: int) -> bool:
        """Only the seat of the decision waited for decides."""
        return seat in self.seats_to_act()

    def _offer_position(self, action: Look | Reveal | MoveFrom, menu: str) -> LegalAction:
        """A position offered in the decision's one menu ``menu``, a face-up card named."""
        p = action.position
        return words.position_in_menu(action.verb, p, menu, self._face_up_card(p))

    def _offer(self, step: Step, action: MemoryAction) -> LegalAction:
        """How a legal ``action`` other than a position of a menu is offered (its label, tone and group:
        :mod:`engine.memory.words`), given what of the table its words name."""
        match action:
            case Look():  # Mixed 4: the (at most four) cards of the square, as buttons
                return words.look_button(action)
            case MoveTo(p):
                empty = self._grid[p] is None
                return words.move_to_choice(action, step.positions[0], empty, self._face_up_card(p))
            case ChooseSquare(corner):
                holding = [p for p in square(corner) if self._grid[p] is not None]
                return words.square_choice(action, holding)
            case ChooseCross(centre):
                return words.cross_choice(action, cross(centre))
            case ChoosePlayer(target):
                return words.player_choice(action, step.purpose, self._tokens[target])
            case Show():
                return words.show_choice(action, self._picks)
        return words.choice(step.phase, action)

    def forced_action(self, seat: int) -> str | None:
        """The lone legal action of ``seat``, played for it at once (ruling 30): a choice of one player, one
        position or one area, a non-match seen with no token to hide it. ``None`` when the seat has a
        choice, or when the lone action ends a look (:attr:`Phase.MEMORISE`): that look is there to be seen
        before the turn ends (ruling 10)."""
        if seat not in self.seats_to_act() or self._steps[0].phase is Phase.MEMORISE:
            return None
        actions = self.legal_actions(seat)
        return actions[0].code if len(actions) == 1 else None

    def default_action(self, seat: int) -> str:
        """The harmless move played on a timeout (ruling 17): the first face-down card for a forced look or
        reveal (a second look takes a face-up card of the first card's rank if there is one), the first
        eligible player or area for a forced choice, and otherwise stop, stay face-up, copy the 9 (King),
        end the turn (7) or end a rearrangement.

        Raises
        ------
        ValueError
            If ``seat`` has no decision now.
        """
        legal = self._legal(self._steps[0]) if seat in self.seats_to_act() else []
        if not legal:
            raise ValueError(f"{words.player(seat)} has no decision now.")
        for harmless in (Finish(), Show(), Done(), EndTurn(), CopyEffect(9)):
            if harmless in legal:
                return harmless.format()
        phase = self._steps[0].phase
        if phase is Phase.PICK_SECOND:  # a face-up card matching the first look, so that idle tables end
            rank = rank_of(self._grid[self._picks[0]])  # type: ignore[arg-type]
            for p in self._cards_on_table():
                card = self._grid[p]
                if p in self._face_up and p != self._picks[0] and card is not None and rank_of(card) == rank:
                    return Look(p).format()
        if phase in (Phase.PICK_FIRST, Phase.PICK_SECOND, Phase.LOOK_SWAP, Phase.REVEAL_ONE):
            for action in legal:
                if isinstance(action, Look | Reveal) and action.position not in self._face_up:
                    return action.format()
        return legal[0].format()

    # -- what may be seen: the others' information redrawn -------------------------------------------

    def resample_hidden(
        self, viewer: int | None, rng: random.Random, apart: Sequence[Collection[int]] = ()
    ) -> MemoryState:
        """A copy in which the face-down cards ``viewer`` has never seen are shuffled among their positions.

        Cards face-up, cards revealed to everyone at some time, and cards ``viewer`` looked at at some time
        (its memory, following the cards when they swap) stay where they are; a card another seat is
        looking at privately is among the shuffled ones. Every seat's memory is kept as positions: in the
        copy each other seat knows exactly the positions the public history says it looked at (each
        seat's :meth:`known_cards` has the same positions as here), with the cards the copy puts there. The
        game draws nothing at random after the deal, so nothing else changes. ``viewer`` ``None``: the
        public view. This state is not changed.

        ``apart``: groups of positions whose cards are to be of different ranks (an opponent model's
        inference, e.g. the cards a player knew and left alone hold no pair). The shuffled cards are placed
        on the grouped positions first, one by one in the order of the layout, each drawn from the cards
        left whose rank neither a card already in one of its groups (shuffled or not) has; a position
        where none is left takes any card (the groups are a preference, never a reason to fail). Empty
        (the default): a plain shuffle. Cards are conserved; ``viewer``'s own knowledge is unchanged.

        Canonical (ruling 29): the unseen cards are sorted before they are shuffled with ``rng``, so the
        result depends only on what ``viewer`` has seen (the positions of :meth:`known_cards` and the
        cards no longer on the table tell which cards are unseen), ``apart`` and ``rng``.
        """
        return self._shuffled(set(self.known_cards(viewer)), rng, apart)

    def resample_unseen(self, rng: random.Random) -> MemoryState:
        """A copy in which only the face-down cards no seat has ever seen are shuffled among their
        positions (the benchmark's perfect-information ceiling; never an AI level's information).

        Every card some seat has seen stays where it truly is: face-up cards, cards ever revealed to all,
        and every card any seat looked at (followed through swaps and rearrangements), as in
        :meth:`known_cards` for each seat. In the copy every seat's memory is that pooled memory (each
        seat's :meth:`known_cards` is what some seat has seen), since in Deluxe Memory a card's place is
        known only through memory: a player deciding in the copy knows what any seat knows. Views, tokens
        and decisions are unchanged; the game draws nothing at random after the deal, so there is no
        generator to redraw. This state is not changed.
        """
        pooled = set(self.known_cards(None))
        for seat in range(self.num_seats):
            pooled |= set(self.known_cards(seat))
        other = self._shuffled(pooled, rng)
        other._seen = [set(pooled) for _ in range(self.num_seats)]
        return other

    def _shuffled(
        self, known: set[int], rng: random.Random, apart: Sequence[Collection[int]] = ()
    ) -> MemoryState:
        """A copy with the cards on the table at positions not in ``known`` shuffled with ``rng``, sorted
        first (canonical: the result depends only on ``known``, the cards there, ``apart`` and ``rng``);
        ``apart``: see :meth:`resample_hidden`."""
        other = self.copy()
        other._offered = None
        hidden = [p for p in self._layout if self._grid[p] is not None and p not in known]
        cards = sorted(self._grid[p] for p in hidden)  # type: ignore[type-var]
        rng.shuffle(cards)
        if apart:
            free = set(hidden)
            groups = [[p for p in group if self._grid[p] is not None] for group in apart]
            taken = [{rank_of(self._grid[p]) for p in group if p not in free} for group in groups]  # type: ignore[arg-type]
            member: dict[int, list[int]] = {}
            for index, group in enumerate(groups):
                for p in group:
                    if p in free:
                        member.setdefault(p, []).append(index)
            placed = [p for p in hidden if p in member]
            for p in placed:
                barred = set().union(*(taken[index] for index in member[p]))
                pick = next((i for i, card in enumerate(cards) if rank_of(card) not in barred), 0)
                card = cards.pop(pick)
                other._grid[p] = card
                for index in member[p]:
                    taken[index].add(rank_of(card))
            hidden = [p for p in hidden if p not in member]
        for p, card in zip(hidden, cards, strict=True):
            other._grid[p] = card
        return other

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, action: MemoryAction) -> list[Event]:
        self._events = []
        step = self._steps[0]
        match step.phase, action:
            case Phase.PICK_FIRST, Look(p):
                self._pick_first(step, p)
            case Phase.PICK_SECOND, Look(p):
                self._pick_second(step, p)
            case Phase.LOOK_SWAP, Look(p):
                self._look_to_swap(step, p)
            case Phase.SQUARE_LOOK, Look(p):
                self._look_in_square(step, p)
            case Phase.HIDE, Show():
                self._put_back(step, [])
            case Phase.HIDE, Hide(None):
                self._put_back(step, list(self._picks))
            case Phase.HIDE, Hide(p):
                self._put_back(step, [p])
            case Phase.TARGET, ChoosePlayer(target):
                self._choose_player(step, target)
            case Phase.REVEAL_ONE, Reveal(p):
                self._steps.pop(0)
                self._say(step.seat, words.reveals([self._reveal(p)]))
            case Phase.REVEAL_UP_TO_FOUR, Reveal(p):
                self._reveal_one_of_four(step, p)
            case Phase.REVEAL_ANY, Reveal(p):
                step.positions.append(p)
                self._face_up.add(p)  # "Do not turn them face-down again."
                self._say(step.seat, words.turns_face_up(*self._reveal(p)))
            case Phase.SQUARE, ChooseSquare(corner):
                self._select_square(step, corner)
            case Phase.CROSS, ChooseCross(centre):
                self._reveal_cross(step, centre)
            case Phase.KING, CopyEffect(rank):
                self._steps.pop(0)
                self._say(step.seat, words.copies(rank))
                self._chart(step.seat, rank, step.pair)
            case Phase.REARRANGE, MoveFrom(p):
                self._steps[0] = Step(Phase.REARRANGE_TO, step.seat, positions=[p])
            case Phase.REARRANGE_TO, MoveTo(p):
                self._move_to(step, p)
            case Phase.PICK_FIRST, Finish():
                self._finish(words.ends_the_game(seat))
            case Phase.BUY_SEVEN, Buy():
                self._steps.pop(0)
                lost = self._lose(step.seat, SEVEN_PRICE)
                self._say(step.seat, words.buys_turn(lost))
                self._extra.insert(0, (step.seat, False))
            case _, Done() | EndTurn():
                self._stop(step)
            case _:
                raise AssertionError(f"{action} was checked legal in {step.phase}")
        self._settle()
        return self._events

    def _settle(self) -> None:
        """Skip decisions with nothing to choose, end turns, start the next one, and end the game."""
        while not self._over:
            if not self.options.underdogs and len(self._in_game()) <= 1:
                # "The game ends when only one player has tokens left" (ruling 3).
                (last,) = self._in_game() or (None,)
                self._finish(words.only_one_left(last))
                return
            if not self._steps:
                self._end_turn()
                continue
            step = self._steps[0]
            if self._out[step.seat] or not self._has_choice(step):
                self._steps.pop(0)
                self._settle_skipped(step)
                continue
            return

    def _settle_skipped(self, step: Step) -> None:
        """A decision with nothing left to choose: finish what it stood for."""
        if step.phase is Phase.HIDE and not self._out[step.seat]:
            self._show_picks(step.seat, hidden=[], why=self._hide_limits(step.seat))
        elif step.phase is Phase.REVEAL_UP_TO_FOUR:
            self._after_three(step)

    def _finish(self, reason: str) -> None:
        self._over = True
        self._steps = []
        self._looks = {}
        self._end_reason = reason
        # Ruling 4: once the game is over every card left on the table is turned face-up.
        self._face_up.update(self._cards_on_table())
        self._say(None, words.game_over(reason))

    def _end_turn(self) -> None:
        """The turn is over: private looks are forgotten, a 7's purchase is offered, the next turn starts."""
        self._looks = {}
        self._picks = []
        self._picked_face_down = []
        if not self._matches_possible():
            self._finish(words.ALL_MATCHED)
            return
        if self._offer_buy:
            self._offer_buy = False
            if not self._out[self._turn_seat] and self._can_buy_turn(self._turn_seat):
                self._steps = [Step(Phase.BUY_SEVEN, self._turn_seat)]
                return
            if not self._out[self._turn_seat]:
                # Ruling 15: the offer is never dropped silently.
                self._say(self._turn_seat, words.no_purchase(self._tokens[self._turn_seat]))
        while self._extra:
            seat, offer = self._extra.pop(0)
            if not self._out[seat]:
                self._begin_turn(seat, extra=True, offer=offer)
                return
        seat = self._base
        while True:  # "Play passes to the left", past players who are out and skipped turns (8).
            seat = self._next_in_game(seat)
            if self._skips[seat]:
                self._skips[seat] -= 1
                self._say(seat, words.MISSES_TURN)
                continue
            break
        self._base = seat
        self._begin_turn(seat, extra=False, offer=False)

    def _begin_turn(self, seat: int, *, extra: bool, offer: bool) -> None:
        self._turn_seat = seat
        self._extra_turn = extra
        self._offer_buy = offer
        self._steps = [Step(Phase.PICK_FIRST, seat)]

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(seat=other, summary=self._seat_summary(other), to_act=other in to_act)
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            looked_at = [(p, self._grid[p]) for p in self._looks.get(seat, [])]
            private = words.private_fields(looked_at)  # type: ignore[arg-type]
        return SeatView(
            seat=seat,
            title=words.title(self._over, len(self._cards_on_table())),
            table=self._table_fields(),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
            board=self._board(seat),
            rules=words.rules_fields(self.options.underdogs),
        )

    def _seat_summary(self, seat: int) -> str:
        extra_turn = seat == self._turn_seat and self._extra_turn and not self._over
        return words.seat_summary(
            self._tokens[seat], self._out[seat], self.kept_pairs(seat), self._skips[seat], extra_turn
        )

    def _table_fields(self) -> tuple[Field, ...]:
        result = None
        if self._over:
            best = max(self._tokens)
            winners = [seat for seat in range(self.num_seats) if self._tokens[seat] == best]
            result = words.result(self._end_reason, winners, best)
        prompt = None
        if self._steps and not self._over:
            step = self._steps[0]
            prompt = words.prompt(
                step,
                first_pick=self._picks[0] if step.phase is Phase.PICK_SECOND else None,
                extra_turn=self._extra_turn,
                may_finish=self._may_finish(step.seat),
                hide_limits=self._hide_limits(step.seat) if step.phase is Phase.HIDE else (),
            )
        grid = self._grid
        return words.table_fields(
            result_text=result,
            prompt_text=prompt,
            shown=self._shown,
            flashed=[(p, card) for p in self._flash if (card := grid[p]) is not None],
            bank=self._bank,
            cards_left=len(self._cards_on_table()),
            discarded=len(self._discard),
        )

    def _board(self, viewer: int | None) -> Board:
        """The grid as ``viewer`` sees it: face-up cards, cards just revealed and its own looks face-up
        (the last two highlighted); face-down cards someone looks at (or picked to move) marked."""
        seen = set(self._looks.get(viewer, [])) if viewer is not None else set()
        looked_at = {p for positions in self._looks.values() for p in positions}
        if self._steps and self._steps[0].phase is Phase.REARRANGE_TO:
            looked_at.update(self._steps[0].positions)
        highlighted = set(self._flash) | seen
        return words.board(self._grid, set(self._layout), self._face_up | highlighted, highlighted, looked_at)

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Tokens per seat, most wins ("If you have the most tokens at the end of the game, you win");
        ties share a rank (ruling 18).

        Raises
        ------
        RuntimeError
            If the game is not over.
        """
        if not self._over:
            raise RuntimeError("The game is not over.")
        ranks = competition_ranks(self._tokens, lower_is_better=False)
        return tuple(
            Standing(
                seat=seat,
                points=self._tokens[seat],
                rank=ranks[seat],
                detail=words.standing_detail(self._out[seat], self._tokens[seat]),
            )
            for seat in range(self.num_seats)
        )
