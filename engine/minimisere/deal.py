"""Dealing Minimisère's unseen cards again for a resample of the hidden information: at random, each holder
keeping its number of cards, no holder getting a suit it has shown it lacks."""

from __future__ import annotations

import itertools
import random

from engine.minimisere.cards import SUIT

REJECTION_TRIES = 30  # plain shuffles a resample tries before dealing card by card around the voids


def deal_respecting_voids(
    cards: list[str], sizes: list[int], voids: list[set[str]], rng: random.Random
) -> list[list[str]]:
    """Deal ``cards`` at random into holders of the given ``sizes``, no holder getting a suit in its
    ``voids`` (the Joker belongs to no suit). A deal must exist (the real one does).

    First a few plain shuffles are tried, keeping the first that respects every void (all consistent
    deals equally likely); if none does, each card goes to a random holder among those that leave the rest
    dealable, which Hall's condition decides: every set of suits must fit in the room of the holders that
    may take them.
    """
    for _ in range(REJECTION_TRIES if any(voids) else 1):
        order = list(cards)
        rng.shuffle(order)
        dealt, start = [], 0
        for size, void in zip(sizes, voids, strict=True):
            hand = order[start : start + size]
            if void and any(SUIT[card] in void for card in hand):
                break
            dealt.append(hand)
            start += size
        else:
            return dealt
    room = list(sizes)
    dealt = [[] for _ in sizes]
    order = list(cards)
    rng.shuffle(order)
    for index, card in enumerate(order):
        candidates = [h for h in range(len(room)) if room[h] and SUIT[card] not in voids[h]]
        rng.shuffle(candidates)
        for holder in candidates:
            room[holder] -= 1
            if dealable(order[index + 1 :], room, voids):
                dealt[holder].append(card)
                break
            room[holder] += 1
        else:  # pragma: no cover - the real deal satisfies every void
            raise AssertionError("no deal of the hidden cards respects the known voids")
    return dealt


def dealable(cards: list[str], room: list[int], voids: list[set[str]]) -> bool:
    """Whether ``cards`` fit in holders with ``room`` places, respecting ``voids`` (Hall's condition)."""
    counts: dict[str | None, int] = {}
    for card in cards:
        counts[SUIT[card]] = counts.get(SUIT[card], 0) + 1
    kinds = list(counts)
    for size in range(1, len(kinds) + 1):
        for subset in itertools.combinations(kinds, size):
            need = sum(counts[kind] for kind in subset)
            space = sum(room[h] for h in range(len(room)) if any(kind not in voids[h] for kind in subset))
            if need > space:
                return False
    return True
