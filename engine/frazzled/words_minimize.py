"""Frazzled Wool MINIMIZE's words: the game's name, scores as players read them, the labels of its moves,
its events (draws, actions, challenges, rounds), and the fields and lines of its views; pure functions over
cards, scores, counts and rule cards (the shared words are :mod:`engine.frazzled.words`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Field, plural, strong
from engine.frazzled.deck import Card
from engine.frazzled.minimize_scoring import ChallengeResult, Score
from engine.frazzled.rule_cards import (
    CHANGE_RULE,
    EXTRA_TURN,
    GIVE_ONE,
    GIVE_TWO,
    PASS_LEFT,
    PASS_RIGHT,
    SKIP_NEXT,
    TAKE_ONE,
    TAKE_TWO,
    ActionsSide,
    BonusCard,
)
from engine.frazzled.words import (
    actions_side_text,
    bonus_display,
    card_label,
    card_long_label,
    card_shown,
    cards_word,
    drew_field,
)

TITLE = "MINIMIZE"
SUMMARY = (
    "Draw, discard, and challenge when your hand's range-based score is the lowest. One player is out "
    "each round; win the final."
)
WINNING_RULE = "last player standing wins"
STANDING_NOUN = ("round survived", "rounds survived")
"""What a seat's number in the final standings counts: the rounds it got through (the winner's final
among them), not points."""

PILE_NAMES = ("A", "B", "C")
"""The draw piles' names, for index 0..2."""

ACTION_SHORT = {
    TAKE_ONE: "everyone takes 1 card blind from the player on their right",
    TAKE_TWO: "everyone takes 2 cards blind from the player on their right",
    PASS_LEFT: "everyone passes their whole hand left",
    CHANGE_RULE: "you change a rule",
    EXTRA_TURN: "you take another turn",
    GIVE_ONE: "everyone passes 1 chosen card left",
    GIVE_TWO: "everyone passes 2 chosen cards left",
    PASS_RIGHT: "everyone passes their whole hand right",
    SKIP_NEXT: "the next player misses a turn",
}
"""What each action of the actions card does, in a few words (a discard's description)."""


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as a comma-separated list of short labels by number (the 14/1 card last) and id, or
    ``"none"``."""
    return (
        ", ".join(card_shown(card) for card in sorted(cards, key=lambda card: (card.number, card.id)))
        or "none"
    )


def side_name(side: int) -> str:
    """The name of a side of the Shape or Colour card: 0 ``"Colour"``, 1 ``"Shape"``."""
    return ("Colour", "Shape")[side]


def score_text(score: Score) -> str:
    """A score and how it is made, in one line, e.g. ``"range 9−2 = 7 · pro −1 · Lucky Sixes −5 → 1"``."""
    parts = [f"range {score.high}−{score.low} = {score.spread}"]
    if score.low_aces is not None:
        parts[0] += f" (14/1 as {1 if score.low_aces else 14})"
    if score.pro:
        parts.append(f"pro −{score.pro}")
    for title, benefit in score.bonuses:
        if benefit:
            parts.append(f"{title} {-benefit:+d}")
    text = " · ".join(parts) + f" → {score.total}"
    if score.perfect_zero:
        text += " (Perfect Zero)"
    return text


# -- actions ---------------------------------------------------------------------------------------------

CHALLENGE_LABEL = "Challenge! (spend your token)"
FAN_GROUP = "Take a card blind from the face-down fan of the player on your right…"
GIVE_GROUP = "Choose a card to pass to the player on your left…"


def draw_label(card: Card, pile: int) -> str:
    """Drawing ``card``, the top of pile ``pile`` (0..2): ``"Draw 7 Red ★ from pile A"``."""
    return f"Draw {card_label(card)} from pile {PILE_NAMES[pile]}"


def discard_group(drawn: Card) -> str:
    """The group of the discards, after drawing ``drawn``."""
    return f"Discard a card (then {card_label(drawn)} goes into your hand)…"


def discard_label(card: Card) -> str:
    """Discarding ``card``."""
    return f"Discard {card_long_label(card)}"


def action_note(kind: str | None) -> str:
    """A discard's description: what its action kind does (``None``: no action)."""
    return f"Action: {ACTION_SHORT[kind]}" if kind else "No action"


def fan_label(position: int) -> str:
    """A blind pick of ``position`` (0-based) of the fan on the picker's right."""
    return f"Card {position + 1} of the fan on your right"


def give_label(card: Card) -> str:
    """Choosing ``card`` to pass left."""
    return f"Pass {card_long_label(card)}"


def flip_duplicates_label(to_side: int) -> str:
    """The 10's flip of the Shape or Colour card to side ``to_side``."""
    return f"Flip Shape or Colour to its {side_name(to_side)} side"


def flip_actions_label(to_side: int) -> str:
    """The 10's flip of the actions card to side ``to_side`` (0: A, 1: B)."""
    return f"Flip the actions card to side {('A', 'B')[to_side]}"


def swap_bonus_label(card: BonusCard) -> str:
    """The 10's replacement of the bonus card ``card`` in play."""
    return f"Replace “{card.title}” with a new bonus card"


# -- events: turns and actions ---------------------------------------------------------------------------

AUTOMATIC_CHALLENGE_FOLLOWS = "All three draw piles are empty: an automatic challenge follows."
RESHUFFLED = "The discard pile is shuffled into three new draw piles."
ANOTHER_TURN = "takes another turn"
MISSES_A_TURN = "misses a turn"


def drew_text(card: Card, pile: int) -> str:
    """The event of ``card`` drawn from pile ``pile`` (0..2)."""
    return f"drew {strong(card_shown(card))} from pile {PILE_NAMES[pile]}"


def discarded_text(card: Card) -> str:
    """The event of ``card`` discarded."""
    return f"discarded {strong(card_shown(card))}"


def triggers_text(action: str) -> str:
    """The event of a discard's ``action`` (its line on the actions card)."""
    return f"triggers the action: {action}"


def hands_passed_text(left: bool) -> str:
    """The event of everyone passing their whole hand left (or right)."""
    return f"Everyone passed their whole hand to the {'left' if left else 'right'}."


def exchange_part_text(fan: bool, count: int) -> str:
    """The event of a player who has taken (``fan``) or chosen ``count`` cards in an exchange."""
    return f"{'took' if fan else 'chose'} {cards_word(count)}"


def exchange_done_text(fan: bool, count: int) -> str:
    """The event of a finished exchange of ``count`` cards each, blind from fans or chosen."""
    return f"{'Everyone took' if fan else 'Everyone passed'} {cards_word(count)}: the exchange is done."


def exchange_note(kind: str, first: Sequence[Card], second: Sequence[Card]) -> str:
    """A seat's private note on the last exchange: ``kind`` ``"left"`` or ``"right"`` (whole hands
    passed), ``"fan"`` (took ``first``, lost ``second``) or ``"give"`` (passed ``first``, got ``second``)."""
    if kind in ("left", "right"):
        back = "right" if kind == "left" else "left"
        return f"You passed your hand {kind} and got the one from your {back}."
    if kind == "fan":
        took, lost = cards_text(first), cards_text(second)
        return f"You took {took} from the fan on your right and lost {lost} to your left."
    return f"You passed {cards_text(first)} left and got {cards_text(second)} from your right."


def flipped_duplicates_text(side: int) -> str:
    """The event of the Shape or Colour card flipped to ``side``."""
    return f"flipped Shape or Colour to its {side_name(side)} side"


def flipped_actions_text(side: ActionsSide) -> str:
    """The event of the actions card flipped to ``side``."""
    return f"flipped the actions card to {side.name}"


def swapped_bonus_text(old: BonusCard, new: BonusCard) -> str:
    """The event of bonus card ``old`` replaced by ``new``."""
    return f"replaced “{old.title}” with “{bonus_display(new)}”"


# -- events: challenges and rounds -----------------------------------------------------------------------

SAYS_CHALLENGE = f"says {strong('challenge')} and spends their token"
ALL_PERFECT_ZERO = "Every player has a Perfect Zero: no one goes through."
EVERYONE_THROUGH = "Everyone would go through: no one does, and play continues."


def reveals_text(total: int, first: bool, automatic: bool) -> str:
    """The event of a score revealed at a challenge: the ``first`` one, or a lower one."""
    if not first:
        note = "lower: the new score to beat"
    else:
        note = "the score to beat (automatic)" if automatic else "the score to beat"
    return f"reveals a score of {strong(total)} — {note}"


def not_lower_text(best: int) -> str:
    """The event of a player who is not lower than the score to beat."""
    return f"declares: not lower than {strong(best)}"


def tie_text(best: int) -> str:
    """The event of a player whose score ties the lowest, where the tie decides who goes through."""
    return f"declares a score equal to {strong(best)}: a tie for the lowest"


def tie_for_lowest_text(best: int) -> str:
    """The event of a tie for the lowest score not involving the challenger."""
    return f"A tie for the lowest score ({best}): no one goes through that way."


def goes_through_text(cards: Sequence[Card], score: Score, sneaks: bool) -> str:
    """The event of a player going through (``sneaks``: with a Perfect Zero), showing ``cards``."""
    how = "sneaks through with a Perfect Zero" if sneaks else "goes through"
    return f"{how}, showing {cards_text(cards)} ({score_text(score)})"


def final_tie_text(best: int) -> str:
    """The event of a tie in the final."""
    return f"A tie at {best}: no one wins yet, and play continues."


def wins_text(cards: Sequence[Card]) -> str:
    """The event of the winner of the final, showing ``cards``."""
    return f"wins the game, showing {cards_text(cards)}"


def runner_up_text(cards: Sequence[Card]) -> str:
    """The event of the loser of the final, showing ``cards``."""
    return f"is the runner-up, showing {cards_text(cards)}"


def out_text(round_number: int, cards: Sequence[Card]) -> str:
    """The event of the player out in round ``round_number``, holding ``cards``."""
    return f"is out in round {round_number}, holding {cards_text(cards)}"


def round_begins_text(round_number: int) -> str:
    """The event of a new round."""
    return f"Round {round_number} begins: new cards, one token each, two new bonus cards."


def declared_text(said: str, value: int) -> str:
    """What a player declared at the last challenge, for their line: ``said`` ``"revealed"``,
    ``"not_lower"`` or ``"tied"``."""
    if said == "revealed":
        return f"revealed {value}"
    if said == "tied":
        return f"tied the lowest, {value}"
    return f"not lower than {value}"


def challenge_result_text(result: ChallengeResult) -> str:
    """The "Last challenge" (or final "Result") line: what the last challenge settled."""
    kind = "Automatic challenge" if result.automatic else "Challenge"
    if result.outcome == "final_tie":
        return f"{kind} in the final: a tie at {strong(result.best)}, play goes on."
    if result.outcome == "final_won":
        return f"{kind} in the final: the winner scored {strong(result.best)}."
    went = result.through + result.sneaks
    text = f"{kind}, round {result.round}: lowest {strong(result.best)}; "
    text += f"{went} went through" if went else "no one went through"
    if result.sneaks:
        text += f" ({result.sneaks} with a Perfect Zero)"
    return text + "."


# -- views -----------------------------------------------------------------------------------------------

SCORING = (
    "Range (highest − lowest number) − pro points (pairs 1, threes 3, fours+ 5) − bonuses"
    " + penalties. 14/1 counts all as 14 or all as 1, as serves its holder best: a Perfect Zero"
    " that sneaks them through, else the lower score. Lowest wins. At a challenge a player who"
    " is not lower only says so."
)


def title(over: bool, final: bool, round_number: int, playing: int, in_game: int) -> str:
    """The views' title: the stage, how many are playing this round and how many are in the game."""
    if over:
        return "MINIMIZE: game over"
    stage = "the final" if final else f"round {round_number}"
    return f"MINIMIZE · {stage} · {playing} of {in_game} playing"


def result_field(result: ChallengeResult | None) -> Field:
    """The table's one field once the game is over."""
    return Field("Result", challenge_result_text(result) if result is not None else "The game is over.")


def _top_text(cards: Sequence[Card]) -> str:
    return f"{strong(card_shown(cards[-1]))} ({len(cards)})" if cards else "empty"


def rules_fields(
    bonus: Sequence[BonusCard], duplicates_side: int, duplicates_rule: BonusCard, actions_side: ActionsSide
) -> tuple[Field, ...]:
    """The rules in play: the bonus rule cards, the Shape or Colour card's side up, the Actions card's
    side up, and how scores are made."""
    fields = [Field(f"Bonus rule: {card.title}", card.text) for card in bonus]
    fields.append(Field(f"Shape or Colour ({side_name(duplicates_side)} side)", duplicates_rule.text))
    fields.append(Field(f"Actions card ({actions_side.name})", actions_side_text(actions_side)))
    fields.append(Field("Scoring", SCORING))
    return tuple(fields)


def table_fields(
    piles: Sequence[Sequence[Card]],
    discard: Sequence[Card],
    now: str,
    middle: int,
    last_challenge: ChallengeResult | None,
    last_out_round: int | None,
) -> list[Field]:
    """The public table while the game goes on: the draw piles (each a list whose last card is its top),
    the discard pile, what the game waits for, the tokens in the middle, and the last challenge and
    round (the rules in play are :func:`rules_fields`)."""
    piles_text = "\n".join(f"{PILE_NAMES[index]}: {_top_text(pile)}" for index, pile in enumerate(piles))
    fields = [
        Field("Draw piles", piles_text),
        Field("Discard pile", _top_text(discard)),
        # a crowded table leaves it out (the turn line names who must act); a private view shows it
        Field("Now", now, "", for_decision=True),
    ]
    fields.append(Field("Challenge tokens", f"{middle} in the middle (🪙: holds one)"))
    if last_challenge is not None:
        fields.append(Field("Last challenge", challenge_result_text(last_challenge), ""))  # in the log
    if last_out_round is not None:
        fields.append(Field("Last round", f"Round {last_out_round}: one player out (❌).", ""))  # ❌ says it
    return fields


def draw_now_text(final: bool, turns_taken: Sequence[int]) -> str:
    """The "Now" line of a draw; in the final, whether each player still playing has taken 3 turns (counted
    up to 3), after which 'challenge' may be said (their lines in Players count their turns)."""
    if final and min(turns_taken, default=0) < 3:
        return "Draw from a pile ('challenge' once each has taken 3 turns)."
    return "Draw from a pile, or say 'challenge' first."


def discard_now_text(drawn: Card) -> str:
    """The "Now" line of a discard after drawing ``drawn``."""
    return f"Drew {strong(card_shown(drawn))}: discard a different card."


RULE_NOW = "The player to act changes a rule (10)."


def fan_now_text(count: int) -> str:
    """The "Now" line of a blind exchange of ``count`` cards each."""
    return f"Everyone takes {cards_word(count)} blind from the face-down fan of the player on their right."


def give_now_text(count: int) -> str:
    """The "Now" line of a chosen exchange of ``count`` cards each."""
    return f"Everyone chooses {cards_word(count)} from their hand to pass to the player on their left."


def seat_summary(
    place: str,
    out_round: int,
    hand: int,
    token: bool,
    turns: int | None,
    declared: tuple[str, int] | None,
) -> str:
    """A seat's public line: ``place`` ``"winner"``, ``"runner_up"``, ``"out"`` (in round ``out_round``),
    ``"through"``, or ``"playing"`` with its ``hand`` size, challenge ``token``, ``turns`` taken (the
    final, else ``None``) and what it ``declared`` at the last challenge (see :func:`declared_text`)."""
    if place == "winner":
        return "🏆 winner"
    if place == "runner_up":
        return "🥈 runner-up (lost the final)"
    if place == "out":
        return f"❌ out in round {out_round}"
    if place == "through":
        return "✅ through"
    parts = [cards_word(hand)] + (["🪙"] if token else [])
    if turns is not None:
        parts.append(plural(turns, "turn"))
    if declared is not None:
        parts.append(declared_text(*declared))
    return " · ".join(parts)


NOT_PLAYING_FIELD = Field("Your hand", "No cards: you are not playing this round.")


def hand_fields(hand: Sequence[Card], score: Score, at_challenge: Score | None) -> list[Field]:
    """A playing seat's hand (in the order given), its score now, and its score at someone else's
    challenge where that reads the 14/1 cards otherwise (``None``: it does not)."""
    fields = [
        Field("Your hand", ", ".join(card_shown(card) for card in hand)),
        Field("Your score now", score_text(score)),
    ]
    if at_challenge is not None:
        fields.append(
            Field(
                "At someone else's challenge",
                f"{score_text(at_challenge)}: with more than two playing, a Perfect Zero sneaks you"
                " through, so your 14/1 cards are read that way there (ruling 7).",
            )
        )
    return fields


def you_drew_field(card: Card) -> Field:
    """The private note of the card just drawn."""
    return drew_field(card, card_shown(card))


def picked_field(positions: Sequence[int]) -> Field:
    """The fan positions (0-based) a seat has picked so far."""
    chosen = ", ".join(f"card {position + 1}" for position in positions)
    return Field("You picked", f"{chosen} of the fan on your right")


def chosen_field(cards: Sequence[Card]) -> Field:
    """The cards a seat has chosen to pass so far."""
    return Field("You chose to pass", cards_text(cards))


def last_exchange_field(kind: str, first: Sequence[Card], second: Sequence[Card]) -> Field:
    """A seat's private note on the last exchange (see :func:`exchange_note`)."""
    return Field("Last exchange", exchange_note(kind, first, second), "")  # a full DM may leave it out


def standing_detail(place: str, out_round: int) -> str:
    """A seat's line in the final standings: ``place`` ``"winner"``, ``"runner_up"`` or ``"out"`` (in
    round ``out_round``)."""
    if place == "winner":
        return "won the final"
    if place == "runner_up":
        return "lost the final"
    return f"out in round {out_round}"
