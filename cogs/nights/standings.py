"""A night's rounds as the engine reads them from the stored tables, and the standings message's text."""

from __future__ import annotations

from fractions import Fraction

from cogs.names import shown_name
from cogs.nights import signups
from engine import GAMES
from engine.core import plural
from engine.nights import Format, NightRules, Player, RoundResult, TableResult, standings
from storage.nights import LEFT, StoredNight, StoredNightTable, StoredSignup

CONTENT_MAX = 2000


def rules_of(night: StoredNight) -> NightRules:
    """The engine's settings of ``night`` (its first game's seat range)."""
    game = GAMES[night.games[0]]
    return NightRules(game.min_seats, game.max_seats, Format(night.format), night.rounds, night.ai_fill)


def played_rounds(tables: list[StoredNightTable], rows: list[StoredSignup]) -> list[RoundResult]:
    """The rounds whose every table has its places, as the engine reads them, in order (``rows``: the
    night's sign-ups, which say who left during which round)."""
    rounds: dict[int, list[StoredNightTable]] = {}
    for table in tables:
        rounds.setdefault(table.round_number, []).append(table)
    played = []
    for number in sorted(rounds):
        these = rounds[number]
        if any(table.ranks is None for table in these):
            break
        results = tuple(
            TableResult((*t.players, *(None,) * t.ai_seats), t.ranks)  # type: ignore[arg-type]
            for t in these
        )
        left = frozenset(row.user_id for row in rows if row.status == LEFT and row.left_round == number)
        played.append(RoundResult(results, left))
    return played


def shown_points(points: Fraction) -> str:
    """Points as the standings show them: whole, or with one decimal."""
    return plural(round(float(points), 1) if points.denominator != 1 else int(points), "point")


def standings_text(night: StoredNight, names: dict[int, str], played: list[RoundResult], final: bool) -> str:
    """The standings message: every player's place, points and wins after the rounds ``played``."""
    players = [Player(user) for user in names]
    lines = [
        f"**{signups.night_title(night)}: {'final standings' if final else 'standings'}** "
        f"after {plural(len(played), 'round')} of {night.rounds}"
    ]
    for line in standings(players, played):
        left = " (left)" if line.left else ""
        lines.append(
            f"{line.place}. **{shown_name(names[line.player])}**{left}: {shown_points(line.points)}, "
            f"{plural(line.wins, 'win')}"
        )
    return "\n".join(lines)[:CONTENT_MAX]
