"""The hard level of Deluxe Memory: a determinised Monte Carlo search over the seat's honest worlds.

Rules: ``docs/rules/memory.md`` ("AI player", "Levels (issue 23)"). At the decisions where the choice
matters it lists a few candidate moves (the rule player's own choice first; :func:`candidates`), then for
each of a fixed number of worlds drawn with :meth:`~engine.ai.core.InformationSet.sample` (the cards the
seat has never seen shuffled among their positions, everything it has seen kept: ruling 29) it plays every
candidate on a copy of the world and the game forward with the rule player
(:class:`~engine.memory.ai.MemoryPlayer`) for every seat, to a horizon counted in turns
(:func:`playout`), and scores the end with the game's evaluation (:func:`~engine.memory.ai.evaluate`).
The candidate with the best mean wins; the rule player's choice wins ties. Every candidate meets the same
worlds and the same playout generator (common random numbers), so the comparison is not drowned by the
luck of the looks. Other decisions (the Mixed Chart's reveals and areas, rearranging) are the rule
player's.

It never reads the state: :class:`~engine.ai.core.InformationSet` gives it the seat's information and its
worlds; a world's other seats decide in the playout from what they have seen in that world.
"""

from __future__ import annotations

import random
import time

from engine.ai.core import AIPlayer, InformationSet
from engine.memory.actions import ChoosePlayer, Finish, Look, MemoryAction
from engine.memory.ai import MemoryPlayer, Mind, evaluate
from engine.memory.cards import rank_of
from engine.memory.decisions import Decision, Phase, Purpose
from engine.memory.state import MemoryState

HARD_CPU_SECONDS = 0.09
"""The cap on one decision's search, in CPU seconds of the deciding thread (``time.thread_time``)."""

SEARCHED = frozenset(
    {Phase.PICK_FIRST, Phase.PICK_SECOND, Phase.HIDE, Phase.TARGET, Phase.KING, Phase.BUY_SEVEN}
)
"""The decisions the search weighs; the others are the rule player's."""


class MemorySearchPlayer(AIPlayer):
    """The hard Deluxe Memory AI (see the module's docstring).

    Parameters
    ----------
    rollouts:
        Playouts per searched decision, shared among its candidates: ``rollouts // candidates`` worlds,
        within ``min_worlds`` and ``max_worlds``.
    min_worlds, max_worlds:
        Bounds on the worlds per searched decision (each candidate is played once in each).
    horizon:
        How many turns a playout runs past the decision: it stops when the ``horizon``-th new turn starts
        (or the game ends).
    cpu_seconds:
        A cap on the search's CPU time (the deciding thread's, ``time.thread_time``), or ``None``: past it
        no further world is searched once ``min_worlds`` were (a guard its budget stays inside).
    """

    name = "memory-search"

    def __init__(
        self,
        rollouts: int = 48,
        min_worlds: int = 4,
        max_worlds: int = 16,
        horizon: int = 4,
        cpu_seconds: float | None = HARD_CPU_SECONDS,
    ) -> None:
        self.rollouts = rollouts
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.horizon = horizon
        self.cpu_seconds = cpu_seconds
        self.rules = MemoryPlayer()

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        """One legal code for ``seen.seat``, from the seat's information only.

        Raises
        ------
        ValueError
            If the seat has no legal action.
        """
        codes = seen.legal_codes()
        rule = self.rules.decide(seen, random.Random(rng.getrandbits(64)))
        world, seat = seen.world, seen.seat
        if len(codes) == 1 or not isinstance(world, MemoryState) or world.decision is None:
            return rule
        if world.decision.phase not in SEARCHED:
            return rule
        choices = candidates(world, seat, world.decision, codes, rule, rng)
        if len(choices) == 1:
            return rule
        worlds = max(self.min_worlds, min(self.max_worlds, self.rollouts // len(choices)))
        totals = [0.0] * len(choices)
        deadline = None if self.cpu_seconds is None else time.thread_time() + self.cpu_seconds
        for number in range(worlds):
            if deadline is not None and number >= self.min_worlds and time.thread_time() > deadline:
                break
            sampled = seen.sample(rng)
            playout_seed = rng.getrandbits(64)
            for index, code in enumerate(choices):
                game = sampled.copy()
                game.apply(seat, code)
                playout(game, self.rules, self.horizon, random.Random(playout_seed))
                totals[index] += evaluate(game, seat)
        best = max(range(len(choices)), key=lambda index: (totals[index], -index))
        return choices[best]


def candidates(
    world: MemoryState, seat: int, decision: Decision, codes: list[str], rule: str, rng: random.Random
) -> list[str]:
    """The moves the search weighs at ``decision`` (legal codes, ``rule`` first, no repeats).

    - First look: the rule's, the first card of each of the two best pairs the seat knows, one card it has
      not seen (all such cards are alike in its worlds), and ending the game where it may (Underdogs).
    - Second look: the rule's, the best known partner of the first card, one unseen card, and a known card
      of another rank (a face-up one if any: a look that tells the others nothing new).
    - Hiding a non-match, choosing a player, the 7's offer: every legal move.
    - The King: the four effects the rule player rates best.
    """
    legal = set(codes)
    mind = Mind(world, seat)
    phase = decision.phase
    found = [rule]
    looks = [MemoryAction.parse(code) for code in codes if code.startswith("look.")]
    unseen = sorted(action.position for action in looks if action.position in mind.unseen)  # type: ignore[attr-defined]
    if phase is Phase.PICK_FIRST:
        by_rank: dict[int, tuple[float, int]] = {}
        for worth, (first, _) in mind.known_pairs():
            rank = rank_of(mind.known[first])
            if rank not in by_rank or worth > by_rank[rank][0]:
                by_rank[rank] = (worth, first)
        for _, first in sorted(by_rank.values(), reverse=True)[:2]:
            found.append(Look(first).format())
        if unseen:
            found.append(Look(rng.choice(unseen)).format())
        found.append(Finish().format())
    elif phase is Phase.PICK_SECOND and decision.first_pick is not None:
        first = decision.first_pick
        card = mind.known.get(first)
        known_others = [p for p in mind.known if p != first]
        if card is not None:
            partners = [p for p in known_others if rank_of(mind.known[p]) == rank_of(card)]
            if partners:
                best = max(partners, key=lambda p: mind.pair_worth(card, mind.known[p]))
                found.append(Look(best).format())
            others = [p for p in known_others if rank_of(mind.known[p]) != rank_of(card)]
            public = world.known_cards(None)
            face_up = [p for p in others if p in public]
            for group in (face_up, others):
                if group:
                    found.append(Look(group[0]).format())
                    break
        if unseen:
            found.append(Look(rng.choice(unseen)).format())
    elif phase in (Phase.HIDE, Phase.TARGET, Phase.BUY_SEVEN):
        found.extend(codes)
    elif phase is Phase.KING:
        copies = [code for code in codes if code.startswith("copy.")]
        ranked = sorted(copies, key=lambda code: -mind.chart_worth(MemoryAction.parse(code).rank))  # type: ignore[attr-defined]
        found.extend(ranked[:4])
    result: list[str] = []
    for code in found:
        if code in legal and code not in result:
            result.append(code)
    return result


def quick_code(game: MemoryState, seat: int, rng: random.Random) -> str | None:
    """The playout's cheap rule for a turn's looks and a non-match (``None``: ask the rule player): a pair
    the seat knows, else a card it has not seen; the known partner of the first card, else an unseen card;
    a non-match left face-up. From ``seat``'s own memory in ``game`` (:meth:`MemoryState.known_cards`)."""
    decision = game.decision
    if decision is None:
        return None
    phase = decision.phase
    if phase is Phase.HIDE:
        return "show"
    if phase in (Phase.MEMORISE, Phase.REVEAL_ANY):
        return "done"  # the rule player's choice: it reveals nothing for a Mixed 6
    if phase is Phase.BUY_SEVEN:
        return "end"
    if phase is Phase.TARGET:
        if decision.purpose in (Purpose.RED, Purpose.ACE_GAIN):
            return ChoosePlayer(seat).format()
        if decision.purpose in (Purpose.BLACK, Purpose.ACE_LOSE):
            others = [other for other in range(game.num_seats) if other != seat and not game.is_out(other)]
            if others:
                return ChoosePlayer(max(others, key=game.tokens)).format()
        return None
    if phase is Phase.PICK_FIRST:
        if game.options.underdogs and not any(
            game.tokens(other) for other in range(game.num_seats) if other != seat
        ):
            return None  # it may end the game (ruling 3): the rule player decides
        known = game.known_cards(seat)
        seen_rank: dict[int, int] = {}
        for p, card in known.items():
            rank = rank_of(card)
            if rank in seen_rank:
                return Look(seen_rank[rank]).format()
            seen_rank[rank] = p
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
