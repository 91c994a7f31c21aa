"""The Deluxe Memory AI: a rule-based player with a perfect memory of what its seat has seen (the normal
level), and a determinised Monte Carlo search over the seat's worlds on top of it (the hard level).

Rules: ``docs/rules/memory.md`` (its "AI player" section describes the rule player, "Levels"
the search). The rule player reads only public queries of :class:`~engine.memory.state.MemoryState`:
:meth:`known_cards` for its own seat (the face-up cards, the cards ever revealed to all, and the cards it
looked at, followed through swaps: what a player with a perfect memory knows), :meth:`table_positions`,
:meth:`removed_cards`, :attr:`decision`, tokens, the Bank, kept pairs and who is out, and it chooses among
``state.legal_actions(seat)``. It never searches, so it needs no determinisation.

What the rule player (:class:`MemoryPlayer`) does:

* First look: a pair it knows (both cards seen, still on the table) with the best value for it, else an
  unseen card.
* Second look: the known partner of the first card when the match is worth having, else an unseen card.
* A non-match: pays to hide a card whose rank can still be matched while it has tokens to spare
  (``hide_reserve``), so that only it knows where that card lies.
* Player choices: each legal choice is scored by the token margin it leaves (its tokens minus the richest
  other player's, plus a quarter of its lead over the mean), kept 9s counted.
* Mixed Chart effects: it looks at unseen cards, reveals cards whose rank is dead or cards it already has
  to, reveals the cross with the most cards it has not seen (it plays again next), reveals for a Mixed 3
  only while a 3 can come up, copies the best effect with a King, buys a 7's turn only for a known pair
  worth more than 5 tokens, and never rearranges.

The search (:class:`MemorySearchPlayer`, on the games' shared flat Monte Carlo,
:class:`engine.ai.monte_carlo.FlatMonteCarlo`): at the decisions where the choice matters it lists a few
candidate moves (the rule player's own choice first; :func:`candidates`), then for each of a fixed number of
worlds drawn with :meth:`MemoryState.resample_hidden` (the cards the seat has never seen shuffled among their
positions, everything it has seen kept: ruling 29; every other seat remembers the positions it looked at; the
cards each other player knew and left alone kept apart in rank, :func:`left_alone`) it plays every candidate
on a copy of the world and the game forward for every seat (:func:`~engine.memory.playouts.playout`: cheap
rules for looks, non-matches, simple choices and most Mixed Chart effects, :class:`MemoryPlayer` for the
rest), to a horizon counted in turns, and scores the end with :func:`evaluate`. The candidate with the best
mean wins (a non-match's candidates credited :data:`HIDE_CREDIT` tokens a card put back face-down); the rule
player's choice wins ties. A kept 10 weighs :data:`SEARCH_OWN_TEN` tokens in its score (another player's
:data:`SEARCH_THEIR_TEN`), since the others leave their pairs alone while it keeps one (the playouts' looks
then are the rule player's, who waits), and a King may copy the 10. Every candidate meets the same worlds and
the same playout generator (common random numbers). It never reads the state: a world's other seats decide in
the playout from what they have seen in that world.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.ai.core import SEARCH_CPU_SECONDS, AIPlayer, InformationSet, legal_codes
from engine.ai.monte_carlo import FlatMonteCarlo, first_best
from engine.core import GameState
from engine.memory.actions import (
    Buy,
    ChooseCross,
    ChoosePlayer,
    ChooseSquare,
    CopyEffect,
    Done,
    EndTurn,
    Finish,
    Hide,
    Look,
    MemoryAction,
    Reveal,
    Show,
)
from engine.memory.cards import cross, is_black, is_joker, is_red, rank_of, square
from engine.memory.decisions import Decision, Phase, Purpose
from engine.memory.inference import left_alone
from engine.memory.playouts import playout
from engine.memory.state import MemoryState

# A rough worth, in tokens of margin, of the Mixed Chart effects that move no tokens at once.
CHART_WORTH = {1: 2.0, 2: 1.0, 3: 2.5, 4: 1.5, 5: 4.0, 6: 0.3, 7: 4.0, 8: 2.5, 9: 4.0, 10: 3.5}
# A pending decision of a Mixed Chart effect -> the rank whose effect it is (for the evaluation).
EFFECT_PHASES = {
    Phase.LOOK_SWAP: 2,
    Phase.REVEAL_UP_TO_FOUR: 3,
    Phase.SQUARE: 4,
    Phase.SQUARE_LOOK: 4,
    Phase.CROSS: 5,
    Phase.REVEAL_ANY: 6,
    Phase.KING: 13,
}
OPPONENT_WEIGHT = 0.25  # the weight of the lead over the mean opponent in the margin

KEPT_TEN_WORTH = 3.0
"""Tokens :func:`evaluate` counts per kept 10 (its own plus, another player's minus) for the greedy and easy
players."""

SEARCH_OWN_TEN = 20.0
SEARCH_THEIR_TEN = 10.0
"""Tokens the hard level's search counts per kept 10 of its own (plus) and per other player's (minus) at the
end of a playout. A kept 10 is worth far more than the 3 tokens of the greedy evaluation: while another
player keeps one, a sensible player (the rule player) leaves its pairs alone as long as it has cards to
learn, since the 10 would take the match's effect (ruling 14), so the keeper makes pairs while the others
look and pay to hide. Why these weights: ``docs/rules/memory.md``, "The kept 10"."""

HIDE_CREDIT = 0.5
"""Tokens the hard level credits a card it puts back face-down after a non-match: what keeping the
card to itself is worth past the search's horizon. A playout ends at the seat's next turn, so it counts the
token paid and the others' use of a shown card, but hardly the pairs a hidden card brings the seat later."""


class MemoryPlayer(AIPlayer):
    """The Deluxe Memory AI (see the module docstring).

    Parameters
    ----------
    hide_reserve:
        The fewest tokens it keeps after paying to hide a non-matching card.
    """

    name = "memory-rules"

    def __init__(self, hide_reserve: int = 6) -> None:
        self.hide_reserve = hide_reserve

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        """One legal code for ``seen.seat``; from the seat's information only.

        Raises
        ------
        ValueError
            If ``seat`` has no legal action.
        """
        state, seat = seen.world, seen.seat
        codes = legal_codes(state, seat)
        if len(codes) == 1 or not isinstance(state, MemoryState):
            return codes[0]
        decision = state.decision
        if decision is None:
            return codes[0]
        legal: dict[str, MemoryAction] = {}
        for code in codes:
            try:
                legal[code] = MemoryAction.parse(code)
            except ValueError:
                continue
        mind = Mind(state, seat)
        phase = decision.phase
        chosen: str | None = None
        if phase is Phase.PICK_FIRST:
            chosen = self._first_look(mind, legal, rng)
        elif phase is Phase.PICK_SECOND:
            chosen = self._second_look(mind, legal, decision.first_pick, rng)
        elif phase is Phase.HIDE:
            chosen = self._hide(mind, legal)
        elif phase is Phase.TARGET:
            chosen = self._target(mind, legal, decision.purpose, decision.amount, decision.chosen)
        elif phase in (Phase.LOOK_SWAP, Phase.SQUARE_LOOK):
            chosen = self._look_unseen(mind, legal, rng)
        elif phase is Phase.REVEAL_ONE:
            chosen = self._reveal_least(mind, legal, rng)
        elif phase is Phase.REVEAL_UP_TO_FOUR:
            chosen = self._reveal_for_three(mind, legal, decision.chosen, rng)
        elif phase is Phase.SQUARE:
            chosen = self._area(mind, legal, ChooseSquare)
        elif phase is Phase.CROSS:
            chosen = self._area(mind, legal, ChooseCross)
        elif phase is Phase.KING:
            chosen = max(
                (code for code, action in legal.items() if isinstance(action, CopyEffect)),
                key=lambda code: mind.chart_worth(legal[code].rank),  # type: ignore[attr-defined]
                default=None,
            )
        elif phase is Phase.BUY_SEVEN:
            best = max((value for value, _ in mind.known_pairs()), default=0.0)
            wanted = Buy() if best > 5.5 else EndTurn()
            chosen = wanted.format() if wanted.format() in legal else None
        if chosen is None:
            # Done looking, done rearranging, stop revealing (Mixed 6), or a decision it does not know.
            chosen = Done().format() if Done().format() in legal else codes[0]
        return chosen

    # -- looks -------------------------------------------------------------------------------------

    def _first_look(self, mind: Mind, legal: dict[str, MemoryAction], rng: random.Random) -> str | None:
        pairs = mind.known_pairs()
        if pairs:
            value, (first, _) = max(pairs, key=lambda item: item[0])
            code = Look(first).format()
            # A match another player's kept 10 would take waits while there is something left to learn;
            # once every card is known it is made anyway (it uses the 10 up, and the game goes on).
            if (value > 0 or not mind.unseen) and code in legal:
                return code
        return self._look_unseen(mind, legal, rng)

    def _second_look(
        self, mind: Mind, legal: dict[str, MemoryAction], first: int | None, rng: random.Random
    ) -> str | None:
        if first is None or first not in mind.known:
            return self._look_unseen(mind, legal, rng)
        card = mind.known[first]
        partners = [p for p, other in mind.known.items() if p != first and rank_of(other) == rank_of(card)]
        if partners:
            best = max(partners, key=lambda p: mind.pair_worth(card, mind.known[p]))
            if (mind.pair_worth(card, mind.known[best]) > 0 or not mind.unseen) and Look(
                best
            ).format() in legal:
                return Look(best).format()
        if mind.match_harms() and mind.unseen:
            # A match would go to another player's kept 10: look at a card that cannot match.
            for code, action in legal.items():
                if isinstance(action, Look) and action.position in mind.known:
                    if rank_of(mind.known[action.position]) != rank_of(card):
                        return code
        return self._look_unseen(mind, legal, rng)

    def _look_unseen(self, mind: Mind, legal: dict[str, MemoryAction], rng: random.Random) -> str | None:
        """A look at a card it has not seen (random among them), else the first look offered."""
        unseen = [
            code
            for code, action in legal.items()
            if isinstance(action, Look) and action.position in mind.unseen
        ]
        if unseen:
            return rng.choice(unseen)
        looks = [code for code, action in legal.items() if isinstance(action, Look)]
        return looks[0] if looks else None

    # -- a non-match ---------------------------------------------------------------------------------

    def _hide(self, mind: Mind, legal: dict[str, MemoryAction]) -> str | None:
        worth_hiding = [
            action.position
            for action in legal.values()
            if isinstance(action, Hide)
            and action.position is not None
            and mind.rank_alive(rank_of(mind.known.get(action.position, -1)), 2)
        ]
        spare = mind.tokens[mind.seat] - self.hide_reserve
        if len(worth_hiding) >= 2 and spare >= 2 and Hide(None).format() in legal:
            return Hide(None).format()
        if worth_hiding and spare >= 1:
            best = max(worth_hiding, key=lambda p: rank_of(mind.known[p]))
            if Hide(best).format() in legal:
                return Hide(best).format()
        return Show().format() if Show().format() in legal else None

    # -- choosing players ------------------------------------------------------------------------------

    def _target(
        self,
        mind: Mind,
        legal: dict[str, MemoryAction],
        purpose: Purpose | None,
        amount: int,
        chosen: Sequence[int],
    ) -> str | None:
        targets = [action.seat for action in legal.values() if isinstance(action, ChoosePlayer)]
        if not targets or purpose is None:
            return None
        done = Done().format() in legal
        scored: list[tuple[float, str]] = []
        if done:
            scored.append((mind.margin(mind.tokens, mind.shields), Done().format()))
        for target in targets:
            value = mind.best_after_choice(purpose, amount, list(chosen), target)
            scored.append((value, ChoosePlayer(target).format()))
        return max(scored, key=lambda item: item[0])[1]

    # -- reveals and areas -------------------------------------------------------------------------------

    def _reveal_least(self, mind: Mind, legal: dict[str, MemoryAction], rng: random.Random) -> str | None:
        """A forced reveal: a known card whose rank is dead, else an unseen card, else any known card."""
        reveals = [action.position for action in legal.values() if isinstance(action, Reveal)]
        dead = [p for p in reveals if p in mind.known and not mind.rank_alive(rank_of(mind.known[p]), 2)]
        if dead:
            return Reveal(dead[0]).format()
        unseen = [p for p in reveals if p in mind.unseen]
        if unseen:
            return Reveal(rng.choice(unseen)).format()
        return Reveal(reveals[0]).format() if reveals else None

    def _reveal_for_three(
        self, mind: Mind, legal: dict[str, MemoryAction], revealed: Sequence[int], rng: random.Random
    ) -> str | None:
        """Mixed 3: reveal a known 3 (or the third card of a kind), else unseen cards while a 3 may still
        turn up; stop once the loss is won."""
        ranks = Counter(rank_of(card) for card in revealed)
        if ranks[3] or any(count >= 3 for rank, count in ranks.items() if rank):
            return None  # won: stop
        reveals = [action.position for action in legal.values() if isinstance(action, Reveal)]
        for p in reveals:
            if p in mind.known:
                rank = rank_of(mind.known[p])
                if rank == 3 or (rank and ranks[rank] == 2):
                    return Reveal(p).format()
        if mind.unseen_count(3) > 0:
            unseen = [p for p in reveals if p in mind.unseen]
            if unseen:
                return Reveal(rng.choice(unseen)).format()
        return None

    def _area(self, mind: Mind, legal: dict[str, MemoryAction], kind: type) -> str | None:
        """The square or cross with the most cards it has not seen (ties: the first offered)."""
        best_code, best_count = None, -1
        for code, action in legal.items():
            if not isinstance(action, kind):
                continue
            area = square(action.position) if isinstance(action, ChooseSquare) else cross(action.position)
            count = sum(1 for p in area if p in mind.unseen)
            if count > best_count:
                best_code, best_count = code, count
        return best_code


class Mind:
    """What the seat knows, worked out once per decision from public queries and its own memory."""

    def __init__(self, state: MemoryState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.num_seats = state.num_seats
        self.known = state.known_cards(seat)
        self.on_table = state.table_positions()
        self.unseen = {p for p in self.on_table if p not in self.known}
        self.tokens = [state.tokens(other) for other in range(state.num_seats)]
        self.out = [state.is_out(other) for other in range(state.num_seats)]
        kept = [[as_rank for as_rank, _ in state.kept_pairs(other)] for other in range(state.num_seats)]
        self.shields = [ranks.count(9) for ranks in kept]
        self.tens = [ranks.count(10) for ranks in kept]
        self._effects: dict[tuple[Purpose, int], float] = {}
        self._chart: dict[int, float] = {}
        self.bank = state.bank
        self.underdogs = state.options.underdogs
        self.simplicity = state.options.simplicity
        total = Counter({rank: 4 for rank in range(1, 14)})
        if state.options.jokin_around:
            total[0] = 2
        total.subtract(rank_of(card) for card in state.removed_cards())
        self.on_table_by_rank = total  # cards of each rank still on the table
        self.known_by_rank = Counter(rank_of(card) for card in self.known.values())

    # -- knowledge --------------------------------------------------------------------------------------

    def rank_alive(self, rank: int, at_least: int) -> bool:
        """True if at least ``at_least`` cards of ``rank`` are still on the table."""
        return rank >= 0 and self.on_table_by_rank[rank] >= at_least

    def unseen_count(self, rank: int) -> int:
        """Cards of ``rank`` on the table that the seat has not seen."""
        return self.on_table_by_rank[rank] - self.known_by_rank[rank]

    def known_pairs(self) -> list[tuple[float, tuple[int, int]]]:
        """Every pair of known cards of one rank on the table, with its worth, as ``(worth, (p, q))``."""
        by_rank: dict[int, list[int]] = {}
        for p, card in self.known.items():
            by_rank.setdefault(rank_of(card), []).append(p)
        pairs = []
        for positions in by_rank.values():
            for i, p in enumerate(positions):
                for q in positions[i + 1 :]:
                    pairs.append((self.pair_worth(self.known[p], self.known[q]), (p, q)))
        return pairs

    def match_harms(self) -> bool:
        """True when another player's kept 10 would take the effect of this seat's match (ruling 14)."""
        return self.state.match_goes_to_a_kept_ten(self.seat)

    # -- worth -----------------------------------------------------------------------------------------

    def margin(self, tokens: Sequence[int], shields: Sequence[int]) -> float:
        """The seat's tokens minus the richest other player's, plus ``OPPONENT_WEIGHT`` times its lead over
        the mean of the others in the game; a kept 9 counts 3 tokens."""
        worth = [tokens[other] + 3 * shields[other] for other in range(self.num_seats)]
        others = [
            worth[other] for other in range(self.num_seats) if other != self.seat and not self.out[other]
        ]
        if not others:
            return float(worth[self.seat])
        mine = worth[self.seat]
        return mine - max(others) + OPPONENT_WEIGHT * (mine - sum(others) / len(others))

    def _after_tokens(
        self, purpose: Purpose, amount: int, chosen: list[int], target: int
    ) -> tuple[list, list]:
        """Tokens and kept 9s after a choice that completes the effect (``chosen`` + ``target``)."""
        tokens, shields = list(self.tokens), list(self.shields)
        bank = self.bank

        def lose(who: int, count: int) -> int:
            if count <= 0 or tokens[who] == 0:
                return 0
            if shields[who]:
                shields[who] -= 1
                return 0
            lost = min(count, tokens[who])
            tokens[who] -= lost
            return lost

        if purpose in (Purpose.BLACK, Purpose.ACE_LOSE, Purpose.THREE_LOSE):
            lose(target, amount or 1)
        elif purpose in (Purpose.RED, Purpose.ACE_GAIN):
            tokens[target] += min(amount or 1, bank)
        elif purpose is Purpose.JACK and chosen:
            first, second = chosen[0], target
            richer, poorer = (first, second) if tokens[first] >= tokens[second] else (second, first)
            each = (tokens[richer] + tokens[poorer]) // 2
            moved = each - tokens[poorer]
            if lose(richer, tokens[richer] - each):
                tokens[poorer] += moved
        elif purpose in (Purpose.QUEEN_RECEIVER, Purpose.GIVE_RECEIVER) and chosen:
            tokens[target] += lose(chosen[0], amount)
        return tokens, shields

    def best_after_choice(self, purpose: Purpose, amount: int, chosen: list[int], target: int) -> float:
        """The margin after choosing ``target``, assuming its own best later choices for two-player
        effects (the Jack's second player, the gift's receiver)."""
        if purpose in (Purpose.JACK, Purpose.QUEEN_GIVER, Purpose.GIVE_GIVER) and not (
            purpose is Purpose.JACK and chosen
        ):
            follow = {
                Purpose.JACK: Purpose.JACK,
                Purpose.QUEEN_GIVER: Purpose.QUEEN_RECEIVER,
                Purpose.GIVE_GIVER: Purpose.GIVE_RECEIVER,
            }[purpose]
            values = [
                self.margin(*self._after_tokens(follow, amount, [target], second))
                for second in range(self.num_seats)
                if second != target and not self.out[second]
            ]
            return max(values, default=self.margin(self.tokens, self.shields))
        return self.margin(*self._after_tokens(purpose, amount, chosen, target))

    def _best_effect(self, purpose: Purpose, amount: int) -> float:
        """The gain in margin of the best choice for an effect that starts with choosing a player."""
        key = (purpose, amount)
        if key not in self._effects:
            self._effects[key] = self._work_out_effect(purpose, amount)
        return self._effects[key]

    def _work_out_effect(self, purpose: Purpose, amount: int) -> float:
        now = self.margin(self.tokens, self.shields)
        others_only = purpose in (Purpose.BLACK, Purpose.ACE_LOSE, Purpose.THREE_LOSE)
        values = [
            self.best_after_choice(purpose, amount, [], target)
            for target in range(self.num_seats)
            if not self.out[target] and not (others_only and target == self.seat)
        ]
        return max(values, default=now) - now

    def chart_worth(self, rank: int) -> float:
        """What the Mixed Chart effect of ``rank`` is worth to the seat, in tokens of margin."""
        if rank not in self._chart:
            self._chart[rank] = self._work_out_chart(rank)
        return self._chart[rank]

    def _work_out_chart(self, rank: int) -> float:
        if rank == 11:
            return self._best_effect(Purpose.JACK, 0)
        if rank == 12:
            return self._best_effect(Purpose.QUEEN_GIVER, 6)
        if rank == 13:
            return max(self.chart_worth(other) for other in range(1, 13))
        if rank == 1:
            return self._best_effect(Purpose.ACE_GAIN, 1) + self._best_effect(Purpose.ACE_LOSE, 1) + 0.5
        if rank == 3:
            return CHART_WORTH[3] if self.unseen_count(3) or self.known_by_rank[3] else 0.5
        return CHART_WORTH.get(rank, 0.0)

    def pair_worth(self, one: int, two: int) -> float:
        """What matching ``one`` and ``two`` is worth to the seat (negative when another player's kept 10
        would take the effect)."""
        rank = rank_of(one)
        if is_joker(one):
            worth = 0.3
        elif is_black(one) and is_black(two):
            worth = self._best_effect(Purpose.BLACK, rank)
        elif is_red(one) and is_red(two):
            worth = self._best_effect(Purpose.RED, rank)
        elif self.simplicity:
            worth = self._best_effect(Purpose.GIVE_GIVER, rank)
        else:
            worth = self.chart_worth(rank)
        worth += 0.5  # a match also takes a pair off the table, towards the end
        return -worth if self.match_harms() else worth


def evaluate(
    state: GameState, seat: int, own_ten: float = KEPT_TEN_WORTH, their_ten: float = KEPT_TEN_WORTH
) -> float:
    """The position's worth to ``seat``, higher is better, in tokens: its tokens minus the richest other
    player's (plus a quarter of its lead over the mean of the others; a kept 9 counts 3 tokens), plus the
    worth of a decision of its own still to come (a pending player choice: its best outcome; a Mixed Chart
    effect: its worth; an extra turn; at its second look, a known card matching the first: the pair's
    worth), ``own_ten`` tokens per kept 10 of its own less ``their_ten`` per other player's (3 and 3 for the
    greedy and easy players; the hard level's search weighs them more: :data:`SEARCH_OWN_TEN`), and 0.05 per
    card off the table (so that a tie goes to making a match). A finished game: 100 per share of the win
    plus the margin. Reads only public queries and ``seat``'s own :meth:`~MemoryState.known_cards`."""
    assert isinstance(state, MemoryState)
    mind = Mind(state, seat)
    value = mind.margin(mind.tokens, mind.shields)
    if state.is_terminal():
        standings = state.standings()
        winners = [standing.seat for standing in standings if standing.rank == 1]
        return value + (100.0 / len(winners) if seat in winners else 0.0)
    value += 0.05 * (54 - len(mind.on_table))  # matches bring the end nearer: ties go to making one
    value += own_ten * mind.tens[seat] - their_ten * (sum(mind.tens) - mind.tens[seat])
    decision = state.decision
    if decision is not None and decision.seat == seat:
        if decision.phase in EFFECT_PHASES:
            value += mind.chart_worth(EFFECT_PHASES[decision.phase])
        elif decision.phase is Phase.PICK_FIRST and state.history and state.history[-1][0] == seat:
            value += CHART_WORTH[7]  # its own turn again straight away: an extra turn
        if decision.phase is Phase.TARGET and decision.purpose is not None:
            targets = [
                action.seat
                for legal in state.legal_actions(seat)
                if isinstance(action := MemoryAction.parse(legal.code), ChoosePlayer)
            ]
            outcomes = [
                mind.best_after_choice(decision.purpose, decision.amount, list(decision.chosen), target)
                for target in targets
            ]
            value = max([value, *outcomes])
        elif decision.phase is Phase.PICK_SECOND and decision.first_pick in mind.known:
            card = mind.known[decision.first_pick]
            partners = [
                mind.pair_worth(card, other)
                for p, other in mind.known.items()
                if p != decision.first_pick and rank_of(other) == rank_of(card)
            ]
            value += max([0.0, *partners])
    return value


# -- the hard level: a search over the seat's worlds --------------------------------------------------


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
    hide_credit:
        Tokens added to a non-match's candidate per card it puts back face-down (:data:`HIDE_CREDIT`).
    own_ten, their_ten:
        Tokens a playout's end is credited per kept 10 of the seat's own and debited per other player's
        (:data:`SEARCH_OWN_TEN`, :data:`SEARCH_THEIR_TEN`).
    """

    name = "memory-search"

    def __init__(
        self,
        rollouts: int = 24,
        min_worlds: int = 4,
        max_worlds: int = 16,
        horizon: int = 4,
        cpu_seconds: float | None = SEARCH_CPU_SECONDS,
        hide_credit: float = HIDE_CREDIT,
        own_ten: float = SEARCH_OWN_TEN,
        their_ten: float = SEARCH_THEIR_TEN,
    ) -> None:
        self.rollouts = rollouts
        self.hide_credit = hide_credit
        self.own_ten = own_ten
        self.their_ten = their_ten
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
        apart = left_alone(world, seat)
        search = FlatMonteCarlo(
            candidates=choices,
            # Every candidate meets the world and the same playout generator (common random numbers).
            determinise=lambda number, rng: (world.resample_hidden(seat, rng, apart), rng.getrandbits(64)),
            playout=lambda sampled, code, rng: self._playout(sampled[0], seat, code, sampled[1]),
            evaluate=lambda game: evaluate(game, seat, self.own_ten, self.their_ten),
            worlds=max(self.min_worlds, min(self.max_worlds, self.rollouts // len(choices))),
            min_worlds=self.min_worlds,
            cpu_seconds=self.cpu_seconds,
        )
        result = search.run(rng)
        scores = [
            total + self._hide_credit(code) * result.worlds
            for code, total in zip(choices, result.totals, strict=True)
        ]
        return choices[first_best(scores)]

    def _playout(self, world: MemoryState, seat: int, code: str, playout_seed: int) -> MemoryState:
        """``code`` played for ``seat`` in a copy of ``world``, then :func:`~engine.memory.playouts.playout`
        to :attr:`horizon` with a generator seeded with ``playout_seed``: the position reached (``world``
        is not changed)."""
        game = world.copy()
        game.apply(seat, code)
        playout(game, self.rules, self.horizon, random.Random(playout_seed))
        return game

    def _hide_credit(self, code: str) -> float:
        """Tokens ``code`` is credited per world searched on top of its playouts' scores: ``hide_credit`` per
        card a non-match's candidate puts back face-down (two for ``hide.both``), else 0."""
        if not code.startswith(f"{Hide.verb}."):
            return 0.0
        action = MemoryAction.parse(code)
        assert isinstance(action, Hide)
        return self.hide_credit * (2 if action.position is None else 1)


def candidates(
    world: MemoryState, seat: int, decision: Decision, codes: list[str], rule: str, rng: random.Random
) -> list[str]:
    """The moves the search weighs at ``decision`` (legal codes, ``rule`` first, no repeats).

    - First look: the rule's, the first card of each of the two best pairs the seat knows, one card it has
      not seen (at random; none if the rule's look is one), and ending the game where it may (Underdogs).
    - Second look: the rule's, the best known partner of the first card, and one unseen card (as above).
    - Hiding a non-match, choosing a player, the 7's offer: every legal move.
    - The King: the four effects the rule player rates best, and the 10 (kept as a 10, ruling 23).
    """
    legal = set(codes)
    mind = Mind(world, seat)
    phase = decision.phase
    found = [rule]
    looks = [MemoryAction.parse(code) for code in codes if code.startswith("look.")]
    unseen = sorted(action.position for action in looks if action.position in mind.unseen)  # type: ignore[attr-defined]
    if rule.startswith("look.") and MemoryAction.parse(rule).position in mind.unseen:  # type: ignore[attr-defined]
        unseen = []  # the rule's look is at an unseen card already: it stands for them
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
        if card is not None:
            partners = [p for p in mind.known if p != first and rank_of(mind.known[p]) == rank_of(card)]
            if partners:
                best = max(partners, key=lambda p: mind.pair_worth(card, mind.known[p]))
                found.append(Look(best).format())
        if unseen:
            found.append(Look(rng.choice(unseen)).format())
    elif phase in (Phase.HIDE, Phase.TARGET, Phase.BUY_SEVEN):
        found.extend(codes)
    elif phase is Phase.KING:
        copies = [code for code in codes if code.startswith("copy.")]
        ranked = sorted(copies, key=lambda code: -mind.chart_worth(MemoryAction.parse(code).rank))  # type: ignore[attr-defined]
        found.extend(ranked[:4])
        found.append(CopyEffect(10).format())  # a kept 10 (ruling 23): the search weighs it (SEARCH_OWN_TEN)
    result: list[str] = []
    for code in found:
        if code in legal and code not in result:
            result.append(code)
    return result


def player_for(game_key: str) -> MemoryPlayer:
    """The AI that sits at Deluxe Memory tables."""
    return MemoryPlayer()


def hard_player_for(game_key: str) -> MemorySearchPlayer:
    """The hard level at Deluxe Memory tables: :class:`MemorySearchPlayer` (a determinised Monte Carlo search
    over the seat's worlds, within :data:`~engine.ai.core.SEARCH_CPU_SECONDS` a decision)."""
    return MemorySearchPlayer()
