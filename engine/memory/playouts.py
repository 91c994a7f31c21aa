"""The hard Deluxe Memory level's playouts: the game played forward from a world for every seat,
each from its own memory in that world, with cheap rules for the common decisions (a turn's looks, a
non-match, simple choices of a player, the Mixed Chart's looks, areas and forced reveals) and the rule
player (:class:`~engine.memory.ai.MemoryPlayer`, passed in as the policy) for the rest. Rules:
``docs/rules/memory.md``, "Levels"; the search that uses them: :mod:`engine.memory.ai`.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.ai.core import AIPlayer, InformationSet
from engine.memory.actions import ChoosePlayer, CopyEffect, Done, EndTurn, Look, Reveal, Show
from engine.memory.cards import cross, rank_of, square
from engine.memory.decisions import CROSSES, SQUARES, Decision, Phase, Purpose
from engine.memory.state import MemoryState


def quick_code(game: MemoryState, seat: int, rng: random.Random) -> str | None:
    """The playout's cheap rule for a turn's looks and a non-match (``None``: ask the rule player): the pair
    the seat knows if it knows one (two or more: the rule player picks the best, as a rule player at the
    table does), else a card it has not seen; the known partner of the first card, else an unseen card; a
    non-match left face-up. While another player keeps a 10 the looks are the rule player's, who leaves a
    match that 10 would take alone while it has cards to learn. From ``seat``'s own memory in ``game``
    (:meth:`MemoryState.known_cards`)."""
    decision = game.decision
    if decision is None:
        return None
    phase = decision.phase
    if phase is Phase.HIDE:
        return Show().format()
    if phase in (Phase.MEMORISE, Phase.REVEAL_ANY):
        return Done().format()  # the rule player's choice: it reveals nothing for a Mixed 6
    if phase is Phase.BUY_SEVEN:
        return EndTurn().format()
    if phase is Phase.REVEAL_UP_TO_FOUR:
        return Done().format()  # Mixed 3: no reveal
    if phase is Phase.KING:
        return CopyEffect(12).format()  # the Queen: six tokens from the richest other player to itself
    if phase is Phase.TARGET:
        return quick_target(game, seat, decision)
    if phase in QUICK_EFFECTS:
        return quick_effect(game, seat, decision, rng)
    if phase in (Phase.PICK_FIRST, Phase.PICK_SECOND) and game.match_goes_to_a_kept_ten(seat):
        return None  # a match would go to that player's kept 10: the rule player waits while it can
    if phase is Phase.PICK_FIRST:
        if game.options.underdogs and not any(
            game.tokens(other) for other in range(game.num_seats) if other != seat
        ):
            return None  # it may end the game (ruling 3): the rule player decides
        known = game.known_cards(seat)
        seen_rank: dict[int, int] = {}
        pair_at: int | None = None
        for p, card in known.items():
            rank = rank_of(card)
            if rank in seen_rank:
                if pair_at is not None:
                    return None  # more than one pair: the rule player takes the best (pair_worth)
                pair_at = seen_rank[rank]
            seen_rank[rank] = p
        if pair_at is not None:
            return Look(pair_at).format()
    elif phase is Phase.PICK_SECOND and decision.first_pick is not None:
        known = game.known_cards(seat)
        first = decision.first_pick
        rank = rank_of(known[first])
        for p, card in known.items():
            if p != first and rank_of(card) == rank:
                return Look(p).format()
    else:
        return None
    unseen = [p for p in game.table_positions() if p not in known and p != decision.first_pick]
    return Look(rng.choice(unseen)).format() if unseen else None


QUICK_EFFECTS = frozenset({Phase.LOOK_SWAP, Phase.SQUARE_LOOK, Phase.SQUARE, Phase.CROSS, Phase.REVEAL_ONE})
"""The Mixed Chart decisions :func:`quick_effect` takes in a playout."""


def quick_effect(game: MemoryState, seat: int, decision: Decision, rng: random.Random) -> str | None:
    """The playout's cheap version of the rule player's Mixed Chart choices (``None``: ask the rule player):
    a look at a card the seat has not seen (Mixed 2 and 4), the square or cross with the most such cards
    (Mixed 4 and 5, ties: the first), and for a forced reveal (Ace) a known card whose rank has no partner
    left on the table, else an unseen card. From ``seat``'s own memory in ``game``."""
    known = game.known_cards(seat)
    phase = decision.phase
    unseen = [p for p in game.table_positions() if p not in known]
    if phase is Phase.SQUARE or phase is Phase.CROSS:
        area, areas = (square, SQUARES) if phase is Phase.SQUARE else (cross, CROSSES)
        hidden = set(unseen)
        best, best_count = None, 0
        for action in areas:
            count = sum(1 for p in area(action.position) if p in hidden)
            if count > best_count:
                best, best_count = action, count
        return best.format() if best is not None else None
    if phase is Phase.REVEAL_ONE:
        removed = Counter(rank_of(card) for card in game.removed_cards())
        for p, card in known.items():
            if removed[rank_of(card)] >= 3 and game.check(seat, Reveal(p)) is None:
                return Reveal(p).format()  # a card that cannot be matched any more
        choices = [p for p in unseen if game.check(seat, Reveal(p)) is None]
        return Reveal(rng.choice(choices)).format() if choices else None
    choices = [p for p in unseen if p not in decision.positions]
    if phase is Phase.SQUARE_LOOK:
        choices = [p for p in choices if game.check(seat, Look(p)) is None]
    return Look(rng.choice(choices)).format() if choices else None


def quick_target(game: MemoryState, seat: int, decision: Decision) -> str | None:
    """The playout's cheap choice of a player (``None``: ask the rule player): itself for a gain and to
    receive a Queen's gift, the richest other player for a loss, a Queen's gift, and a Jack with itself
    when that player is richer."""
    purpose, chosen = decision.purpose, decision.chosen
    others = [other for other in range(game.num_seats) if other != seat and not game.is_out(other)]
    richest = max(others, key=game.tokens, default=None)
    if purpose in (Purpose.RED, Purpose.ACE_GAIN) or (
        purpose is Purpose.QUEEN_RECEIVER and seat not in chosen
    ):
        return ChoosePlayer(seat).format()
    if richest is None:
        return None
    if purpose in (Purpose.BLACK, Purpose.ACE_LOSE, Purpose.QUEEN_GIVER):
        return ChoosePlayer(richest).format()
    if purpose is Purpose.JACK and game.tokens(richest) > game.tokens(seat) and seat not in chosen:
        return ChoosePlayer(seat if chosen else richest).format()
    return None


def playout(game: MemoryState, policy: AIPlayer, horizon: int, rng: random.Random) -> None:
    """Play ``game`` forward for every seat (each from its own information in ``game``: :func:`quick_code`,
    else ``policy``) until the ``horizon``-th new turn starts or the game ends (``game`` is changed)."""
    turns = 0
    while not game.is_terminal():
        (seat,) = game.seats_to_act()
        code = quick_code(game, seat, rng) or policy.decide(InformationSet(game, seat), rng)
        game.apply(seat, code)
        if game.phase is Phase.PICK_FIRST:
            turns += 1
            if turns >= horizon:
                return
