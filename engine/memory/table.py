"""Deluxe Memory's table: the deal, what lies where, who holds what, what each seat has seen, and the
changes every rule is made of (moving tokens, moving, looking at and revealing cards).

Rules source: ``shared/seeds/004_661a3fd4e50c3a3d.txt``. Where the text is silent the numbered rulings of
``docs/rules/memory.md`` apply; comments cite them as "ruling N" and each is tested in
``tests/engine/test_memory.py``. Cards and positions are ``int`` (see :mod:`engine.memory.cards`); tokens
are ``int`` counts, and the tokens of all players plus the Bank are always ``30 * players``.

Layers: :class:`MemoryTable` (this module) is the table and its changes;
:class:`~engine.memory.effects.MemoryEffects` adds what looks, pairs and the Mixed Chart do;
:class:`~engine.memory.state.MemoryState` adds the decisions (check, legal actions, apply), the turn order,
the end and the views. Every sentence they say comes from :mod:`engine.memory.words`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from pydantic import Field as OptionField

from engine.core import Event, GameOptions, GameState, snapshot_header, state_of_snapshot
from engine.memory import words
from engine.memory.cards import POSITIONS, layout, parse_position, rank_of
from engine.memory.decisions import SEVEN_PRICE, Phase, Purpose, Step

START_TOKENS = 20  # "Give 20 tokens to each player."
TOKENS_PER_PLAYER = 30  # "About 30 tokens for each player": the other 10 each start in the Bank.


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
class Kept:
    """A pair kept in front of ``seat`` by a Mixed 9 or 10 (``as_rank``: 9 or 10, a King pair copies one)."""

    seat: int
    as_rank: int
    cards: tuple[int, int]


class MemoryTable(GameState[MemoryOptions]):
    """The table of a game of Deluxe Memory: the cards, the tokens, the pending decisions, what each seat
    has seen, and the changes the rules make to them (see the module docstring for the layers above).

    Secret information: the faces of face-down cards. A card a player looks at is shown to that player
    only, and only until their turn ends; a revealed card is shown to everyone until the next turn's
    first look; face-up cards are public. Token counts, kept pairs and positions chosen are public.
    """

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
        self._kept: list[Kept] = []
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

    def match_goes_to_a_kept_ten(self, matcher: int) -> bool:
        """True while a player other than ``matcher`` keeps a 10: a match ``matcher`` makes now gives that
        player its effect (Mixed Chart, 10; ruling 14). Public: kept pairs lie on the table."""
        return self._ten_taking_match_of(matcher) is not None

    def _ten_taking_match_of(self, matcher: int) -> Kept | None:
        """The kept 10 that takes the effect of ``matcher``'s match: the oldest kept by another player
        (ruling 14), else ``None``."""
        return next((kept for kept in self._kept if kept.as_rank == 10 and kept.seat != matcher), None)

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
    def turn_seat(self) -> int:
        """The seat whose turn it is."""
        return self._turn_seat

    def copy(self) -> Self:
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

    def engine_snapshot(self) -> dict[str, Any]:
        """Every field of the game as JSON-ready data (see :meth:`GameState.engine_snapshot`): the cards
        by position (its hidden information), tokens, the pending decisions, what each seat has seen. The
        game draws nothing at random after the deal, so it has no generator to store."""
        return {
            **snapshot_header(self),
            "grid": list(self._grid),
            "face_up": sorted(self._face_up),
            "tokens": list(self._tokens),
            "bank": self._bank,
            "out": list(self._out),
            "kept": [[kept.seat, kept.as_rank, list(kept.cards)] for kept in self._kept],
            "discard": list(self._discard),
            "skips": list(self._skips),
            "extra": [[seat, offer] for seat, offer in self._extra],
            "offer_buy": self._offer_buy,
            "extra_turn": self._extra_turn,
            "base": self._base,
            "turn_seat": self._turn_seat,
            "steps": [
                [
                    step.phase.value,
                    step.seat,
                    None if step.purpose is None else step.purpose.value,
                    step.amount,
                    list(step.positions),
                    list(step.chosen),
                    list(step.pair),
                    list(step.area),
                ]
                for step in self._steps
            ],
            "picks": list(self._picks),
            "picked_face_down": list(self._picked_face_down),
            "looks": [[seat, list(seen)] for seat, seen in self._looks.items()],
            "flash": list(self._flash),
            "shown": list(self._shown),
            "seen": [sorted(seen) for seen in self._seen],
            "seen_by_all": sorted(self._seen_by_all),
            "over": self._over,
            "end_reason": self._end_reason,
            "events": [[event.seat, event.text] for event in self._events],
        }

    @classmethod
    def from_engine_snapshot(cls, data: dict[str, Any], history: Sequence[tuple[int, str]]) -> Self:
        """The game :meth:`engine_snapshot` wrote as ``data``, with action log ``history``.

        Raises
        ------
        ValueError, KeyError, TypeError
            If ``data`` is not a Deluxe Memory snapshot of this format.
        """
        state = state_of_snapshot(cls, MemoryOptions, data, history)
        state._layout = layout(state.options.jokin_around)
        state._grid = [None if card is None else int(card) for card in data["grid"]]
        if len(state._grid) != POSITIONS:
            raise ValueError(f"a snapshot with {len(state._grid)} positions, not {POSITIONS}")
        state._face_up = {int(p) for p in data["face_up"]}
        state._tokens = [int(count) for count in data["tokens"]]
        state._bank = int(data["bank"])
        state._out = [bool(out) for out in data["out"]]
        state._kept = [
            Kept(int(seat), int(rank), (int(one), int(two))) for seat, rank, (one, two) in data["kept"]
        ]
        state._discard = [int(card) for card in data["discard"]]
        state._skips = [int(count) for count in data["skips"]]
        state._extra = [(int(seat), bool(offer)) for seat, offer in data["extra"]]
        state._offer_buy = bool(data["offer_buy"])
        state._extra_turn = bool(data["extra_turn"])
        state._base = int(data["base"])
        state._turn_seat = int(data["turn_seat"])
        state._steps = [
            Step(
                Phase(phase),
                int(seat),
                None if purpose is None else Purpose(purpose),
                int(amount),
                [int(p) for p in positions],
                [int(c) for c in chosen],
                tuple(int(card) for card in pair),
                [int(p) for p in area],
            )
            for phase, seat, purpose, amount, positions, chosen, pair, area in data["steps"]
        ]
        state._picks = [int(p) for p in data["picks"]]
        state._picked_face_down = [bool(down) for down in data["picked_face_down"]]
        state._looks = {int(seat): [int(p) for p in seen] for seat, seen in data["looks"]}
        state._flash = [int(p) for p in data["flash"]]
        state._shown = [str(text) for text in data["shown"]]
        state._seen = [{int(p) for p in seen} for seen in data["seen"]]
        state._seen_by_all = {int(p) for p in data["seen_by_all"]}
        state._over = bool(data["over"])
        state._end_reason = str(data["end_reason"])
        state._events = [
            Event(None if seat is None else int(seat), str(text)) for seat, text in data["events"]
        ]
        if (
            not len(state._tokens)
            == len(state._out)
            == len(state._skips)
            == len(state._seen)
            == state.num_seats
        ):
            raise ValueError("a snapshot with seats for another number of seats")
        return state

    # -- small rules ---------------------------------------------------------------------------------

    def _cards_on_table(self) -> list[int]:
        return [p for p in self._layout if self._grid[p] is not None]

    def _face_down_at(self, position: int) -> bool:
        return self._grid[position] is not None and position not in self._face_up

    def _face_down(self) -> list[int]:
        return [p for p in self._layout if self._face_down_at(p)]

    def _face_up_card(self, position: int) -> int | None:
        """The card at ``position`` if it lies face-up, else ``None``."""
        return self._grid[position] if position in self._face_up else None

    def _revealable(self, step: Step) -> list[int]:
        """Face-down cards not yet revealed by ``step`` (rulings 21)."""
        return [p for p in self._face_down() if p not in step.positions]

    def _in_game(self) -> list[int]:
        return [seat for seat in range(self.num_seats) if not self._out[seat]]

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

    def _next_in_game(self, seat: int) -> int:
        for step in range(1, self.num_seats + 1):
            other = (seat + step) % self.num_seats
            if not self._out[other]:
                return other
        raise AssertionError("nobody is left in the game")  # _settle ends the game before

    def _say(self, seat: int | None, text: str) -> None:
        self._events.append(Event(seat, text))

    # -- tokens --------------------------------------------------------------------------------------

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
            self._say(seat, words.discards_shield(shield.cards))
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
        self._say(seat, words.OUT_OF_THE_GAME)
        for kept in [k for k in self._kept if k.seat == seat]:
            self._kept.remove(kept)
            self._discard.extend(kept.cards)
        self._skips[seat] = 0
        self._extra = [(other, offer) for other, offer in self._extra if other != seat]

    # -- moving and seeing cards -----------------------------------------------------------------------

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

    def _reveal(self, position: int) -> tuple[int, int]:
        """Flip a card face-up for everyone to see, then face-down again (shown until the next turn's first
        look: ruling 10); return it as ``(position, card)`` for the log."""
        if position not in self._flash:
            self._flash.append(position)
        self._seen_by_all.add(position)
        card = self._grid[position]
        assert card is not None
        return position, card
