"""A game of Deluxe Memory in progress: the turn's two looks, pairs and the Mixed Chart, tokens, views.

Rules source: ``shared/seeds/004_661a3fd4e50c3a3d.txt``. Where the text is silent the numbered rulings of
``docs/rules/memory.md`` apply; comments cite them as "ruling N" and each is tested in
``tests/engine/test_memory.py``. Cards and positions are ``int`` (see :mod:`engine.memory.cards`); tokens
are ``int`` counts, and the tokens of all players plus the Bank are always ``30 * players``.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field as OptionField

from engine.core import (
    Board,
    Cell,
    Event,
    Field,
    GameOptions,
    GameState,
    LegalAction,
    SeatLine,
    SeatView,
    Standing,
    competition_ranks,
)
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
    Move,
    MoveTo,
    Reveal,
    Show,
)
from engine.memory.cards import (
    COLUMNS,
    CROSS_CENTRES,
    POSITIONS,
    RANK_NAMES,
    ROWS,
    SQUARE_CORNERS,
    card_text,
    cards_text,
    cross,
    is_black,
    is_joker,
    is_red,
    layout,
    parse_card,
    parse_position,
    position_name,
    rank_of,
    rank_title,
    square,
    square_name,
)
from engine.memory.decisions import (
    ASK,
    AT_POSITION,
    CHART,
    CHOOSES_POSITION,
    COPIES,
    CROSSES,
    DIFFERENT,
    HARMFUL,
    LOOKING,
    OTHERS_ONLY,
    POSITION_MENU,
    REARRANGING,
    REVEALING,
    REVEALING_SEVERAL,
    SQUARES,
    Decision,
    Phase,
    Purpose,
    Step,
)

START_TOKENS = 20  # "Give 20 tokens to each player."
TOKENS_PER_PLAYER = 30  # "About 30 tokens for each player": the other 10 each start in the Bank.
UNDERDOGS_END = (
    "Nobody is out at 0 tokens. The game ends when all possible matches are made, or when the only player "
    "with tokens left ends it at the start of one of their turns (ruling 3). Most tokens wins."
)
REARRANGE_SECONDS = 60.0  # Jokin' Around: "you have one minute to rearrange the cards"
SEVEN_PRICE = 5  # Mixed 7: "You may lose 5 tokens at the end of that turn to take another turn."
QUEEN_GIFT = 6  # Mixed Queen: "Choose a player to give six tokens to another player."
THREE_LOSS = 3  # Mixed 3: "choose up to three players to lose three tokens"


def _player(seat: int) -> str:
    """A player in engine text: ``{seat:N}``, which the Discord layer replaces with the display name."""
    return f"{{seat:{seat}}}"


def _tokens_text(count: int) -> str:
    return "1 token" if count == 1 else f"{count} tokens"


# -- options ------------------------------------------------------------------------------------------


class MemoryOptions(GameOptions):
    """The three variants of the rules page ("Variants"), each off by default."""

    simplicity: bool = OptionField(
        default=False,
        description="Mixed pairs: a chosen player gives that many tokens to another (no Mixed Chart).",
    )
    jokin_around: bool = OptionField(
        default=False,
        description="Jokers stay in (54 cards): matching them gives a minute to rearrange the cards.",
    )
    underdogs: bool = OptionField(
        default=False,
        description="Players with no tokens stay in the game and lose nothing more.",
    )


@dataclass
class _Kept:
    """A pair kept in front of ``seat`` by a Mixed 9 or 10 (``as_rank``: 9 or 10, a King pair copies one)."""

    seat: int
    as_rank: int
    cards: tuple[int, int]


class MemoryState(GameState[MemoryOptions]):
    """A game of Deluxe Memory in progress.

    Secret information: the faces of face-down cards. A card a player looks at is shown to that player
    only, and only until their turn ends; a revealed card is shown to everyone until the next turn's
    first look; face-up cards are public. Token counts, kept pairs and positions chosen are public.
    """

    action_type = MemoryAction

    def __init__(self, num_seats: int, seed: int, options: MemoryOptions) -> None:
        super().__init__(num_seats, seed, options)
        rng = random.Random(seed)
        self._layout = layout(options.jokin_around)
        deck = list(range(54 if options.jokin_around else 52))
        rng.shuffle(deck)
        self._grid: list[int | None] = [None] * POSITIONS
        for position, card in zip(self._layout, deck, strict=True):
            self._grid[position] = card
        self._face_up: set[int] = set()
        self._tokens = [START_TOKENS] * num_seats
        self._bank = (TOKENS_PER_PLAYER - START_TOKENS) * num_seats
        self._out = [False] * num_seats
        self._kept: list[_Kept] = []
        self._discard: list[int] = []
        self._skips = [0] * num_seats
        self._extra: list[tuple[int, bool]] = []  # (seat, may buy one more with a 7) in the order owed
        self._offer_buy = False  # this turn came from a 7: at its end its player may buy one more
        self._extra_turn = False
        # "Choose a player to go first": drawn from the seed; play then passes to the left (ruling 2).
        first = rng.randrange(num_seats)
        self._base = first  # the seat whose regular turn it is (extra turns do not move it)
        self._turn_seat = first
        self._steps: list[Step] = [Step(Phase.PICK_FIRST, first)]
        self._picks: list[int] = []
        self._picked_face_down: list[bool] = []
        self._looks: dict[int, list[int]] = {}  # seat -> positions it looked at this turn (private)
        self._flash: list[int] = []  # positions revealed to all since the last turn's first look
        self._shown: list[str] = []  # matched pairs shown to all since then, e.g. "C5 7♥ + D2 7♦"
        # Positions whose card a seat has seen at some time (its memory), and those everyone has seen; both
        # follow their cards when cards swap. Only resample_hidden reads them.
        self._seen: list[set[int]] = [set() for _ in range(num_seats)]
        self._seen_by_all: set[int] = set()
        self._over = False
        self._end_reason = ""
        self._events: list[Event] = []
        # The legal actions offered to the seat to act, and the version they were worked out at.
        self._offered: tuple[int, tuple[LegalAction, ...]] | None = None

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
            state._kept.append(_Kept(seat, as_rank, (take(one), take(two))))
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
                f"The players hold more than the {TOKENS_PER_PLAYER * num_seats} tokens there are"
            )
        state._grid = grid
        state._discard = rest
        state._base = state._turn_seat = first
        state._steps = [Step(Phase.PICK_FIRST, first)]
        return state

    # -- public queries ----------------------------------------------------------------------------

    def tokens(self, seat: int) -> int:
        """Tokens ``seat`` holds (public: tokens lie in front of their owner)."""
        return self._tokens[seat]

    @property
    def bank(self) -> int:
        """Tokens in the Bank."""
        return self._bank

    def is_out(self, seat: int) -> bool:
        """True once ``seat`` ran out of tokens and left the game ("If you run out of tokens...")."""
        return self._out[seat]

    def card_at(self, name: str) -> int | None:
        """The card at position ``name`` (tests and scoring only, never for a view), ``None`` if empty."""
        return self._grid[parse_position(name)]

    def kept_pairs(self, seat: int) -> list[tuple[int, tuple[int, int]]]:
        """``seat``'s kept pairs as ``(acts_as_rank, cards)``, oldest first."""
        return [(kept.as_rank, kept.cards) for kept in self._kept if kept.seat == seat]

    def all_cards(self) -> list[int]:
        """Every card: on the table, kept in front of players, in the discard pile, and a Mixed King's pair
        waiting for the effect it copies (for conservation)."""
        on_table = [card for card in self._grid if card is not None]
        kept = [card for pair in self._kept for card in pair.cards]
        waiting = [card for step in self._steps for card in step.pair]
        return on_table + kept + waiting + list(self._discard)

    def table_positions(self) -> tuple[int, ...]:
        """The positions holding a card, row by row (public: every card lies on the table, face-up or
        down)."""
        return tuple(self._cards_on_table())

    def removed_cards(self) -> tuple[int, ...]:
        """The cards no longer on the table: the discard pile, the pairs kept in front of players and a
        Mixed King's pair waiting for its effect (public: every matched pair is shown to all)."""
        kept = [card for pair in self._kept for card in pair.cards]
        waiting = [card for step in self._steps for card in step.pair]
        return tuple(self._discard) + tuple(kept) + tuple(waiting)

    def known_cards(self, seat: int | None) -> dict[int, int]:
        """What ``seat`` knows of the table, as position -> card, with a perfect memory (ruling 29): the
        face-up cards, every card revealed to everyone at some time, and every card ``seat`` itself looked
        at at some time, each followed to where it lies now through swaps and rearrangements (those are
        public). ``None``: what everyone knows. Only cards still on the table are listed; a card another
        seat looked at privately never is."""
        known = self._face_up | self._seen_by_all | set(self._flash)
        if seat is not None:
            known = known | self._seen[seat] | set(self._looks.get(seat, []))
        return {p: card for p in sorted(known) if (card := self._grid[p]) is not None}

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

    def copy(self) -> MemoryState:
        """An independent exact copy, much faster than ``copy.deepcopy`` (AI players search on copies)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._grid = list(self._grid)
        other._face_up = set(self._face_up)
        other._tokens = list(self._tokens)
        other._out = list(self._out)
        other._kept = list(self._kept)  # a kept pair is never changed, only added or removed
        other._discard = list(self._discard)
        other._skips = list(self._skips)
        other._extra = list(self._extra)
        other._steps = [
            Step(
                step.phase,
                step.seat,
                step.purpose,
                step.amount,
                list(step.positions),
                list(step.chosen),
                step.pair,
                list(step.area),
            )
            for step in self._steps
        ]
        other._picks = list(self._picks)
        other._picked_face_down = list(self._picked_face_down)
        other._looks = {seat: list(seen) for seat, seen in self._looks.items()}
        other._flash = list(self._flash)
        other._shown = list(self._shown)
        other._seen = [set(seen) for seen in self._seen]
        other._seen_by_all = set(self._seen_by_all)
        other._events = list(self._events)
        return other

    @property
    def turn_seat(self) -> int:
        """The seat whose turn it is."""
        return self._turn_seat

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
            return "It is not your turn."
        return self._refusal(self._steps[0], action)

    def _refusal(self, step: Step, action: MemoryAction) -> str | None:
        """Why ``action`` does not answer ``step`` (``None``: it does)."""
        phase = step.phase
        match action:
            case Look(p) | Reveal(p) | Move(p) | MoveTo(p) if type(action) is CHOOSES_POSITION.get(phase):
                return self._position_refusal(step, p)
            case Done() if phase in REVEALING_SEVERAL:
                return None if self._revealable(step) else "There is no card left to reveal."
            case Done() if phase is Phase.TARGET and step.purpose is Purpose.THREE_LOSE:
                return None if self._targets(step) else "There is nobody left to choose."
            case Done() if phase in (*REARRANGING, Phase.MEMORISE):
                return None
            case Show() if phase is Phase.HIDE:
                # Nothing to decide when no card may be hidden: both are shown (settled automatically).
                if self._hideable() and self._can_pay(step.seat, 1):
                    return None
                return "Your cards stay face-up: you cannot pay to hide them."
            case Hide(p) if phase is Phase.HIDE:
                return self._hide_refusal(step, p)
            case ChoosePlayer(target) if phase is Phase.TARGET:
                return self._target_refusal(step, target)
            case ChooseSquare(corner) if phase is Phase.SQUARE:
                if corner not in SQUARE_CORNERS:  # a corner on the last row or column
                    return f"No 2 by 2 square of the grid has its top-left at {position_name(corner)}."
                if all(self._grid[p] is None for p in square(corner)):  # ruling 11
                    return f"The square {square_name(corner)} holds no card."
                return None
            case ChooseCross(centre) if phase is Phase.CROSS:
                if centre not in CROSS_CENTRES:  # ruling 12: the cross fits the grid
                    return f"A cross around {position_name(centre)} does not fit the grid."
                if not any(self._face_down_at(p) for p in cross(centre)):
                    return f"The cross around {position_name(centre)} holds no face-down card."
                return None
            case CopyEffect(rank) if phase is Phase.KING:
                return "The King copies another rank, not itself." if rank == 13 else None
            case Finish() if phase is Phase.PICK_FIRST:
                if self._may_finish(step.seat):
                    return None
                return "Only the one player with tokens left may end the game, and only with Underdogs."
            case Buy() | EndTurn() if phase is Phase.BUY_SEVEN:
                return None  # the offer is made only when the turn may be bought (ruling 15)
        return f"That is not a choice now. {ASK[phase]}"

    def _position_refusal(self, step: Step, p: int) -> str | None:
        """Why position ``p`` may not be chosen in ``step``, a decision that chooses a position (its action
        type is ``CHOOSES_POSITION[step.phase]``); ``None``: it may."""
        phase = step.phase
        if phase in LOOKING:
            if self._grid[p] is None:
                return f"There is no card at {position_name(p)}."
            taken = self._picks if phase is Phase.PICK_SECOND else step.positions
            if p in taken:  # ruling 19: two different cards
                return f"You are already looking at {position_name(p)}: choose another card."
            if phase is Phase.LOOK_SWAP and len(self._cards_on_table()) < 2:
                return "There are not two cards left to swap."
            return None
        if phase in REVEALING:
            if self._grid[p] is None:
                return f"There is no card at {position_name(p)}."
            if p in self._face_up:  # ruling 21: reveals take face-down cards
                return f"{position_name(p)} is face-up already: choose a face-down card."
            if p in step.positions:
                return f"{position_name(p)} is revealed already: choose another card."
            return None
        if phase is Phase.SQUARE_LOOK:
            if p not in step.area:
                return f"{position_name(p)} is not a card of the square you selected."
            if p in step.positions:
                return f"You are already looking at {position_name(p)}: choose another card."
            return None
        if phase is Phase.REARRANGE:
            return f"There is no card at {position_name(p)}." if self._grid[p] is None else None
        # Phase.REARRANGE_TO
        if p not in self._layout:
            return f"{position_name(p)} is not a place of the layout."
        if p in step.positions:
            return f"That card is at {position_name(p)} already."
        return None

    def _hide_refusal(self, step: Step, position: int | None) -> str | None:
        """Ruling 9: only a card face-down when picked, for a token each, not the last one."""
        hideable = self._hideable()
        if position is None and len(hideable) < 2:
            return "Only a card that was face-down when you picked it can be put back face-down."
        if position is not None and position not in hideable:
            if position not in self._picks:
                return f"{position_name(position)} is not one of the cards you looked at."
            return f"{position_name(position)} was face-up when you picked it: it stays face-up."
        cost = 1 if position is not None else 2
        if not self._can_pay(step.seat, cost):
            if self._tokens[step.seat] < cost:
                return f"Hiding costs {_tokens_text(cost)}; you have {_tokens_text(self._tokens[step.seat])}."
            return f"Paying {_tokens_text(cost)} would leave you without tokens, out of the game."
        return None

    def _target_refusal(self, step: Step, target: int) -> str | None:
        """Whom a player choice may name (rulings 5, 6 and 8)."""
        if not 0 <= target < self.num_seats:
            return "There is no such player."
        if self._out[target]:
            return f"{_player(target)} is out of the game."
        if step.purpose in OTHERS_ONLY and target == step.seat:
            return "This effect takes tokens: choose another player."
        if step.purpose in DIFFERENT and target in step.chosen:
            return f"{_player(target)} is chosen already: choose a different player."
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
        menu = POSITION_MENU.get(step.phase)  # None: no menu of positions (a square's cards are buttons)
        offered = tuple(
            self._offer_position(action, menu)
            if menu is not None and isinstance(action, Look | Reveal | Move)
            else self._offer(step, action)
            for action in self._legal(step)
        )
        self._offered = (self.version, offered)
        return offered

    def _offer_position(self, action: Look | Reveal | Move, menu: str) -> LegalAction:
        """A position offered in the decision's one menu ``menu``, a face-up card named."""
        p = action.position
        return _position_action(action.verb, p, menu, self._grid[p] if p in self._face_up else None)

    def _offer(self, step: Step, action: MemoryAction) -> LegalAction:
        """How a legal ``action`` other than a position of a menu is offered: its label, tone and group."""
        phase, code = step.phase, action.format()
        match action:
            case Look(p):  # Mixed 4: the (at most four) cards of the square, as buttons
                return LegalAction(code, f"Look at {position_name(p)}", "main")
            case MoveTo(p):
                card = self._grid[p]
                return LegalAction(
                    code=code,
                    label=position_name(p),
                    group=f"Move {position_name(step.positions[0])} to (swap with)",
                    description="empty" if card is None else self._describe(p),
                )
            case ChooseSquare(corner):
                return LegalAction(
                    code,
                    square_name(corner),
                    group="Select a 2 by 2 square",
                    description=", ".join(
                        position_name(p) for p in square(corner) if self._grid[p] is not None
                    ),
                )
            case ChooseCross(centre):
                return LegalAction(
                    code,
                    f"Cross around {position_name(centre)}",
                    group="Reveal a 3 by 3 cross (its centre)",
                    description=", ".join(position_name(p) for p in cross(centre)),
                )
            case CopyEffect(rank):
                name = RANK_NAMES[rank - 1]
                return LegalAction(
                    code, f"Copy the {name}", group="Copy a Mixed Chart effect…", description=CHART[rank]
                )
            case ChoosePlayer(target):
                tone = "bad" if step.purpose in HARMFUL else "good"
                return LegalAction(code, f"{_player(target)} ({_tokens_text(self._tokens[target])})", tone)
            case Show():
                names = " and ".join(position_name(p) for p in self._picks)
                return LegalAction(code, f"Leave {names} face-up (free)", "main")
            case Hide(None):
                return LegalAction(code, "Hide both (2 tokens)")
            case Hide(p):
                return LegalAction(code, f"Hide {position_name(p)} (1 token)")
            case Done() if phase is Phase.TARGET:
                return LegalAction(code, "Nobody more", "")
            case Done() if phase in REVEALING_SEVERAL:
                return LegalAction(code, "Stop revealing", "")
            case Done() if phase is Phase.MEMORISE:
                return LegalAction(code, "Done looking (end the turn)", "main")
            case Done():
                return LegalAction(code, "Done rearranging", "main")
            case Buy():
                return LegalAction(code, f"Lose {SEVEN_PRICE} tokens: another turn", "good")
            case Finish():
                return LegalAction(code, "End the game (only you have tokens left)", "bad")
        return LegalAction(code, "End my turn", "")  # EndTurn

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
            raise ValueError(f"{_player(seat)} has no decision now.")
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

    def resample_hidden(self, viewer: int | None, rng: random.Random) -> MemoryState:
        """A copy in which the face-down cards ``viewer`` has never seen are shuffled among their positions.

        Cards face-up, cards revealed to everyone at some time, and cards ``viewer`` looked at at some time
        (its memory, following the cards when they swap) stay where they are; a card another seat is
        looking at privately is among the shuffled ones. The game draws nothing at random after the deal,
        so nothing else changes. It does not keep what a hidden non-match says (that two cards differ in
        rank). ``viewer`` ``None``: the public view. This state is not changed.

        Canonical (ruling 29): the unseen cards are sorted before they are shuffled with ``rng``, so the
        result depends only on what ``viewer`` has seen (the positions of :meth:`known_cards` and the
        cards no longer on the table tell which cards are unseen) and on ``rng``.
        """
        other = self.copy()
        other._offered = None
        known = set(self.known_cards(viewer))
        hidden = [p for p in self._layout if self._grid[p] is not None and p not in known]
        cards = sorted(self._grid[p] for p in hidden)  # type: ignore[type-var]
        rng.shuffle(cards)
        for p, card in zip(hidden, cards, strict=True):
            other._grid[p] = card
        return other

    # -- small rules ---------------------------------------------------------------------------------

    def _cards_on_table(self) -> list[int]:
        return [p for p in self._layout if self._grid[p] is not None]

    def _face_down_at(self, position: int) -> bool:
        return self._grid[position] is not None and position not in self._face_up

    def _face_down(self) -> list[int]:
        return [p for p in self._layout if self._face_down_at(p)]

    def _revealable(self, step: Step) -> list[int]:
        """Face-down cards not yet revealed by ``step`` (rulings 21)."""
        return [p for p in self._face_down() if p not in step.positions]

    def _in_game(self) -> list[int]:
        return [seat for seat in range(self.num_seats) if not self._out[seat]]

    def _describe(self, position: int) -> str:
        card = self._grid[position]
        if card is not None and position in self._face_up:
            return f"{card_text(card)}, face-up"
        return ""

    def _hideable(self) -> list[int]:
        """The two picked cards that were face-down when picked (ruling 9)."""
        return [p for p, down in zip(self._picks, self._picked_face_down, strict=True) if down]

    def _can_pay(self, seat: int, amount: int) -> bool:
        """True if ``seat`` may pay ``amount`` by choice and stay in the game (rulings 9 and 15)."""
        tokens = self._tokens[seat]
        return tokens >= amount and (self.options.underdogs or tokens > amount)

    def _may_finish(self, seat: int) -> bool:
        """Underdogs: ``seat`` is the only player with tokens left, so it may end the game (ruling 3)."""
        return (
            self.options.underdogs
            and self._tokens[seat] > 0
            and all(self._tokens[other] == 0 for other in range(self.num_seats) if other != seat)
        )

    def _can_buy_turn(self, seat: int) -> bool:
        """A 7's extra turn may be bought with 5 tokens held; a kept 9 pair may stand in (ruling 15)."""
        if self._tokens[seat] < SEVEN_PRICE:
            return False
        return self._can_pay(seat, SEVEN_PRICE) or any(k.seat == seat and k.as_rank == 9 for k in self._kept)

    def _matches_possible(self) -> bool:
        counts = Counter(rank_of(card) for card in self._grid if card is not None)
        return any(count >= 2 for count in counts.values())

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
                self._say(step.seat, f"reveals {self._reveal(p)}.")
            case Phase.REVEAL_UP_TO_FOUR, Reveal(p):
                self._reveal_one_of_four(step, p)
            case Phase.REVEAL_ANY, Reveal(p):
                step.positions.append(p)
                self._face_up.add(p)  # "Do not turn them face-down again."
                self._say(step.seat, f"turns {self._reveal(p)} face-up.")
            case Phase.SQUARE, ChooseSquare(corner):
                self._select_square(step, corner)
            case Phase.CROSS, ChooseCross(centre):
                self._reveal_cross(step, centre)
            case Phase.KING, CopyEffect(rank):
                self._steps.pop(0)
                self._say(step.seat, f"copies the {RANK_NAMES[rank - 1]} with the Mixed King.")
                self._chart(step.seat, rank, step.pair)
            case Phase.REARRANGE, Move(p):
                self._steps[0] = Step(Phase.REARRANGE_TO, step.seat, positions=[p])
            case Phase.REARRANGE_TO, MoveTo(p):
                self._move_to(step, p)
            case Phase.PICK_FIRST, Finish():
                self._finish(f"Only {_player(seat)} has tokens left, and ends the game (Underdogs).")
            case Phase.BUY_SEVEN, Buy():
                self._steps.pop(0)
                lost = self._lose(step.seat, SEVEN_PRICE)
                self._say(step.seat, f"loses {_tokens_text(lost)} to take another turn (Mixed 7).")
                self._extra.insert(0, (step.seat, False))
            case _, Done() | EndTurn():
                self._stop(step)
            case _:
                raise AssertionError(f"{action} was checked legal in {step.phase}")
        self._settle()
        return self._events

    def _say(self, seat: int | None, text: str) -> None:
        self._events.append(Event(seat, text))

    def _settle(self) -> None:
        """Skip decisions with nothing to choose, end turns, start the next one, and end the game."""
        while not self._over:
            if not self.options.underdogs and len(self._in_game()) <= 1:
                # "The game ends when only one player has tokens left" (ruling 3).
                (last,) = self._in_game() or (None,)
                self._finish(f"Only {_player(last)} has tokens left." if last is not None else "")
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
        self._say(None, f"{reason} The game is over.".strip())

    def _end_turn(self) -> None:
        """The turn is over: private looks are forgotten, a 7's purchase is offered, the next turn starts."""
        self._looks = {}
        self._picks = []
        self._picked_face_down = []
        if not self._matches_possible():
            self._finish("All possible matches have been made.")
            return
        if self._offer_buy:
            self._offer_buy = False
            if not self._out[self._turn_seat] and self._can_buy_turn(self._turn_seat):
                self._steps = [Step(Phase.BUY_SEVEN, self._turn_seat)]
                return
            if not self._out[self._turn_seat]:
                self._say(self._turn_seat, self._no_purchase_text(self._turn_seat))
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
                self._say(seat, "misses this turn (a Mixed 8).")
                continue
            break
        self._base = seat
        self._begin_turn(seat, extra=False, offer=False)

    def _no_purchase_text(self, seat: int) -> str:
        """Why the Mixed 7's offer of one more turn is not made (ruling 15): it is never dropped silently."""
        tokens = self._tokens[seat]
        if tokens < SEVEN_PRICE:
            return (
                f"cannot buy one more turn (Mixed 7): it costs {SEVEN_PRICE} tokens and they have "
                f"{_tokens_text(tokens)}."
            )
        return (
            f"cannot buy one more turn (Mixed 7): paying {SEVEN_PRICE} tokens would take their last one "
            "and put them out of the game."
        )

    def _next_in_game(self, seat: int) -> int:
        for step in range(1, self.num_seats + 1):
            other = (seat + step) % self.num_seats
            if not self._out[other]:
                return other
        raise AssertionError("nobody is left in the game")  # _settle ends the game before

    def _begin_turn(self, seat: int, *, extra: bool, offer: bool) -> None:
        self._turn_seat = seat
        self._extra_turn = extra
        self._offer_buy = offer
        self._steps = [Step(Phase.PICK_FIRST, seat)]

    # tokens

    def _gain(self, seat: int, amount: int) -> int:
        """``seat`` gains up to ``amount`` from the Bank (what is left if it runs short: ruling 7)."""
        gained = min(amount, self._bank)
        self._bank -= gained
        self._tokens[seat] += gained
        return gained

    def _lose(self, seat: int, amount: int, *, to_bank: bool = True) -> int:
        """``seat`` loses up to ``amount`` tokens (to the Bank, or to the caller to hand on); return how many.

        A kept 9 pair is discarded instead (Mixed 9, ruling 13); with Underdogs a player without tokens
        loses nothing; a player left with no tokens is out of the game (ruling 8).
        """
        if amount <= 0 or self._out[seat] or self._tokens[seat] == 0:
            return 0
        shield = next((k for k in self._kept if k.seat == seat and k.as_rank == 9), None)
        if shield is not None:
            self._kept.remove(shield)
            self._discard.extend(shield.cards)
            self._say(seat, f"discards their kept pair {cards_text(shield.cards)} instead of losing tokens.")
            return 0
        lost = min(amount, self._tokens[seat])
        self._tokens[seat] -= lost
        if to_bank:
            self._bank += lost
        if self._tokens[seat] == 0 and not self.options.underdogs:
            self._knock_out(seat)
        return lost

    def _knock_out(self, seat: int) -> None:
        """ "If you run out of tokens, you're out of the game": kept pairs are discarded (ruling 8)."""
        self._out[seat] = True
        self._say(seat, "has no tokens left and is out of the game.")
        for kept in [k for k in self._kept if k.seat == seat]:
            self._kept.remove(kept)
            self._discard.extend(kept.cards)
        self._skips[seat] = 0
        self._extra = [(other, offer) for other, offer in self._extra if other != seat]

    # moving and seeing cards

    def _swap(self, first: int, second: int) -> None:
        """Exchange what lies at two positions (a card or nothing); face-up cards stay face-up, and the
        positions of looks and of revealed cards follow their cards."""
        grid = self._grid
        grid[first], grid[second] = grid[second], grid[first]

        def follow(p: int) -> int:
            return second if p == first else first if p == second else p

        self._face_up = {follow(p) for p in self._face_up}
        self._flash = [follow(p) for p in self._flash]
        self._looks = {seat: [follow(p) for p in seen] for seat, seen in self._looks.items()}
        self._seen = [{follow(p) for p in seen} for seen in self._seen]
        self._seen_by_all = {follow(p) for p in self._seen_by_all}

    def _remove(self, positions: list[int]) -> None:
        for p in positions:
            self._grid[p] = None
            self._face_up.discard(p)
            self._seen_by_all.discard(p)
            for seen in self._seen:
                seen.discard(p)
        self._flash = [p for p in self._flash if p not in positions]
        self._looks = {seat: [p for p in seen if p not in positions] for seat, seen in self._looks.items()}

    def _look(self, seat: int, position: int) -> None:
        seen = self._looks.setdefault(seat, [])
        if position not in seen:
            seen.append(position)
        self._seen[seat].add(position)

    def _reveal(self, position: int) -> str:
        """Flip a card face-up for everyone to see, then face-down again (shown until the next turn's first
        look: ruling 10); return its text for the log."""
        if position not in self._flash:
            self._flash.append(position)
        self._seen_by_all.add(position)
        card = self._grid[position]
        assert card is not None
        return f"{position_name(position)} {card_text(card)}"

    # the turn's two looks

    def _pick_first(self, step: Step, position: int) -> None:
        self._flash = []
        self._shown = []
        self._picks = [position]
        self._picked_face_down = [position not in self._face_up]
        self._look(step.seat, position)
        self._say(step.seat, f"looks at {position_name(position)}.")
        self._steps[0] = Step(Phase.PICK_SECOND, step.seat)

    def _pick_second(self, step: Step, position: int) -> None:
        first = self._picks[0]
        self._picks.append(position)
        self._picked_face_down.append(position not in self._face_up)
        self._look(step.seat, position)
        one, two = self._grid[first], self._grid[position]
        assert one is not None and two is not None
        self._steps.pop(0)
        if rank_of(one) != rank_of(two):
            self._say(step.seat, f"looks at {position_name(position)}: no match.")
            self._steps.insert(0, Step(Phase.HIDE, step.seat))
            return
        shown = f"{position_name(first)} {card_text(one)} + {position_name(position)} {card_text(two)}"
        self._shown.append(shown)
        self._say(step.seat, f"looks at {position_name(position)} and shows a match: {shown}!")
        self._remove([first, position])
        self._picks = []
        self._picked_face_down = []
        self._resolve_match(step.seat, (one, two))

    def _hide_limits(self, seat: int) -> list[str]:
        """Why a card of a non-match may not be put back face-down (ruling 9), for the table to say."""
        notes = [
            f"{position_name(p)} was face-up before the look, so it stays face-up"
            for p in self._picks
            if p not in self._hideable()
        ]
        tokens, hideable = self._tokens[seat], self._hideable()
        if hideable and tokens == 0:
            notes.append("no tokens to pay with")
        elif hideable and not self.options.underdogs and tokens <= len(hideable):
            what = "hiding" if tokens == 1 else "hiding both"
            notes.append(f"{what} would take the last token and put them out of the game")
        return notes

    def _show_picks(self, seat: int, hidden: list[int], why: Sequence[str] = ()) -> None:
        """A non-match goes back face-up, except the cards paid for ("put them back ... face-up"); ``why``
        says what kept a card from being hidden (ruling 9)."""
        shown = [p for p in self._picks if p not in hidden]
        for p in shown:
            self._face_up.add(p)
            self._reveal(p)
        parts = []
        if hidden:
            names = " and ".join(position_name(p) for p in hidden)
            parts.append(f"pays {_tokens_text(len(hidden))} to the Bank to put {names} back face-down")
        if shown:
            cards = ", ".join(f"{position_name(p)} {card_text(self._grid[p])}" for p in shown)  # type: ignore[arg-type]
            parts.append(f"leaves {cards} face-up")
        text = "; ".join(parts)
        if why:
            text += f" ({'; '.join(why)}: ruling 9)"
        self._say(seat, text + ".")

    def _put_back(self, step: Step, hidden: list[int]) -> None:
        self._steps.pop(0)
        # "You must give one token to the bank for each card that you don't reveal" (a payment, ruling 9).
        self._tokens[step.seat] -= len(hidden)
        self._bank += len(hidden)
        self._show_picks(step.seat, hidden)

    # pairs and the Mixed Chart

    def _resolve_match(self, matcher: int, pair: tuple[int, int]) -> None:
        """Black, red, mixed (Mixed Chart or Simplicity) or Jokers; a kept 10 of another player takes the
        effect (ruling 14)."""
        resolver = matcher
        ten = next((k for k in self._kept if k.as_rank == 10 and k.seat != matcher), None)
        if ten is not None:
            self._kept.remove(ten)
            self._discard.extend(ten.cards)
            resolver = ten.seat
            self._say(
                resolver, f"discards their kept pair {cards_text(ten.cards)} and takes this match's effect."
            )
        one, two = pair
        value = rank_of(one)
        if is_joker(one):
            self._discard.extend(pair)
            self._say(resolver, "has one minute to rearrange the cards (Jokin' Around).")
            self._steps.insert(0, Step(Phase.REARRANGE, resolver))
        elif is_black(one) and is_black(two):
            self._discard.extend(pair)
            self._steps.insert(0, Step(Phase.TARGET, resolver, purpose=Purpose.BLACK, amount=value))
        elif is_red(one) and is_red(two):
            self._discard.extend(pair)
            self._steps.insert(0, Step(Phase.TARGET, resolver, purpose=Purpose.RED, amount=value))
        elif self.options.simplicity:
            self._discard.extend(pair)
            self._steps.insert(0, Step(Phase.TARGET, resolver, purpose=Purpose.GIVE_GIVER, amount=value))
        else:
            self._chart(resolver, value, pair)

    def _chart(self, seat: int, rank: int, pair: tuple[int, ...]) -> None:
        """Queue the Mixed Chart effect of ``rank`` for ``seat`` (the pair is kept by a 9 or a 10)."""
        self._say(seat, f"resolves the Mixed {rank_title(rank)}: {CHART[rank]}")
        if rank in (9, 10):
            assert len(pair) == 2
            self._kept.append(_Kept(seat, rank, (pair[0], pair[1])))
            return
        if rank == 13:  # the King's pair waits for the copied effect: a copied 9 or 10 keeps it
            self._steps.insert(0, Step(Phase.KING, seat, pair=tuple(pair)))
            return
        self._discard.extend(pair)
        steps: list[Step] = []
        if rank == 1:
            steps = [
                Step(Phase.TARGET, seat, purpose=Purpose.ACE_GAIN, amount=1),
                Step(Phase.TARGET, seat, purpose=Purpose.ACE_LOSE, amount=1),
                Step(Phase.REVEAL_ONE, seat),
            ]
        elif rank == 2:
            steps = [Step(Phase.LOOK_SWAP, seat)]
        elif rank == 3:
            steps = [Step(Phase.REVEAL_UP_TO_FOUR, seat)]
        elif rank == 4:
            steps = [Step(Phase.SQUARE, seat)]
        elif rank == 5:
            steps = [Step(Phase.CROSS, seat)]
            self._extra.append((seat, False))
        elif rank == 6:
            steps = [Step(Phase.REVEAL_ANY, seat)]
        elif rank == 7:
            self._extra.append((seat, True))
        elif rank == 8:
            victim = self._next_in_game(seat)  # "the next player": the one to the left (ruling 16)
            self._skips[victim] += 1
            self._say(seat, f"skips {_player(victim)}'s next turn.")
        elif rank == 11:
            steps = [Step(Phase.TARGET, seat, purpose=Purpose.JACK)]
        elif rank == 12:
            steps = [Step(Phase.TARGET, seat, purpose=Purpose.QUEEN_GIVER, amount=QUEEN_GIFT)]
        self._steps[0:0] = steps

    def _choose_player(self, step: Step, target: int) -> None:
        seat = step.seat
        purpose = step.purpose
        if purpose is Purpose.BLACK:
            self._steps.pop(0)
            lost = self._lose(target, step.amount)
            self._say(seat, f"has {_player(target)} return {_tokens_text(lost)} to the Bank (black pair).")
        elif purpose is Purpose.RED:
            self._steps.pop(0)
            gained = self._gain(target, step.amount)
            self._say(seat, f"gives {_tokens_text(gained)} from the Bank to {_player(target)} (red pair).")
        elif purpose is Purpose.ACE_GAIN:
            self._steps.pop(0)
            gained = self._gain(target, 1)
            self._say(seat, f"gives {_tokens_text(gained)} from the Bank to {_player(target)} (Ace).")
        elif purpose is Purpose.ACE_LOSE:
            self._steps.pop(0)
            lost = self._lose(target, 1)
            self._say(seat, f"has {_player(target)} lose {_tokens_text(lost)} to the Bank (Ace).")
        elif purpose is Purpose.THREE_LOSE:
            step.chosen.append(target)
            lost = self._lose(target, THREE_LOSS)
            self._say(seat, f"has {_player(target)} lose {_tokens_text(lost)} to the Bank (3).")
            if len(step.chosen) == 3:
                self._steps.pop(0)
        elif purpose is Purpose.JACK:
            step.chosen.append(target)
            if len(step.chosen) == 2:
                self._steps.pop(0)
                self._even_out(seat, step.chosen[0], step.chosen[1])
        elif purpose in (Purpose.QUEEN_GIVER, Purpose.GIVE_GIVER):
            step.chosen.append(target)
            step.purpose = Purpose.QUEEN_RECEIVER if purpose is Purpose.QUEEN_GIVER else Purpose.GIVE_RECEIVER
        else:  # QUEEN_RECEIVER, GIVE_RECEIVER
            self._steps.pop(0)
            giver = step.chosen[0]
            given = self._lose(giver, step.amount, to_bank=False)
            self._tokens[target] += given
            self._say(seat, f"has {_player(giver)} give {_tokens_text(given)} to {_player(target)}.")

    def _even_out(self, seat: int, first: int, second: int) -> None:
        """Mixed Jack: both end with half their total; an odd token goes to the Bank (rulings 13 and 24)."""
        richer, poorer = (first, second) if self._tokens[first] >= self._tokens[second] else (second, first)
        total = self._tokens[richer] + self._tokens[poorer]
        each, odd = divmod(total, 2)
        moved = each - self._tokens[poorer]
        loss = self._tokens[richer] - each
        lost = self._lose(richer, loss, to_bank=False)
        if lost:
            self._tokens[poorer] += moved
            self._bank += odd
        self._say(
            seat,
            f"evens out {_player(first)} and {_player(second)}: {_player(first)} has "
            f"{_tokens_text(self._tokens[first])}, "
            f"{_player(second)} has {_tokens_text(self._tokens[second])}.",
        )

    def _look_to_swap(self, step: Step, position: int) -> None:
        """Mixed 2: "Look at two cards. Swap their positions." """
        step.positions.append(position)
        self._look(step.seat, position)
        self._say(step.seat, f"looks at {position_name(position)}.")
        if len(step.positions) == 2:
            self._steps[0] = Step(Phase.MEMORISE, step.seat)
            self._swap(*step.positions)
            first, second = (position_name(p) for p in step.positions)
            self._say(step.seat, f"swaps {first} and {second}.")

    def _reveal_one_of_four(self, step: Step, position: int) -> None:
        """Mixed 3: "Reveal up to four cards." """
        step.positions.append(position)
        step.chosen.append(self._grid[position])  # type: ignore[arg-type]
        self._say(step.seat, f"reveals {self._reveal(position)}.")
        if len(step.positions) == 4:
            self._steps.pop(0)
            self._after_three(step)

    def _after_three(self, step: Step) -> None:
        """Mixed 3: "If you reveal a 3, or three of a kind, choose up to three players to lose three
        tokens"."""
        ranks = Counter(rank_of(card) for card in step.chosen)
        if ranks[3] or any(count >= 3 for rank, count in ranks.items() if rank):
            self._steps.insert(
                0, Step(Phase.TARGET, step.seat, purpose=Purpose.THREE_LOSE, amount=THREE_LOSS)
            )

    def _select_square(self, step: Step, corner: int) -> None:
        """Mixed 4: "Select a 2 by 2 square of cards." """
        area = [p for p in square(corner) if self._grid[p] is not None]
        self._say(step.seat, f"selects the square {square_name(corner)}.")
        self._steps.pop(0)
        if len(area) <= 2:  # ruling 11: look at every card there is, nothing is left to reveal
            for p in area:
                self._look(step.seat, p)
            self._say(step.seat, f"looks at {' and '.join(position_name(p) for p in area)}.")
            self._steps.insert(0, Step(Phase.MEMORISE, step.seat))
            return
        self._steps.insert(0, Step(Phase.SQUARE_LOOK, step.seat, area=area))

    def _look_in_square(self, step: Step, position: int) -> None:
        """Mixed 4: "Look at two of these cards; reveal the remaining two cards." """
        step.positions.append(position)
        self._look(step.seat, position)
        self._say(step.seat, f"looks at {position_name(position)}.")
        if len(step.positions) == 2:
            self._steps[0] = Step(Phase.MEMORISE, step.seat)
            rest = [p for p in step.area if p not in step.positions]
            revealed = ", ".join(self._reveal(p) for p in rest)
            self._say(step.seat, f"reveals {revealed}.")

    def _reveal_cross(self, step: Step, centre: int) -> None:
        """Mixed 5: "Reveal a 3 by 3 cross of cards." """
        self._steps.pop(0)
        down = [p for p in cross(centre) if self._face_down_at(p)]
        revealed = ", ".join(self._reveal(p) for p in down)
        self._say(step.seat, f"reveals the cross around {position_name(centre)}: {revealed}.")

    def _move_to(self, step: Step, target: int) -> None:
        """Jokin' Around (ruling 25): the picked card goes onto another (they swap) or into a gap."""
        (source,) = step.positions
        empty = self._grid[target] is None
        self._swap(source, target)
        if empty:
            self._say(step.seat, f"moves {position_name(source)} to {position_name(target)}.")
        else:
            self._say(step.seat, f"swaps {position_name(source)} and {position_name(target)}.")
        self._steps[0] = Step(Phase.REARRANGE, step.seat)

    def _stop(self, step: Step) -> None:
        """Done or End my turn: the decision ends (stop revealing, nobody more, done looking or
        rearranging, no 7's purchase)."""
        self._steps.pop(0)
        if step.phase is Phase.REVEAL_UP_TO_FOUR:
            self._after_three(step)
        elif step.phase in REARRANGING:
            self._say(step.seat, "is done rearranging.")
        elif step.phase is Phase.BUY_SEVEN:
            self._say(step.seat, "ends their turn.")

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        cards_left = len(self._cards_on_table())
        title = (
            "Deluxe Memory: game over" if self._over else f"Deluxe Memory: {cards_left} cards on the table"
        )
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(seat=other, summary=self._seat_summary(other), to_act=other in to_act)
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            private = self._private_fields(seat)
        return SeatView(
            seat=seat,
            title=title,
            table=self._table_fields(),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
            board=self._board(seat),
        )

    def _seat_summary(self, seat: int) -> str:
        if self._out[seat]:
            return "out of the game (no tokens)"
        parts = [_tokens_text(self._tokens[seat])]
        for kept in self._kept:
            if kept.seat == seat:
                parts.append(f"kept {cards_text(kept.cards)} (as a {kept.as_rank})")
        if self._skips[seat]:
            parts.append("misses their next turn")
        if seat == self._turn_seat and self._extra_turn and not self._over:
            parts.append("extra turn")
        return " · ".join(parts)

    def _table_fields(self) -> tuple[Field, ...]:
        fields: list[Field] = []
        if self._over:
            fields.append(Field("Result", self._result_text()))
        elif self._steps:
            fields.append(Field("Now", self._prompt(self._steps[0])))
        if self.options.underdogs and not self._over:
            fields.append(Field("How the game ends (Underdogs)", UNDERDOGS_END))
        shown = list(self._shown)
        for p in self._flash:
            card = self._grid[p]
            if card is not None:
                shown.append(f"{position_name(p)} {card_text(card)}")
        if shown and not self._over:
            fields.append(Field("Just shown", " · ".join(shown)))
        up = [p for p in self._layout if p in self._face_up and self._grid[p] is not None]
        if up and not self._over:
            text = " · ".join(f"{position_name(p)} {card_text(self._grid[p])}" for p in up)  # type: ignore[arg-type]
            fields.append(Field("Face-up cards", text))
        fields.append(
            Field(
                "Bank",
                f"{_tokens_text(self._bank)} · {len(self._cards_on_table())} cards on the table · "
                f"{len(self._discard)} in the discard pile",
            )
        )
        return tuple(fields)

    def _result_text(self) -> str:
        best = max(self._tokens)
        winners = [seat for seat in range(self.num_seats) if self._tokens[seat] == best]
        names = " and ".join(_player(seat) for seat in winners)
        return f"{self._end_reason} {names} {'wins' if len(winners) == 1 else 'share the win'} with {best}."

    def _prompt(self, step: Step) -> str:
        who = _player(step.seat)
        phase = step.phase
        if phase is Phase.PICK_FIRST:
            extra = " (an extra turn)" if self._extra_turn else ""
            if self._may_finish(step.seat):
                return (
                    f"{who} chooses a first card to look at{extra}, or ends the game: only they have "
                    "tokens left (Underdogs)."
                )
            return f"{who} chooses a first card to look at{extra}."
        if phase is Phase.PICK_SECOND:
            return f"{who} looked at {position_name(self._picks[0])} and chooses a second card."
        if phase is Phase.HIDE:
            limits = self._hide_limits(step.seat)
            return (
                f"No match: {who} may pay a token per card to put it back face-down; the rest stay face-up."
                + (f" ({'; '.join(limits)}.)" if limits else "")
            )
        if phase is Phase.TARGET:
            assert step.purpose is not None
            amount = _tokens_text(step.amount)
            chosen = ", ".join(_player(seat) for seat in step.chosen)
            return {
                Purpose.BLACK: f"Black pair: {who} chooses a player to return {amount} to the Bank.",
                Purpose.RED: f"Red pair: {who} chooses a player (themself too) to gain {amount} from the "
                "Bank.",
                Purpose.ACE_GAIN: f"Mixed Ace: {who} chooses a player to gain a token.",
                Purpose.ACE_LOSE: f"Mixed Ace: {who} chooses a player to lose a token.",
                Purpose.THREE_LOSE: f"Mixed 3: {who} chooses up to three players to lose 3 tokens"
                + (f" (so far {chosen})." if chosen else "."),
                Purpose.JACK: f"Mixed Jack: {who} chooses two players to even out"
                + (f" ({chosen} and…)." if chosen else "."),
                Purpose.QUEEN_GIVER: f"Mixed Queen: {who} chooses a player to give 6 tokens.",
                Purpose.QUEEN_RECEIVER: f"Mixed Queen: {who} chooses who receives 6 tokens from {chosen}.",
                Purpose.GIVE_GIVER: f"Mixed pair: {who} chooses a player to give {amount}.",
                Purpose.GIVE_RECEIVER: f"Mixed pair: {who} chooses who receives {amount} from {chosen}.",
            }[step.purpose]
        if phase is Phase.REARRANGE_TO:
            return f"Jokers! {who} moves {position_name(step.positions[0])}."
        chosen = len(step.positions)
        return {
            Phase.REVEAL_ONE: f"Mixed Ace: {who} chooses a card to reveal.",
            Phase.LOOK_SWAP: f"Mixed 2: {who} looks at two cards to swap ({chosen} of 2 chosen).",
            Phase.REVEAL_UP_TO_FOUR: f"Mixed 3: {who} reveals up to four cards ({chosen} so far).",
            Phase.SQUARE: f"Mixed 4: {who} selects a 2 by 2 square.",
            Phase.SQUARE_LOOK: f"Mixed 4: {who} looks at two cards of the square; the others will be "
            "revealed.",
            Phase.CROSS: f"Mixed 5: {who} chooses the centre of a 3 by 3 cross to reveal.",
            Phase.REVEAL_ANY: f"Mixed 6: {who} turns any number of cards face-up.",
            Phase.KING: f"Mixed King: {who} chooses an effect of the Mixed Chart.",
            Phase.REARRANGE: f"Jokers! {who} has one minute to rearrange the cards.",
            Phase.MEMORISE: f"{who} memorises the cards they looked at.",
            Phase.BUY_SEVEN: f"Mixed 7: {who} may lose {SEVEN_PRICE} tokens to take another turn.",
        }[phase]

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        fields: list[Field] = []
        seen = self._looks.get(seat, [])
        if seen:
            text = " · ".join(f"{position_name(p)} {card_text(self._grid[p])}" for p in seen)  # type: ignore[arg-type]
            fields.append(Field("You looked at (until your turn ends)", text))
        # The Mixed Chart is rules, not state: a view does not reprint it (the rules pages show it, and the
        # King's menu describes each effect it may copy).
        return tuple(fields)

    def _board(self, viewer: int | None) -> Board:
        seen = set(self._looks.get(viewer, [])) if viewer is not None else set()
        looked_at = {p for positions in self._looks.values() for p in positions}
        if self._steps and self._steps[0].phase is Phase.REARRANGE_TO:
            looked_at.update(self._steps[0].positions)
        flash = set(self._flash)
        in_layout = set(self._layout)
        rows = []
        for row in range(len(ROWS)):
            cells: list[Cell | None] = []
            for column in range(COLUMNS):
                p = row * COLUMNS + column
                card = self._grid[p]
                if p not in in_layout or card is None:
                    cells.append(None)
                elif p in self._face_up or p in flash or p in seen:
                    highlight = p in flash or p in seen
                    cells.append(Cell(card_text(card), face_up=True, red=is_red(card), highlight=highlight))
                else:
                    cells.append(Cell(highlight=p in looked_at))
            rows.append(tuple(cells))
        return Board(tuple(ROWS), tuple(str(c + 1) for c in range(COLUMNS)), tuple(rows))

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
                detail="out of the game" if self._out[seat] else _tokens_text(self._tokens[seat]),
            )
            for seat in range(self.num_seats)
        )


@functools.cache
def _position_action(verb: str, position: int, menu: str, face_up_card: int | None) -> LegalAction:
    """A position choice, offered with every other choice of its decision in the menu ``menu``; a face-up
    card is named in its description. (Cached: legal actions are asked for often and they are immutable.)"""
    return LegalAction(
        code=f"{verb}.{position_name(position)}",
        label=position_name(position),
        group=menu,
        description="" if face_up_card is None else f"{card_text(face_up_card)}, face-up",
    )
