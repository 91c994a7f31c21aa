"""The values a night's seating is made of: a table's seats and a round's seating (immutable)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import plural


@dataclass(frozen=True)
class Table:
    """One table of a round: its players' user ids in seat order, and how many AI seats fill it.

    The AI seats come after the players; ``seats`` is the table's size (players and AI seats).
    """

    players: tuple[int, ...]
    ai_seats: int = 0

    @property
    def seats(self) -> int:
        """The table's size: players and AI seats."""
        return len(self.players) + self.ai_seats


@dataclass(frozen=True)
class Seating:
    """Where everyone sits in one round: the tables in order (the first is the top table of standings or
    the final), and the players left waiting for the next round, in the order they will be taken."""

    tables: tuple[Table, ...]
    waiting: tuple[int, ...] = ()

    @property
    def seated(self) -> tuple[int, ...]:
        """Every seated player's user id, table by table, seat by seat."""
        return tuple(player for table in self.tables for player in table.players)

    @property
    def ai_seats(self) -> int:
        """AI seats over all the tables."""
        return sum(table.ai_seats for table in self.tables)

    def table_of(self, player: int) -> int | None:
        """The index of the table where ``player`` sits, ``None`` if they are not seated."""
        for index, table in enumerate(self.tables):
            if player in table.players:
                return index
        return None


@dataclass(frozen=True)
class TableResult:
    """A finished table: each seat's player (a user id, ``None`` for an AI seat) in seat order, and each
    seat's rank (standard competition ranking: 1 = first, tied seats share the best place, 1, 1, 3).

    A player who left during the round keeps their seat here: an AI played it on to the end, and the
    seat's place counts for them (the places of the others are as played).

    Raises
    ------
    ValueError
        If there are not as many ranks as seats, or a player holds two seats.
    """

    seats: tuple[int | None, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.ranks):
            raise ValueError(
                f"A table of {plural(len(self.seats), 'seat')} needs as many ranks, not {len(self.ranks)}."
            )
        players = [p for p in self.seats if p is not None]
        if len(set(players)) != len(players):
            raise ValueError("A player holds two seats at one table.")

    @classmethod
    def of(cls, table: Table, ranks: tuple[int, ...]) -> TableResult:
        """The result of a seated ``table`` (its players, then its AI seats) with each seat's rank."""
        return cls((*table.players, *(None,) * table.ai_seats), ranks)

    @property
    def players(self) -> tuple[int, ...]:
        """The players (not the AI seats), in seat order."""
        return tuple(p for p in self.seats if p is not None)


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its tables' results, and the players who left during it (an AI finished their
    seat; they sit at no later round)."""

    tables: tuple[TableResult, ...]
    left: frozenset[int] = frozenset()
