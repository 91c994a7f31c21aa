"""The hard level of MINIMIZE, TOKENIZE and ERADICIZE (issue 23): determinised Monte Carlo search with
rollouts, over the seat's honest worlds.

Method (flat Monte Carlo with successive halving, on determinisations: the "determinized search" of
Cowling, Powley and Whitehouse 2012, without a tree): the normal player's choice is the move to beat, every
other legal move a candidate. The search draws worlds consistent with what the seat has seen
(:meth:`engine.ai.core.InformationSet.sample`, never the state); in each world it plays the choice and
every candidate still in the race in copies, then every seat plays on with a fast rollout policy (one per
game, below: :func:`minimize_rollout`, :func:`tokenize_rollout`, :func:`eradicize_rollout`) for a number
of moves (MINIMIZE: or to the end of the round), and the game's evaluation rates the end for the seat. In
MINIMIZE a world's other hands are first improved over the turns their players took
(:func:`minimize_guess`): dealt at random, they would be worse than a player's hand ever is after a few
turns, and the search would misjudge every move that depends on them. Every candidate meets the same
worlds, and each copy starts with the world's generator in the same state (the same draws to come), so a
candidate's gain over the choice is measured world by world. After each batch of worlds the worse half of
the candidates drops out; at the end the best one replaces the choice only if its mean gain is more than
:attr:`SearchPlayer.confidence` standard errors above zero: a few noisy rollouts must not overrule a rule
player on a coin toss.

Budget: a fixed number of worlds per decision (so the decision is deterministic from the information set
and the generator), with a guard: past :data:`CPU_SECONDS` of the deciding thread's CPU time
(``time.thread_time``) no further batch starts (as :func:`engine.foist.ai.hard_player_for`). Decisions that
carry no choice worth a search (a single legal move, a blind fan pick, a set to declare, a token, a rule
card, MINIMIZE's challenge, which the normal player's own test decides) are the normal player's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.ai.core import AIPlayer, Evaluation, InformationSet, legal_codes
from engine.frazzled.actions import Discard, Draw
from engine.frazzled.ai_eradicize import keep_value
from engine.frazzled.ai_minimize import total
from engine.frazzled.deck import DECK, FOURTEEN_ONE, Card
from engine.frazzled.eradicize import PICK_UP, EradicizeState, Play
from engine.frazzled.minimize import FrazzledMinimizeState
from engine.frazzled.minimize_table import CHALLENGE
from engine.frazzled.table import ACTION_NUMBERS, FrazzledTable, Phase
from engine.frazzled.tokenize import KEEP, DeclareSet, TokenizeState

CPU_SECONDS = 0.09
"""The guard: no further batch of worlds starts past this much CPU time (seconds) of one decision."""

RolloutPolicy = Callable[[FrazzledTable, int], str]
"""A rollout move: ``policy(world, seat) -> code``, one of ``seat``'s legal codes in ``world`` (a sampled
world: the policy may read every hand in it)."""


def _card_of(code: str) -> Card:
    """The card of a ``<prefix>.<card id>`` code."""
    return DECK[int(code.rsplit(".", 1)[1])]


# -- MINIMIZE ---------------------------------------------------------------------------------------

CHALLENGE_AT = 2
"""A MINIMIZE rollout seat challenges when its hand scores at most this many points (1 fewer in the
final, where a lost challenge loses the game)."""


PRO_POINTS = (0, 0, 1, 3, 5, 5, 5, 5)
"""Pro points by how many cards share a number ("Aim and Scoring": two 1, three 3, four or more 5)."""


def quick_score(numbers: Sequence[int]) -> int:
    """A MINIMIZE hand's score without the bonus rules (points, lower is better): the range minus the pro
    points, the 14/1 cards read all as 1 or all as 14, whichever is lower (the rollouts' fast estimate of
    :func:`engine.frazzled.minimize_scoring.score_hand`)."""
    pro = 0
    for number in set(numbers):
        pro += PRO_POINTS[numbers.count(number)]
    plain = [number for number in numbers if number != FOURTEEN_ONE]
    if len(plain) == len(numbers):
        return max(plain) - min(plain) - pro
    if not plain:
        return -pro
    return min(max(plain) - 1, 14 - min(plain)) - pro


def minimize_rollout(world: FrazzledTable, seat: int) -> str:
    """MINIMIZE by rule, for rollouts: challenge with a low score (:data:`CHALLENGE_AT`, the bonus rules
    counted); draw the pile top and discard the card that leave the lowest :func:`quick_score` (an action
    card's discard costs a tenth of a point, to break ties towards a quiet one); on a 10 flip the actions
    card (it changes no score); pass the card whose loss leaves the lowest quick score; a blind pick takes
    the first position."""
    assert isinstance(world, FrazzledMinimizeState)
    phase = world.phase
    if phase is Phase.DRAW:
        hand = world.hand(seat)
        if (
            world.tokens(seat)
            and total(hand, world.rules_in_play()) <= CHALLENGE_AT - world.is_final
            and CHALLENGE in legal_codes(world, seat)
        ):
            return CHALLENGE
        numbers = [card.number for card in hand]
        best, best_score = "", 99
        for code in _draws(world):
            top = _top(world, code).number
            for index in range(len(numbers)):
                score = quick_score([*numbers[:index], *numbers[index + 1 :], top])
                if score < best_score:
                    best, best_score = code, score
        return best
    if phase is Phase.DISCARD:
        hand, drawn = world.hand(seat), world.drawn
        assert drawn is not None

        def cost(card: Card) -> float:
            kept = [other.number for other in hand if other != card]
            return quick_score([*kept, drawn.number]) + 0.1 * (card.number in ACTION_NUMBERS)

        return Discard(min(hand, key=cost)).format()
    return world.default_action(seat)  # a 10: flip the actions card; a fan: the first position left


def _draws(world: FrazzledTable) -> list[str]:
    """The draw codes of the piles that have cards."""
    return [Draw(index).format() for index in range(3) if world.pile(index)]


def _top(world: FrazzledTable, code: str) -> Card:
    """The face-up top of the pile a ``draw.<pile>`` code draws from."""
    return world.pile(int(code[5:]))[-1]


def minimize_horizon(start: FrazzledTable) -> Callable[[FrazzledTable], bool]:
    """MINIMIZE rollouts stop at the end of the round being played (who goes through is settled)."""
    assert isinstance(start, FrazzledMinimizeState)
    round_number = start.round
    return lambda world: world.round != round_number  # type: ignore[attr-defined]


IMPROVE_STEPS = 3
"""At most this many improving swaps for each other player's hand in a MINIMIZE world (one per turn it has
taken this round), as in the normal player's challenge test (``MinimizePlayer._opponent_score``)."""


def minimize_guess(
    world: FrazzledTable, other: FrazzledTable, seat: int, rng: random.Random
) -> FrazzledTable:
    """A MINIMIZE world whose other hands are dealt as the turns their players took would have left them:
    a sampled world deals the cards the seat has not seen at random, while a player has drawn and discarded
    to lower its score. The cards of a hand found in ``other`` (a second sample) too are taken as known
    (the seat saw them go in) and kept; each other player's unknown cards are improved by a greedy swap
    with a random unseen card per turn it has taken this round (at most :data:`IMPROVE_STEPS`), where the
    swap lowers its score (:meth:`~engine.frazzled.table.FrazzledTable.with_swaps`)."""
    assert isinstance(world, FrazzledMinimizeState)
    rules = world.rules_in_play()
    pool = [card for index in range(3) for card in world.pile(index)[:-1]] + list(world.set_aside)
    for player in world.playing():
        if player == seat:
            continue
        hand = list(world.hand(player))
        unknown = [card for card in hand if card not in other.hand(player)]
        steps = min(IMPROVE_STEPS, world.turns_taken(player), len(unknown), len(pool))
        score, swaps = total(hand, rules), []
        for new in rng.sample(pool, steps):
            for out in unknown:
                trial = [new if card == out else card for card in hand]
                trial_score = total(trial, rules)
                if trial_score < score:
                    hand, score = trial, trial_score
                    unknown.remove(out)
                    pool.remove(new)
                    swaps.append((out, new))
                    break
        if swaps:
            world = world.with_swaps(player, swaps)
    return world


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
        return max(_draws(world), key=lambda code: _mates(_top(world, code), hand, colours, shapes))
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
        return max(_draws(world), key=lambda code: keep_value(_top(world, code), colours, shapes))
    cards = world.playable(seat)
    if not cards:
        return PICK_UP
    return Play(min(cards, key=lambda card: keep_value(card, colours, shapes))).format()


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
    stop:
        ``stop(start)`` gives a test ``done(world)`` that ends a rollout early (MINIMIZE: the round is
        over), or ``None``.
    prepare:
        ``prepare(world, other, seat, rng)`` gives the world the search plays in, from a sampled world and
        another one drawn before it (MINIMIZE: :func:`minimize_guess`), or ``None``: the world as drawn.
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
        stop: Callable[[FrazzledTable], Callable[[FrazzledTable], bool]] | None = None,
        prepare: Callable[[FrazzledTable, FrazzledTable, int, random.Random], FrazzledTable] | None = None,
        quiet: frozenset[Phase] = frozenset({Phase.FAN, Phase.TOKEN, Phase.RULE}),
        confidence: float = 1.0,
        cpu_seconds: float = CPU_SECONDS,
    ) -> None:
        self.base = base
        self.rollout = rollout
        self.evaluate = evaluate
        self.worlds = worlds
        self.moves = moves
        self.stop = stop
        self.prepare = prepare
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
        if choice == CHALLENGE:
            return choice  # the normal player's challenge test models the other hands better
        candidates = [choice, *(code for code in codes if code != choice and code != CHALLENGE)]
        return self._search(seen, candidates, rng)

    def _search(self, seen: InformationSet, candidates: list[str], rng: random.Random) -> str:
        """``candidates[0]`` (the normal player's choice) unless another candidate does better by a clear
        margin: successive halving over sampled worlds, each alternative's gain over the choice measured
        world by world (module docstring); the best survivor replaces the choice only if its mean gain
        exceeds :attr:`confidence` standard errors."""
        seat = seen.seat
        deadline = time.thread_time() + self.cpu_seconds
        choice, alive = candidates[0], candidates[1:]
        gains: dict[str, list[float]] = {code: [] for code in alive}
        batch = max(2, self.worlds // max(1, len(alive).bit_length()))
        drawn = 0
        previous = seen.sample(rng) if self.prepare is not None else None
        while drawn < self.worlds and not (drawn and time.thread_time() > deadline):
            for _ in range(min(batch, self.worlds - drawn)):
                world = seen.sample(rng)
                if self.prepare is not None:
                    assert previous is not None
                    world, previous = self.prepare(world, previous, seat, rng), world
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
        :attr:`moves` moves (or to :attr:`stop`), rated by :attr:`evaluate` for ``seat``. Every candidate's
        copy starts with the world's generator in the same state (the same luck to come)."""
        game = world.copy()
        game.apply(seat, code)
        done = self.stop(world) if self.stop is not None else None
        for _ in range(self.moves):
            if game.is_terminal() or (done is not None and done(game)):
                break
            mover = game.seats_to_act()[0]
            game.apply(mover, self.rollout(game, mover))
        return self.evaluate(game, seat)
