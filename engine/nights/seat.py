"""How many tables a round has and how big, and the first round's seating balanced by rating.

Sizes: every table within the game's seat range, the players spread as evenly as possible (table sizes
differ by at most one player). When the players present cannot fill tables within the range, the night
either fills the short table with AI seats (``ai_fill``, the server's choice) or leaves the last arrivals
waiting for the next round.

Balance: a snake draft by rating (the strongest ``T`` players, one per table, then the next ``T`` back the
other way, ...), so each table holds one player of each tier of strength and the strongest are spread
(with two tables or more, no table holds the strongest two). Then swaps of two players of the same tier
between tables, each raising the match quality (openskill's ``predict_draw``) of the least even table, as
long as one does, within a bound on swaps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.core import plural
from engine.nights.rating import Player, even_quality, pair_draw
from engine.nights.table import Seating, Table

MAX_SWAPS = 32
"""The most swaps the first round's balancing makes (each raises its least even table's quality)."""


@dataclass(frozen=True)
class TableSizes:
    """A round's tables: players at each (largest first), the AI seats each needs to reach the game's
    minimum, and how many players wait (the last of those present: they play the next round)."""

    players: tuple[int, ...]
    ai_seats: tuple[int, ...]
    waiting: int = 0

    @property
    def seats(self) -> tuple[int, ...]:
        """Each table's size, players and AI seats."""
        return tuple(players + ai for players, ai in zip(self.players, self.ai_seats, strict=True))

    @property
    def seated(self) -> int:
        """Players seated (all but those waiting)."""
        return sum(self.players)


def table_sizes(
    players: int, min_seats: int, max_seats: int, ai_fill: bool, *, target: int | None = None
) -> TableSizes:
    """The tables for ``players`` players of a game seating ``min_seats`` to ``max_seats``.

    The players are split into ``k`` tables as evenly as possible (sizes ``ceil(n/k)`` then
    ``floor(n/k)``); among the ``k`` that need no AI seat, the one whose mean size is nearest ``target``
    (default ``max_seats``: the fewest tables; a tie goes to fewer tables). When no ``k`` fits the range
    (fewer players than ``min_seats``, or a narrow range such as 4 to 4 for 6 players): with ``ai_fill``,
    the ``k`` needing the fewest AI seats, each table short of ``min_seats`` filled with AI seats; without,
    the most players who fit are seated and the rest wait.

    Returns
    -------
    TableSizes
        Players per table, AI seats per table, and how many wait.

    Raises
    ------
    ValueError
        If the range is not a range (``1 <= min_seats <= max_seats``), there are no players (or a negative
        number), or fewer players than a table's minimum and no AI fill (nobody could play).
    """
    if not 1 <= min_seats <= max_seats:
        raise ValueError(f"A table seats {min_seats} to {max_seats}: that is no range of seats.")
    if players < 0:
        raise ValueError("The number of players cannot be negative.")
    if players == 0:
        raise ValueError("Nobody is here to seat.")
    goal = max_seats if target is None else target
    best: tuple[tuple, TableSizes] | None = None
    for tables in range(max(1, -(-players // max_seats)), players + 1):
        sizes = _even(players, tables)
        ai = tuple(max(0, min_seats - size) for size in sizes)
        if sum(ai) and not ai_fill:
            continue
        key = (sum(ai), abs(Fraction(players, tables) - goal), tables)
        if best is None or key < best[0]:
            best = (key, TableSizes(sizes, ai))
        if tables * min_seats > players:
            break  # more tables only need more AI seats
    if best is not None:
        return best[1]
    for seated in range(players - 1, min_seats - 1, -1):
        if -(-seated // max_seats) <= seated // min_seats:
            found = table_sizes(seated, min_seats, max_seats, False, target=target)
            return TableSizes(found.players, found.ai_seats, players - seated)
    raise ValueError(
        f"{plural(players, 'player')} cannot fill a table of at least {min_seats} without AI seats."
    )


def _even(players: int, tables: int) -> tuple[int, ...]:
    size, larger = divmod(players, tables)
    return (size + 1,) * larger + (size,) * (tables - larger)


def strongest_first(players: Sequence[Player], seed: int) -> list[Player]:
    """The players by strength, strongest first: ordinal (``mu - 3 sigma``), then ``mu``; players of equal
    rating in an order drawn from ``seed``."""
    rng = random.Random(seed)
    draws = {player.id: rng.random() for player in players}
    return sorted(players, key=lambda p: (-p.ordinal, -p.mu, draws[p.id], p.id))


def seat_in_order(players: Sequence[int], sizes: TableSizes) -> Seating:
    """Seat ``players`` in their order: the first ``sizes.players[0]`` at the first table, and so on; the
    last ``sizes.waiting`` wait.

    Raises
    ------
    ValueError
        If ``sizes`` is not for this many players.
    """
    _check(len(players), sizes)
    tables, start = [], 0
    for count, ai in zip(sizes.players, sizes.ai_seats, strict=True):
        tables.append(Table(tuple(players[start : start + count]), ai))
        start += count
    return Seating(tuple(tables), tuple(players[start:]))


def seat_by_rating(players: Sequence[Player], sizes: TableSizes, seed: int) -> Seating:
    """The first round's seating: the players but the last ``sizes.waiting`` (in sign-up order) drafted
    strongest first in a snake over the tables, then balanced by swaps within a tier (module docstring).
    Seat ``i`` of a table holds its player of tier ``i`` (its ``i``-th pick). Deterministic: the same
    players in the same order and the same seed give the same seating.

    Raises
    ------
    ValueError
        If ``sizes`` is not for this many players, or a player id appears twice.
    """
    _check(len(players), sizes)
    if len({player.id for player in players}) != len(players):
        raise ValueError("A player is signed up twice.")
    present = list(players[: sizes.seated])
    waiting = tuple(player.id for player in players[sizes.seated :])
    tables, tiers = _snake(strongest_first(present, seed), sizes.players)
    _balance(tables, tiers)
    return Seating(
        tuple(
            Table(tuple(p.id for p in table), ai) for table, ai in zip(tables, sizes.ai_seats, strict=True)
        ),
        waiting,
    )


def seat_snake(order: Sequence[int], sizes: TableSizes) -> Seating:
    """Seat ``order`` (best first) in a snake over the tables: the first ``T`` players one per table,
    the next ``T`` back the other way, and so on, so that the best are spread; the last ``sizes.waiting``
    of ``order`` wait.

    Raises
    ------
    ValueError
        If ``sizes`` is not for this many players.
    """
    _check(len(order), sizes)
    tables, _ = _snake(list(order[: sizes.seated]), sizes.players)
    return Seating(
        tuple(Table(tuple(table), ai) for table, ai in zip(tables, sizes.ai_seats, strict=True)),
        tuple(order[sizes.seated :]),
    )


def _snake(order: list, capacities: tuple[int, ...]) -> tuple[list[list], dict]:
    """``order`` drafted over tables of ``capacities``, and each one's tier (its round of the draft),
    keyed by the item (a player id) or its ``id``."""
    tables: list[list] = [[] for _ in capacities]
    tiers: dict = {}
    placed, tier = 0, 0
    while placed < len(order):
        open_tables = [t for t in range(len(tables)) if len(tables[t]) < capacities[t]]
        if not open_tables:
            raise ValueError("More players than seats.")
        if tier % 2:
            open_tables.reverse()
        for item, table in zip(order[placed : placed + len(open_tables)], open_tables, strict=False):
            tables[table].append(item)
            tiers[getattr(item, "id", item)] = tier
        placed += len(open_tables)
        tier += 1
    return tables, tiers


def _check(players: int, sizes: TableSizes) -> None:
    if sizes.seated + sizes.waiting != players:
        raise ValueError(
            f"These tables are for {plural(sizes.seated + sizes.waiting, 'player')} "
            f"(seated or waiting), not {players}."
        )


def _balance(tables: list[list[Player]], tiers: dict[int, int]) -> None:
    """Swap two players of one tier between two tables while a swap raises both above the least even
    table's quality (changes ``tables`` in place). A table's quality is its pairs' mean term of
    ``predict_draw`` against an even table of its size (:func:`even_quality`); a table of fewer than two
    players (one player and AI seats) counts as even. Each table keeps each seat's sum of terms with the
    others, so a candidate swap costs the terms of the two seats that change, each term computed once."""
    everyone = [player for table in tables for player in table]
    count = len(everyone)
    index = {player.id: i for i, player in enumerate(everyone)}
    seats = [[index[player.id] for player in table] for table in tables]
    tier_of = [tiers[player.id] for player in everyone]
    terms: dict[int, list[list[float | None]]] = {}

    def term_row(i: int, size: int) -> list[float | None]:
        if size not in terms:
            terms[size] = [[None] * count for _ in range(count)]
        return terms[size][i]

    def terms_with(i: int, others: list[int], skip: int, size: int) -> float:
        row, total = term_row(i, size), 0.0
        for j in others:
            if j == skip or j == i:
                continue
            value = row[j]
            if value is None:
                value = row[j] = terms[size][j][i] = pair_draw(everyone[i], everyone[j], size)
            total += value
        return total

    def scale(size: int) -> float:
        return 2.0 / (size * (size - 1)) / even_quality(size) if size >= 2 else 0.0

    def measure(t: int) -> None:
        table = seats[t]
        row_sums[t] = [terms_with(i, table, i, len(table)) for i in table]
        totals[t] = sum(row_sums[t]) / 2.0
        qualities[t] = totals[t] * scales[t] if len(table) >= 2 else float("inf")

    scales = [scale(len(table)) for table in seats]
    row_sums: list[list[float]] = [[] for _ in seats]
    totals = [0.0] * len(seats)
    qualities = [0.0] * len(seats)
    for t in range(len(seats)):
        measure(t)
    # A swap keeps each player's tier at the same seat, so each table's seat of a tier never changes.
    seat_of_tier = [{tier_of[i]: seat for seat, i in enumerate(table)} for table in seats]
    for _ in range(MAX_SWAPS):
        worst = min(range(len(seats)), key=lambda t: (qualities[t], t))
        floor, mine = qualities[worst], seats[worst]
        best = None
        for seat, player in enumerate(mine):
            tier, size = tier_of[player], len(mine)
            for other, table in enumerate(seats):
                other_seat = seat_of_tier[other].get(tier)
                if other == worst or other_seat is None:
                    continue
                candidate = table[other_seat]
                into_mine = terms_with(candidate, mine, player, size)
                new_mine = (totals[worst] - row_sums[worst][seat] + into_mine) * scales[worst]
                if new_mine <= floor + 1e-12 or (best is not None and new_mine <= best[0] + 1e-12):
                    continue
                if len(table) >= 2:
                    into_theirs = terms_with(player, table, candidate, len(table))
                    new_theirs = (totals[other] - row_sums[other][other_seat] + into_theirs) * scales[other]
                else:
                    new_theirs = float("inf")
                gain = min(new_mine, new_theirs)
                if gain > floor + 1e-12 and (best is None or gain > best[0] + 1e-12):
                    best = (gain, seat, other, other_seat)
        if best is None:
            break
        _, seat, other, other_seat = best
        theirs = seats[other]
        mine[seat], theirs[other_seat] = theirs[other_seat], mine[seat]
        measure(worst)
        measure(other)
    for table, placed in zip(tables, seats, strict=True):
        table[:] = [everyone[i] for i in placed]
