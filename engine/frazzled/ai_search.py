"""The hard level of TOKENIZE and ERADICIZE: determinised Monte Carlo search with rollouts,
over the seat's honest worlds.

Method (flat Monte Carlo with successive halving, on determinisations: the "determinized search" of
Cowling, Powley and Whitehouse 2012, without a tree): the normal player's choice is the move to beat, every
other legal move a candidate. The search draws worlds consistent with what the seat has seen
(:meth:`engine.ai.core.InformationSet.sample`, never the state); in each world it plays the choice and
every candidate still in the race in copies, then every seat plays on with a fast rollout policy (one per
game, below: :func:`tokenize_rollout`, :func:`eradicize_rollout`) for a number of moves, and the game's
evaluation rates the end for the seat. Every candidate meets the same worlds, and each copy starts with the
world's generator in the same state (the same draws to come), so a candidate's gain over the choice is
measured world by world. After each batch of worlds the worse half of the candidates drops out; at the end
the best one replaces the choice only if its mean gain is more than :attr:`SearchPlayer.confidence`
standard errors above zero: a few noisy rollouts must not overrule a rule player on a coin toss.

Budget: a fixed number of worlds per decision (so the decision is deterministic from the information set
and the generator), with a guard (:class:`engine.ai.core.SearchGuard`): past
:data:`~engine.ai.core.SEARCH_CPU_SECONDS` of the deciding thread's CPU time (``time.thread_time``) no further
batch starts (as :func:`engine.foist.ai.hard_player_for`). Decisions that
carry no choice worth a search (a single legal move, a blind fan pick, a set to declare, a token, a rule
card) are the normal player's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.ai.core import SEARCH_CPU_SECONDS, AIPlayer, Evaluation, InformationSet, SearchGuard
from engine.frazzled.actions import Discard, Draw
from engine.frazzled.ai_common import pile_tops
from engine.frazzled.ai_eradicize import keep_value
from engine.frazzled.deck import Card
from engine.frazzled.eradicize import PICK_UP, EradicizeState, PlayCard
from engine.frazzled.table import FrazzledTable, Phase
from engine.frazzled.tokenize import KEEP, DeclareSet, TokenizeState

RolloutPolicy = Callable[[FrazzledTable, int], str]
"""A rollout move: ``policy(world, seat) -> code``, one of ``seat``'s legal codes in ``world`` (a sampled
world: the policy may read every hand in it)."""


# -- TOKENIZE ---------------------------------------------------------------------------------------


def _mates(card: Card, hand: Sequence[Card], colours, shapes) -> int:
    """How many cards of ``hand`` (``card`` itself excluded) share a set group with ``card``: its number,
    or a colour or shape the seat holds a token for."""
    count = 0
    for other in hand:
        if other is card:
            continue
        if (
            other.number == card.number
            or (other.colour == card.colour and card.colour in colours)
            or (other.shape == card.shape and card.shape in shapes)
        ):
            count += 1
    return count


def tokenize_rollout(world: FrazzledTable, seat: int) -> str:
    """TOKENIZE by rule, for rollouts: declare a set when one is held at the start of the turn; draw the
    pile top with the most set mates in the hand; discard the card with the fewest (the first in the
    hand's order on a tie); tokens, rules and blind picks are the timeout's (``default_action``)."""
    assert isinstance(world, TokenizeState)
    phase = world.phase
    if phase not in (Phase.DRAW, Phase.DISCARD):
        return world.default_action(seat)
    if phase is Phase.DRAW:
        trios = world.sets_available(seat)
        if trios:
            return DeclareSet(trios[0]).format()
    tokens = world.tokens()
    colours, shapes = tokens.colours[seat], tokens.shapes[seat]
    hand = world.hand(seat)
    if phase is Phase.DRAW:
        pile, _ = max(pile_tops(world), key=lambda top: _mates(top[1], hand, colours, shapes))
        return Draw(pile).format()
    if not hand:
        return KEEP
    drawn = world.drawn
    kept = [*hand, drawn] if drawn is not None else list(hand)
    return Discard(min(hand, key=lambda card: _mates(card, kept, colours, shapes))).format()


# -- ERADICIZE --------------------------------------------------------------------------------------


def eradicize_rollout(world: FrazzledTable, seat: int) -> str:
    """ERADICIZE by rule, for rollouts: play the card least worth keeping
    (:func:`engine.frazzled.ai_eradicize.keep_value`), pick up only when nothing can be played; draw the
    pile top most worth keeping; tokens and blind picks are the timeout's (``default_action``)."""
    assert isinstance(world, EradicizeState)
    phase = world.phase
    if phase not in (Phase.PLAY, Phase.DRAW):
        return world.default_action(seat)
    tokens = world.tokens()
    colours, shapes = tokens.colours[seat], tokens.shapes[seat]
    if phase is Phase.DRAW:
        pile, _ = max(pile_tops(world), key=lambda top: keep_value(top[1], colours, shapes))
        return Draw(pile).format()
    cards = world.playable(seat)
    if not cards:
        return PICK_UP
    return PlayCard(min(cards, key=lambda card: keep_value(card, colours, shapes))).format()


# -- the search -------------------------------------------------------------------------------------


class SearchPlayer(AIPlayer):
    """The hard level: determinised Monte Carlo search over the normal player's moves (see the module's
    docstring).

    Parameters
    ----------
    base:
        The game's normal player: its choice is the first candidate (ties go to it), and it decides
        the phases in ``quiet`` and every decision with one legal move.
    rollout:
        The game's rollout policy.
    evaluate:
        The game's evaluation of the rollout's end for the seat (higher is better).
    worlds:
        Worlds drawn per decision (in batches; each batch halves the candidates).
    moves:
        At most this many rollout moves after a candidate.
    quiet:
        Phases the normal player decides alone.
    confidence:
        Another move replaces the normal player's choice only if its mean gain over it, world by world,
        exceeds this many standard errors (0: any gain).
    cpu_seconds:
        The guard: no batch of worlds starts past this much CPU time of the decision (seconds).
    """

    name = "frazzled-search"

    def __init__(
        self,
        base: AIPlayer,
        rollout: RolloutPolicy,
        evaluate: Evaluation,
        *,
        worlds: int,
        moves: int,
        quiet: frozenset[Phase] = frozenset({Phase.FAN, Phase.TOKEN, Phase.RULE}),
        confidence: float = 1.0,
        cpu_seconds: float = SEARCH_CPU_SECONDS,
    ) -> None:
        self.base = base
        self.rollout = rollout
        self.evaluate = evaluate
        self.worlds = worlds
        self.moves = moves
        self.quiet = quiet
        self.confidence = confidence
        self.cpu_seconds = cpu_seconds

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        codes = seen.legal_codes()
        choice = self.base.decide(seen, rng)
        world = seen.world
        assert isinstance(world, FrazzledTable)
        if len(codes) == 1 or world.phase in self.quiet or choice.startswith("set."):
            return choice
        candidates = [choice, *(code for code in codes if code != choice)]
        return self._search(seen, candidates, rng)

    def _search(self, seen: InformationSet, candidates: list[str], rng: random.Random) -> str:
        """``candidates[0]`` (the normal player's choice) unless another candidate does better by a clear
        margin: successive halving over sampled worlds, each alternative's gain over the choice measured
        world by world (module docstring); the best survivor replaces the choice only if its mean gain
        exceeds :attr:`confidence` standard errors."""
        seat = seen.seat
        guard = SearchGuard(self.cpu_seconds)
        choice, alive = candidates[0], candidates[1:]
        gains: dict[str, list[float]] = {code: [] for code in alive}
        batch = max(2, self.worlds // max(1, len(alive).bit_length()))
        drawn = 0
        while drawn < self.worlds and not (drawn and guard.spent()):
            for _ in range(min(batch, self.worlds - drawn)):
                world = seen.sample(rng)
                own = self._playout(world, seat, choice)
                for code in alive:
                    gains[code].append(self._playout(world, seat, code) - own)
                drawn += 1
            alive.sort(key=lambda code: -sum(gains[code]))  # stable: ties keep the engine's order
            if drawn < self.worlds and len(alive) > 1:
                alive = alive[: (len(alive) + 1) // 2]
        best = gains[alive[0]]
        mean = sum(best) / len(best)
        spread = (sum((gain - mean) ** 2 for gain in best) / max(1, len(best) - 1)) ** 0.5
        return alive[0] if mean > 0 and mean > self.confidence * spread / len(best) ** 0.5 else choice

    def _playout(self, world: FrazzledTable, seat: int, code: str) -> float:
        """``code`` in a copy of ``world``, then the rollout policy for every seat for at most
        :attr:`moves` moves (or to the game's end), rated by :attr:`evaluate` for ``seat``. Every candidate's
        copy starts with the world's generator in the same state (the same luck to come)."""
        game = world.copy()
        game.apply(seat, code)
        for _ in range(self.moves):
            if game.is_terminal():
                break
            mover = game.seats_to_act()[0]
            game.apply(mover, self.rollout(game, mover))
        return self.evaluate(game, seat)
