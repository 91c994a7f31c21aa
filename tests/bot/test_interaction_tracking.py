"""The bot remembers interactions only while they may still need an answer (a stop waits for those): the
answered ones and those past Discord's 3-second window are forgotten as new ones come, so the record does
not grow with every press the bot ever received."""

from __future__ import annotations

from bot.bot import INTERACTIONS_KEPT, CardTableBot


class _Response:
    def __init__(self) -> None:
        self.done = False

    def is_done(self) -> bool:
        return self.done


class _Interaction:
    def __init__(self) -> None:
        self.response = _Response()


class _Bot:
    def __init__(self) -> None:
        self._interactions: dict = {}

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
