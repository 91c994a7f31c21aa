"""The colour and shape tokens of TOKENIZE and ERADICIZE (``shared/seeds/000_d97c66fde1b75dcf.txt``).

"Give each player one of the coloured circular tokens and one of the shape tokens and put the remaining
tokens in the middle of the table." A 13: "The current player receives a token from the middle if any are
available (they can choose which token) ... If there are no tokens left in the middle, steal one from
another player." There is one token per colour and per shape of the deck (13 + 13), all public.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import LegalAction
from engine.frazzled import words
from engine.frazzled.actions import COLOUR, SHAPE, StealToken, TakeToken, offered
from engine.frazzled.deck import COLOURS, SHAPES, Card


@dataclass
class Tokens:
    """Who holds which colour and shape token, and what is left in the middle (all public).

    ``colours[seat]`` and ``shapes[seat]`` are sorted lists of indices; ``middle_colours`` and
    ``middle_shapes`` sorted lists of what nobody holds.
    """

    colours: list[list[int]]
    shapes: list[list[int]]
    middle_colours: list[int]
    middle_shapes: list[int]

    @classmethod
    def deal(cls, num_seats: int, rng: random.Random) -> Tokens:
        """One colour token and one shape token to each player, drawn at random without repeats
        (ERADICIZE ruling 12, TOKENIZE ruling 2);
        the rest go to the middle ("put the remaining tokens in the middle of the table")."""
        colours = rng.sample(range(len(COLOURS)), num_seats)
        shapes = rng.sample(range(len(SHAPES)), num_seats)
        return cls.from_lists([[colour] for colour in colours], [[shape] for shape in shapes])

    @classmethod
    def from_lists(cls, colours: Sequence[Sequence[int]], shapes: Sequence[Sequence[int]]) -> Tokens:
        """Tokens held as given; every other token lies in the middle.

        Raises
        ------
        ValueError
            If a token is held twice.
        """
        held_colours = [colour for seat in colours for colour in seat]
        held_shapes = [shape for seat in shapes for shape in seat]
        if len(set(held_colours)) != len(held_colours) or len(set(held_shapes)) != len(held_shapes):
            raise ValueError("each token exists once")
        return cls(
            [sorted(seat) for seat in colours],
            [sorted(seat) for seat in shapes],
            sorted(set(range(len(COLOURS))) - set(held_colours)),
            sorted(set(range(len(SHAPES))) - set(held_shapes)),
        )

    def middle_is_empty(self) -> bool:
        """True when no token is left in the middle (a 13 then steals)."""
        return not self.middle_colours and not self.middle_shapes

    def key(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Everything about the tokens as one hashable value (equal exactly when the tokens lie alike)."""
        return (
            tuple(tuple(seat) for seat in self.colours),
            tuple(tuple(seat) for seat in self.shapes),
            (tuple(self.middle_colours), tuple(self.middle_shapes)),
        )

    def total(self) -> int:
        """All tokens counted (always 26)."""
        held = sum(len(seat) for seat in self.colours) + sum(len(seat) for seat in self.shapes)
        return held + len(self.middle_colours) + len(self.middle_shapes)

    def _held(self, seat: int, kind: str) -> list[int]:
        return self.colours[seat] if kind == COLOUR else self.shapes[seat]

    def choices(self, seat: int) -> tuple[LegalAction, ...]:
        """The 13 action's choices for ``seat``, in one group: any token from the middle; if the middle
        is empty, any token of another player (ERADICIZE ruling 8, TOKENIZE ruling 15: the taker chooses
        whose and which). Empty if there is none."""
        if not self.middle_is_empty():
            takes = tuple(
                LegalAction(TakeToken(kind, index).format(), words.take_token_label(kind, index))
                for kind, indices in ((COLOUR, self.middle_colours), (SHAPE, self.middle_shapes))
                for index in indices
            )
            return offered(takes, words.TAKE_TOKEN_GROUP)
        actions: list[LegalAction] = []
        num_seats = len(self.colours)
        for offset in range(1, num_seats):
            other = (seat + offset) % num_seats
            for kind in (COLOUR, SHAPE):
                for index in self._held(other, kind):
                    actions.append(
                        LegalAction(
                            StealToken(other, kind, index).format(),
                            words.steal_token_label(other, kind, index),
                            "bad",
                        )
                    )
        return offered(actions, words.STEAL_TOKEN_GROUP)

    def check(self, seat: int, action: TakeToken | StealToken) -> str | None:
        """``None`` if ``seat`` may take the token of ``action`` now, else the words why not."""
        if isinstance(action, TakeToken):
            if self.middle_is_empty():
                return "The middle is empty: steal a token from another player."
            middle = self.middle_colours if action.kind == COLOUR else self.middle_shapes
            return None if action.index in middle else "That token is not in the middle."
        if not self.middle_is_empty():
            return "Take a token from the middle: you steal only when the middle is empty."
        if action.owner == seat or not 0 <= action.owner < len(self.colours):
            return "Steal from another player."
        return (
            None if action.index in self._held(action.owner, action.kind) else "They do not hold that token."
        )

    def apply(self, seat: int, action: TakeToken | StealToken) -> None:
        """Carry out a checked choice from :meth:`choices`."""
        if isinstance(action, TakeToken):
            (self.middle_colours if action.kind == COLOUR else self.middle_shapes).remove(action.index)
        else:
            self._held(action.owner, action.kind).remove(action.index)
        held = self._held(seat, action.kind)
        held.append(action.index)
        held.sort()

    def matches(self, seat: int, card: Card) -> bool:
        """True if ``card``'s colour or shape is one of ``seat``'s tokens."""
        return card.colour in self.colours[seat] or card.shape in self.shapes[seat]
