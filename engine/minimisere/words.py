"""Minimisère's words: card names, the choices of a play and their labels, refusals, event text and the
views' text, as pure functions of plain values (cards, counts, seat indexes). Text to stand out is marked
with :func:`engine.core.strong`, and a card a view or an event names with :func:`engine.core.card_mark`
(:func:`card_shown`)."""

from __future__ import annotations

from engine.core import Field, LegalAction, card_mark, plural, strong
from engine.minimisere.actions import BID_LOT, CANCEL_LOT, JOKER_LOSES, JOKER_WINS, LOT, Decree
from engine.minimisere.cards import JOKER, pack_ranks, rank_of
from engine.minimisere.scoring import LOT_SCORES, SCORE_TABLES

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES = {"S": "spade", "H": "heart", "C": "club", "D": "diamond"}
PLAY_GROUP = "Play a card…"
LOT_GROUP = "Play a card and bid the Lot…"

GAME_OVER = "This game is over."
NOT_YOUR_TURN = "It is not your turn."
DECREE_NEEDED = "You play the Joker third: decree whether it wins or loses."
DECREE_NOT_ALLOWED = "Only a Joker played third to a trick by three players is decreed to win or lose."
NO_LOT_WITH_THREE = "There is no Lot with three players."
LOT_TOO_LATE = "The Lot can only be bid when playing to the first trick, once per deal."
LOT_NEEDS_ITS_STEP = "Press Bid the Lot… first, then choose the card to bid it with."
CHOOSE_LOT_CARD = "Choose the card to bid the Lot with, or cancel the bid."
ALREADY_CHOOSING = "You are already choosing the card to bid the Lot with."
NOTHING_TO_CANCEL = "There is no Lot bid to cancel."
BID_LOT_LABEL = "Bid the Lot…"
CANCEL_LOT_LABEL = "Cancel: don't bid the Lot"
LOT_FAILS = "lost a trick: the Lot fails and the deal ends"
WAITING_FOR_THE_LEAD = "Waiting for the lead."


def card_text(card: str) -> str:
    """A card for people: ``"10H"`` -> ``"10♥"``, ``"JK"`` -> ``"Joker"``."""
    if card == JOKER:
        return "Joker"
    return rank_of(card) + SUIT_SYMBOLS[card[-1]]


def card_shown(card: str) -> str:
    """A card as views and events name it: :func:`card_text`, marked as the card
    (``"{card:fr:10H|10♥}"``, :func:`engine.core.card_mark`)."""
    return card_mark("fr", card, card_text(card))


def special_name(rank: str) -> str:
    """The name of the rank that wins only when led: ``"Nine"`` or ``"Deuce"``."""
    return "Nine" if rank == "9" else "Deuce"


def tricks_text(count: int) -> str:
    """``"1 trick"``, ``"3 tricks"``."""
    return plural(count, "trick")


def deals_text(count: int) -> str:
    """``"1 deal"``, ``"9 deals"``."""
    return plural(count, "deal")


def plays_text(plays: list[tuple[int, str, str]]) -> str:
    """The cards of a trick in playing order, e.g. ``"Joker → Q♠ → J♠ (wins)"``; ``plays`` as the state's
    trick, ``(seat, card, decree)``."""
    parts = []
    for _, card, decree in plays:
        text = card_shown(card)
        if decree:
            text += f" ({decree}s)"
        parts.append(text)
    return " → ".join(parts)


# -- the choices of a play -------------------------------------------------------------------------------


def describe(card: str, position: int, special: str | None) -> str:
    """A second line for a card that does not play as its rank: the Joker and the Deuce (``special``) win
    when led (``position`` 0) and lose otherwise; ``""`` for other cards."""
    if card == JOKER:
        return "wins the trick when led" if position == 0 else "loses the trick"
    if special is not None and rank_of(card) == special:
        return "wins the trick when led" if position == 0 else "ranks lowest: loses"
    return ""


def lot_stakes(hand_size: int, made: int, failed: int) -> str:
    """What a Lot bid is worth: ``hand_size`` tricks to win, ``made`` points if it is made, ``failed`` to
    each other player if it fails."""
    return f"Win all {tricks_text(hand_size)}: +{made}, others 0. Fail: 0, others +{failed}"


def play_choices(
    cards: list[str],
    position: int,
    decreed: bool,
    special: str | None,
    lot: tuple[int, int, int] | None,
) -> tuple[LegalAction, ...]:
    """The legal actions of a seat that may play ``cards`` as the ``position``-th card of the trick (0: the
    lead). ``decreed``: a Joker played now comes with its decree (two choices); ``lot``: ``(hand size,
    points if made, points to the others if failed)`` when the Lot may be bid, else ``None``: then one more
    choice, "Bid the Lot…", opens the Lot step (:func:`lot_step_choices`, ruling 13). The plays are one
    group however many (:data:`PLAY_GROUP`): how a group is shown (a button per card, or a list) is the
    renderer's business."""
    actions: list[LegalAction] = []
    for card in cards:
        if card == JOKER and decreed:
            # "If you play it third to a trick, it either wins or loses, as you decree."
            actions.append(LegalAction(JOKER_WINS, "Joker (decree: it wins)", "", True, PLAY_GROUP))
            actions.append(LegalAction(JOKER_LOSES, "Joker (decree: it loses)", "", True, PLAY_GROUP))
        else:
            description = describe(card, position, special)
            actions.append(LegalAction(card, card_text(card), "", True, PLAY_GROUP, description))
    if lot is not None:
        # Secret like the plays: whether a seat may bid now is public, but the button belongs to its hand.
        actions.append(LegalAction(BID_LOT, BID_LOT_LABEL, "", True, "", lot_stakes(*lot)))
    return tuple(actions)


def lot_step_choices(cards: list[str], lot: tuple[int, int, int]) -> tuple[LegalAction, ...]:
    """The Lot step's choices (ruling 13): each card of ``cards`` played with the Lot bid (red, one group,
    :data:`LOT_GROUP`), and cancelling, back to the plain plays; ``lot`` as in :func:`play_choices`."""
    stakes = lot_stakes(*lot)
    bids = tuple(
        LegalAction(f"{card}+{LOT}", f"{card_text(card)} and bid the Lot", "bad", True, LOT_GROUP, stakes)
        for card in cards
    )
    cancel = LegalAction(CANCEL_LOT, CANCEL_LOT_LABEL, "", True, "", "back to playing a card")
    return (cancel, *bids)


def not_held(card: str) -> str:
    """The refusal of a card the player does not hold."""
    return f"You do not hold the {card_text(card)}."


def must_follow(suit: str) -> str:
    """The refusal of a card that does not follow ``suit`` (a suit letter) when the player can."""
    return f"You must follow suit: play a {SUIT_NAMES[suit]}."


# -- events ----------------------------------------------------------------------------------------------


def played(card: str, position: int, decree: Decree | None, bid_lot: bool) -> str:
    """The event of a card played (``position`` 0: led), with its decree or Lot bid."""
    text = f"{'led' if position == 0 else 'played'} {strong(card_shown(card))}"
    if decree is not None:
        text += f", decreeing that it {'wins' if decree is Decree.WINS else 'loses'}"
    if bid_lot:
        text += f" and bid {strong('the Lot')}!"
    return text


def won_trick(number: int, card: str) -> str:
    """The event of trick ``number`` (1-based) won with ``card``."""
    return f"won trick {number} with {strong(card_shown(card))}"


def lot_result(made: bool) -> str:
    """The bidder's event at the end of a deal with the Lot bid."""
    return "made the Lot!" if made else "failed the Lot."


def deal_score(gain: int, tricks: int, total: int) -> str:
    """A seat's event at the end of a deal: its ``gain`` for ``tricks`` won, and its new ``total``."""
    return f"scores {gain:+d} for {tricks_text(tricks)} (total {strong(total)})"


def game_won(points: int) -> str:
    """The winner's event."""
    return f"wins the game with {plural(points, 'point', shown=strong(points))}!"


def tie_for_first(points: int) -> str:
    """The event of a tie for first place at the end (ruling 9)."""
    return f"A tie for first place at {plural(points, 'point')}: another deal."


def deals_hand(number: int) -> str:
    """The dealer's event of a new deal, ``number`` 1-based."""
    return f"deals hand {number}."


# -- views -----------------------------------------------------------------------------------------------


def title(deal: int, tie_break: bool, trick: int, hand_size: int) -> str:
    """The headline during deal ``deal`` at trick ``trick`` (both 1-based)."""
    extra = " (extra deal to break a tie)" if tie_break else ""
    return f"Minimisère: deal {deal}{extra}, trick {trick} of {hand_size}"


def final_title(deals: int) -> str:
    """The headline once the game is over after ``deals`` deals."""
    return f"Minimisère: game over after {deals_text(deals)}"


def hand_field(hand: list[str]) -> Field:
    """A seat's own hand."""
    return Field("Your hand", " ".join(card_shown(card) for card in hand) or "no cards")


def trick_field(
    trick_number: int, hand_size: int, plays: list[tuple[int, str, str]], special: str | None
) -> Field:
    """The trick in progress (``trick_number`` 1-based) and the rule for the next card."""
    name = f"Trick {trick_number} of {hand_size}"
    if not plays:
        return Field(name, WAITING_FOR_THE_LEAD, for_decision=True)
    led = plays[0][1]
    if led == JOKER:
        rule = "The Joker was led: it wins; play any card."
    elif special is not None and rank_of(led) == special:
        rule = f"A {special_name(special)} was led: it wins; follow {SUIT_SYMBOLS[led[-1]]} if you can."
    else:
        rule = f"Follow {SUIT_SYMBOLS[led[-1]]} if you can."
    return Field(name, f"{plays_text(plays)}\n{rule}", for_decision=True)


def last_trick_field(plays: list[tuple[int, str, str]], won_with: str) -> Field:
    """The last trick completed and the card that won it (a crowded table leaves it out: the log says who won
    it with which card, and the table's picture shows it until the next lead)."""
    return Field("Last trick", f"{plays_text(plays)}: won with {strong(card_shown(won_with))}", "")


def lot_bid_field(made: int, failed: int) -> Field:
    """What a Lot bid in this deal means (points if made, points to the others if failed)."""
    return Field(
        "The Lot is bid",
        f"🎯 must win every trick (+{made}); else the others +{failed}.",
    )


def last_deal_field(
    number: int, tricks: tuple[int, ...], points: tuple[int, ...], bidder: int | None, hand_size: int
) -> Field:
    """The result of the last deal completed (tricks and points per seat, in seat order)."""
    if bidder is None:
        how = "Scored by tricks won"
    elif tricks[bidder] == hand_size:
        how = "The Lot was bid and made"
    else:
        how = "The Lot was bid and failed: the others scored"
    return Field(f"Deal {number} result", f"{how}.", "")  # a crowded table leaves it out: the log has it


def game_field(deals: int | None, target: int, tie_break: bool) -> Field:
    """How the game ends: after ``deals`` deals (three players' option) or, with ``deals=None``, at the
    ``target`` score; ``tie_break`` during an extra deal."""
    if deals is not None:
        text = f"{deals_text(deals)}; highest total wins"
    else:
        text = f"First to {plural(target, 'point')}; highest total wins"
    text += "; a tie for first plays extra deals."
    if tie_break:
        text += " This is an extra deal."
    return Field("Game", text)


def scoring_field(num_seats: int) -> Field:
    """The score table of the player count, and the Lot's points."""
    table = SCORE_TABLES[num_seats]
    parts = [f"{tricks_text(count)} {table[count]}" for count in range(len(table))]
    most = len(table) - 1
    aim = {3: "4 to 6", 4: "4 or 5", 5: "3 or 4", 6: "4 or 5"}[num_seats]
    text = f"Aim: {aim} tricks (not all {most}), or none.\nPer deal: " + " · ".join(parts)
    if num_seats in LOT_SCORES:
        made, failed = LOT_SCORES[num_seats]
        text += f"\nThe Lot (bid on your first card): made +{made}, others 0; failed 0, others +{failed}."
    return Field("Scoring", text)


def cards_field(num_seats: int, nines: bool, pack_size: int, hand_size: int, special: str | None) -> Field:
    """The pack of the player count, the deal, and what the Deuce and the Joker do."""
    ranks = "-".join(pack_ranks(num_seats, nines))
    joker = " and no Joker" if num_seats == 6 else " + Joker"
    text = f"{plural(pack_size, 'card')}: {ranks} in each suit{joker}; {hand_size} each"
    if num_seats == 4:
        text += ", 1 set aside unseen"
    text += ". No trumps."
    if special is not None:
        text += f" A led {special_name(special)} wins; otherwise it ranks lowest."
    if num_seats == 3:
        text += " Joker: wins when led, loses second, third it wins or loses as its player decrees."
    elif num_seats != 6:
        text += " Joker: wins when led, otherwise loses."
    return Field("Cards", text)


def seat_summary(
    score: int,
    tricks: int,
    dealer: bool,
    bidder: bool,
    plays: list[tuple[int, str, str]],
    last_deal: int | None,
) -> str:
    """A seat's line during play: its total ``score``, ``tricks`` won this deal, whether it deals and bid
    the Lot, the cards it played to the trick in progress (``plays``: ``(position, card, decree)``,
    position 0 the lead) and what it scored in the last deal (``None`` before the first ends)."""
    parts = [plural(score, "pt", shown=strong(score)), tricks_text(tricks)]
    if dealer:
        parts.append("dealer")
    if bidder:
        parts.append("🎯 bid the Lot")
    for position, card, decree in plays:
        text = f"played {card_shown(card)}"
        if decree:
            text += f" ({decree}s)"
        parts.append(text + (" (led)" if position == 0 else ""))
    if last_deal is not None:
        parts.append(f"last deal {last_deal:+d}")
    return " · ".join(parts)


def final_seat_summary(score: int, winner: bool) -> str:
    """A seat's line once the game is over."""
    points = plural(score, "pt", shown=strong(score))
    return f"{points} · 🏆 winner" if winner else points
