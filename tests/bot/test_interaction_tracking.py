"""The bot remembers interactions only while they may still need an answer (a stop waits for those): the
answered ones and those past Discord's 3-second window are forgotten as new ones come, so the record does
not grow with every press the bot ever received."""

from __future__ import annotations

from bot.bot import INTERACTIONS_KEPT, CardTableBot


class _Response:
    checks = 0
    """How many times any response was asked whether it is done."""

    def __init__(self) -> None:
        self.done = False

    def is_done(self) -> bool:
        _Response.checks += 1
        return self.done


class _Interaction:
    def __init__(self) -> None:
        self.response = _Response()


class _Bot:
    def __init__(self) -> None:
        self._interactions: dict = {}
        self._sweep_at = INTERACTIONS_KEPT

    track_interaction = CardTableBot.track_interaction
    interactions_in_flight = CardTableBot.interactions_in_flight


def test_answered_interactions_are_forgotten_and_unanswered_ones_kept() -> None:
    bot = _Bot()
    waiting = _Interaction()
    bot.track_interaction(waiting)
    for _ in range(10 * INTERACTIONS_KEPT):
        interaction = _Interaction()
        bot.track_interaction(interaction)
        interaction.response.done = True  # answered at once, as a press is
    assert len(bot._interactions) <= INTERACTIONS_KEPT + 1
    assert bot.interactions_in_flight() == [waiting]


def test_a_burst_of_presses_waiting_for_their_answer_costs_each_a_constant_share_of_the_sweeps() -> None:
    bot = _Bot()
    presses = 2_000
    checks_before = _Response.checks
    for _ in range(presses):  # all within Discord's 3 seconds, none answered yet
        bot.track_interaction(_Interaction())
    assert len(bot.interactions_in_flight()) == presses
    assert _Response.checks - checks_before <= 4 * presses  # not one sweep of all the others per press
