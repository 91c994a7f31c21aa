"""The 14/1 and 2 actions of the Frazzled Wool games: simultaneous picks from face-down fans.

"14/1 - All players fan out their cards face down and let the player to their left select one." "2 - ...
let the player to their left select two." (``shared/seeds/000_d97c66fde1b75dcf.txt``; MINIMIZE's actions
card side A says the same as "takes 1 card blind from the face-down fan of the player on their right".)
Everyone picks at once; nothing moves until every picker is done.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core import LegalAction
from engine.frazzled import words
from engine.frazzled.actions import Fan, offered
from engine.frazzled.deck import Card


@dataclass
class FanExchange:
    """A 14/1 or 2 action in progress: every player picks from the face-down fan on their right at once.

    Attributes
    ----------
    count:
        Cards each picker takes: 1 (14/1) or 2 (2).
    fans:
        ``picker seat -> the fan it picks from``: its right neighbour's hand, in an order shuffled by the
        game's generator when the action was played (so a position says nothing about the card). Only
        pickers whose right neighbour holds a card appear.
    owners:
        ``picker seat -> the seat whose hand its fan is``.
    picked:
        ``picker seat -> positions picked so far`` (0-based, into its fan).
    """

    count: int
    fans: dict[int, list[Card]]
    owners: dict[int, int]
    picked: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def start(
        cls,
        hands: Sequence[Sequence[Card]],
        count: int,
        rng: random.Random,
        seats: Sequence[int] | None = None,
    ) -> FanExchange:
        """Fan out every non-empty hand of the ``seats`` taking part (default: all, in seat order) face
        down for the next of them on its owner's left; each fan is shuffled by ``rng``, in seat order."""
        order = list(range(len(hands))) if seats is None else list(seats)
        fans: dict[int, list[Card]] = {}
        owners: dict[int, int] = {}
        for place, owner in enumerate(order):
            if hands[owner]:
                fan = list(hands[owner])
                rng.shuffle(fan)
                picker = order[(place + 1) % len(order)]
                fans[picker], owners[picker] = fan, owner
        return cls(count, fans, owners, {picker: [] for picker in fans})

    def need(self, picker: int) -> int:
        """Cards ``picker`` takes in all: ``count``, or the whole fan if it holds fewer (ERADICIZE ruling 5,
        TOKENIZE ruling 16)."""
        return min(self.count, len(self.fans.get(picker, ())))

    def waiting(self) -> tuple[int, ...]:
        """Pickers that still have to pick, in seat order."""
        return tuple(sorted(picker for picker in self.fans if len(self.picked[picker]) < self.need(picker)))

    def is_done(self) -> bool:
        """True once every picker has picked all it takes."""
        return not self.waiting()

    def open_positions(self, picker: int) -> list[int]:
        """The positions ``picker`` may still pick (none once it has picked all it takes)."""
        if picker not in self.waiting():
            return []
        return [position for position in range(len(self.fans[picker])) if position not in self.picked[picker]]

    def check(self, picker: int, position: int) -> str | None:
        """``None`` if ``picker`` may pick ``position`` now, else the words why not."""
        if picker not in self.waiting():
            return "You have nothing (more) to pick in this exchange."
        if position not in self.open_positions(picker):
            return "Pick one of the other cards of the fan to your right."
        return None

    def actions(self, picker: int) -> tuple[LegalAction, ...]:
        """``fan.<position>`` for every position ``picker`` has not picked yet, in one group (it reveals
        nothing, so it is not secret)."""
        positions = tuple(
            LegalAction(Fan(position).format(), words.fan_position_label(position))
            for position in self.open_positions(picker)
        )
        return offered(positions, words.fan_group(self.count, len(self.picked.get(picker, []))))

    def public_actions(self) -> tuple[LegalAction, ...]:
        """The positions offered on the public table: one per position of the largest fan still being
        picked from (fan sizes are public hand sizes), in one neutral group; a seat pressing a position it
        cannot take is refused privately."""
        waiting = self.waiting()
        if not waiting:
            return ()
        size = max(len(self.fans[picker]) for picker in waiting)
        positions = tuple(
            LegalAction(Fan(position).format(), words.fan_position_label(position))
            for position in range(size)
        )
        return offered(positions, words.FAN_PUBLIC_GROUP)

    def default(self, picker: int) -> str:
        """On a timeout: the first position not yet picked."""
        return Fan(self.open_positions(picker)[0]).format()

    def pick(self, picker: int, position: int) -> None:
        """Record ``picker``'s pick (already checked)."""
        self.picked[picker].append(position)

    def resolve(self, hands: list[list[Card]]) -> dict[int, tuple[list[Card], list[Card]]]:
        """Move every picked card from its owner's hand to its picker's; return per seat
        ``(cards received, cards taken from it)``."""
        moves: dict[int, tuple[list[Card], list[Card]]] = {seat: ([], []) for seat in range(len(hands))}
        for picker, positions in self.picked.items():
            owner = self.owners[picker]
            for position in positions:
                card = self.fans[picker][position]
                hands[owner].remove(card)
                moves[owner][1].append(card)
                moves[picker][0].append(card)
        for picker, (received, _) in moves.items():
            hands[picker].extend(received)
        return moves

    def refanned(self, hands: Sequence[Sequence[Card]], rng: random.Random) -> FanExchange:
        """The same exchange (same picks by position) with every fan redrawn as a random order of its
        owner's hand in ``hands``: the fans' order is secret to everyone."""
        fans = {}
        for picker, owner in self.owners.items():
            fan = list(hands[owner])
            rng.shuffle(fan)
            fans[picker] = fan
        return FanExchange(self.count, fans, dict(self.owners), copy.deepcopy(self.picked))
