"""What Deluxe Memory's moves do: a turn's two looks, a non-match put back, a match's pair (black, red,
mixed, Jokers) and the Mixed Chart's effects.

Rules source: ``shared/seeds/004_661a3fd4e50c3a3d.txt`` (quoted in each method's docstring); rulings of
``docs/rules/memory.md`` are cited as "ruling N". Each effect changes the table and queues the decisions
it asks for as :class:`~engine.memory.decisions.Step` values; which actions answer them, and the order of
turns, are :class:`~engine.memory.state.MemoryState`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.memory import words
from engine.memory.cards import cross, is_black, is_joker, is_red, rank_of, square
from engine.memory.decisions import QUEEN_GIFT, REARRANGING, THREE_LOSS, Phase, Purpose, Step
from engine.memory.table import Kept, MemoryTable


class MemoryEffects(MemoryTable):
    """The table with what looks, pairs and the Mixed Chart do to it (see :mod:`engine.memory.table` for
    the layers)."""

    # -- the turn's two looks -----------------------------------------------------------------------

    def _pick_first(self, step: Step, position: int) -> None:
        self._flash = []
        self._shown = []
        self._picks = [position]
        self._picked_face_down = [position not in self._face_up]
        self._look(step.seat, position)
        self._say(step.seat, words.looks_at([position]))
        self._steps[0] = Step(Phase.PICK_SECOND, step.seat)

    def _pick_second(self, step: Step, position: int) -> None:
        first = self._picks[0]
        self._picks.append(position)
        self._picked_face_down.append(position not in self._face_up)
        self._look(step.seat, position)
        one, two = self._grid[first], self._grid[position]
        assert one is not None and two is not None
        self._steps.pop(0)
        if rank_of(one) != rank_of(two):
            self._say(step.seat, words.no_match(position))
            self._steps.insert(0, Step(Phase.HIDE, step.seat))
            return
        shown = words.match_shown(first, one, position, two)
        self._shown.append(shown)
        self._say(step.seat, words.shows_match(position, shown))
        self._remove([first, position])
        self._picks = []
        self._picked_face_down = []
        self._resolve_match(step.seat, (one, two))

    # -- a non-match -----------------------------------------------------------------------------------

    def _hide_limits(self, seat: int) -> list[str]:
        """Why a card of a non-match may not be put back face-down (ruling 9), for the table to say."""
        hideable = self._hideable()
        stayed_up = [p for p in self._picks if p not in hideable]
        return words.hide_limits(stayed_up, self._tokens[seat], len(hideable), self.options.underdogs)

    def _show_picks(self, seat: int, hidden: list[int], why: Sequence[str] = ()) -> None:
        """A non-match goes back face-up, except the cards paid for ("put them back ... face-up"); ``why``
        says what kept a card from being hidden (ruling 9)."""
        shown = [p for p in self._picks if p not in hidden]
        for p in shown:
            self._face_up.add(p)
            self._reveal(p)
        cards = [(p, self._grid[p]) for p in shown]
        self._say(seat, words.pays_to_hide(hidden, cards, why))  # type: ignore[arg-type]

    def _put_back(self, step: Step, hidden: list[int]) -> None:
        self._steps.pop(0)
        # "You must give one token to the bank for each card that you don't reveal" (a payment, ruling 9).
        self._tokens[step.seat] -= len(hidden)
        self._bank += len(hidden)
        self._show_picks(step.seat, hidden)

    # -- pairs and the Mixed Chart -----------------------------------------------------------------------

    def _resolve_match(self, matcher: int, pair: tuple[int, int]) -> None:
        """Black, red, mixed (Mixed Chart or Simplicity) or Jokers; a kept 10 of another player takes the
        effect (ruling 14)."""
        resolver = matcher
        ten = self._ten_taking_match_of(matcher)
        if ten is not None:
            self._kept.remove(ten)
            self._discard.extend(ten.cards)
            resolver = ten.seat
            self._say(resolver, words.discards_ten(ten.cards))
        one, two = pair
        value = rank_of(one)
        if is_joker(one):
            self._discard.extend(pair)
            self._say(resolver, words.REARRANGES)
            self._steps.insert(0, Step(Phase.REARRANGE, resolver))
        elif is_black(one) and is_black(two):
            self._discard.extend(pair)
            self._steps.insert(0, Step(Phase.TARGET, resolver, purpose=Purpose.BLACK, amount=value))
        elif is_red(one) and is_red(two):
            self._discard.extend(pair)
            self._steps.insert(0, Step(Phase.TARGET, resolver, purpose=Purpose.RED, amount=value))
        elif self.options.simplicity:
            self._discard.extend(pair)
            self._steps.insert(0, Step(Phase.TARGET, resolver, purpose=Purpose.GIVE_GIVER, amount=value))
        else:
            self._chart(resolver, value, pair)

    def _chart(self, seat: int, rank: int, pair: tuple[int, ...]) -> None:
        """Queue the Mixed Chart effect of ``rank`` for ``seat`` (the pair is kept by a 9 or a 10)."""
        self._say(seat, words.resolves_chart(rank))
        if rank in (9, 10):
            assert len(pair) == 2
            self._kept.append(Kept(seat, rank, (pair[0], pair[1])))
            return
        if rank == 13:  # the King's pair waits for the copied effect: a copied 9 or 10 keeps it
            self._steps.insert(0, Step(Phase.KING, seat, pair=tuple(pair)))
            return
        self._discard.extend(pair)
        steps: list[Step] = []
        if rank == 1:
            steps = [
                Step(Phase.TARGET, seat, purpose=Purpose.ACE_GAIN, amount=1),
                Step(Phase.TARGET, seat, purpose=Purpose.ACE_LOSE, amount=1),
                Step(Phase.REVEAL_ONE, seat),
            ]
        elif rank == 2:
            steps = [Step(Phase.LOOK_SWAP, seat)]
        elif rank == 3:
            steps = [Step(Phase.REVEAL_UP_TO_FOUR, seat)]
        elif rank == 4:
            steps = [Step(Phase.SQUARE, seat)]
        elif rank == 5:
            steps = [Step(Phase.CROSS, seat)]
            self._extra.append((seat, False))
        elif rank == 6:
            steps = [Step(Phase.REVEAL_ANY, seat)]
        elif rank == 7:
            self._extra.append((seat, True))
        elif rank == 8:
            victim = self._next_in_game(seat)  # "the next player": the one to the left (ruling 16)
            self._skips[victim] += 1
            self._say(seat, words.skips(victim))
        elif rank == 11:
            steps = [Step(Phase.TARGET, seat, purpose=Purpose.JACK)]
        elif rank == 12:
            steps = [Step(Phase.TARGET, seat, purpose=Purpose.QUEEN_GIVER, amount=QUEEN_GIFT)]
        self._steps[0:0] = steps

    def _choose_player(self, step: Step, target: int) -> None:
        seat = step.seat
        purpose = step.purpose
        assert purpose is not None
        if purpose is Purpose.BLACK:
            self._steps.pop(0)
            lost = self._lose(target, step.amount)
            self._say(seat, words.tokens_moved(purpose, target, lost))
        elif purpose is Purpose.RED:
            self._steps.pop(0)
            gained = self._gain(target, step.amount)
            self._say(seat, words.tokens_moved(purpose, target, gained))
        elif purpose is Purpose.ACE_GAIN:
            self._steps.pop(0)
            gained = self._gain(target, 1)
            self._say(seat, words.tokens_moved(purpose, target, gained))
        elif purpose is Purpose.ACE_LOSE:
            self._steps.pop(0)
            lost = self._lose(target, 1)
            self._say(seat, words.tokens_moved(purpose, target, lost))
        elif purpose is Purpose.THREE_LOSE:
            step.chosen.append(target)
            lost = self._lose(target, THREE_LOSS)
            self._say(seat, words.tokens_moved(purpose, target, lost))
            if len(step.chosen) == 3:
                self._steps.pop(0)
        elif purpose is Purpose.JACK:
            step.chosen.append(target)
            if len(step.chosen) == 2:
                self._steps.pop(0)
                self._even_out(seat, step.chosen[0], step.chosen[1])
        elif purpose in (Purpose.QUEEN_GIVER, Purpose.GIVE_GIVER):
            step.chosen.append(target)
            step.purpose = Purpose.QUEEN_RECEIVER if purpose is Purpose.QUEEN_GIVER else Purpose.GIVE_RECEIVER
        else:  # QUEEN_RECEIVER, GIVE_RECEIVER
            self._steps.pop(0)
            giver = step.chosen[0]
            given = self._lose(giver, step.amount, to_bank=False)
            self._tokens[target] += given
            self._say(seat, words.tokens_moved(purpose, target, given, giver))

    def _even_out(self, seat: int, first: int, second: int) -> None:
        """Mixed Jack: both end with half their total; an odd token goes to the Bank (rulings 13 and 24)."""
        richer, poorer = (first, second) if self._tokens[first] >= self._tokens[second] else (second, first)
        total = self._tokens[richer] + self._tokens[poorer]
        each, odd = divmod(total, 2)
        moved = each - self._tokens[poorer]
        loss = self._tokens[richer] - each
        lost = self._lose(richer, loss, to_bank=False)
        if lost:
            self._tokens[poorer] += moved
            self._bank += odd
        self._say(seat, words.evens_out(first, second, self._tokens[first], self._tokens[second]))

    def _look_to_swap(self, step: Step, position: int) -> None:
        """Mixed 2: "Look at two cards. Swap their positions." """
        step.positions.append(position)
        self._look(step.seat, position)
        self._say(step.seat, words.looks_at([position]))
        if len(step.positions) == 2:
            self._steps[0] = Step(Phase.MEMORISE, step.seat)
            self._swap(*step.positions)
            self._say(step.seat, words.swaps(*step.positions))

    def _reveal_one_of_four(self, step: Step, position: int) -> None:
        """Mixed 3: "Reveal up to four cards." """
        step.positions.append(position)
        step.chosen.append(self._grid[position])  # type: ignore[arg-type]
        self._say(step.seat, words.reveals([self._reveal(position)]))
        if len(step.positions) == 4:
            self._steps.pop(0)
            self._after_three(step)

    def _after_three(self, step: Step) -> None:
        """Mixed 3: "If you reveal a 3, or three of a kind, choose up to three players to lose three
        tokens"."""
        ranks = Counter(rank_of(card) for card in step.chosen)
        if ranks[3] or any(count >= 3 for rank, count in ranks.items() if rank):
            self._steps.insert(
                0, Step(Phase.TARGET, step.seat, purpose=Purpose.THREE_LOSE, amount=THREE_LOSS)
            )

    def _select_square(self, step: Step, corner: int) -> None:
        """Mixed 4: "Select a 2 by 2 square of cards." """
        area = [p for p in square(corner) if self._grid[p] is not None]
        self._say(step.seat, words.selects_square(corner))
        self._steps.pop(0)
        if len(area) <= 2:  # ruling 11: look at every card there is, nothing is left to reveal
            for p in area:
                self._look(step.seat, p)
            self._say(step.seat, words.looks_at(area))
            self._steps.insert(0, Step(Phase.MEMORISE, step.seat))
            return
        self._steps.insert(0, Step(Phase.SQUARE_LOOK, step.seat, area=area))

    def _look_in_square(self, step: Step, position: int) -> None:
        """Mixed 4: "Look at two of these cards; reveal the remaining two cards." """
        step.positions.append(position)
        self._look(step.seat, position)
        self._say(step.seat, words.looks_at([position]))
        if len(step.positions) == 2:
            self._steps[0] = Step(Phase.MEMORISE, step.seat)
            rest = [p for p in step.area if p not in step.positions]
            self._say(step.seat, words.reveals([self._reveal(p) for p in rest]))

    def _reveal_cross(self, step: Step, centre: int) -> None:
        """Mixed 5: "Reveal a 3 by 3 cross of cards." """
        self._steps.pop(0)
        down = [p for p in cross(centre) if self._face_down_at(p)]
        self._say(step.seat, words.reveals_cross(centre, [self._reveal(p) for p in down]))

    def _move_to(self, step: Step, target: int) -> None:
        """Jokin' Around (ruling 25): the picked card goes onto another (they swap) or into a gap."""
        (source,) = step.positions
        empty = self._grid[target] is None
        self._swap(source, target)
        self._say(step.seat, words.moves(source, target) if empty else words.swaps(source, target))
        self._steps[0] = Step(Phase.REARRANGE, step.seat)

    def _stop(self, step: Step) -> None:
        """Done or End my turn: the decision ends (stop revealing, nobody more, done looking or
        rearranging, no 7's purchase)."""
        self._steps.pop(0)
        if step.phase is Phase.REVEAL_UP_TO_FOUR:
            self._after_three(step)
        elif step.phase in REARRANGING:
            self._say(step.seat, words.DONE_REARRANGING)
        elif step.phase is Phase.BUY_SEVEN:
            self._say(step.seat, words.ENDS_TURN)
