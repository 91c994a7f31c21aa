"""Game nights and tournaments: the pure, deterministic part of ``/gamenight`` (no Discord, no I/O).

A night seats the players present at tables of the game's size (:mod:`engine.nights.seat`), balanced by
rating for the first round (:mod:`engine.nights.rating`), scores each table's places
(:mod:`engine.nights.placement`), keeps the standings across the rounds (:mod:`engine.nights.standings`)
and seats each next round by the night's format (:mod:`engine.nights.round`). Every value is immutable
(:mod:`engine.nights.table`) and every function pure: the same players, results and seed give the same
seating. Players are Discord user ids (``int``); points are exact fractions. The rules for players are in
``docs/rules/nights.md``.
"""

from engine.nights.placement import DEFAULT_SCORING, Scoring, placement_points
from engine.nights.rating import Player, match_quality
from engine.nights.round import (
    Format,
    NightRules,
    is_over,
    knockout_advancing,
    left_players,
    meetings,
    random_seating,
    repeats,
    seat_round,
    swiss_seating,
)
from engine.nights.seat import TableSizes, seat_by_rating, seat_in_order, seat_snake, table_sizes
from engine.nights.standings import Standing, standings
from engine.nights.table import RoundResult, Seating, Table, TableResult

__all__ = [
    "DEFAULT_SCORING",
    "Format",
    "NightRules",
    "Player",
    "RoundResult",
    "Scoring",
    "Seating",
    "Standing",
    "Table",
    "TableResult",
    "TableSizes",
    "is_over",
    "knockout_advancing",
    "left_players",
    "match_quality",
    "meetings",
    "placement_points",
    "random_seating",
    "repeats",
    "seat_by_rating",
    "seat_in_order",
    "seat_round",
    "seat_snake",
    "standings",
    "swiss_seating",
    "table_sizes",
]
