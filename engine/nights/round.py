"""A night's rounds: who sits where in the next round, by the night's format.

Every format seats the first round by rating (:func:`engine.nights.seat.seat_by_rating`), but for the
casual one, and then:

- **Swiss** (``Format.SWISS``, rounds with re-seating by standings): the players in standings order are
  cut into tables, the top players at the first table, the next at the second, and so on, so players of
  similar points meet; then players are moved between tables so that as few pairs as possible sit
  together again, each moved as little as possible. Up to :data:`EXACT_SWISS` players the seating is the
  best there is (fewest pairs who met, then least total moving from the tables by standings, then the
  first found trying each player's nearest tables first); beyond, swaps of two players between tables at
  most :data:`SWAP_WINDOW` apart in the standings, each removing a repeated meeting, until none does.
- **Knockout** (``Format.KNOCKOUT``): the best ``advance`` players of each table go through (by their
  place at the table, ties by the night's standings) and are seated in a snake by standings (the best
  spread over the tables), until one final table is played.
- **Casual** (``Format.RANDOM``): every round is seated at random, from the night's seed.

Who plays: everyone signed up and present (late arrivals included, in Swiss and casual nights; a knockout
takes nobody new after its first round), except those who left in an earlier round. When the players do
not fill tables and the night has no AI fill, the ones who sat out the last round are seated first, then
by sign-up order; the rest wait for the next round.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.core import plural
from engine.nights.placement import DEFAULT_SCORING, Scoring
from engine.nights.rating import Player
from engine.nights.seat import TableSizes, seat_by_rating, seat_in_order, seat_snake, table_sizes
from engine.nights.standings import standings
from engine.nights.table import RoundResult, Seating, Table

EXACT_SWISS = 10
"""Up to this many players a Swiss round's seating is searched exhaustively (``_exact_swiss``)."""

SWAP_WINDOW = 2
"""How many tables apart (in standings) two players may be for a Swiss swap beyond :data:`EXACT_SWISS`."""

MAX_SWAP_PASSES = 8
"""Passes over the tables that a Swiss round's swaps make at most."""


class Format(StrEnum):
    """How a night seats its rounds after the first (module docstring)."""

    SWISS = "swiss"
    KNOCKOUT = "knockout"
    RANDOM = "random"


@dataclass(frozen=True)
class NightRules:
    """A night's settings: the game's seat range, the format, the number of rounds (Swiss and casual;
    a knockout plays until its final), whether AI seats fill short tables, the table size aimed at
    (``None``: as big as the game allows), how many of each knockout table go through, and the points per
    place.

    Raises
    ------
    ValueError
        If ``rounds`` or ``advance`` is below 1, or the seat range is not a range.
    """

    min_seats: int
    max_seats: int
    format: Format = Format.SWISS
    rounds: int = 3
    ai_fill: bool = True
    target: int | None = None
    advance: int = 1
    scoring: Scoring = DEFAULT_SCORING

    def __post_init__(self) -> None:
        if not 1 <= self.min_seats <= self.max_seats:
            raise ValueError(f"A table seats {self.min_seats} to {self.max_seats}: that is no range.")
        if self.rounds < 1 or self.advance < 1:
            raise ValueError("A night plays at least one round, and a knockout sends at least one through.")

    def sizes(self, players: int, *, target: int | None = None) -> TableSizes:
        """:func:`engine.nights.seat.table_sizes` for this night's game and settings."""
        aim = self.target if target is None else target
        return table_sizes(players, self.min_seats, self.max_seats, self.ai_fill, target=aim)


def left_players(played: Sequence[RoundResult]) -> frozenset[int]:
    """Everyone who left during one of the rounds ``played``."""
    return frozenset(player for result in played for player in result.left)


def meetings(played: Sequence[RoundResult]) -> frozenset[tuple[int, int]]:
    """Every pair of players who have sat at one table, as ``(lower id, higher id)``."""
    met = set()
    for result in played:
        for table in result.tables:
            players = sorted(table.players)
            met.update((a, b) for i, a in enumerate(players) for b in players[i + 1 :])
    return frozenset(met)


def repeats(seating: Seating, met: Collection[tuple[int, int]]) -> int:
    """How many pairs sitting together in ``seating`` have met before."""
    return sum(_met_at(table.players, met) for table in seating.tables)


def is_over(rules: NightRules, played: Sequence[RoundResult]) -> bool:
    """Whether the night has ended: a knockout once its final (a round of one table) is played, other
    formats after ``rules.rounds`` rounds."""
    if rules.format is Format.KNOCKOUT:
        return bool(played) and len(played[-1].tables) == 1
    return len(played) >= rules.rounds


def round_seed(seed: int, number: int) -> int:
    """The seed of round ``number`` (0 first) of a night seeded ``seed``."""
    return random.Random(f"{seed}:{number}").getrandbits(64)


def seat_round(
    rules: NightRules,
    players: Sequence[Player],
    played: Sequence[RoundResult],
    seed: int,
    *,
    absent: Collection[int] = (),
) -> Seating:
    """The seating of the next round.

    Parameters
    ----------
    rules:
        The night's settings.
    players:
        Everyone signed up so far, in sign-up order (late arrivals last), those who left included (the
        standings list them). Those who left in a round of ``played`` sit at no later round.
    played:
        The rounds finished so far, in order (none before the first round).
    seed:
        The night's seed: the same arguments always give the same seating.
    absent:
        Players signed up who are not here for this round (they sit out; they may come back).

    Returns
    -------
    Seating
        The tables, best first, and the players waiting for the next round.

    Raises
    ------
    ValueError
        If the night is over (:func:`is_over`), a knockout would send everyone through (``advance`` as
        big as the tables), nobody is here to seat (in a knockout: everyone going through left or is
        away), or the players cannot fill a table and the night has no AI fill.
    """
    if is_over(rules, played):
        raise ValueError("The night is over: its last round has been played.")
    gone = left_players(played) | frozenset(absent)
    present = [player for player in players if player.id not in gone]
    if played:
        last = {player for table in played[-1].tables for player in table.players}
        present.sort(key=lambda player: player.id in last)  # stable: who sat out goes first
    number = len(played)
    if rules.format is Format.RANDOM:
        return random_seating(
            [player.id for player in present], rules.sizes(len(present)), round_seed(seed, number)
        )
    if not played:
        return seat_by_rating(present, rules.sizes(len(present)), round_seed(seed, number))
    order = [line.player for line in standings(players, played, rules.scoring)]
    if rules.format is Format.KNOCKOUT:
        through = knockout_advancing(order, played[-1], rules.advance, {p.id for p in present})
        return seat_snake(through, rules.sizes(len(through), target=rules.max_seats))
    sizes = rules.sizes(len(present))
    seated = {player.id for player in present[: sizes.seated]}
    waiting = tuple(player.id for player in present[sizes.seated :])
    ranked = [player for player in order if player in seated]
    swiss = swiss_seating(ranked, TableSizes(sizes.players, sizes.ai_seats), meetings(played))
    return Seating(swiss.tables, waiting)


def random_seating(players: Sequence[int], sizes: TableSizes, seed: int) -> Seating:
    """The players shuffled by ``seed`` and seated in that order (the last ``sizes.waiting`` of
    ``players``, as given, wait)."""
    seated = list(players[: sizes.seated])
    random.Random(seed).shuffle(seated)
    return seat_in_order([*seated, *players[sizes.seated :]], sizes)


def knockout_advancing(
    order: Sequence[int], last: RoundResult, advance: int, present: Collection[int]
) -> list[int]:
    """Who goes through from the round ``last``: at each table the ``advance`` best placed players still
    ``present`` (ties at a table by ``order``, the standings), listed in standings order.

    Raises
    ------
    ValueError
        If everyone who played ``last`` would go through (the knockout would never end).
    """
    place = {player: index for index, player in enumerate(order)}
    through: set[int] = set()
    played = 0
    for table in last.tables:
        seated = [
            (rank, place[p], p) for p, rank in zip(table.seats, table.ranks, strict=True) if p is not None
        ]
        played += len(seated)
        staying = sorted(entry for entry in seated if entry[2] in present and entry[2] not in last.left)
        through.update(p for _, _, p in staying[:advance])
    if len(through) >= played:
        raise ValueError(f"With {advance} of each table going through, nobody is knocked out.")
    return sorted(through, key=place.__getitem__)


def swiss_seating(order: Sequence[int], sizes: TableSizes, met: Collection[tuple[int, int]]) -> Seating:
    """The players (``order``: by standings, best first) cut into tables of ``sizes`` by standings, then
    moved so that the fewest pairs who met (``met``: ``(lower id, higher id)``) sit together again
    (module docstring). Seats at a table are in standings order.

    Raises
    ------
    ValueError
        If ``sizes`` is not for this many players, or leaves any waiting.
    """
    capacities = sizes.players
    if sizes.waiting or sum(capacities) != len(order):
        raise ValueError(f"The tables seat {sizes.seated}, not {plural(len(order), 'player')}.")
    opponents = _opponents(met)
    natural = [t for t, count in enumerate(capacities) for _ in range(count)]
    position = {player: index for index, player in enumerate(order)}
    if len(order) <= EXACT_SWISS:
        tables = _exact_swiss(list(order), capacities, natural, opponents)
    else:
        tables = [list(order[start - count : start]) for count, start in _ends(capacities)]
        _swiss_swaps(tables, {p: natural[i] for i, p in enumerate(order)}, opponents)
    return Seating(
        tuple(
            Table(tuple(sorted(table, key=position.__getitem__)), ai)
            for table, ai in zip(tables, sizes.ai_seats, strict=True)
        )
    )


def _ends(capacities: tuple[int, ...]):
    end = 0
    for count in capacities:
        end += count
        yield count, end


def _met_at(players: Sequence[int], met: Collection[tuple[int, int]]) -> int:
    return sum(
        (a, b) in met if a < b else (b, a) in met for i, a in enumerate(players) for b in players[i + 1 :]
    )


def _met_in(players: Sequence[int], met: dict[int, frozenset[int]]) -> int:
    """How many pairs of ``players`` have met."""
    return sum(_met_with(player, players, met, player) for player in players) // 2


def _met_with(player: int, others: Sequence[int], met: dict[int, frozenset[int]], skip: int) -> int:
    """How many of ``others`` but ``skip`` ``player`` has met (``met``: each player's opponents so far)."""
    seen = met.get(player)
    if not seen:
        return 0
    return len(seen.intersection(others)) - (skip in seen and skip in others)


def _opponents(met: Collection[tuple[int, int]]) -> dict[int, frozenset[int]]:
    found: dict[int, set[int]] = {}
    for a, b in met:
        found.setdefault(a, set()).add(b)
        found.setdefault(b, set()).add(a)
    return {player: frozenset(others) for player, others in found.items()}


def _exact_swiss(
    order: list[int], capacities: tuple[int, ...], natural: list[int], met: dict[int, frozenset[int]]
) -> list[list[int]]:
    """The seating with the fewest repeated pairs, then the least total distance of players from their
    table by standings, then the first found: two depth-first searches, each player in standings order.
    The first finds the fewest repeats, trying one of the empty tables of each size only (for repeats,
    empty tables of a size are alike); the second, among seatings with that many, the least moving, each
    player trying the tables nearest their own first, cut as soon as it moves players as much as the best
    found."""
    tables: list[list[int]] = [[] for _ in capacities]
    natural_tables = [order[start - count : start] for count, start in _ends(capacities)]
    fewest = sum(_met_in(table, met) for table in natural_tables)
    if not fewest:
        return [list(table) for table in natural_tables]

    def fewer(index: int, repeated: int) -> None:
        nonlocal fewest
        if repeated >= fewest:
            return
        if index == len(order):
            fewest = repeated
            return
        player, empty_sizes = order[index], set()
        for t, table in enumerate(tables):
            if len(table) == capacities[t]:
                continue
            if not table:
                if capacities[t] in empty_sizes:
                    continue
                empty_sizes.add(capacities[t])
            table.append(player)
            fewer(index + 1, repeated + _met_with(player, table, met, player))
            table.pop()
            if not fewest:
                return

    fewer(0, 0)
    natural_repeats = sum(_met_in(table, met) for table in natural_tables)
    if natural_repeats == fewest:
        return [list(table) for table in natural_tables]
    best: list[list[int]] = []
    least = None
    choices = [sorted(range(len(capacities)), key=lambda t, n=n: (abs(t - n), t)) for n in natural]

    def nearer(index: int, repeated: int, moved: int) -> None:
        nonlocal best, least
        if repeated > fewest or (least is not None and moved >= least):
            return
        if index == len(order):
            least, best = moved, [list(table) for table in tables]
            return
        player = order[index]
        for t in choices[index]:
            table = tables[t]
            if len(table) < capacities[t]:
                table.append(player)
                nearer(
                    index + 1,
                    repeated + _met_with(player, table, met, player),
                    moved + abs(t - natural[index]),
                )
                table.pop()

    nearer(0, 0, 0)
    return best


def _swiss_swaps(tables: list[list[int]], home: dict[int, int], met: dict[int, frozenset[int]]) -> None:
    """Swap two players of tables at most :data:`SWAP_WINDOW` apart while a swap removes a repeated
    meeting: for each table with a repeat, the swap removing most, then moving players least, then the
    first in order (changes ``tables`` in place)."""
    for _ in range(MAX_SWAP_PASSES):
        changed = False
        for t, mine in enumerate(tables):
            if not _met_in(mine, met):
                continue
            best = None
            for u in range(max(0, t - SWAP_WINDOW), min(len(tables), t + SWAP_WINDOW + 1)):
                if u == t:
                    continue
                theirs = tables[u]
                # Each player's meetings at either table; a swap of p and q then costs a lookup or two.
                mine_set, theirs_set = set(mine), set(theirs)
                nobody: frozenset[int] = frozenset()
                p_here = [len(met.get(p, nobody) & mine_set) for p in mine]
                p_there = [len(met.get(p, nobody) & theirs_set) for p in mine]
                q_here = [len(met.get(q, nobody) & theirs_set) for q in theirs]
                q_there = [len(met.get(q, nobody) & mine_set) for q in theirs]
                for i, p in enumerate(mine):
                    seen = met.get(p, nobody)
                    for j, q in enumerate(theirs):
                        # p leaves p_here behind and meets theirs but q; q likewise the other way.
                        gain = p_here[i] + q_here[j] - p_there[i] - q_there[j] + 2 * (q in seen)
                        if gain <= 0:
                            continue
                        moved = abs(u - home[p]) + abs(t - home[q]) - abs(t - home[p]) - abs(u - home[q])
                        key = (-gain, moved)
                        if best is None or key < best[0]:
                            best = (key, u, i, j)
            if best is not None:
                _, u, i, j = best
                mine[i], tables[u][j] = tables[u][j], mine[i]
                changed = True
        if not changed:
            return
