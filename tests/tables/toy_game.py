"""A small game for testing the table runtime's generic features, not a real card game.

"Pick and call": every seat picks a number 1..30 at the same time (a simultaneous decision with a select
menu's worth of choices); then seat 0 alone must "call" (a single button), during which every other seat
may optionally "shout" once (an out-of-turn action the game does not wait for). The game ends after the
call; seat 0 may "tap" any number of times first. Option ``slow_call`` gives the call its own 90-second
clock, one clock for all the taps and the call.

"Wide pick" (:class:`WidePick`) is the same game with 130 numbers to pick from, all in one group: more than
four select menus of 25 hold, so the renderer must page them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self

from pydantic import Field as OptionField

from engine import Event, Field, GameOptions, GameRules, GameState, LegalAction, SeatLine, SeatView, Standing
from engine.core import GameAction, competition_ranks

PICKS = range(1, 31)


class PickAndCallOptions(GameOptions):
    slow_call: bool = OptionField(False, description="The call gets 90 seconds")
    rounds: int = OptionField(1, ge=1, le=3, description="Rounds to play")


@dataclass(frozen=True)
class PickAndCallAction(GameAction):
    """``pick.<n>``, ``tap``, ``shout`` or ``call`` (``number`` only for a pick)."""

    verb: str
    number: int | None = None

    @classmethod
    def parse(cls, code: str) -> Self:
        if code in ("tap", "shout", "call"):
            return cls(code)
        verb, _, number = code.partition(".")
        if verb == "pick" and number.isdigit() and str(int(number)) == number:
            return cls("pick", int(number))
        raise ValueError(code)

    def format(self) -> str:
        return self.verb if self.number is None else f"{self.verb}.{self.number}"


class PickAndCallState(GameState[PickAndCallOptions]):
    picks_offered: ClassVar[range] = PICKS
    action_type = PickAndCallAction

    def __init__(self, num_seats: int, seed: int, options: PickAndCallOptions) -> None:
        super().__init__(num_seats, seed, options)
        self.picks: dict[int, int] = {}
        self.shouted: set[int] = set()
        self.called = False
        self.taps = 0

    def seats_to_act(self) -> tuple[int, ...]:
        if self.called:
            return ()
        if len(self.picks) < self.num_seats:
            return tuple(seat for seat in range(self.num_seats) if seat not in self.picks)
        return (0,)

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if self.called:
            return ()
        if len(self.picks) < self.num_seats:
            if seat in self.picks:
                return ()
            return tuple(
                LegalAction(f"pick.{n}", f"Pick {n}", secret=True, group="Pick a number…")
                for n in self.picks_offered
            )
        if seat == 0:
            return (LegalAction("call", "Call", tone="main"), LegalAction("tap", f"Tap ({self.taps})"))
        if seat not in self.shouted:
            return (LegalAction("shout", "Shout"),)
        return ()

    def decision_seconds(self, seat: int) -> float | None:
        if self.options.slow_call and len(self.picks) == self.num_seats and seat == 0:
            return 90
        return None

    def decision_clock(self, seat: int) -> str | None:
        if self.options.slow_call and len(self.picks) == self.num_seats and seat == 0:
            return "call"
        return None

    def _apply(self, seat: int, action: PickAndCallAction) -> list[Event]:
        if action.verb == "pick":
            assert action.number is not None
            self.picks[seat] = action.number
            return [Event(seat, "picked a number.")]
        if action.verb == "tap":
            self.taps += 1
            return [Event(seat, "tapped.")]
        if action.verb == "shout":
            self.shouted.add(seat)
            return [Event(seat, "shouted!")]
        self.called = True
        return [Event(seat, "called.")]

    def view(self, seat: int | None) -> SeatView:
        private = (
            () if seat is None or seat not in self.picks else (Field("Your pick", str(self.picks[seat])),)
        )
        return SeatView(
            seat=seat,
            title="Pick and call",
            table=(Field("Picked", str(len(self.picks))),),
            seats=tuple(
                SeatLine(s, "picked" if s in self.picks else "thinking", s in self.seats_to_act())
                for s in range(self.num_seats)
            ),
            private=private,
            legal_actions=() if seat is None else self.legal_actions(seat),
        )

    def resample_hidden(self, viewer: int | None, rng) -> PickAndCallState:
        """A copy in which every pick ``viewer`` cannot see (the other seats') is drawn anew from ``rng``."""
        world = self.copy()
        assert isinstance(world, PickAndCallState)
        for seat in sorted(world.picks):
            if seat != viewer:
                world.picks[seat] = rng.choice(self.picks_offered)
        return world

    def is_terminal(self) -> bool:
        return self.called

    def standings(self) -> tuple[Standing, ...]:
        if not self.called:
            raise RuntimeError("not over")
        points = [self.picks[seat] for seat in range(self.num_seats)]
        ranks = competition_ranks(points)
        return tuple(Standing(seat, points[seat], ranks[seat]) for seat in range(self.num_seats))

    def default_action(self, seat: int) -> str:
        return self.legal_actions(seat)[0].code


class PickAndCall(GameRules[PickAndCallOptions]):
    key: ClassVar[str] = "pickcall"
    display_name: ClassVar[str] = "Pick and call"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    options_model = PickAndCallOptions
    state_class = PickAndCallState


WIDE_PICKS = range(1, 131)


class WidePickState(PickAndCallState):
    picks_offered: ClassVar[range] = WIDE_PICKS


class WidePick(PickAndCall):
    key: ClassVar[str] = "widepick"
    display_name: ClassVar[str] = "Wide pick"
    state_class = WidePickState
